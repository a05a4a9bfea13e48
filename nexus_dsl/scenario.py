"""Rules scenarios (shared/contracts/SCENARIOS.md): set up a moment, force the dice, run steps,
compare the snapshot with what the rulebook says must follow.

A scenario file is checked against `schemas/scenario.schema.json` (every key of the contract and of
the project's extensions, every value of the type the engine expects, every square on the board),
then for what a schema cannot say: labels named outside `helots`, numbers written with a decimal
point, ids the loaded packs lack, a setup no bout can start from. A scenario that fails any of these
is a FAIL with one clear line per problem naming the file, line and column of the key at fault,
never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from .content.loader import MANIFEST, cached_ruleset, default_content_root
from .engine.actions import ABILITY, CARD, COMMAND, CONTROL, END_ROUND, NEXT_ROUND, PASS, Action, Decision
from .engine.board import parse_direction, parse_square
from .engine.bout import Bout
from .engine.dice import DiceError, ForcedDiceExhausted
from .engine.setup import RANDOM_LAYOUT, SEAT_ENTRY, STATUSES, BoutSetup, PieceSetup, PlayerSetup, SetupError
from .engine.timing import usable_declaration
from .errors import ContentError, Diagnostic, NexusError, RulesError
from .files import confine, display_path, read_content
from .model.ruleset import Ruleset
from .model.seats import SEAT_ORDER
from .schema import format_path, load_yaml_with_positions, validate

SCENARIO_SCHEMA = "scenario"  # schemas/scenario.schema.json
# Keys whose values are free text, or values compared with the snapshot: never handed to the engine.
FREE_KEYS = ("name", "rulebook", "notes", "expect")
# A helot's key for the helot it holds (SCENARIOS.md), the setup's `holding`.
HOLD_KEY = "grappling"
# Decisions a step never addresses directly: they are answered by `reactions` and `choices`, or passed.
INNER_DECISIONS = ("window:", "choose:", "negate_card", "block_deception", "deception", "keep_influence")
# Inner decisions a following step may answer itself (`control: deception`, `control: block_deception`).
STEP_DECISIONS = ("deception", "block_deception")
# The choice decisions `choices` answer, in the order a step meets them.
CHOICE_DECISIONS = ("choose:", "keep_influence", "negate_card")
# Snapshot values compared as sets: the contract says order is ignored for these.
UNORDERED = ("states", "tp_counter", "influence")


class ScenarioError(Exception):
    """The scenario file itself is wrong (not the engine): one message per problem. `name` is the
    scenario's, when known."""

    def __init__(self, problems: str | Iterable[str], name: str | None = None):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))
        self.name = name


@dataclass
class ScenarioResult:
    name: str
    file: str
    passed: bool
    mismatches: list[str] = field(default_factory=list)
    snapshot: dict[str, Any] | None = None
    internal_error: BaseException | None = None

    def report(self) -> str:
        lines = [f"{'PASS' if self.passed else 'FAIL'} {self.name}"]
        lines += [f"  {m}" for m in self.mismatches]
        return "\n".join(lines)


@dataclass
class Scenario:
    name: str
    file: str
    data: dict[str, Any]
    # 1-based (line, column) of every key and item of the file, by path (see `load_yaml_with_positions`).
    positions: dict[tuple[Any, ...], tuple[int, int]] = field(default_factory=dict)
    # The folder tree its test packs may come from, given by whoever runs it; None: its own folder.
    root: Path | None = None


@dataclass(frozen=True)
class _Where:
    """Names a place in the scenario file: `file:line:col` of the key at a path, or of the nearest
    enclosing key the file has."""

    file: str
    positions: dict[tuple[Any, ...], tuple[int, int]]

    def __call__(self, *path: Any) -> str:
        for end in range(len(path), -1, -1):
            position = self.positions.get(tuple(path[:end]))
            if position is not None:
                return f"{self.file}:{position[0]}:{position[1]}"
        return self.file


_NOWHERE = _Where("<scenario>", {})


def _problem(where: _Where, path: tuple[Any, ...], message: str) -> str:
    """One problem, in the form of the schema's diagnostics: `file:line:col: helots.red.at: message`."""
    return f"{where(*path)}: {format_path(path)}: {message}"


# ---------------------------------------------------------------- loading
def load_scenario(path: Path, root: Path | None = None) -> Scenario:
    """Read a scenario file (confined to its folder, size-bounded, UTF-8) and check it: against the
    scenario schema, then for what the schema cannot say. Ids are checked against the packs when it
    runs. `root` is the folder tree its test packs may come from (None: the file's own folder)."""
    path = Path(path)
    file = display_path(path)
    try:
        text = read_content(path, path.parent, file)
        data, positions = load_yaml_with_positions(text, file, empty_allowed=False)
    except NexusError as error:
        raise ScenarioError(_diagnostic_lines(error.diagnostics)) from None
    name = str(data.get("name") or path.stem) if isinstance(data, dict) else path.stem
    problems = _diagnostic_lines(validate(data, SCENARIO_SCHEMA, file=file, locate=positions.get))
    if not problems:  # the checks below read the shape the schema guarantees
        where = _Where(file, positions)
        problems = _decimal_numbers(data, where) + _unknown_labels(data, where)
    if problems:
        raise ScenarioError(problems, name)
    return Scenario(name, file, data, positions, root)


def _diagnostic_lines(diagnostics: Iterable[Diagnostic]) -> list[str]:
    """Each problem on one line: `file:line:col: message; hint` (a pseudo-file such as `<setup>`
    left out)."""
    lines = []
    for diagnostic in diagnostics:
        text = diagnostic.message if diagnostic.file.startswith("<") else f"{diagnostic.location()}: {diagnostic.message}"
        if diagnostic.hint:
            text += f"; {diagnostic.hint}"
        lines.append(" ".join(text.splitlines()))
    return lines


def _decimal_numbers(data: dict[str, Any], where: _Where) -> list[str]:
    """Numbers written with a decimal point (`2.0`) where the engine takes whole numbers. JSON Schema
    cannot refuse them (2.0 is an integer to it), but the engine counts exactly, in whole numbers.
    Free text and `expect` may hold any number."""
    return [_problem(where, path, f"expected a whole number written without a decimal point, got {value!r}")
            for path, value in _leaves(data) if isinstance(value, float) and path[0] not in FREE_KEYS]


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _leaves(child, path + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _leaves(child, path + (index,))
    else:
        yield path, value


def _unknown_labels(data: dict[str, Any], where: _Where) -> list[str]:
    """A label named outside `helots` (`active`, a step's or a reaction's `helot`) must be one of
    the helots' labels: a fact of this file that a schema cannot state."""
    labels = list(data.get("helots") or data.get("players") or {})
    named: list[tuple[tuple[Any, ...], str]] = []
    if data.get("active") is not None:
        named.append((("active",), data["active"]))
    for index, step in enumerate(data.get("steps") or []):
        if isinstance(step, dict):
            key = "helot" if "helot" in step else "player"
            named.append((("steps", index, key), step[key]))
            named += [(("steps", index, "reactions", number, "helot"), reaction["helot"])
                      for number, reaction in enumerate(step.get("reactions") or [])]
    who = "helots" if data.get("helots") else "players"
    return [_problem(where, path, f"`{label}` is not one of the {who} ({', '.join(labels)})")
            for path, label in named if label not in labels]


def _check_ids(data: dict[str, Any], ruleset: Ruleset, where: _Where) -> None:
    """Ids outside the helots (whose own ids the engine checks): the barge (the contract's name of
    the board layout: an item of the game's layouts data kind), its objects, the decks."""
    barge = data.get("barge") or {}
    game = ruleset.game
    if barge.get("id") not in (None, RANDOM_LAYOUT) and (
            not game.layouts or ruleset.data_item(game.layouts, barge["id"]) is None):
        raise ScenarioError(_problem(where, ("barge", "id"), f"no {game.layout_word} `{barge['id']}` in the loaded packs"))
    object_types = ruleset.data.get("objects", {})
    for index, item in enumerate(barge.get("objects") or []):
        if item["type"] not in object_types:
            raise ScenarioError(_problem(where, ("barge", "objects", index, "type"),
                                         f"no object type `{item['type']}` in the loaded packs"))
    zones = ruleset.words.zones
    for deck, cards in (data.get("decks") or {}).items():
        zone = zones.get(deck)
        if zone is None:
            raise ScenarioError(_problem(where, ("decks", deck), f"no zone `{deck}` in the loaded packs"
                                         + (f" (zones: {', '.join(zones)})" if zones else "")))
        for index, card in enumerate(cards):
            if ruleset.declaration(zone.holds or "", card) is None:
                raise ScenarioError(_problem(where, ("decks", deck, index),
                                             f"no {deck.replace('_', ' ')} card `{card}` in the loaded packs"))
    _check_zones(data, ruleset, where)


def _check_zones(data: dict[str, Any], ruleset: Ruleset, where: _Where) -> None:
    """`zones`: each a zone of the loaded packs, listed as its owners have it (one list for a shared
    zone, one per owner for a zone each player or side has), each card one the packs' zones hold."""
    zones = ruleset.words.zones
    known = {d.id for zone in zones.values() if zone.holds for d in ruleset.declarations(zone.holds)}
    for name, placed in (data.get("zones") or {}).items():
        zone = zones.get(name)
        if zone is None:
            raise ScenarioError(_problem(where, ("zones", name), f"no zone `{name}` in the loaded packs"
                                         + (f" (zones: {', '.join(zones)})" if zones else "")))
        if zone.owner is None and not isinstance(placed, list):
            raise ScenarioError(_problem(where, ("zones", name), f"the zone `{name}` is shared: list its cards, top first"))
        if zone.owner is not None and not isinstance(placed, dict):
            raise ScenarioError(_problem(where, ("zones", name), f"each {zone.owner} has a zone `{name}`: list its "
                                                                 f"cards by owner (`{name}: {{<owner>: [...]}}`)"))
        lists = [((name,), placed)] if isinstance(placed, list) else [((name, owner), cards) for owner, cards in placed.items()]
        for path, cards in lists:
            for index, card in enumerate(cards):
                if card not in known:
                    raise ScenarioError(_problem(where, ("zones",) + path + (index,),
                                                 f"no card `{card}` in the loaded packs' zones"))


# ---------------------------------------------------------------- building the bout
def build_setup(data: dict[str, Any], where: _Where = _NOWHERE) -> BoutSetup:
    """The engine's setup from a scenario `load_scenario` checked: its values converted, not checked
    again. Left to check is only what the helots say together: a seat for a fifth helot, a status
    its states contradict."""
    helots = [_helot_setup(index, label, spec or {}, where)
              for index, (label, spec) in enumerate((data.get("helots") or {}).items())]
    players = [_player_setup(index, label, spec or {}, where)
               for index, (label, spec) in enumerate((data.get("players") or {}).items())]
    barge = data.get("barge") or {}
    objects = [(item["type"], parse_square(item["at"])) for item in barge.get("objects") or []]
    piles = {CONTRACT_PILE: data[CONTRACT_PILE]} if data.get(CONTRACT_PILE) is not None else {}
    return BoutSetup(pieces=helots, layout=barge.get("id"), objects=objects, piles=piles,
                     decks={k: list(v) for k, v in (data.get("decks") or {}).items()},
                     zones=dict(data.get("zones") or {}), players=players,
                     phase=data.get("phase", "command"), active=data.get("active"))


# The contract's key of the shared pile its scenarios set and expect: the base game's Crowd Coin Pile
# (`pile crowd`), shown in the snapshot among the shared piles (`piles`).
CONTRACT_PILE = "crowd"
# The helot key of the contract that is a pile its lanista holds in the base game (`pile cred
# { owner player }`): shown beside the helot's keys by the engine already.
OWNED_PILE_KEYS = ("cred",)
# The contract's key of how many coins have left the box: the engine's `drawn`, out of the reserve.
DRAWN_KEY = "box_drawn"
# The helot keys of the contract that are stats its lanista holds in the base game (content/base
# declares them `owner player`): set as those stats.
PLAYER_STAT_KEYS = ("deception", "command_tokens")
# The helot keys of the contract that are true or false, each a stat of the helot's from 0 to 1 in the
# base game (`stat tpdm { low 0; high 1 }`): set as that stat, shown in the snapshot as true or false.
FLAG_STAT_KEYS = ("tpdm",)
# The helot keys of the contract that are counters in the base game (`pile tp_counter { numbered true }`):
# the numbers already marked on them.
COUNTER_KEYS = ("tp_counter",)


def _stats_of(spec: dict[str, Any]) -> dict[str, Any]:
    """A helot's stats as its entry sets them: its `stats`, the contract's keys of its lanista's, and
    the contract's flags (1 for true)."""
    return {**dict(spec.get("stats") or {}), **{key: spec[key] for key in PLAYER_STAT_KEYS if spec.get(key) is not None},
            **{key: int(bool(spec[key])) for key in FLAG_STAT_KEYS if spec.get(key) is not None}}


def contract_snapshot(bout: Bout) -> dict[str, Any]:
    """The bout's snapshot with the contract's keys the engine shows its own way: the crowd's coins
    (the shared pile `crowd`, in `piles`) and the coins out of the box (the reserve's `drawn`) at the
    top, and a flag that is a helot's stat (`stats.tpdm`) also its key of the contract, true or false
    (`tpdm`)."""
    snapshot = bout.snapshot()
    if CONTRACT_PILE in snapshot.get("piles", {}):
        snapshot[CONTRACT_PILE] = snapshot["piles"][CONTRACT_PILE]
    snapshot[DRAWN_KEY] = snapshot.pop("drawn")
    for label in bout.state.pieces:
        stats = snapshot[label].get("stats", {})
        snapshot[label].update((key, bool(stats[key])) for key in FLAG_STAT_KEYS if key in stats)
    return snapshot


def _helot_setup(index: int, label: str, spec: dict[str, Any], where: _Where) -> PieceSetup:
    path = ("helots", label)
    seat = spec["seat"] if "seat" in spec else _default_seat(index, where, path)
    entry_square, entry_facing = SEAT_ENTRY[seat]
    status, states = _status_and_states(spec, where, path)
    return PieceSetup(
        label=label, seat=seat,
        at=parse_square(spec["at"]) if "at" in spec else entry_square,
        facing=parse_direction(spec["facing"]) if "facing" in spec else entry_facing,
        # The contract's keys of the base game: a helot's motivation is its role, its lanista its
        # player's profile, its influence its hand.
        role=spec.get("motivation"), profile=spec.get("lanista"), overall=spec.get("overall"),
        locations=dict(spec.get("locations") or {}), states=states,
        traits=spec.get("traits"), stats=_stats_of(spec),
        piles={key: spec[key] for key in OWNED_PILE_KEYS if spec.get(key) is not None}, ap=spec.get("ap", 0), mp=spec.get("mp", 0),
        weapon=spec.get("weapon"), counters={key: list(spec[key]) for key in COUNTER_KEYS if spec.get(key) is not None},
        hand=spec.get("influence"), ratio=spec.get("ratio", 3), marks=_marks(spec.get("marks")),
        weapon_drawn=spec.get("weapon_drawn"), durability=spec.get("durability"), ammo=spec.get("ammo"),
        protects=spec.get("protects"), status=status, holding=spec.get(HOLD_KEY), side=spec.get("side"),
    )


def _player_setup(index: int, label: str, spec: dict[str, Any], where: _Where) -> PlayerSetup:
    seat = spec["seat"] if "seat" in spec else _default_seat(index, where, ("players", label))
    return PlayerSetup(label=label, seat=seat, side=spec.get("side"), stats=dict(spec.get("stats") or {}))


def _default_seat(index: int, where: _Where, path: tuple[Any, ...]) -> str:
    """The seat of a helot that names none: the next in seat order, while there is one."""
    if index < len(SEAT_ORDER):
        return SEAT_ORDER[index]
    raise ScenarioError(_problem(where, path, f"name a `seat` ({', '.join(SEAT_ORDER)}): the first "
                                              f"{len(SEAT_ORDER)} helots take them in that order"))


def _status_and_states(spec: dict[str, Any], where: _Where, path: tuple[Any, ...]) -> tuple[str, list[str]]:
    """`status`, and the states without `incapacitated` or `dead`: listed in `states` (an extension
    of the contract), they set the status, as `is incapacitated` reads it in a script."""
    states = list(spec.get("states") or [])
    ended = [state for state in states if state in STATUSES]
    status = spec.get("status", ended[0] if ended else "fighting")
    if any(state != status for state in ended):
        raise ScenarioError(_problem(where, path + ("states",), f"`states` lists {' and '.join(ended)}, but the "
                                                               f"helot's status is {status}"))
    return status, [state for state in states if state not in STATUSES]


def _marks(value: list[str] | dict[str, Any] | None) -> dict[str, Any]:
    """`marks: [a, b]` sets each mark to true; `marks: {a: 2}` sets each to its value."""
    if isinstance(value, list):
        return {name: True for name in value}
    return dict(value or {})


def step_action(bout: Bout, step: str | dict[str, Any]) -> Action:
    """Translate one checked scenario step into an engine action."""
    pending = bout.pending
    if step == "end_round":
        return Action.make(END_ROUND, bout.state.active or (pending.actor if pending else ""))
    if step == "next_round":
        return Action.make(NEXT_ROUND, pending.actor if pending else "")
    assert isinstance(step, dict)  # the schema allows the two words above or a mapping
    helot = step["helot"] if "helot" in step else step["player"]
    arguments = {key: value for key, value in step.items() if key not in ("helot", "player", "reactions", "choices")}
    if "command" in arguments:
        name = arguments.pop("command")
        declaration = bout.ruleset.declaration("command", name)
        if declaration is not None and declaration.property("targets") is not None and "target" not in arguments:
            others = [h.label for h in bout.state.pieces.values() if h.label != helot and h.status.value != "dead"]
            if len(others) == 1:
                arguments["target"] = others[0]
        if "to" in arguments:
            arguments["to"] = parse_square(arguments["to"])
        return Action.make(COMMAND, helot, name, **arguments)
    if "control" in arguments:
        return Action.make(CONTROL, helot, arguments.pop("control"), **arguments)
    if "ability" in arguments:
        name = arguments.pop("ability")
        return Action.make(ABILITY, helot, name, **_with_target(bout, helot, arguments, ABILITY, name))
    name = arguments.pop("card")  # the schema allows exactly one of command, control, ability and card
    return Action.make(CARD, helot, name, **_with_target(bout, helot, arguments, CARD, name))


def _with_target(bout: Bout, helot: str, step: dict[str, Any], kind: str, name: str) -> dict[str, Any]:
    """With one opponent, an ability's or card's (`kind`: ABILITY or CARD) `target` may be left out
    (as for commands); one that aims at no helot gets none."""
    declaration = usable_declaration(bout.ruleset, kind, name)
    if declaration is not None and declaration.property("targets") is None:
        return step
    if "target" not in step:
        others = [h.label for h in bout.state.pieces.values() if h.label != helot and h.on_board]
        if len(others) == 1:
            step = {**step, "target": others[0]}
    return step


def _is_inner(kind: str) -> bool:
    return any(kind.startswith(prefix) for prefix in INNER_DECISIONS)


def _is_choice(kind: str) -> bool:
    return any(kind.startswith(prefix) for prefix in CHOICE_DECISIONS)


def option_names(decision: Decision) -> list[tuple[Any, Action]]:
    """A choice decision's options as the engine names them, each with its action: a `choose`
    pick (a helot by label, a square as [col, row]), an influence card's id, `negate` or `pass`."""
    named: list[tuple[Any, Action]] = []
    for option in decision.options:
        if option.actor != decision.actor:
            continue  # another helot's interjection offered at the same time
        if decision.kind == "negate_card":
            named.append(("pass" if option.kind == PASS else "negate", option))
        elif decision.kind == "keep_influence":
            named.append((option.arg("card"), option))
        else:
            pick = option.arg("pick")
            named.append((list(pick) if isinstance(pick, tuple) else pick, option))
    return named


class StepRunner:
    """Applies one step and answers the decisions it raises: a `reaction` is used at the first
    window where it is legal, `choices` answer the choice decisions in order, anything else passes."""

    def __init__(self, bout: Bout, step: Any):
        self.bout = bout
        reactions = [dict(r) for r in (step.get("reactions") or [])] if isinstance(step, dict) else []
        # `refused: true` on a reaction: it must not be legal at any decision of the step.
        self.refusals = [r for r in reactions if r.get("refused")]
        self.reactions = [r for r in reactions if not r.get("refused")]
        self.choices = list(step.get("choices") or []) if isinstance(step, dict) else []

    def settle_before(self, action: Action) -> None:
        """Pass the inner decisions that stand before this step (e.g. an unused window)."""
        while self.bout.pending and _is_inner(self.bout.pending.kind) and action not in self.bout.pending.options:
            self._answer()

    def settle_after(self) -> None:
        # A Deception and its block are round controls of their own (IDS): left for the next step,
        # whose `settle_before` passes them if it is about something else.
        while (self.bout.pending and _is_inner(self.bout.pending.kind)
               and self.bout.pending.kind not in STEP_DECISIONS):
            self._answer()
        if self.reactions:
            unused = ", ".join(f"{r.get('helot')}: {r.get('ability') or r.get('card')}" for r in self.reactions)
            raise ScenarioError(f"reaction never legal in this step: {unused}")
        if self.choices:
            raise ScenarioError(f"`choices` left unanswered: {', '.join(map(_show_choice, self.choices))} (the step "
                                f"met no further choice decision; a choice of one option is taken without asking)")

    def _reaction_action(self, reaction: dict[str, Any]) -> Action:
        kind, name = (CARD, reaction["card"]) if "card" in reaction else (ABILITY, reaction["ability"])
        extra = {k: v for k, v in reaction.items() if k not in ("helot", "ability", "card", "refused")}
        return Action.make(kind, reaction["helot"], name, **_with_target(
            self.bout, reaction["helot"], extra, kind, name))

    def _answer(self) -> None:
        decision = self.bout.pending
        assert decision is not None
        for refusal in self.refusals:
            if self._reaction_action(refusal) in decision.options:
                raise ScenarioError(f"reaction expected to be refused was legal at {decision.kind}: "
                                    f"{refusal.get('helot')}: {refusal.get('ability') or refusal.get('card')}")
        for reaction in list(self.reactions):
            action = self._reaction_action(reaction)
            if action in decision.options:
                self.reactions.remove(reaction)
                self.bout.apply(action)
                return
        if _is_choice(decision.kind):
            chosen = self._chosen(decision)
            if chosen is not None:
                self.bout.apply(chosen)
                return
        passing = [o for o in decision.options if o.kind == PASS]
        if not passing:
            raise ScenarioError(f"{decision.actor} must decide ({decision.kind}) and cannot pass")
        self.bout.apply(passing[0])

    def _chosen(self, decision: Decision) -> Action | None:
        """The option the next of `choices` names; None to decline a Turning Point card's negation
        when no choice is left (declining is passing)."""
        named = option_names(decision)
        offered = ", ".join(_show_choice(name) for name, _ in named)
        if not self.choices:
            if decision.kind == "negate_card":
                return None
            raise ScenarioError(f"{decision.actor} must choose ({decision.kind}: {offered}) but the step's "
                                f"`choices` has no answer left for it")
        wanted = self.choices.pop(0)
        for name, option in named:
            if name == wanted:
                return option
        raise ScenarioError(f"`choices`: {_show_choice(wanted)} is not offered to {decision.actor} at "
                            f"{decision.kind}; the options are {offered}")


def _show_choice(value: Any) -> str:
    return json.dumps(value) if isinstance(value, list) else str(value)


# ---------------------------------------------------------------- running
def run_scenario(scenario: Scenario) -> ScenarioResult:
    result = ScenarioResult(scenario.name, scenario.file, passed=False)
    data = scenario.data
    where = _Where(scenario.file, scenario.positions)
    folder = Path(scenario.file).parent
    try:
        ruleset = cached_ruleset(_pack_refs(data.get("packs") or ["base"], folder, scenario.root or folder, where))
        _check_ids(data, ruleset, where)
        bout = Bout(ruleset, build_setup(data, where), seed=data.get("seed", 0),
                    forced_dice=data.get("dice") or {}, strict_ledger=True)
    except SetupError as error:
        who = "helots" if data.get("helots") else "players"
        key = HOLD_KEY if error.key == "holding" else error.key  # the engine's name of the hold's key
        path = (who, error.actor, key) if error.actor else (who,)
        told = f"{who[:-1]} `{error.actor}`: {error.reason}" if error.actor else error.diagnostics[0].message
        result.mismatches.append(f"cannot load: {where(*path)}: {told}")
        return result
    except (ScenarioError, NexusError, DiceError) as error:
        result.mismatches += _failure(error, "cannot load")
        return result
    except Exception as error:  # an engine bug: report it as a FAIL, keep it for pytest's traceback
        result.mismatches.append(f"internal error while setting up: {type(error).__name__}: {error}")
        result.internal_error = error
        return result
    if bout.fault is not None:  # a script faulted while the bout was being set up
        result.mismatches.append(f"cannot load: the engine stopped on a script fault: {bout.fault.location()}: "
                                 f"{bout.fault.message}")
        return result

    expect_error = data.get("error")
    steps = list(data.get("steps") or [])
    index = 0
    try:
        for index, step in enumerate(steps):
            last = index == len(steps) - 1
            action = step_action(bout, step)
            runner = StepRunner(bout, step)
            try:
                runner.settle_before(action)
                before = bout.snapshot()
                bout.apply(action)
                runner.settle_after()
                if bout.fault is not None:  # the state was rolled back: comparing it would prove nothing
                    raise ScenarioError(f"the engine stopped on a script fault: {bout.fault.location()}: "
                                        f"{bout.fault.message}")
            except RulesError as refusal:
                message = refusal.diagnostics[0].message
                if last and expect_error:
                    if isinstance(expect_error, str) and expect_error not in message:
                        result.mismatches.append(f"error: expected a refusal containing {expect_error!r}, got {message!r}")
                    if bout.snapshot() != before:
                        result.mismatches.append("error: the refused step changed the state")
                    break
                result.mismatches.append(f"step {index + 1} ({_describe(step)}) was refused: {message}")
                result.snapshot = contract_snapshot(bout)
                return result
        else:
            if expect_error:
                result.mismatches.append("error: expected the last step to be refused, but it was allowed")
    except ScenarioError as error:
        result.mismatches.append(f"cannot run: {where('steps', index)}: step {index + 1} ({_describe(steps[index])}): "
                                 f"{error}")
        return result
    except (NexusError, DiceError) as error:
        result.mismatches += _failure(error, "cannot run")
        return result
    except Exception as error:  # an engine bug: report it as a FAIL, keep it for pytest's traceback
        result.mismatches.append(f"internal error: {type(error).__name__}: {error}")
        result.internal_error = error
        return result

    snapshot = contract_snapshot(bout)
    result.snapshot = snapshot
    for key, expected in (data.get("expect") or {}).items():
        found, actual = lookup(snapshot, str(key))
        if not found:
            result.mismatches.append(f"{key}: expected {_show(expected)}, got no such key")
        elif not _matches(str(key), expected, actual):
            result.mismatches.append(f"{key}: expected {_show(expected)}, got {_show(actual)}")
    result.passed = not result.mismatches
    return result


def _pack_refs(packs: list[str], folder: Path, tree: Path, where: _Where) -> tuple[str, ...]:
    """The packs to load: ids of the content root, and (an extension of the contract, for test-only
    packs) folders named by their path from the scenario's folder. A folder must lie inside the
    scenario's folder tree or the content root, links followed: a scenario from a stranger cannot
    load a pack from anywhere else on the disk."""
    refs = []
    for index, ref in enumerate(packs):
        if _is_path(ref) or (folder / ref / MANIFEST).is_file():
            try:
                refs.append(str(_pack_folder(folder / ref, ref, tree)))
            except ScenarioError as error:
                raise ScenarioError(f"{where('packs', index)}: {error}") from None
        else:
            refs.append(ref)
    return tuple(refs)


def _is_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref in (".", "..") or Path(ref).is_absolute()


def _pack_folder(path: Path, ref: str, tree: Path) -> Path:
    """The pack folder `path`, links followed, if it lies inside `tree` or the content root."""
    content_root = default_content_root()
    for root in (tree, content_root):
        try:
            resolved = confine(path, root)
        except ContentError:
            continue
        if not (resolved / MANIFEST).is_file():
            raise ScenarioError(f"`packs`: `{ref}` is not a pack folder: it holds no {MANIFEST}")
        return resolved
    raise ScenarioError(f"`packs`: `{ref}` lies outside the scenario's folder tree ({display_path(tree)}) and "
                        f"the content root ({display_path(content_root)}): a scenario loads packs only from there "
                        f"(`nexus scenario run --tree FOLDER` names the folder its test packs may come from)")


def _failure(error: Exception, context: str) -> list[str]:
    """Why a scenario could not be loaded or run: one line per problem."""
    if isinstance(error, ForcedDiceExhausted):
        return [f"the forced dice for `{error.purpose}` ran out"]
    if isinstance(error, NexusError) and context == "cannot run":
        return [f"the engine stopped: {error.diagnostics[0].message}"]
    if isinstance(error, NexusError):
        return [f"{context}: {line}" for line in _diagnostic_lines(error.diagnostics)]
    if isinstance(error, ScenarioError):
        return [f"{context}: {problem}" for problem in error.problems]
    return [f"{context}: {error}"]


def lookup(snapshot: dict[str, Any], key: str) -> tuple[bool, Any]:
    """Dot paths into the snapshot; `board.4,3` names a square."""
    if key.startswith("board."):
        return True, snapshot["board"].get(key[len("board."):], [])
    value: Any = snapshot
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value


def _matches(key: str, expected: Any, actual: Any) -> bool:
    if isinstance(expected, list) and isinstance(actual, list) and (key.split(".")[-1] in UNORDERED or key.startswith("board.")):
        return sorted(map(str, expected)) == sorted(map(str, actual))
    return bool(expected == actual)


def _show(value: Any) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):  # YAML dates, sets and such: not JSON, shown as Python writes them
        return repr(value)


def _describe(step: Any) -> str:
    if isinstance(step, dict):
        return ", ".join(f"{k}: {v}" for k, v in step.items())
    return str(step)


def is_pack_file(path: Path) -> bool:
    """Test-only packs may sit beside scenarios; their files are not scenarios."""
    return any((folder / MANIFEST).is_file() for folder in path.parents)


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    return [path for path, _ in _scenario_files_with_roots(paths, None)]


def _scenario_files_with_roots(paths: Iterable[str | Path], tree: Path | None) -> list[tuple[Path, Path | None]]:
    """Each scenario file with the folder tree its test packs may come from: `tree` when the caller
    gives one; else the working folder, when what is named lies inside it (so a project's own
    scenario, run on its own from the project's folder, still finds its `../packs`); else the folder
    named on the run, or the file's own folder."""
    files: list[tuple[Path, Path | None]] = []
    for raw in paths:
        path = Path(raw)
        given = tree or _working_folder_around(path)
        if path.is_dir():
            files.extend((p, given or path) for p in sorted(path.rglob("*"))
                         if p.suffix in (".yaml", ".yml") and not is_pack_file(p))
        else:
            files.append((path, given))
    return files


def _working_folder_around(path: Path) -> Path | None:
    """The working folder, if `path` lies inside it (links followed)."""
    working = Path.cwd().resolve()
    try:
        path.resolve().relative_to(working)
    except (ValueError, OSError):
        return None
    return working


def run_paths(paths: Iterable[str | Path], tree: str | Path | None = None) -> list[ScenarioResult]:
    """Run every scenario file named, and those found under every folder named. `tree` is the folder
    tree their test packs may come from; by default the working folder when what is named lies
    inside it, else the folder named on the run, or a file's own folder."""
    results = []
    for path, root in _scenario_files_with_roots(paths, Path(tree) if tree is not None else None):
        try:
            scenario = load_scenario(path, root)
        except ScenarioError as error:
            results.append(ScenarioResult(error.name or path.stem, str(path), False,
                                          [f"cannot load: {problem}" for problem in error.problems]))
            continue
        results.append(run_scenario(scenario))
    return results


def snapshot_of(path: str | Path, tree: str | Path | None = None) -> dict[str, Any]:
    """The final state of one scenario (`tree` as for `run_paths`)."""
    result = run_scenario(load_scenario(Path(path), Path(tree) if tree is not None else _working_folder_around(Path(path))))
    if result.snapshot is None:
        raise ScenarioError(result.mismatches)
    return result.snapshot
