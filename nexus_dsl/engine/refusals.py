"""Refusals: why an action that is not among the pending decision's options is refused, in words a
player reads ("malformed" is never confused with "not now"), and the refusal's code."""

from __future__ import annotations

from typing import Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .actions import ABILITY, CARD, COMMAND, Action, Decision
from .legality import Legality
from .state import BoutState, Player
from .timing import Timing, usable_declaration


class RefusalHost(Protocol):
    """What a refusal reads of the bout: the pending decision, the state and rules, and legality and
    timing (whether the command, ability or card could be given or used now)."""

    pending: Decision | None
    state: BoutState
    ruleset: Ruleset
    legality: Legality
    timing: Timing


def reason_refused(bout: RefusalHost, action: Action) -> str:
    """`why_not`, when working out the reason runs a script that faults too."""
    try:
        return why_not(bout, action)
    except ScriptRuntimeError as error:
        problem = error.diagnostics[0]
        return f"{action.describe()} is not allowed now ({problem.location()}: {problem.message})"


def refusal_code(bout: RefusalHost, action: Action) -> str:
    if bout.pending and action.actor != bout.pending.actor and action.kind not in (ABILITY, CARD):
        return "not_your_turn"
    if action.kind == COMMAND and bout.ruleset.declaration("command", action.name or "") is None:
        return "unknown_command"
    return "not_allowed"


def why_not(bout: RefusalHost, action: Action) -> str:
    """A readable reason for refusing an action ("malformed" is never confused with "not now")."""
    decision = bout.pending
    assert decision is not None
    if action.actor not in {actor.label for actor in bout.state.actors()}:
        return f"no one in the game is called `{action.actor}`"
    if action.actor != decision.actor and action.kind not in (ABILITY, CARD):
        return f"it is {decision.actor}'s decision, not {action.actor}'s"
    if action.kind in (ABILITY, CARD):
        declaration = usable_declaration(bout.ruleset, action.kind, action.name or "")
        if declaration is None:
            hand_kinds = bout.ruleset.words.hand_kinds
            what = (f"{hand_kinds[0]} card" if hand_kinds else "card") if action.kind == CARD else "trait ability"
            return f"there is no {what} `{action.name}`"
        if isinstance(bout.state.actor(action.actor), Player):
            return f"{action.actor} is a player: abilities and cards are its pieces'"
        piece = bout.state.pieces[action.actor]
        if not bout.legality.owns_ability(piece, declaration):
            return f"{piece.label} cannot use {declaration.name}"
        open_windows = bout.timing.windows
        frame = open_windows[-1] if open_windows else None
        windows = {clause.name for clause in declaration.clauses_of(A.Window)}
        if frame is not None and frame.name not in windows or frame is None and not windows & {"any_time", "own_round"}:
            return f"{declaration.name} is used at its timing window ({', '.join(sorted(windows))}), not now"
        if frame is None and "any_time" not in windows and piece.label != bout.state.active:
            return f"{declaration.name} can only be used during your own command round"
        problem = bout.timing.ability_problem(piece, declaration, action, dict(frame.names) if frame else {})
        return problem or f"{declaration.name} cannot be used now"
    if action.kind == COMMAND:
        declaration = bout.ruleset.declaration("command", action.name or "")
        if declaration is None:
            return f"there is no command `{action.name}`"
        if decision.kind != "command":
            return f"{action.name} cannot be given now: the bout is waiting for {decision.kind.replace('_', ' ')}"
        actor = bout.state.actor(action.actor)
        for name, domain in bout.legality.arg_domains(actor, declaration):
            value = action.arg(name)
            if value not in domain:
                return f"{declaration.name}: `{name}` cannot be {value!r}"
        return bout.legality.command_problem(actor, declaration, action) or f"{declaration.name} is not allowed now"
    return f"{action.describe()} is not allowed now (waiting for {decision.kind.replace('_', ' ')})"
