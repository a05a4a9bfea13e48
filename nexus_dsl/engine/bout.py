"""A bout: the Command Cycle skeleton, decision points, and the one way to change state.

The whole bout runs as a generator that yields a `Decision` whenever a player must choose and
receives the chosen `Action`. `Bout.apply(action)` is the only entry point that changes state: it
checks the action against the legal options (refusing anything else with a `RulesError` and
changing nothing), runs the game to the next decision, and returns the events it caused. The seed
plus the list of applied actions replays a bout exactly.

A script that faults while an action resolves (a runtime error: a budget exceeded, a value of the
wrong kind, a number beyond the limit...) stops the bout: its state is put back as it was before
that action, `fault` holds the positioned diagnostic and the outcome's termination is
`script_fault`. Half an effect is never left applied, and the ledger stays balanced.

Which commands exist, what they cost and do, and every rule that adds a bonus or a penalty are
content: they arrive through the Ruleset as rule scripts and run in the interpreter.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ..errors import Diagnostic, NexusError, RulesError, ScriptRuntimeError, did_you_mean
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .actions import ABILITY, CARD, COMMAND, PASS, Action, Decision
from .board import Grid, Square
from .conditions import Conditions
from .cycle import Cycle, Game
from .decks import Decks
from .dice import Dice, DiceState
from .events import Events
from .interpreter import Interpreter, Limits, faulting_declaration
from .holds import Holds
from .ledger import Ledger
from .legality import Legality, declaration_group, declaration_tags
from .movement import Movement
from .resolution import Resolution
from .rolls import Rolls
from .script_api import bind
from .setup import (DRAWN_WEAPON_STATE, PROTECTED_LOCATION_MARK, RANDOM_BARGE, STATUSES, BoutSetup, HelotSetup,
                    SetupError, declared_number, declared_only, grappler_of, pick_random_barge, starting_states, weapon_in_hand)
from .state import BoutState, Helot, Outcome, Status, Termination
from .timing import Timing

# Decisions between a player's own moves: a script's step budget starts again at each of these
# (inside an action — a timing window, a `choose` — the steps keep counting).
BETWEEN_MOVES = frozenset({"command", "allocate", "between_rounds", "keep_influence", "deception", "block_deception"})


@dataclass
class Event:
    seq: int
    cycle: int
    round: str | None
    type: str
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "cycle": self.cycle, "round": self.round, "type": self.type, **self.data}


class Bout:
    def __init__(self, ruleset: Ruleset, setup: BoutSetup, seed: int = 0,
                 forced_dice: dict[str, list[int]] | None = None, limits: Limits | None = None,
                 strict_ledger: bool = False):
        self.ruleset = ruleset
        # Tests ask for the ledger to be proved after every event, not only after every action.
        self.strict_ledger = strict_ledger
        self.setup = setup
        self.seed = seed
        self.forced_dice = forced_dice or {}
        self.dice = Dice(seed, self.forced_dice)
        self.limits = limits or Limits()
        self.log: list[Event] = []
        self.history: list[Action] = []
        self.round_actions = 0  # commands, abilities and cards given in the current Command Round
        self.fault: Diagnostic | None = None  # the script fault that stopped the bout, if one did
        self.fault_declaration: A.Declaration | None = None  # the declaration whose script faulted
        self.object_types = frozenset(ruleset.data.get("objects", {}))
        self.state = self._initial_state(setup)
        self.ledger = Ledger(self)
        self.legality = Legality(self)
        self.events = Events(self)
        self.timing = Timing(self)
        self.conditions = Conditions(self)
        self.movement = Movement(self)
        self.holds = Holds(self)
        self.rolling = Rolls(self)
        self.resolution = Resolution(self)
        self.decks = Decks(self)
        self.cycle = Cycle(self)
        self.interpreter = Interpreter(self, self.limits)
        self.interpreter.functions, self.interpreter.primitives = bind(self)
        self.pending: Decision | None = None
        self._game = self.cycle.play()
        self._run_to_decision(None)

    # ---------------------------------------------------------------- setup
    def _initial_state(self, setup: BoutSetup) -> BoutState:
        settings = self.ruleset.settings
        state = BoutState(grid=Grid(), helots={})
        barge_id = setup.barge
        if barge_id == RANDOM_BARGE and self.ruleset.data_item("barges", RANDOM_BARGE) is None:
            barges = list(self.ruleset.data.get("barges", {}))
            if not barges:
                raise NexusError(Diagnostic("setup/unknown_barge", "no barge in the loaded packs to pick at random", "<setup>"))
            barge_id = pick_random_barge(barges, self.dice.roll)
        if barge_id:
            barge = self.ruleset.data_item("barges", barge_id)
            if barge is None:
                known = list(self.ruleset.data.get("barges", {}))
                raise NexusError(Diagnostic("setup/unknown_barge", f"no barge `{barge_id}` in the loaded packs", "<setup>",
                                            hint=did_you_mean(barge_id, known)))
            for obj in barge.get("objects", []):
                state.place(obj["type"], Square(*obj["at"]))
            state.meta["hazards"] = list(barge.get("hazards", []))
            state.meta["barge"] = barge_id
        for object_type, square in setup.objects:
            state.place(object_type, square)
        for spec in setup.helots:
            state.helots[spec.label] = self._new_helot(spec, settings, state.grid)
        for helot in state.helots.values():  # condition and counter coins come out of the box (pg.5)
            state.box_drawn += helot.overall + sum(helot.locations.values()) + helot.cred + len(helot.tp_counter)
        self._shuffle_decks(state, setup)
        crowd = setup.crowd if setup.crowd is not None else settings.get("crowd_coins_per_player", 5) * len(setup.helots)
        state.crowd = crowd
        state.box_drawn += crowd
        # `crowd` and `box` have their roles in the cycle and the verdict; any other declared pile
        # starts empty and holds what scripts move into it.
        state.piles = {pile: 0 for pile in self.ruleset.words.piles if pile not in ("crowd", "box")}
        if setup.phase == "command":
            state.active = setup.active or setup.helots[0].label
            state.cycle = 1
        return state

    def _new_helot(self, spec: HelotSetup, settings: Any, grid: Grid) -> Helot:
        words = self.ruleset.words
        locations = {loc: words.starts[loc] for loc in words.group("location")}
        locations.update(declared_only(spec.locations, locations, "location", spec.label, "locations"))
        traits = {t: words.starts[t] for t in words.group("trait")}
        if spec.traits is not None:
            traits.update(declared_only(spec.traits, traits, "trait", spec.label, "traits"))
        elif spec.motivation:
            motivation = self.ruleset.data_item("motivations", spec.motivation)
            if motivation is None:
                raise SetupError(f"no motivation `{spec.motivation}` in the loaded packs", spec.label, "motivation",
                                 "setup/unknown_motivation")
            traits.update(motivation.get("advantages", {}))
        lanista = self.ruleset.data_item("lanistas", spec.lanista) if spec.lanista else None
        if spec.lanista and lanista is None:
            raise SetupError(f"no lanista `{spec.lanista}` in the loaded packs", spec.label, "lanista",
                             "setup/unknown_lanista")
        assert spec.at is not None and spec.facing is not None
        weapon = self.ruleset.declaration("weapon", spec.weapon) if spec.weapon else None
        if spec.weapon and weapon is None:
            raise SetupError(f"no weapon `{spec.weapon}` in the loaded packs", spec.label, "weapon", "setup/unknown_weapon")
        unknown_cards = [card for card in spec.influence or () if self.ruleset.declaration("influence", card) is None]
        if unknown_cards:
            raise SetupError(f"no influence card `{unknown_cards[0]}` in the loaded packs", spec.label, "influence",
                             "setup/unknown_card")
        if spec.status not in STATUSES:
            raise SetupError(f"`status: {spec.status}` is not one of {', '.join(STATUSES)}", spec.label, "status")
        status = Status(spec.status)
        held = weapon_in_hand(spec, weapon, self.ruleset.words.group("location"))
        grappler = grappler_of(spec, self.setup.helots, grid)
        if spec.overall is not None:
            overall = spec.overall
        else:  # a helot is incapacitated because its overall condition ran out (pg.13)
            overall = 0 if status == Status.INCAPACITATED else settings.get("overall_condition", 50)
        states = starting_states(spec, held, grappler is not None, self.ruleset.words.states)
        helot = Helot(
            label=spec.label, seat=spec.seat, square=spec.at, facing=spec.facing, overall=overall,
            locations=locations, motivation=spec.motivation, lanista=spec.lanista,
            states=states, traits=traits, cred=spec.cred, ap=spec.ap,
            mp=spec.mp, status=status, weapon=spec.weapon, tpdm=spec.tpdm, tp_counter=set(spec.tp_counter),
            command_tokens=spec.command_tokens if spec.command_tokens is not None else (lanista or {}).get("command", 0),
            deception=spec.deception if spec.deception is not None else (lanista or {}).get("deception", 0),
            influence=list(spec.influence or []), ratio=spec.ratio, marks=dict(spec.marks),
            grappling=spec.grappling, grappler=grappler, stats=self._plain_stats(spec), side=self._side_of(spec),
        )
        if held is not None:
            helot.ammo, helot.durability = held.ammo, held.durability
            if held.protects is not None:
                helot.marks[PROTECTED_LOCATION_MARK] = held.protects
        return helot

    def _side_of(self, spec: HelotSetup) -> str:
        """The setup's side; else the group of seats its seat is in (the `sides` rule param, a side
        named by its seats joined: `north_south`); else a side of its own, named by its label."""
        if spec.side:
            return spec.side
        for group in self.ruleset.settings.get("sides", ()):
            if spec.seat in group:
                return "_".join(group)
        return spec.label

    def _plain_stats(self, spec: HelotSetup) -> dict[str, int]:
        """The helot's plain stats: each at its start, or at the setup's value within its bounds."""
        words = self.ruleset.words
        stats = {stat: words.starts[stat] for stat in words.plain}
        for stat, value in declared_only(spec.stats, stats, "stat", spec.label, "stats").items():
            low, high = words.bounds[stat]
            stats[stat] = min(max(value, low), high)
        return stats

    def weapon_word(self, weapon: A.Declaration, name: str) -> str | None:
        prop = weapon.property(name)
        value = prop.values[0] if prop and prop.values else None
        return value.id if isinstance(value, A.Name) else None

    def _shuffle_decks(self, state: BoutState, setup: BoutSetup) -> None:
        """Every deck shuffled with the seed; a scenario may stack cards on top, top card first."""
        for deck, zone in self.ruleset.words.zones.items():
            cards = [d.id for d in self.ruleset.declarations(zone.holds)] if zone.holds else []
            stacked = [c for c in setup.decks.get(deck, []) if c in cards]
            rest = [c for c in cards if c not in stacked]
            for i in range(len(rest) - 1, 0, -1):  # Fisher-Yates with the bout's own dice
                j = self.dice.roll("shuffle", i + 1) - 1
                rest[i], rest[j] = rest[j], rest[i]
            state.decks[deck] = stacked + rest
        self.dice.drain_history()
        # Cards promised to a hand leave the deck after the shuffle, so the seed deals the rest as before.
        dealt = [card for spec in setup.helots for card in spec.dealt]
        unknown = [card for card in dealt if self.ruleset.declaration("influence", card) is None]
        if unknown:
            raise NexusError(Diagnostic("setup/unknown_card", f"no influence card `{unknown[0]}` in the loaded packs", "<setup>"))
        if dealt:
            state.decks["influence"] = [card for card in state.decks["influence"] if card not in dealt]

    # ---------------------------------------------------------------- the log
    def emit(self, event_type: str, **data: Any) -> None:
        rolled = self.dice.drain_history()
        if rolled:
            data["dice"] = [{"purpose": r.purpose, "sides": r.sides, "value": r.value} for r in rolled]
        self.log.append(Event(len(self.log), self.state.cycle, self.state.active, event_type, data))
        if self.strict_ledger:
            self._check_ledger()

    def roll(self, purpose: str, sides: int = 6) -> int:
        if self.interpreter.pure:
            raise self.runtime_error("impure", "a cost or a requirement is a question: it cannot roll dice")
        return self.dice.roll(purpose, sides)

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError:
        """A fault found by a mechanism; the interpreter positions it at the statement or call
        that set the mechanism off and names its declaration (`interpreter.fault_at`)."""
        return ScriptRuntimeError(Diagnostic(f"runtime/{code}", message, "<engine>"))

    # ---------------------------------------------------------------- the one way to change state
    def legal_actions(self) -> list[Action]:
        return list(self.pending.options) if self.pending else []

    def apply(self, action: Action) -> list[Event]:
        """Apply one of the pending decision's options and run the bout to its next decision.
        Returns the events it caused. A refused action raises `RulesError` and changes nothing;
        an action whose scripts fault stops the bout (`fault`, see the module docstring)."""
        if self.pending is None:
            raise RulesError(Diagnostic("rules/bout_over", self._over(), "<bout>"))
        if action not in self.pending.options:
            raise RulesError(Diagnostic(f"rules/{self._refusal_code(action)}", self._reason_refused(action), "<bout>"))
        start = len(self.log)
        self.history.append(action)
        self._run_to_decision(action)
        self._check_ledger()
        return self.log[start:]

    def _reason_refused(self, action: Action) -> str:
        """`why_not`, when working out the reason runs a script that faults too."""
        try:
            return self.why_not(action)
        except ScriptRuntimeError as error:
            problem = error.diagnostics[0]
            return f"{action.describe()} is not allowed now ({problem.location()}: {problem.message})"

    def _over(self) -> str:
        if self.fault is not None:
            return f"the bout stopped on a script fault: {self.fault.location()}: {self.fault.message}"
        return "the bout is over"

    def _run_to_decision(self, action: Action | None) -> None:
        """Run the game until it waits for the next decision, as one transaction: a script fault
        puts the state back as it was and stops the bout."""
        before = (self.state.clone(), self.dice.state(), len(self.log))
        try:
            self.pending = self._advance(action)
        except ScriptRuntimeError as error:
            self._stop(error, before, action)

    def _advance(self, action: Action | None) -> Decision | None:
        try:
            decision = self._game.send(action) if action is not None else next(self._game)
        except StopIteration:
            return None
        if decision.kind in BETWEEN_MOVES:
            self.interpreter.reset_budget()
        return decision

    def _stop(self, error: ScriptRuntimeError, before: tuple[BoutState, DiceState, int], action: Action | None) -> None:
        """The bout stops on a script fault: the state, the dice and the log as they were before
        the action (the game that raised is finished: its stacks are already unwound), the fault
        recorded and logged, and an outcome without a winner."""
        state, dice, log_length = before
        self.state = state
        self.dice = Dice.from_state(dice)
        del self.log[log_length:]
        self.rolling.reset()
        self.timing.reset()
        self.conditions.reset()
        self.decks.reset()
        self.events.reset()
        self.fault = error.diagnostics[0]
        self.fault_declaration = faulting_declaration(error)
        self.pending = None
        self.state.ended = True
        totals = {label: h.cred for label, h in self.state.helots.items()}
        self.state.outcome = Outcome(Termination.SCRIPT_FAULT, None, totals, self.state.crowd)
        self.emit("fault", **self.fault.to_json(), action=action.to_json() if action is not None else None)

    def _check_ledger(self) -> None:
        if self.state.coins_in_play() != self.state.box_drawn:
            raise AssertionError(f"coin ledger out of balance: {self.state.coins_in_play()} in play, "
                                 f"{self.state.box_drawn} drawn from the box")

    def _refusal_code(self, action: Action) -> str:
        if self.pending and action.helot != self.pending.helot and action.kind not in (ABILITY, CARD):
            return "not_your_turn"
        if action.kind == COMMAND and self.ruleset.declaration("command", action.name or "") is None:
            return "unknown_command"
        return "not_allowed"

    def why_not(self, action: Action) -> str:
        """A readable reason for refusing an action ("malformed" is never confused with "not now")."""
        decision = self.pending
        assert decision is not None
        if action.helot not in self.state.helots:
            return f"there is no helot `{action.helot}`"
        if action.helot != decision.helot and action.kind not in (ABILITY, CARD):
            return f"it is {decision.helot}'s decision, not {action.helot}'s"
        if action.kind in (ABILITY, CARD):
            kind = "influence" if action.kind == CARD else "trait_ability"
            declaration = self.ruleset.declaration(kind, action.name or "")
            if declaration is None:
                return f"there is no {'influence card' if action.kind == CARD else 'trait ability'} `{action.name}`"
            helot = self.state.helots[action.helot]
            if not self.legality.owns_ability(helot, declaration):
                return f"{helot.label} cannot use {declaration.name}"
            open_windows = self.timing.windows
            frame = open_windows[-1] if open_windows else None
            windows = {clause.name for clause in declaration.clauses_of(A.Window)}
            if frame is not None and frame.name not in windows or frame is None and not windows & {"any_time", "own_round"}:
                return f"{declaration.name} is used at its timing window ({', '.join(sorted(windows))}), not now"
            if frame is None and "any_time" not in windows and helot.label != self.state.active:
                return f"{declaration.name} can only be used during your own command round"
            problem = self.timing.ability_problem(helot, declaration, action, dict(frame.names) if frame else {})
            return problem or f"{declaration.name} cannot be used now"
        if action.kind == COMMAND:
            declaration = self.ruleset.declaration("command", action.name or "")
            if declaration is None:
                return f"there is no command `{action.name}`"
            if decision.kind != "command":
                return f"{action.name} cannot be given now: the bout is waiting for {decision.kind.replace('_', ' ')}"
            helot = self.state.helots[action.helot]
            for name, domain in self.legality.arg_domains(helot, declaration):
                value = action.arg(name)
                if value not in domain:
                    return f"{declaration.name}: `{name}` cannot be {value!r}"
            return self.legality.command_problem(helot, declaration, action) or f"{declaration.name} is not allowed now"
        return f"{action.describe()} is not allowed now (waiting for {decision.kind.replace('_', ' ')})"


    # ---------------------------------------------------------------- reading state
    def helot_attribute(self, helot: Helot, name: str) -> Any:
        if name in helot.locations:
            return helot.locations[name]
        if name in helot.stats:
            return helot.stats[name]
        if name in self.ruleset.words.stats:  # a trait
            return helot.traits.get(name, 0)
        if name == "square":
            return helot.square
        if name == "facing":
            return helot.facing.name  # a compass direction is a word in scripts (`self.facing == N`)
        if name == "fighting":
            return helot.status == Status.FIGHTING
        if name in ("grappling", "grappler"):
            label = getattr(helot, name)
            return self.state.helots[label] if label else None
        if name == "tp_counter":
            return tuple(sorted(helot.tp_counter))
        if name.startswith("weapon_"):
            weapon = self.ruleset.declaration("weapon", helot.weapon) if helot.weapon else None
            if weapon is None:
                return None if name == "weapon_type" else 0
            if name == "weapon_type":
                return self.weapon_word(weapon, "type")
            return declared_number(weapon, name.removeprefix("weapon_")) or 0
        return getattr(helot, name)


    def is_declaration_id(self, name: str) -> bool:
        return name in self.ruleset.declaration_ids

    def declaration_attribute(self, declaration: A.Declaration, name: str) -> Any:
        if name == "id":
            return declaration.id
        if name == "group":
            return declaration_group(declaration)
        return declaration_tags(declaration)

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    def snapshot(self) -> dict[str, Any]:
        """The scenario snapshot (SCENARIOS.md): every key the contract names, and a few more."""
        state = self.state
        snap: dict[str, Any] = {
            "crowd": state.crowd,
            "ended": state.ended,
            "winner": (state.outcome.winner or "draw") if state.outcome else None,
            "termination": state.outcome.termination.value if state.outcome else None,
            "cycle": state.cycle,
            "active": state.active,
            "box_drawn": state.box_drawn,
        }
        if state.piles:
            snap["piles"] = dict(state.piles)
        for label, helot in state.helots.items():
            weapon = self.ruleset.declaration("weapon", helot.weapon) if helot.weapon else None
            drawn = DRAWN_WEAPON_STATE in helot.states if weapon is not None else None
            protects = helot.marks.get(PROTECTED_LOCATION_MARK) if drawn else None
            # Durability and ammo apply to a weapon whose card declares them; otherwise they are null.
            counted = {name for name in ("durability", "ammo")
                       if weapon is not None and weapon.property(name) is not None}
            snap[label] = {
                "overall": helot.overall,
                "locations": dict(helot.locations),
                "states": sorted(helot.states),
                "traits": dict(helot.traits),
                "cred": helot.cred,
                "ap": helot.ap,
                "mp": helot.mp,
                "at": helot.square.as_list(),
                "facing": helot.facing.name,
                "weapon": helot.weapon,
                "weapon_drawn": drawn,
                "durability": helot.durability if "durability" in counted else None,
                "ammo": helot.ammo if "ammo" in counted else None,
                "protects": protects if protects in helot.locations else None,
                "tpdm": helot.tpdm,
                "tp_counter": sorted(helot.tp_counter),
                "command_tokens": helot.command_tokens,
                "deception": helot.deception,
                "influence": list(helot.influence),
                "status": helot.status.value,
                "seat": helot.seat,
                "marks": sorted(helot.marks),
                "grappling": helot.grappling,
                "grappler": helot.grappler,
                "on_board": helot.on_board,
            }
            if helot.stats:
                snap[label]["stats"] = dict(helot.stats)
            if helot.side != label:  # shown where sides group helots (a helot alone is its own side)
                snap[label]["side"] = helot.side
        snap["board"] = {square.key(): list(objects) for square, objects in sorted(state.objects.items())}
        return snap

    def events_json(self) -> list[dict[str, Any]]:
        return [event.to_json() for event in self.log]

    # ---------------------------------------------------------------- what-if
    def preview(self, action: Action) -> BoutState:
        """The state right after `action`, computed on a copy (for agents weighing their options).
        Runs the action's effects to completion; later decisions are not taken. The copy shares
        nothing the bout changes (`_what_if`), so a preview leaves the bout exactly as it was.
        Raises `ScriptRuntimeError` when the action's scripts fault: an option to judge as bad."""
        clone = self._what_if()
        helot = clone.state.helots[action.helot]
        if action.kind in (ABILITY, CARD):
            game = clone.timing.use_ability(action, None)
        elif action.kind == COMMAND:
            declaration = self.ruleset.declaration("command", action.name or "")
            assert declaration is not None
            game = clone.resolution.run_command(helot, declaration, action)
        else:
            return clone.state
        try:
            decision = next(game)
            while True:  # decisions inside a preview: pass, or take the first option
                passing = [o for o in decision.options if o.kind == PASS]
                decision = game.send(passing[0] if passing else decision.options[0])
        except StopIteration:
            pass
        return clone.state

    def _what_if(self) -> Bout:
        """A copy of this bout for a preview: its own state, dice, log, stacks, caches and
        interpreter; only what never changes (the ruleset, the setup, the limits, the listeners)
        is shared. It has no game of its own to resume."""
        clone = copy.copy(self)
        clone.state = self.state.clone()
        # A separate stream: a preview must not foresee the bout's own next rolls.
        clone.dice = Dice(self.seed * 1_000_003 + len(self.history) + 1)
        clone.log = []
        clone.history = list(self.history)
        clone.forced_dice = dict(self.forced_dice)
        clone.pending = None
        clone._game = _no_game()
        # The mechanisms hold their bout: the copy's are built anew for the copy.
        clone.ledger = Ledger(clone)
        clone.legality = self.legality.copy_for(clone)
        clone.events = self.events.copy_for(clone)
        clone.timing = self.timing.copy_for(clone)
        clone.conditions = Conditions(clone)
        clone.movement = Movement(clone)
        clone.holds = Holds(clone)
        clone.rolling = Rolls(clone)
        clone.resolution = Resolution(clone)
        clone.decks = Decks(clone)
        clone.cycle = Cycle(clone)
        clone.interpreter = Interpreter(clone, self.limits)
        clone.interpreter.functions, clone.interpreter.primitives = bind(clone)
        return clone


def _no_game() -> Game:
    """The game of a preview's copy: there is none to resume."""
    return
    yield  # a generator that ends at once


def next_action(bout: Bout, agents: dict[str, Any]) -> Action:
    """Ask the agents for the next action: first every other helot, clockwise from the decider,
    whether it interjects with an instant ability or card; then the decider itself."""
    decision = bout.pending
    assert decision is not None
    for helot in bout.state.clockwise_from(decision.helot)[1:]:
        own = [o for o in decision.options if o.helot == helot.label]
        if own:
            interjection = agents[helot.label].interject(bout, decision, own)
            if interjection is not None:
                return interjection
    main = tuple(o for o in decision.options if o.helot == decision.helot)
    if len(main) == 1:
        return main[0]
    return agents[decision.helot].choose(bout, Decision(decision.helot, decision.kind, main))


def play(ruleset: Ruleset, setup: BoutSetup, agents: dict[str, Any], seed: int = 0) -> Bout:
    """Play a whole bout with agents choosing at every decision."""
    bout = Bout(ruleset, setup, seed)
    while bout.pending is not None:
        bout.apply(next_action(bout, agents))
    return bout
