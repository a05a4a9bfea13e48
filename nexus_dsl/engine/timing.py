"""Trait abilities, the cards played from a hand, and timing windows.

An ability or card declares the `window` in which it may be used (`any_time`, `own_round`,
`before_rolls`, `after_attack_succeeds`, `before_damage`, ...) and who may use it there
(`by self`: the piece the window is about; `by opponent`: anyone else; `by any`, the default).
When the engine reaches a window, it offers every piece, from the active player clockwise, the
uses that are legal now — as ordinary decisions, so agents, scenarios and people choose the same
way. `any_time` and `own_round` uses are offered alongside the active piece's commands.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Final, Generator, Mapping, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .actions import ABILITY, CARD, PASS, Action, Decision
from .causes import Tracer
from .events import Events
from .interpreter import Limits, Run
from .scope import Env
from .legality import Legality
from .legality_plans import UseChecks, UseVerdicts
from .state import Actor, BoutState, Piece, Status
from .text_facts import engine_fact, targets_opponent

# The kind of declaration used as an ability; the kinds of card played from a hand are the game's
# (`GameWords.hand_kinds`: those a zone whose drawn cards are kept holds).
ABILITY_KIND = "trait_ability"

#: Read at every decision for every piece: a module constant, not the Enum's attribute read by name.
_DEAD: Final = Status.DEAD


def usable_kinds(ruleset: Ruleset) -> tuple[str, ...]:
    """The kinds of declaration used in timing windows: abilities, and the cards played from a hand."""
    return (ABILITY_KIND, *ruleset.words.hand_kinds)


def usable_declaration(ruleset: Ruleset, kind: str, name: str) -> A.Declaration | None:
    """The ability (`kind` ABILITY) or the card played from a hand (`kind` CARD) of that name."""
    kinds = ruleset.words.hand_kinds if kind == CARD else (ABILITY_KIND,)
    return next((d for k in kinds if (d := ruleset.declaration(k, name)) is not None), None)


@dataclass
class WindowFrame:
    """An open window: what it is about, and whether an effect `prevent`ed it."""

    name: str
    subject: Piece | None
    names: dict[str, Any] = field(default_factory=dict)
    prevented: bool = False

    # Written out, the dataclass's own `__init__` would do (no names: a new empty table): a frame is
    # opened for every window, and the compiled engine then makes it with compiled code
    # (`board.Square` says more).
    def __init__(self, name: str, subject: Piece | None, names: dict[str, Any] | None = None,
                 prevented: bool = False) -> None:
        self.name = name
        self.subject = subject
        self.names = {} if names is None else names
        self.prevented = prevented

    def __reduce__(self) -> tuple[Any, ...]:
        return (WindowFrame, (self.name, self.subject, self.names, self.prevented))


def window_of(declaration: A.Declaration) -> tuple[str, str] | None:
    windows = declaration.clauses_of(A.Window)
    if not windows:
        return None
    return windows[0].name, windows[0].by or "any"


@engine_fact
def window_role(declaration: A.Declaration, window: str) -> str:
    """Who may use the declaration at this window: a declaration may list several `window`
    clauses, each with its own `by`."""
    for clause in declaration.clauses_of(A.Window):
        if clause.name == window:
            return clause.by or "any"
    return "any"


def every_window_name(ruleset: Ruleset) -> frozenset[str]:
    """Every name some window binds."""
    return frozenset(name for names in ruleset.words.windows.values() for name in names)


def window_defaults(declaration: A.Declaration, windows: Mapping[str, Mapping[str, str]]) -> dict[str, Any]:
    """Every name any of the declaration's windows binds (`windows`: what each declared window
    binds), as `none`: a declaration with several windows sees the names of the window that is not
    open as `none`."""
    return {name: None for clause in declaration.clauses_of(A.Window) for name in windows.get(clause.name, {})}


class UseResolution(Protocol):
    """How a use plays out once it is chosen: its costs paid, its body run (`engine/resolution.py`,
    whose rolls open windows themselves)."""

    def pay_costs(self, piece: Piece, declaration: A.Declaration, env: Env) -> Run: ...

    def run_declaration_body(self, piece: Piece, declaration: A.Declaration, env: Env) -> Run: ...


class TimingHost(Protocol):
    """What windows need of the bout: its state and rules, the round's count of actions (a use at
    a window is one), the log, events (whose use is resolving), legality (which uses are legal),
    and the resolution of what is used."""

    state: BoutState
    ruleset: Ruleset
    limits: Limits
    round_actions: int
    events: Events
    legality: Legality
    tracer: Tracer | None  # the causes under way, in a bout played to be explained (`causes.py`)

    @property
    def resolution(self) -> UseResolution: ...

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class UsePlan:
    """What the uses of one ability or card at one window need of its declaration, worked out once:
    who may use it there, whether it is a card played from a hand (its holder's), the costs in a
    reserve written as numbers (a use the piece cannot afford is not offered), the names of the
    declaration's other windows (`window_defaults`), and what legality asks of its uses (`checks`)."""

    __slots__ = ("declaration", "name", "role", "by_self", "by_opponent", "kind", "held", "reserves", "defaults",
                 "checks")

    def __init__(self, ruleset: Ruleset, declaration: A.Declaration, window: str):
        self.declaration = declaration
        self.name = declaration.id
        self.role = window_role(declaration, window)
        self.by_self = self.role == "self"
        self.by_opponent = self.role == "opponent"
        self.held = declaration.kind in ruleset.words.hand_kinds
        self.kind = CARD if self.held else ABILITY
        # (the names as the state's tables most often hold them: found by identity)
        self.reserves: tuple[tuple[str, int], ...] = tuple(
            (sys.intern(item.resource), item.amount.value) for cost in declaration.clauses_of(A.Cost)
            for item in cost.items if isinstance(item.amount, A.Num))
        self.defaults = window_defaults(declaration, ruleset.words.windows)
        self.checks = UseChecks(declaration, every_window_name(ruleset))


def affords(plan: UsePlan, traits: dict[str, int]) -> bool:
    """Whether a piece with these reserves (its traits) holds each written cost of the plan in one of
    them (a cost in anything else is met or not as legality counts it)."""
    for resource, amount in plan.reserves:
        held = traits.get(resource)
        if held is not None and held < amount:
            return False
    return True


class Affordable:
    """The abilities a piece owns at one window whose written costs in its reserves it holds, with
    what it held of the reserves the window's abilities cost (`WindowUses.reserves`) and the
    abilities owned (by identity: its role's) they were found for."""

    __slots__ = ("owned", "held", "plans")

    def __init__(self, owned: tuple[UsePlan, ...], held: tuple[int | None, ...], plans: tuple[UsePlan, ...]):
        self.owned = owned
        self.held = held
        self.plans = plans


class WindowUses:
    """The abilities and cards usable at one window, in the order they are offered, with those a
    piece of each role owns (a card is offered only while held), worked out as the roles are met.
    The abilities come first (`uses_by_window` lists the kinds so), then the cards."""

    __slots__ = ("plans", "cards", "by_role", "card_places", "reserves")

    def __init__(self, plans: tuple[UsePlan, ...]):
        self.plans = plans
        # Every reserve the window's abilities cost as written, each once: what a piece holds of
        # them tells which of them it can afford (`Timing._affordable_of`).
        self.reserves: tuple[str, ...] = tuple(dict.fromkeys(
            resource for plan in plans if not plan.held for resource, _ in plan.reserves))
        self.cards = tuple(plan for plan in plans if plan.held)  # every piece's while it holds them
        assert plans[len(plans) - len(self.cards):] == self.cards, "the abilities come before the cards"
        self.by_role: dict[str | None, tuple[UsePlan, ...]] = {}  # the abilities each role owns
        # Where each card's plans stand among `cards`, by the card's id: a hand holds a few cards
        # of the many a window may offer, so the few are looked up rather than every card sought.
        places: dict[str, list[int]] = {}
        for at, plan in enumerate(self.cards):
            places.setdefault(plan.name, []).append(at)
        self.card_places = {name: tuple(at) for name, at in places.items()}

    def cards_in(self, hand: list[str]) -> tuple[UsePlan, ...]:
        """The plans of the cards held in `hand`, in the order they are offered, each once however
        many copies are held."""
        places = self.card_places
        found: list[int] = []
        for card in hand:
            at = places.get(card)
            if at is not None:
                for place in at:
                    if place not in found:
                        found.append(place)
        if not found:
            return ()
        found.sort()
        cards = self.cards
        return tuple([cards[place] for place in found])

    def owned_by(self, piece: Piece, legality: Legality) -> tuple[UsePlan, ...]:
        """The uses a piece's role gives it (which an ability a piece owns depends on its role alone),
        and the cards (its holder's)."""
        return self.abilities_of(piece, legality) + self.cards

    def abilities_of(self, piece: Piece, legality: Legality) -> tuple[UsePlan, ...]:
        """The abilities a piece's role gives it, in order."""
        owned = self.by_role.get(piece.role)
        if owned is None:
            owned = self.by_role[piece.role] = tuple(
                plan for plan in self.plans if not plan.held and legality.owns_ability(piece, plan.declaration))
        return owned


class Timing:
    """The timing windows of a bout (the stack of those open) and the uses of abilities and cards."""

    legality: Legality  # kept at hand by `wire`
    events: Events

    def __init__(self, host: TimingHost, by_window: dict[str, WindowUses] | None = None):
        self.host = host
        self.state: BoutState = host.state  # handed anew by the bout whenever it replaces its state
        # The bout's limit on actions per round: it never changes, so it is read once.
        self.max_actions: int = host.limits.max_actions_per_round
        self.windows: list[WindowFrame] = []  # the open windows, innermost last
        # the abilities and cards usable at each window: worked out once per ruleset, shared by its bouts
        self._by_window = by_window if by_window is not None else uses_by_window(host.ruleset)
        # Per window, the abilities each piece owns there that it can afford (`Affordable`), by its
        # label: found again while its reserves are as they were (most decisions change none).
        self._affordable: dict[WindowUses, dict[str, Affordable]] = {}

    def wire(self) -> None:
        """Keep legality and events at hand (`Bout._wire`), read natively at every decision."""
        self.legality = self.host.legality
        self.events = self.host.events

    def copy_for(self, host: TimingHost) -> Timing:
        """The timing of a preview's copy of the bout: no window open."""
        return Timing(host, self._by_window)

    def reset(self) -> None:
        """No window open any more (a script fault stopped the bout, a preview's copy starts over)."""
        self.windows = []

    # ---------------------------------------------------------------- legality
    def ability_uses(self, piece: Piece, window: str, frame: WindowFrame | None,
                     asked: UseVerdicts | None = None) -> list[Action]:
        """The uses legal now of the abilities and cards usable at `window` (`frame`: the one open,
        if any). `asked` keeps, for one decision with no window open, the verdicts of requirements
        every use of a piece asks alike (`Legality.legal_uses`). The tests of a use that ask no
        script come first (whose window it is: what it is about, looked up once a use asks; the
        written costs in a reserve: a use the piece cannot afford is not offered), so that a moment
        offering nothing costs little."""
        usable = self._by_window.get(window)
        if usable is None:
            return []
        return self._uses_of(usable, piece, frame, asked)

    def _uses_of(self, usable: WindowUses, piece: Piece, frame: WindowFrame | None,
                 asked: UseVerdicts | None) -> list[Action]:
        """`ability_uses` of the abilities and cards usable at the window."""
        uses: list[Action] = []
        if not piece.on_board or piece.status == _DEAD:
            return uses
        owned = usable.by_role.get(piece.role)
        if owned is None:
            owned = usable.abilities_of(piece, self.legality)
        traits = piece.traits
        # (a written cost in one of its reserves, its traits, that is more than it holds: not offered;
        # a few abilities are each tested, more are kept while what the piece holds is as it was)
        if len(owned) > len(usable.reserves):
            plans = self._affordable_of(usable, owned, traits, piece.label)
        elif owned:
            plans = tuple([plan for plan in owned if affords(plan, traits)])
        else:
            plans = owned
        hand = piece.hand
        if hand:  # a card is offered while its holder holds it
            cards_held = usable.cards_in(hand)
            if cards_held:
                plans = plans + tuple([plan for plan in cards_held if affords(plan, traits)])
        subject: Piece | None = None
        subject_known = False
        seen: dict[Any, list[Any]] | None = None  # the argument domains the piece's uses share (its opponents ...)
        for plan in plans:
            if plan.by_self or plan.by_opponent:
                if not subject_known:
                    subject = frame.subject if frame is not None else self.state.active_piece
                    subject_known = True
                if plan.by_self and piece is not subject and piece != subject:
                    continue
                if plan.by_opponent and subject is not None and not piece.foe_of(subject):  # a friend is no opponent
                    continue
            if seen is None:
                seen = {}
            names = {**plan.defaults, **frame.names} if frame is not None else plan.defaults
            uses += self.legality.legal_uses(plan.kind, piece, plan.declaration, plan.checks, names, asked, seen)
        return uses

    def _affordable_of(self, usable: WindowUses, owned: tuple[UsePlan, ...], traits: dict[str, int],
                       label: str) -> tuple[UsePlan, ...]:
        """The abilities `owned` (a piece's at the window) whose written costs in its reserves
        (`traits`) the piece holds, in order: kept per piece and window while it holds of the
        window's reserves what it held."""
        by_piece = self._affordable.get(usable)
        if by_piece is None:
            by_piece = self._affordable[usable] = {}
        held = tuple([traits.get(resource) for resource in usable.reserves])
        kept = by_piece.get(label)
        if kept is not None and kept.owned is owned and kept.held == held:
            return kept.plans
        plans = tuple([plan for plan in owned if affords(plan, traits)])
        by_piece[label] = Affordable(owned, held, plans)
        return plans

    def ability_problem(self, piece: Piece, declaration: A.Declaration, action: Action,
                        names: dict[str, Any]) -> str | None:
        """Why this use is not legal now (`names`: those of the window open), or None."""
        return self._use_problem(piece, declaration, action,
                                 {**window_defaults(declaration, self.host.ruleset.words.windows), **names})

    def _use_problem(self, piece: Piece, declaration: A.Declaration, action: Action,
                     names: dict[str, Any]) -> str | None:
        legality = self.legality
        env = legality.action_env(piece, declaration, action, dict(names))
        target = env.names.get("target")
        problem = legality.cost_problem(piece, declaration, env, target)
        if problem:
            return problem
        return legality.requirement_problem(declaration, env, rules=False)

    def instant_options(self, active: Actor) -> list[Action]:
        """Uses offered beside the active piece's commands: its own-round abilities, and everyone's
        any-time abilities and cards (clockwise from the active player). Abilities and cards are
        pieces': a player acting without pieces has none."""
        if not isinstance(active, Piece):
            return []
        asked = UseVerdicts()  # what uses alike ask, this decision
        options = self.ability_uses(active, "own_round", None, asked)
        any_time = self._by_window.get("any_time")
        if any_time is not None:
            for piece in self.state.clockwise_from(active.label):
                options.extend(self._uses_of(any_time, piece, None, asked))
        return options

    # ---------------------------------------------------------------- windows
    def open_window(self, name: str, subject: Piece | None, **names: Any) -> Generator[Any, Any, WindowFrame]:
        """Offer the window's uses to every piece, active player first, clockwise. Returns the frame
        so the caller can see whether an effect `prevent`ed what the window was about."""
        frame = WindowFrame(name, subject, names)
        usable = self._by_window.get(name)
        if usable is None or not self.state.pieces:  # uses are pieces'
            return frame
        self.windows.append(frame)
        try:
            state = self.state
            start = state.active or (subject.label if subject else next(iter(state.pieces)))
            most = self.max_actions
            for piece in state.clockwise_from(start):
                # A round that has had its fill of actions offers no more uses (free abilities
                # could otherwise be used at a window forever).
                while not frame.prevented and self.host.round_actions < most:
                    uses = self._uses_of(usable, piece, frame, None)
                    if not uses:
                        break
                    action = yield Decision(piece.label, f"window:{name}", tuple(uses) + (Action.make(PASS, piece.label),))
                    if action.kind == PASS:
                        break
                    self.host.round_actions += 1
                    yield from self.use_ability(action, frame)
        finally:
            self.windows.pop()
        return frame

    def use_ability(self, action: Action, frame: WindowFrame | None) -> Run:
        piece = self.state.pieces[action.actor]
        declaration = usable_declaration(self.host.ruleset, action.kind, action.name or "")
        assert declaration is not None
        names = {**window_defaults(declaration, self.host.ruleset.words.windows), **(frame.names if frame else {})}
        env = self.legality.action_env(piece, declaration, action, names)
        args = {k: (v.as_list() if hasattr(v, "as_list") else v) for k, v in action.args}
        self.host.emit_line("card" if action.kind == CARD else "ability",
                            {"actor": piece.label, "name": declaration.id, "args": args})
        self.events.triggers.append(piece.label)
        # Explained (`causes.py`): what the use's costs and body log is its doing.
        tracer = self.host.tracer
        cause = tracer.resolving(declaration, action.args) if tracer is not None else None
        try:
            yield from self.host.resolution.pay_costs(piece, declaration, env)
            if action.kind == CARD:  # out of the hand, onto the discards of the zone it came from
                piece.hand.remove(declaration.id)
                discarded = self.host.ruleset.words.zone_holding(declaration.kind) or declaration.kind
                self.state.discards.setdefault(discarded, []).append(declaration.id)
                played = yield from self.open_window("card_played", piece, player=piece)
                if played.prevented:
                    self.host.emit_line("card_cancelled", {"actor": piece.label, "name": declaration.id})
                    return
            yield from self.host.resolution.run_declaration_body(piece, declaration, env)
        finally:
            self.events.triggers.pop()
            if tracer is not None and cause is not None:
                tracer.leave(cause)

    def current_window(self, node: A.Node) -> WindowFrame:
        if not self.windows:
            raise self.host.runtime_error("no_window", f"`{getattr(node, 'verb', 'this effect')}` needs an open window")
        return self.windows[-1]


def uses_by_window(ruleset: Ruleset) -> dict[str, WindowUses]:
    """The abilities and cards usable at each window, in load order, worked out once per ruleset and
    kept beside its fields (never pickled: `Ruleset.__getstate__`)."""
    def work_out() -> dict[str, WindowUses]:
        by_window: dict[str, list[A.Declaration]] = {}
        for kind in usable_kinds(ruleset):
            for declaration in ruleset.declarations(kind):
                for clause in declaration.clauses_of(A.Window):  # one declaration may open at several windows
                    listed = by_window.setdefault(clause.name, [])
                    if not any(d is declaration for d in listed):
                        listed.append(declaration)
        return {sys.intern(window): uses_at(ruleset, window, listed) for window, listed in by_window.items()}

    return ruleset.derived("window_uses", work_out)


def uses_at(ruleset: Ruleset, window: str, declarations: list[A.Declaration]) -> WindowUses:
    """The uses of these declarations at the window (its name kept as the engine and scripts most
    often write it, found by identity)."""
    return WindowUses(tuple(UsePlan(ruleset, declaration, window) for declaration in declarations))


__all__ = ["ABILITY_KIND", "Timing", "TimingHost", "WindowFrame", "uses_by_window", "targets_opponent", "usable_declaration",
           "usable_kinds"]
