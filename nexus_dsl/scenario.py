"""Rules scenarios (shared/contracts/SCENARIOS.md): set up a moment, force the dice, run steps,
compare the snapshot with what the rulebook says must follow.

A scenario that cannot even be loaded (bad YAML, a value of the wrong type, an unknown id, a bad
square, a setup no bout can start from) is a FAIL with a clear message naming the file, line and
column of the key at fault, never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from .content.loader import MANIFEST, cached_ruleset, default_content_root
from .content.ruleset import Ruleset
from .engine.actions import ABILITY, CARD, COMMAND, CONTROL, END_ROUND, NEXT_ROUND, PASS, Action, Decision
from .engine.board import Square, parse_direction, parse_square
from .engine.bout import Bout
from .engine.dice import DiceError, ForcedDiceExhausted
from .engine.setup import RANDOM_BARGE, SEAT_ENTRY, SEAT_ORDER, STATUSES, BoutSetup, HelotSetup, SetupError
from .errors import ContentError, NexusError, RulesError
from .files import confine, display_path, read_content
from .limits import INPUT_LIMITS, MAX_NUMBER
from .schema import load_yaml_with_positions
from .vocabulary import LOCATIONS, STATES, TRAITS

SCENARIO_KEYS = {"name", "rulebook", "packs", "seed", "barge", "helots", "crowd", "decks", "active", "phase",
                 "dice", "steps", "expect", "error", "notes"}
HELOT_KEYS = {"seat", "motivation", "lanista", "at", "facing", "overall", "locations", "states", "traits", "cred",
              "ap", "mp", "weapon", "tpdm", "tp_counter", "command_tokens", "influence", "weapon_drawn",
              "durability", "ammo", "protects", "deception", "status", "grappling",
              # extensions of the contract:
              "ratio", "marks"}
# Top-level snapshot keys: a helot label may not hide one of them (nor hold a dot, which splits paths).
SNAPSHOT_KEYS = {"crowd", "ended", "winner", "termination", "cycle", "active", "box_drawn", "board"}
DECK_KINDS = {"turning_point": "turning_point", "influence": "influence"}  # deck -> declaration kind
STEP_WORDS = ("end_round", "next_round")
STEP_KINDS = ("command", "ability", "card", "control")
# Decisions a step never addresses directly: they are answered by `reactions` and `choices`, or passed.
INNER_DECISIONS = ("window:", "choose:", "negate_card", "block_deception", "deception", "keep_influence")
# Inner decisions a following step may answer itself (`control: deception`, `control: block_deception`).
STEP_DECISIONS = ("deception", "block_deception")
# The choice decisions `choices` answer, in the order a step meets them.
CHOICE_DECISIONS = ("choose:", "keep_influence", "negate_card")
# Snapshot values compared as sets: the contract says order is ignored for these.
UNORDERED = ("states", "tp_counter", "influence")
# The project's own scenarios share their test packs across folders (tests/scenarios/packs): a
# scenario under this folder may load a pack anywhere in it.
PROJECT_SCENARIOS = Path(__file__).resolve().parents[1] / "tests" / "scenarios"


class ScenarioError(Exception):
    """The scenario file itself is wrong (not the engine). `name` is the scenario's, when known."""

    def __init__(self, message: str, name: str | None = None):
        super().__init__(message)
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
    # The scenario's folder tree: the folder named on the run that found it, else its own folder.
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


def _key_path(path: tuple[Any, ...]) -> str:
    """`helots.red.durability`, `steps[2].choices`: list items counted from 1, as a reader counts."""
    text = ""
    for part in path:
        text += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _problem(where: _Where, path: tuple[Any, ...], message: str) -> ScenarioError:
    return ScenarioError(f"{where(*path)}: {_key_path(path)}: {message}")


# ---------------------------------------------------------------- loading
def load_scenario(path: Path, root: Path | None = None) -> Scenario:
    """Read and check a scenario file (confined to its folder, size-bounded, UTF-8): every key of a
    known type, every square on the board. Ids are checked against the packs when it runs."""
    path = Path(path)
    file = display_path(path)
    try:
        text = read_content(path, path.parent, file)
        data, positions = load_yaml_with_positions(text, file)
    except NexusError as error:
        raise ScenarioError(_diagnostics(error)) from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{file}: a scenario is a mapping with `name`, `helots`, `steps` and `expect`")
    where = _Where(file, positions)
    name = str(data.get("name") or path.stem)
    try:
        unknown = sorted(str(k) for k in set(data) - SCENARIO_KEYS)
        if unknown:
            raise _problem(where, (unknown[0],), f"unknown key(s) {', '.join(unknown)}; a scenario's keys are "
                                                 f"{', '.join(sorted(SCENARIO_KEYS))}")
        _check_scenario(data, where)
    except ScenarioError as error:
        raise ScenarioError(str(error), name) from None
    return Scenario(name, file, data, positions, root)


def _diagnostics(error: NexusError) -> str:
    """Each problem on one line: `file:line:col: message` (a pseudo-file such as `<setup>` left out)."""
    return "; ".join(d.message if d.file.startswith("<") else f"{d.location()}: {d.message}"
                     for d in error.diagnostics)


# ---------------------------------------------------------------- checking values
def _whole(value: Any, where: _Where, path: tuple[Any, ...], low: int = 0, high: int = MAX_NUMBER) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _problem(where, path, f"expected a whole number, got {_show(value)}")
    if value < low:
        bound = f"from {low} to {high}" if high < MAX_NUMBER else f"of {low} or more"
        raise _problem(where, path, f"expected a whole number {bound}, got {value}")
    if value > high:
        raise _problem(where, path, f"expected a whole number of at most {high:,}, got {value:,}")
    return value


def _flag(value: Any, where: _Where, path: tuple[Any, ...]) -> bool:
    if not isinstance(value, bool):
        raise _problem(where, path, f"expected true or false, got {_show(value)}")
    return value


def _word(value: Any, where: _Where, path: tuple[Any, ...], among: Iterable[str] | None = None) -> str:
    """An id or a name: text of at most the identifier length, one of `among` if given."""
    if not isinstance(value, str) or not value:
        raise _problem(where, path, f"expected a name, got {_show(value)}")
    if len(value) > INPUT_LIMITS.max_identifier_length:
        raise _problem(where, path, f"a name is at most {INPUT_LIMITS.max_identifier_length} characters")
    if among is not None:
        choices = tuple(among)
        if value not in choices:
            raise _problem(where, path, f"`{value}` is not one of {', '.join(choices)}")
    return value


def _words(value: Any, where: _Where, path: tuple[Any, ...], among: Iterable[str] | None = None) -> list[str]:
    if not isinstance(value, list):
        raise _problem(where, path, f"expected a list of names, got {_show(value)}")
    return [_word(item, where, path + (index,), among) for index, item in enumerate(value)]


def _pack_list(value: Any, where: _Where) -> None:
    """Pack ids, or paths of pack folders: text, at most as long as a string of content may be."""
    if not isinstance(value, list):
        raise _problem(where, ("packs",), f"expected a list of pack ids or folders, got {_show(value)}")
    for index, ref in enumerate(value):
        if not isinstance(ref, str) or not ref or len(ref) > INPUT_LIMITS.max_string_length:
            raise _problem(where, ("packs", index),
                           f"expected a pack id or the path of a pack folder, got {_show(ref)}")


def _mapping(value: Any, where: _Where, path: tuple[Any, ...], what: str) -> dict[Any, Any]:
    if not isinstance(value, dict):
        raise _problem(where, path, f"expected a mapping of {what}, got {_show(value)}")
    return value


def _numbers_by_name(value: Any, where: _Where, path: tuple[Any, ...], names: tuple[str, ...]) -> dict[str, int]:
    """`locations: {head: 10}`, `traits: {PHYS: 5}`: known names, whole numbers."""
    mapping = _mapping(value, where, path, f"{'/'.join(names)} to numbers")
    return {_word(name, where, path + (name,), names): _whole(number, where, path + (name,))
            for name, number in mapping.items()}


def _square_at(value: Any, where: _Where, path: tuple[Any, ...]) -> Square:
    try:
        return parse_square(value)
    except ValueError as error:
        raise _problem(where, path, str(error)) from None


def _direction(value: Any, where: _Where, path: tuple[Any, ...]) -> Any:
    try:
        return parse_direction(value)
    except ValueError as error:
        raise _problem(where, path, str(error)) from None


def _choice_value(value: Any, where: _Where, path: tuple[Any, ...]) -> Any:
    """A choice is named as the engine names its options: a word or number, or a square `[col, row]`."""
    if isinstance(value, list):
        return _square_at(value, where, path).as_list()
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise _problem(where, path, f"expected a name, a number or a square [col, row], got {_show(value)}")
    return value


def _plain_argument(value: Any, where: _Where, path: tuple[Any, ...]) -> None:
    """A step's arguments are words, numbers, flags or lists of them (squares, lists of locations)."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            _plain_argument(item, where, path + (index,))
    elif value is not None and not isinstance(value, (str, int, bool)):
        raise _problem(where, path, f"expected a name, a number or a list, got {_show(value)}")


def _check_scenario(data: dict[str, Any], where: _Where) -> None:
    """The shape of every top-level key: what the engine is handed must be of the type it expects."""
    if "seed" in data:
        _whole(data["seed"], where, ("seed",), -MAX_NUMBER)
    if "crowd" in data:
        _whole(data["crowd"], where, ("crowd",))
    if "packs" in data:
        _pack_list(data["packs"], where)
    if "phase" in data:
        _word(data["phase"], where, ("phase",), ("command", "cycle"))
    if "error" in data and not isinstance(data["error"], (bool, str)):
        raise _problem(where, ("error",),
                       f"expected true, false or the text of the refusal, got {_show(data['error'])}")
    if "expect" in data and data["expect"] is not None:
        _mapping(data["expect"], where, ("expect",), "snapshot keys to values")
    _check_barge(data.get("barge"), where)
    _check_decks(data.get("decks"), where)
    _check_dice(data.get("dice"), where)
    labels = _check_helots(data.get("helots"), where)
    if data.get("active") is not None and data["active"] not in labels:
        raise _problem(where, ("active",), f"`{data['active']}` is not one of the helots ({', '.join(labels)})")
    _check_steps(data.get("steps"), labels, where)


def _check_barge(barge: Any, where: _Where) -> None:
    if barge is None:
        return
    _mapping(barge, where, ("barge",), "`id` and `objects`")
    unknown = sorted(str(k) for k in set(barge) - {"id", "objects"})
    if unknown:
        raise _problem(where, ("barge", unknown[0]), "a barge has `id` and `objects` only")
    if barge.get("id") is not None:
        _word(barge["id"], where, ("barge", "id"))
    objects = barge.get("objects") or []
    if not isinstance(objects, list):
        raise _problem(where, ("barge", "objects"), f"expected a list of {{type, at}}, got {_show(objects)}")
    for index, item in enumerate(objects):
        path = ("barge", "objects", index)
        if not isinstance(item, dict) or "type" not in item or "at" not in item:
            raise _problem(where, path, f"an object is {{type: ..., at: [col, row]}}, got {_show(item)}")
        _word(item["type"], where, path + ("type",))
        _square_at(item["at"], where, path + ("at",))


def _check_decks(decks: Any, where: _Where) -> None:
    if decks is None:
        return
    for deck, cards in _mapping(decks, where, ("decks",), "decks to card ids").items():
        _word(deck, where, ("decks", deck), DECK_KINDS)
        _words(cards, where, ("decks", deck))


def _check_dice(dice: Any, where: _Where) -> None:
    if dice is None:
        return
    for purpose, results in _mapping(dice, where, ("dice",), "purposes to lists of results").items():
        _word(purpose, where, ("dice", purpose))
        if not isinstance(results, list):
            raise _problem(where, ("dice", purpose), f"expected a list of die results, got {_show(results)}")
        for index, value in enumerate(results):
            _whole(value, where, ("dice", purpose, index), 1)


def _check_helots(helots: Any, where: _Where) -> list[str]:
    if not isinstance(helots, dict) or not helots:
        raise _problem(where, ("helots",), "`helots` must map labels to helots")
    labels = []
    for label, spec in helots.items():
        path = ("helots", label)
        if not isinstance(label, str) or "." in label or label in SNAPSHOT_KEYS:
            raise _problem(where, path, f"a helot's label is a name without dots and not one of the snapshot's own "
                                        f"keys ({', '.join(sorted(SNAPSHOT_KEYS))}), got {_show(label)}")
        if spec is not None and not isinstance(spec, dict):
            raise _problem(where, path, f"a helot is a mapping of setup keys, got {_show(spec)}")
        labels.append(label)
    for label, spec in helots.items():
        _check_helot(label, spec or {}, where)
    return labels


def _check_helot(label: str, spec: dict[Any, Any], where: _Where) -> None:
    path = ("helots", label)
    unknown = sorted(str(k) for k in set(spec) - HELOT_KEYS)
    if unknown:
        raise _problem(where, path + (unknown[0],), f"unknown key(s) {', '.join(unknown)}; a helot's keys are "
                                                    f"{', '.join(sorted(HELOT_KEYS))}")
    # The types here; what the values mean together (a weapon's durability, a grapple's squares) the
    # engine checks as it sets the bout up (`engine/setup.py`, `SetupError`).
    for key, value in spec.items():
        _HELOT_CHECKS[key](value, where, path + (key,))


def _check_marks(value: Any, where: _Where, path: tuple[Any, ...]) -> None:
    if isinstance(value, list):
        _words(value, where, path)
    elif isinstance(value, dict):
        for name, held in value.items():
            _word(name, where, path + (name,))
            _plain_argument(held, where, path + (name,))
    elif value is not None:
        raise _problem(where, path, "`marks` is a list of names or a mapping of names to values")


def _check_tp_counter(value: Any, where: _Where, path: tuple[Any, ...]) -> None:
    if not isinstance(value, list):
        raise _problem(where, path, f"expected a list of numbers, got {_show(value)}")
    for index, number in enumerate(value):
        _whole(number, where, path + (index,), 1)
    if len(set(value)) != len(value):
        raise _problem(where, path, "a number is marked on the Turning Point Counter once")


_Check = Callable[[Any, _Where, tuple[Any, ...]], Any]
_HELOT_CHECKS: dict[str, _Check] = {
    "seat": lambda v, w, p: _word(v, w, p, SEAT_ORDER),
    "motivation": _word, "lanista": _word, "weapon": _word,
    "at": _square_at,
    "facing": _direction,
    "overall": _whole, "cred": _whole, "ap": _whole, "mp": _whole, "command_tokens": _whole, "deception": _whole,
    "locations": lambda v, w, p: _numbers_by_name(v, w, p, LOCATIONS),
    "traits": lambda v, w, p: _numbers_by_name(v, w, p, TRAITS),
    "states": lambda v, w, p: _words(v, w, p, STATES),
    "tpdm": _flag, "weapon_drawn": _flag,
    "tp_counter": _check_tp_counter,
    "influence": _words,
    "durability": lambda v, w, p: _whole(v, w, p, 1),
    "ammo": lambda v, w, p: _whole(v, w, p, 1),
    "protects": lambda v, w, p: _word(v, w, p, LOCATIONS),
    "status": lambda v, w, p: _word(v, w, p, STATUSES),
    "grappling": _word,
    "ratio": lambda v, w, p: _whole(v, w, p, 1, 6),
    "marks": _check_marks,
}


def _check_steps(steps: Any, labels: list[str], where: _Where) -> None:
    if steps is None:
        return
    if not isinstance(steps, list):
        raise _problem(where, ("steps",), f"expected a list of steps, got {_show(steps)}")
    for index, step in enumerate(steps):
        path = ("steps", index)
        if step in STEP_WORDS:
            continue
        if not isinstance(step, dict) or "helot" not in step:
            raise _problem(where, path,
                           f"a step is `end_round`, `next_round` or a mapping with `helot`, got {_show(step)}")
        _check_step(step, path, labels, where)


def _check_step(step: dict[Any, Any], path: tuple[Any, ...], labels: list[str], where: _Where) -> None:
    _word(step["helot"], where, path + ("helot",), labels)
    kinds = [kind for kind in STEP_KINDS if kind in step]
    if len(kinds) != 1:
        raise _problem(where, path, f"a step for a helot gives one of {', '.join(STEP_KINDS)}"
                                    + (f", not {' and '.join(kinds)}" if kinds else ""))
    for key, value in step.items():
        if not isinstance(key, str):
            raise _problem(where, path, f"a step's keys are names, got {_show(key)}")
        if key == "reactions":
            _check_reactions(value, path + (key,), labels, where)
        elif key == "choices":
            if not isinstance(value, list):
                raise _problem(where, path + (key,), f"expected a list of choices, got {_show(value)}")
            for index, choice in enumerate(value):
                _choice_value(choice, where, path + (key, index))
        elif key == "to" and "command" in step:
            _square_at(value, where, path + (key,))
        else:
            _plain_argument(value, where, path + (key,))


def _check_reactions(reactions: Any, path: tuple[Any, ...], labels: list[str], where: _Where) -> None:
    if not isinstance(reactions, list):
        raise _problem(where, path, f"expected a list of abilities and cards, got {_show(reactions)}")
    for index, reaction in enumerate(reactions):
        item = path + (index,)
        if not isinstance(reaction, dict) or "helot" not in reaction or ("ability" in reaction) == ("card" in reaction):
            raise _problem(where, item, f"a reaction is {{helot: ..., ability: ...}} or {{helot: ..., card: ...}}, "
                                        f"got {_show(reaction)}")
        _word(reaction["helot"], where, item + ("helot",), labels)
        for key, value in reaction.items():
            if not isinstance(key, str):
                raise _problem(where, item, f"a reaction's keys are names, got {_show(key)}")
            _plain_argument(value, where, item + (key,))


def _check_ids(data: dict[str, Any], ruleset: Ruleset, where: _Where) -> None:
    """Ids outside the helots (whose own ids the engine checks): the barge, its objects, the decks."""
    barge = data.get("barge") or {}
    if barge.get("id") not in (None, RANDOM_BARGE) and ruleset.data_item("barges", barge["id"]) is None:
        raise _problem(where, ("barge", "id"), f"no barge `{barge['id']}` in the loaded packs")
    object_types = ruleset.data.get("objects", {})
    for index, item in enumerate(barge.get("objects") or []):
        if item["type"] not in object_types:
            raise _problem(where, ("barge", "objects", index, "type"), f"no object type `{item['type']}` in the "
                                                                       f"loaded packs")
    for deck, cards in (data.get("decks") or {}).items():
        for index, card in enumerate(cards):
            if ruleset.declaration(DECK_KINDS[deck], card) is None:
                raise _problem(where, ("decks", deck, index), f"no {deck.replace('_', ' ')} card `{card}` in the "
                                                              f"loaded packs")


# ---------------------------------------------------------------- building the bout
def build_setup(data: dict[str, Any], where: _Where = _NOWHERE) -> BoutSetup:
    """The engine's setup from a checked scenario (`load_scenario` checked every value's type)."""
    helots: list[HelotSetup] = []
    for index, (label, spec) in enumerate(data["helots"].items()):
        spec = spec or {}
        seat = spec.get("seat", SEAT_ORDER[index] if index < len(SEAT_ORDER) else None)
        if seat not in SEAT_ENTRY:
            raise _problem(where, ("helots", label), f"name a `seat` ({', '.join(SEAT_ORDER)}): "
                                                     f"the first {len(SEAT_ORDER)} helots take them in that order")
        entry_square, entry_facing = SEAT_ENTRY[seat]
        status, states = _status_and_states(spec, where, ("helots", label))
        helots.append(HelotSetup(
            label=str(label), seat=seat,
            at=_square_at(spec["at"], where, ("helots", label, "at")) if "at" in spec else entry_square,
            facing=_direction(spec["facing"], where, ("helots", label, "facing")) if "facing" in spec else entry_facing,
            motivation=spec.get("motivation"), lanista=spec.get("lanista"), overall=spec.get("overall"),
            locations=dict(spec.get("locations") or {}), states=states,
            traits=spec.get("traits"), cred=spec.get("cred", 0), ap=spec.get("ap", 0), mp=spec.get("mp", 0),
            weapon=spec.get("weapon"), tpdm=spec.get("tpdm", False), tp_counter=list(spec.get("tp_counter") or []),
            command_tokens=spec.get("command_tokens"), influence=spec.get("influence"),
            deception=spec.get("deception"), ratio=spec.get("ratio", 3), marks=_marks(spec.get("marks")),
            weapon_drawn=spec.get("weapon_drawn"), durability=spec.get("durability"), ammo=spec.get("ammo"),
            protects=spec.get("protects"), status=status, grappling=spec.get("grappling"),
        ))
    barge = data.get("barge") or {}
    objects = [(str(o["type"]), _square_at(o["at"], where, ("barge", "objects", i, "at")))
               for i, o in enumerate(barge.get("objects") or [])]
    return BoutSetup(helots=helots, barge=barge.get("id"), objects=objects, crowd=data.get("crowd"),
                     decks={k: list(v) for k, v in (data.get("decks") or {}).items()},
                     phase=data.get("phase", "command"), active=data.get("active"))


def _status_and_states(spec: dict[str, Any], where: _Where, path: tuple[Any, ...]) -> tuple[str, list[str]]:
    """`status`, and the states without `incapacitated` or `dead`: listed in `states` (an extension
    of the contract), they set the status, as `is incapacitated` reads it in a script."""
    states = list(spec.get("states") or [])
    ended = [state for state in states if state in STATUSES]
    status = spec.get("status", ended[0] if ended else "fighting")
    if any(state != status for state in ended):
        raise _problem(where, path + ("states",), f"`states` lists {' and '.join(ended)}, but the helot's status "
                                                  f"is {status}")
    return status, [state for state in states if state not in STATUSES]


def _marks(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if isinstance(value, list):
        return {str(name): True for name in value}
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    raise ScenarioError("`marks` is a list of names or a mapping of names to values")


def step_action(bout: Bout, step: Any) -> Action:
    """Translate one scenario step into an engine action."""
    pending = bout.pending
    if step == "end_round":
        return Action.make(END_ROUND, bout.state.active or (pending.helot if pending else ""))
    if step == "next_round":
        return Action.make(NEXT_ROUND, pending.helot if pending else "")
    if not isinstance(step, dict) or "helot" not in step:
        raise ScenarioError(f"a step is `end_round`, `next_round` or a mapping with `helot`, got {step!r}")
    step = dict(step)
    helot = str(step.pop("helot"))
    if helot not in bout.state.helots:
        raise ScenarioError(f"step names unknown helot `{helot}`")
    step.pop("reactions", None)
    step.pop("choices", None)
    for key in ("command", "ability", "card", "control"):
        if key in step and not isinstance(step[key], str):
            raise ScenarioError(f"`{key}` names a {key} by its id, got {step[key]!r}")
    if "command" in step:
        name = step.pop("command")
        declaration = bout.ruleset.declaration("command", name)
        if declaration is not None and declaration.property("targets") is not None and "target" not in step:
            others = [h.label for h in bout.state.helots.values() if h.label != helot and h.status.value != "dead"]
            if len(others) == 1:
                step["target"] = others[0]
        if "to" in step:
            step["to"] = _square_at(step["to"], _NOWHERE, ("to",))
        return Action.make(COMMAND, helot, name, **step)
    if "control" in step:
        return Action.make(CONTROL, helot, step.pop("control"), **step)
    if "ability" in step:
        name = step.pop("ability")
        return Action.make(ABILITY, helot, name, **_with_target(bout, helot, step, "trait_ability", name))
    if "card" in step:
        name = step.pop("card")
        return Action.make(CARD, helot, name, **_with_target(bout, helot, step, "influence", name))
    raise ScenarioError(f"step for `{helot}` has no `command`, `ability` or `control`")


def _with_target(bout: Bout, helot: str, step: dict[str, Any], kind: str, name: Any) -> dict[str, Any]:
    """With one opponent, an ability's or card's `target` may be left out (as for commands); one that
    aims at no helot gets none."""
    declaration = bout.ruleset.declaration(kind, str(name))
    if declaration is not None and declaration.property("targets") is None:
        return step
    if "target" not in step:
        others = [h.label for h in bout.state.helots.values() if h.label != helot and h.on_board]
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
        if option.helot != decision.helot:
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
        kind = CARD if "card" in reaction else ABILITY
        name = reaction.get("card") or reaction.get("ability")
        extra = {k: v for k, v in reaction.items() if k not in ("helot", "ability", "card", "refused")}
        return Action.make(kind, str(reaction.get("helot")), name, **_with_target(
            self.bout, str(reaction.get("helot")), extra, "influence" if kind == CARD else "trait_ability", name))

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
            raise ScenarioError(f"{decision.helot} must decide ({decision.kind}) and cannot pass")
        self.bout.apply(passing[0])

    def _chosen(self, decision: Decision) -> Action | None:
        """The option the next of `choices` names; None to decline a Turning Point card's negation
        when no choice is left (declining is passing)."""
        named = option_names(decision)
        offered = ", ".join(_show_choice(name) for name, _ in named)
        if not self.choices:
            if decision.kind == "negate_card":
                return None
            raise ScenarioError(f"{decision.helot} must choose ({decision.kind}: {offered}) but the step's "
                                f"`choices` has no answer left for it")
        wanted = self.choices.pop(0)
        for name, option in named:
            if name == wanted:
                return option
        raise ScenarioError(f"`choices`: {_show_choice(wanted)} is not offered to {decision.helot} at "
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
        bout = Bout(ruleset, build_setup(data, where), seed=int(data.get("seed", 0)),
                    forced_dice=data.get("dice") or {}, strict_ledger=True)
    except SetupError as error:
        path = ("helots", error.helot, error.key) if error.helot else ("helots",)
        result.mismatches.append(f"cannot load: {where(*path)}: {error.diagnostics[0].message}")
        return result
    except (ScenarioError, NexusError, DiceError) as error:
        result.mismatches.append(_failure(error, "cannot load"))
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
                result.snapshot = bout.snapshot()
                return result
        else:
            if expect_error:
                result.mismatches.append("error: expected the last step to be refused, but it was allowed")
    except ScenarioError as error:
        result.mismatches.append(f"cannot run: {where('steps', index)}: step {index + 1} ({_describe(steps[index])}): "
                                 f"{error}")
        return result
    except (NexusError, DiceError) as error:
        result.mismatches.append(_failure(error, "cannot run"))
        return result
    except Exception as error:  # an engine bug: report it as a FAIL, keep it for pytest's traceback
        result.mismatches.append(f"internal error: {type(error).__name__}: {error}")
        result.internal_error = error
        return result

    snapshot = bout.snapshot()
    result.snapshot = snapshot
    for key, expected in (data.get("expect") or {}).items():
        found, actual = lookup(snapshot, str(key))
        if not found:
            result.mismatches.append(f"{key}: expected {_show(expected)}, got no such key")
        elif not _matches(str(key), expected, actual):
            result.mismatches.append(f"{key}: expected {_show(expected)}, got {_show(actual)}")
    result.passed = not result.mismatches
    return result


def _pack_refs(packs: list[Any], folder: Path, tree: Path, where: _Where) -> tuple[str, ...]:
    """The packs to load: ids of the content root, and (an extension of the contract, for test-only
    packs) folders named by their path from the scenario's folder. A folder must lie inside the
    scenario's folder tree or the content root, links followed: a scenario from a stranger cannot
    load a pack from anywhere else on the disk."""
    refs = []
    for index, pack in enumerate(packs):
        ref = str(pack)
        if _is_path(ref) or (folder / ref / MANIFEST).is_file():
            try:
                refs.append(str(_pack_folder(folder / ref, ref, folder, tree)))
            except ScenarioError as error:
                raise ScenarioError(f"{where('packs', index)}: {error}") from None
        else:
            refs.append(ref)
    return tuple(refs)


def _is_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref in (".", "..") or Path(ref).is_absolute()


def _pack_folder(path: Path, ref: str, folder: Path, tree: Path) -> Path:
    roots = [tree, default_content_root()]
    if _inside(folder, PROJECT_SCENARIOS):
        roots.append(PROJECT_SCENARIOS)
    for root in roots:
        try:
            resolved = confine(path, root)
        except ContentError:
            continue
        if not (resolved / MANIFEST).is_file():
            raise ScenarioError(f"`packs`: `{ref}` is not a pack folder: it holds no {MANIFEST}")
        return resolved
    raise ScenarioError(f"`packs`: `{ref}` lies outside the scenario's folder tree ({display_path(tree)}) and "
                        f"the content root ({display_path(roots[1])}): a scenario loads packs only from there")


def _inside(path: Path, folder: Path) -> bool:
    try:
        confine(path, folder)
    except ContentError:
        return False
    return True


def _failure(error: Exception, context: str) -> str:
    """One line saying why a scenario could not be loaded or run."""
    if isinstance(error, ForcedDiceExhausted):
        return f"the forced dice for `{error.purpose}` ran out"
    if isinstance(error, NexusError) and context == "cannot run":
        return f"the engine stopped: {error.diagnostics[0].message}"
    if isinstance(error, NexusError):
        return f"{context}: {_diagnostics(error)}"
    return f"{context}: {error}"


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
    return [path for path, _ in _scenario_files_with_roots(paths)]


def _scenario_files_with_roots(paths: Iterable[str | Path]) -> list[tuple[Path, Path | None]]:
    """Each scenario file with its folder tree: the folder named on the run, or none for a file named
    on its own (its own folder then)."""
    files: list[tuple[Path, Path | None]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend((p, path) for p in sorted(path.rglob("*"))
                         if p.suffix in (".yaml", ".yml") and not is_pack_file(p))
        else:
            files.append((path, None))
    return files


def run_paths(paths: Iterable[str | Path]) -> list[ScenarioResult]:
    results = []
    for path, root in _scenario_files_with_roots(paths):
        try:
            scenario = load_scenario(path, root)
        except ScenarioError as error:
            results.append(ScenarioResult(error.name or path.stem, str(path), False, [f"cannot load: {error}"]))
            continue
        results.append(run_scenario(scenario))
    return results


def snapshot_of(path: str | Path) -> dict[str, Any]:
    result = run_scenario(load_scenario(Path(path)))
    if result.snapshot is None:
        raise ScenarioError("; ".join(result.mismatches))
    return result.snapshot
