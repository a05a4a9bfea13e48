"""A bout: the Command Cycle skeleton, decision points, and the one way to change state.

The whole bout runs as a generator that yields a `Decision` whenever a player must choose and
receives the chosen `Action`. `Bout.apply(action)` is the only entry point that changes state: it
checks the action against the legal options (refusing anything else with a `RulesError` and
changing nothing), runs the game to the next decision, and returns the events it caused. The seed
plus the list of applied actions replays a bout exactly.

Which commands exist, what they cost and do, and every rule that adds a bonus or a penalty are
content: they arrive through the Ruleset as rule scripts and run in the interpreter.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Generator

from ..content.ruleset import Ruleset
from ..errors import Diagnostic, NexusError, RulesError
from ..vocabulary import LOCATIONS, TRAITS
from .actions import COMMAND, CONTROL, END_ROUND, NEXT_ROUND, Action, Decision
from .board import Grid, Square
from .commands import Commands
from .dice import Dice
from .interpreter import Env, Interpreter, Limits
from .mechanics import Mechanics
from .script_api import bind
from .setup import BoutSetup, HelotSetup
from .state import BoutState, Helot, Outcome, Status, Termination

Game = Generator[Decision, Action, None]


@dataclass
class Event:
    seq: int
    cycle: int
    round: str | None
    type: str
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "cycle": self.cycle, "round": self.round, "type": self.type, **self.data}


class Bout(Mechanics, Commands):
    def __init__(self, ruleset: Ruleset, setup: BoutSetup, seed: int = 0,
                 forced_dice: dict[str, list[int]] | None = None, limits: Limits | None = None):
        self.ruleset = ruleset
        self.setup = setup
        self.seed = seed
        self.forced_dice = forced_dice or {}
        self.dice = Dice(seed, self.forced_dice)
        self.limits = limits or Limits()
        self.log: list[Event] = []
        self.history: list[Action] = []
        self.rolls: list = []
        self.trigger_depth = 0
        self._declaration_envs: dict[int, Env] = {}
        self.state = self._initial_state(setup)
        self.object_types = frozenset(ruleset.data.get("objects", {}))
        self.interpreter = Interpreter(self, self.limits)
        self.interpreter.functions, self.interpreter.primitives = bind(self)
        self.pending: Decision | None = None
        self._game = self._play()
        self.pending = self._advance(None)

    # ---------------------------------------------------------------- setup
    def _initial_state(self, setup: BoutSetup) -> BoutState:
        settings = self.ruleset.settings
        state = BoutState(grid=Grid(), helots={})
        if setup.barge:
            barge = self.ruleset.data_item("barges", setup.barge)
            if barge is None:
                raise NexusError(Diagnostic("setup/unknown_barge", f"no barge `{setup.barge}` in the loaded packs", "<setup>"))
            for obj in barge.get("objects", []):
                state.place(obj["type"], Square(*obj["at"]))
            state.meta["hazards"] = list(barge.get("hazards", []))
        for object_type, square in setup.objects:
            state.place(object_type, square)
        for spec in setup.helots:
            state.helots[spec.label] = self._new_helot(spec, settings)
        for helot in state.helots.values():  # condition coins come out of the box (pg.5)
            state.box_drawn += helot.overall + sum(helot.locations.values()) + helot.cred
        crowd = setup.crowd if setup.crowd is not None else settings.get("crowd_coins_per_player", 5) * len(setup.helots)
        state.crowd = crowd
        state.box_drawn += crowd
        if setup.phase == "command":
            state.active = setup.active or setup.helots[0].label
            state.cycle = 1
        return state

    def _new_helot(self, spec: HelotSetup, settings: Any) -> Helot:
        locations = {loc: settings.get(f"{loc}_condition", 0) for loc in LOCATIONS}
        locations.update(spec.locations)
        traits = {t: 0 for t in TRAITS}
        if spec.traits is not None:
            traits.update(spec.traits)
        elif spec.motivation:
            motivation = self.ruleset.data_item("motivations", spec.motivation)
            if motivation is None:
                raise NexusError(Diagnostic("setup/unknown_motivation", f"no motivation `{spec.motivation}`", "<setup>"))
            traits.update(motivation.get("advantages", {}))
        lanista = self.ruleset.data_item("lanistas", spec.lanista) if spec.lanista else None
        if spec.lanista and lanista is None:
            raise NexusError(Diagnostic("setup/unknown_lanista", f"no lanista `{spec.lanista}`", "<setup>"))
        assert spec.at is not None and spec.facing is not None
        return Helot(
            label=spec.label, seat=spec.seat, square=spec.at, facing=spec.facing,
            overall=spec.overall if spec.overall is not None else settings.get("overall_condition", 50),
            locations=locations, motivation=spec.motivation, lanista=spec.lanista,
            states=set(spec.states), traits=traits, cred=spec.cred, ap=spec.ap, mp=spec.mp,
            weapon=spec.weapon, tpdm=spec.tpdm, tp_counter=set(spec.tp_counter),
            command_tokens=spec.command_tokens if spec.command_tokens is not None else (lanista or {}).get("command", 0),
            deception=(lanista or {}).get("deception", 0),
            influence=list(spec.influence or []),
        )

    # ---------------------------------------------------------------- the log
    def emit(self, event_type: str, **data: Any) -> None:
        rolled = self.dice.drain_history()
        if rolled:
            data["dice"] = [{"purpose": r.purpose, "value": r.value} for r in rolled]
        self.log.append(Event(len(self.log), self.state.cycle, self.state.active, event_type, data))

    def roll(self, purpose: str, sides: int = 6) -> int:
        if self.interpreter.pure:
            raise self.runtime_error("impure", "a requirement cannot roll dice")
        return self.dice.roll(purpose, sides)

    # ---------------------------------------------------------------- the one way to change state
    def legal_actions(self) -> list[Action]:
        return list(self.pending.options) if self.pending else []

    def apply(self, action: Action) -> list[Event]:
        if self.pending is None:
            raise RulesError(Diagnostic("rules/bout_over", "the bout is over", "<bout>"))
        if action not in self.pending.options:
            raise RulesError(Diagnostic(f"rules/{self._refusal_code(action)}", self.why_not(action), "<bout>"))
        start = len(self.log)
        self.history.append(action)
        self.pending = self._advance(action)
        self._check_ledger()
        return self.log[start:]

    def _advance(self, action: Action | None) -> Decision | None:
        try:
            decision = self._game.send(action) if action is not None else next(self._game)
        except StopIteration:
            return None
        self.interpreter.reset_budget()
        return decision

    def _check_ledger(self) -> None:
        if self.state.coins_in_play() != self.state.box_drawn:
            raise AssertionError(f"coin ledger out of balance: {self.state.coins_in_play()} in play, "
                                 f"{self.state.box_drawn} drawn from the box")

    def _refusal_code(self, action: Action) -> str:
        if self.pending and action.helot != self.pending.helot:
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
        if action.helot != decision.helot:
            return f"it is {decision.helot}'s decision, not {action.helot}'s"
        if action.kind == COMMAND:
            declaration = self.ruleset.declaration("command", action.name or "")
            if declaration is None:
                return f"there is no command `{action.name}`"
            if decision.kind != "command":
                return f"{action.name} cannot be given now: the bout is waiting for {decision.kind.replace('_', ' ')}"
            helot = self.state.helots[action.helot]
            for name, domain in self.arg_domains(helot, declaration):
                value = action.arg(name)
                if value not in domain:
                    return f"{declaration.name}: `{name}` cannot be {value!r}"
            return self.command_problem(helot, declaration, action) or f"{declaration.name} is not allowed now"
        return f"{action.describe()} is not allowed now (waiting for {decision.kind.replace('_', ' ')})"

    # ---------------------------------------------------------------- the cycle
    def _play(self) -> Game:
        yield from self.fire("bout_starts")
        if self.setup.phase == "command":
            active = self.state.active
            assert active is not None
            labels = list(self.state.helots)
            index = labels.index(active)
            self.state.order = labels[index:] + labels[:index]
            yield from self._command_round(self.state.helots[active], mid_round=True)
            for label in self.state.order[1:]:
                if self.state.ended:
                    return
                yield from self._command_round(self.state.helots[label])
        while not self.state.ended:
            if self.state.cycle >= self.setup.max_cycles:
                self._end_bout(Termination.CYCLE_LIMIT)
                return
            yield from self._cycle()

    def _cycle(self) -> Game:
        self.state.cycle += 1
        self.state.active = None
        self._initiative()
        yield from self.fire("cycle_starts")
        for label in self.state.order:
            if self.state.ended:
                return
            yield from self._command_round(self.state.helots[label])

    def _initiative(self) -> None:
        """Trait die + ratio die per helot; rank by trait (INST > DEFT > CUNN > the rest), then the
        ratio die, then pairs of d6 among those still tied (pg.10)."""
        settings = self.ruleset.settings
        rank = list(settings.get("initiative_rank", ()))
        cap = settings.get("trait_cap", 5)
        keys: dict[str, tuple[int, int]] = {}
        for helot in self.state.helots.values():
            if helot.status != Status.FIGHTING:
                continue
            face = self.dice.roll("trait_die")
            ratio = self.dice.roll("ratio_die")
            trait = TRAITS[face - 1]
            helot.trait_die, helot.ratio = face, ratio
            before = helot.traits.get(trait, 0)
            helot.traits[trait] = min(cap, before + 1)
            keys[helot.label] = (len(rank) - rank.index(trait) if trait in rank else 0, ratio)
        order = sorted(keys, key=lambda label: keys[label], reverse=True)
        order = self._break_ties(order, keys)
        self.state.order = order
        self.emit("initiative", order=order, rolls={
            label: {"trait": TRAITS[self.state.helots[label].trait_die - 1], "ratio": self.state.helots[label].ratio}
            for label in order})

    def _break_ties(self, order: list[str], keys: dict[str, tuple[int, int]]) -> list[str]:
        """Players still tied roll a pair of d6 each; the pairs order them, highest first, and only
        those tied again roll again (pg.10)."""
        result: list[str] = []
        index = 0
        while index < len(order):
            group = [label for label in order if keys[label] == keys[order[index]]]
            index += len(group)
            result.extend(self._order_by_pairs(group))
        return result

    def _order_by_pairs(self, group: list[str]) -> list[str]:
        if len(group) <= 1:
            return group
        pairs = {label: sum(self.dice.roll_many("tiebreak", 2)) for label in group}
        ordered: list[str] = []
        for total in sorted(set(pairs.values()), reverse=True):
            ordered.extend(self._order_by_pairs([label for label in group if pairs[label] == total]))
        return ordered

    def _command_round(self, helot: Helot, mid_round: bool = False) -> Game:
        self.state.active = helot.label
        if not mid_round:
            if helot.status != Status.FIGHTING:
                return
            self.emit("round_start", helot=helot.label)
            yield from self.fire("round_starts", self=helot)
            if helot.status == Status.FIGHTING:
                yield from self._allocate(helot)
        while helot.status == Status.FIGHTING and not self.state.ended:
            options = tuple(self.legal_commands(helot)) + (Action.make(END_ROUND, helot.label),)
            action = yield Decision(helot.label, "command", options)
            if action.kind == END_ROUND:
                break
            declaration = self.ruleset.declaration("command", action.name or "")
            assert declaration is not None
            yield from self.run_command(helot, declaration, action)
        yield from self._end_round(helot)

    def _allocate(self, helot: Helot) -> Game:
        points = self.ruleset.settings.get("command_points", 6)
        options = (Action.make(CONTROL, helot.label, "allocate", ratio_to="ap"),
                   Action.make(CONTROL, helot.label, "allocate", ratio_to="mp"))
        action = yield Decision(helot.label, "allocate", options)
        ratio = helot.ratio
        if action.arg("ratio_to") == "ap":
            helot.ap, helot.mp = ratio, points - ratio
        else:
            helot.mp, helot.ap = ratio, points - ratio
        self.emit("allocate", helot=helot.label, ap=helot.ap, mp=helot.mp)

    def _end_round(self, helot: Helot) -> Game:
        self.emit("round_end", helot=helot.label, unspent_ap=helot.ap, unspent_mp=helot.mp)
        yield from self.fire("round_ends", self=helot)
        helot.ap = helot.mp = 0  # points never carry over (pg.10)
        fighting = [h for h in self.state.helots.values() if h.status == Status.FIGHTING]
        if len(fighting) <= 1:
            survivor = fighting[0] if fighting else None
            yield from self.fire("bout_ends", survivor=survivor)
            self._end_bout(Termination.LAST_HELOT_STANDING if survivor else Termination.ALL_EXPIRED)
            return
        yield Decision(helot.label, "between_rounds", (Action.make(NEXT_ROUND, helot.label),))

    def _end_bout(self, termination: Termination) -> None:
        """The highest lanista wins only if their cred beats the crowd's pile; otherwise a draw (pg.13)."""
        totals = {label: h.cred for label, h in self.state.helots.items()}
        best = max(totals.values())
        leaders = [label for label, cred in totals.items() if cred == best]
        must_beat = self.ruleset.settings.get("winner_must_beat_crowd", True)
        winner = leaders[0] if len(leaders) == 1 and (best > self.state.crowd or not must_beat) else None
        self.state.ended = True
        self.state.outcome = Outcome(termination, winner, totals, self.state.crowd)
        self.emit("bout_end", termination=termination.value, winner=winner or "draw", totals=totals, crowd=self.state.crowd)

    # ---------------------------------------------------------------- reading state
    def helot_attribute(self, helot: Helot, name: str) -> Any:
        if name in LOCATIONS:
            return helot.locations[name]
        if name in TRAITS:
            return helot.traits.get(name, 0)
        if name == "square":
            return helot.square
        if name == "fighting":
            return helot.status == Status.FIGHTING
        return getattr(helot, name)

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
            "cycle": state.cycle,
            "active": state.active,
            "box_drawn": state.box_drawn,
        }
        for label, helot in state.helots.items():
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
                "tpdm": helot.tpdm,
                "tp_counter": sorted(helot.tp_counter),
                "command_tokens": helot.command_tokens,
                "influence": list(helot.influence),
                "status": helot.status.value,
                "seat": helot.seat,
                "marks": sorted(helot.marks),
            }
        snap["board"] = {square.key(): list(objects) for square, objects in sorted(state.objects.items())}
        return snap

    def events_json(self) -> list[dict[str, Any]]:
        return [event.to_json() for event in self.log]

    # ---------------------------------------------------------------- what-if
    def preview(self, action: Action) -> BoutState:
        """The state right after `action`, computed on a copy (for agents weighing their options).
        Runs the action's effects to completion; later decisions are not taken."""
        clone = copy.copy(self)
        clone.state = copy.deepcopy(self.state)
        clone.dice = self.dice.copy()
        clone.log = []
        clone.rolls = []
        clone.interpreter = Interpreter(clone, self.limits)
        clone.interpreter.functions, clone.interpreter.primitives = bind(clone)
        helot = clone.state.helots[action.helot]
        if action.kind == COMMAND:
            declaration = self.ruleset.declaration("command", action.name or "")
            assert declaration is not None
            for _ in clone.run_command(helot, declaration, action):
                pass  # decisions inside a preview are not taken
        return clone.state


def play(ruleset: Ruleset, setup: BoutSetup, agents: dict[str, Any], seed: int = 0) -> Bout:
    """Play a whole bout with agents choosing at every decision."""
    bout = Bout(ruleset, setup, seed)
    while bout.pending is not None:
        decision = bout.pending
        if len(decision.options) == 1:
            bout.apply(decision.options[0])
            continue
        bout.apply(agents[decision.helot].choose(bout, decision))
    return bout

