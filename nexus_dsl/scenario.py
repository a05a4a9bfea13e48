"""Rules scenarios (shared/contracts/SCENARIOS.md): set up a moment, force the dice, run steps,
compare the snapshot with what the rulebook says must follow.

A scenario that cannot even be loaded (bad YAML, unknown id, bad square) is a FAIL with a clear
message, never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .content.loader import cached_ruleset
from .engine.actions import ABILITY, CARD, CHOICE, COMMAND, CONTROL, END_ROUND, NEXT_ROUND, PASS, Action
from .engine.board import Square, parse_direction, parse_square
from .engine.bout import Bout
from .engine.dice import DiceError, ForcedDiceExhausted
from .engine.setup import SEAT_ENTRY, SEAT_ORDER, BoutSetup, HelotSetup
from .errors import NexusError, RulesError
from .schema import load_yaml_with_positions

SCENARIO_KEYS = {"name", "rulebook", "packs", "seed", "barge", "helots", "crowd", "decks", "active", "phase",
                 "dice", "steps", "expect", "error", "notes"}
HELOT_KEYS = {"seat", "motivation", "lanista", "at", "facing", "overall", "locations", "states", "traits", "cred",
              "ap", "mp", "weapon", "tpdm", "tp_counter", "command_tokens", "influence",
              # extensions of the contract:
              "deception", "ratio", "marks"}
# Decisions a step never addresses directly: they are answered by `reactions` and `choices`, or passed.
INNER_DECISIONS = ("window:", "choose:", "negate_card", "block_deception", "deception", "keep_influence")
# Inner decisions a following step may answer itself (`control: deception`, `control: block_deception`).
STEP_DECISIONS = ("deception", "block_deception")
# Snapshot values compared as sets: the contract says order is ignored for these.
UNORDERED = ("states", "tp_counter", "influence")


class ScenarioError(Exception):
    """The scenario file itself is wrong (not the engine)."""


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


def load_scenario(path: Path) -> Scenario:
    file = str(path)
    try:
        data, _ = load_yaml_with_positions(path.read_text(encoding="utf-8"), file)
    except NexusError as error:
        raise ScenarioError("; ".join(f"{d.location()}: {d.message}" for d in error.diagnostics)) from None
    except OSError as error:
        raise ScenarioError(f"cannot read {file}: {error.strerror}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{file}: a scenario is a mapping with `name`, `helots`, `steps` and `expect`")
    unknown = set(data) - SCENARIO_KEYS
    if unknown:
        raise ScenarioError(f"{file}: unknown key(s) {', '.join(sorted(unknown))}")
    if not isinstance(data.get("helots"), dict) or not data["helots"]:
        raise ScenarioError(f"{file}: `helots` must map labels to helots")
    return Scenario(str(data.get("name") or path.stem), file, data)


# ---------------------------------------------------------------- building the bout
def _square(value: Any, where: str) -> Square:
    try:
        return parse_square(value)
    except ValueError as error:
        raise ScenarioError(f"{where}: {error}") from None


def build_setup(data: dict[str, Any]) -> BoutSetup:
    helots: list[HelotSetup] = []
    for index, (label, spec) in enumerate(data["helots"].items()):
        spec = spec or {}
        if not isinstance(spec, dict):
            raise ScenarioError(f"helot `{label}` must be a mapping")
        unknown = set(spec) - HELOT_KEYS
        if unknown:
            raise ScenarioError(f"helot `{label}`: unknown key(s) {', '.join(sorted(unknown))}")
        seat = spec.get("seat", SEAT_ORDER[index] if index < len(SEAT_ORDER) else None)
        if seat not in SEAT_ENTRY:
            raise ScenarioError(f"helot `{label}`: seat must be one of {', '.join(SEAT_ORDER)}")
        entry_square, entry_facing = SEAT_ENTRY[seat]
        at = _square(spec["at"], f"helot `{label}`.at") if "at" in spec else entry_square
        try:
            facing = parse_direction(spec["facing"]) if "facing" in spec else entry_facing
        except ValueError as error:
            raise ScenarioError(f"helot `{label}`.facing: {error}") from None
        helots.append(HelotSetup(
            label=str(label), seat=seat, at=at, facing=facing, motivation=spec.get("motivation"),
            lanista=spec.get("lanista"), overall=spec.get("overall"), locations=dict(spec.get("locations") or {}),
            states=list(spec.get("states") or []), traits=spec.get("traits"), cred=spec.get("cred", 0),
            ap=spec.get("ap", 0), mp=spec.get("mp", 0), weapon=spec.get("weapon"), tpdm=spec.get("tpdm", False),
            tp_counter=list(spec.get("tp_counter") or []), command_tokens=spec.get("command_tokens"),
            influence=spec.get("influence"), deception=spec.get("deception"), ratio=spec.get("ratio", 3),
            marks=_marks(spec.get("marks")),
        ))
    barge = data.get("barge") or {}
    objects = [(str(o["type"]), _square(o["at"], f"barge object {o}")) for o in barge.get("objects", [])]
    phase = data.get("phase", "command")
    if phase not in ("command", "cycle"):
        raise ScenarioError("`phase` is `command` or `cycle`")
    active = data.get("active")
    if active is not None and active not in data["helots"]:
        raise ScenarioError(f"`active: {active}` is not one of the helots")
    return BoutSetup(helots=helots, barge=barge.get("id"), objects=objects, crowd=data.get("crowd"),
                     decks=dict(data.get("decks") or {}), phase=phase, active=active)


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
    if "command" in step:
        name = step.pop("command")
        declaration = bout.ruleset.declaration("command", name)
        if declaration is not None and declaration.property("targets") is not None and "target" not in step:
            others = [h.label for h in bout.state.helots.values() if h.label != helot and h.status.value != "dead"]
            if len(others) == 1:
                step["target"] = others[0]
        if "to" in step:
            step["to"] = _square(step["to"], f"step {name}.to")
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


class StepRunner:
    """Applies one step and answers the decisions it raises: a `reaction` is used at the first
    window where it is legal, `choices` answer choice decisions in order, anything else passes."""

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
        if decision.kind.startswith("choose:") or decision.kind == "keep_influence":
            if not self.choices:
                raise ScenarioError(f"{decision.helot} must choose ({decision.kind}) but the step gives no `choices`")
            wanted = self.choices.pop(0)
            for option in decision.options:
                if option.arg("pick") == _freeze_choice(wanted) or option.arg("card") == wanted:
                    self.bout.apply(option)
                    return
            raise ScenarioError(f"{wanted!r} is not one of the choices for {decision.kind}")
        if decision.kind == "negate_card" and self.choices and self.choices[0] in ("negate", "pass"):
            # `choices: [negate]` pays a Turning Point card's cost to escape it; `pass` declines.
            wanted = self.choices.pop(0)
            self.bout.apply(next(o for o in decision.options if (o.kind == PASS) == (wanted == "pass")))
            return
        passing = [o for o in decision.options if o.kind == PASS]
        if not passing:
            raise ScenarioError(f"{decision.helot} must decide ({decision.kind}) and cannot pass")
        self.bout.apply(passing[0])


def _freeze_choice(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


# ---------------------------------------------------------------- running
def run_scenario(scenario: Scenario) -> ScenarioResult:
    result = ScenarioResult(scenario.name, scenario.file, passed=False)
    data = scenario.data
    try:
        ruleset = cached_ruleset(_pack_refs(data.get("packs") or ["base"], Path(scenario.file).parent))
        bout = Bout(ruleset, build_setup(data), seed=int(data.get("seed", 0)), forced_dice=data.get("dice") or {},
                    strict_ledger=True)
    except (ScenarioError, NexusError, DiceError) as error:
        result.mismatches.append(_failure(error, "cannot load"))
        return result

    expect_error = data.get("error")
    steps = list(data.get("steps") or [])
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
    except (ScenarioError, NexusError, DiceError) as error:
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


def _pack_refs(packs: list[Any], folder: Path) -> tuple[str, ...]:
    """Pack ids from the content root; a ref that names a pack folder beside the scenario (an
    extension of the contract, for test-only packs) is used as that folder."""
    refs = []
    for pack in packs:
        local = folder / str(pack)
        refs.append(str(local.resolve()) if (local / "pack.yaml").is_file() else str(pack))
    return tuple(refs)


def _failure(error: Exception, context: str) -> str:
    """One line saying why a scenario could not be loaded or run."""
    if isinstance(error, ForcedDiceExhausted):
        return f"the forced dice for `{error.purpose}` ran out"
    if isinstance(error, NexusError) and context == "cannot run":
        return f"the engine stopped: {error.diagnostics[0].message}"
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
    return json.dumps(value)


def _describe(step: Any) -> str:
    if isinstance(step, dict):
        return ", ".join(f"{k}: {v}" for k, v in step.items())
    return str(step)


def is_pack_file(path: Path) -> bool:
    """Test-only packs may sit beside scenarios; their files are not scenarios."""
    return any((folder / "pack.yaml").is_file() for folder in path.parents)


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and not is_pack_file(p)))
        else:
            files.append(path)
    return files


def run_paths(paths: Iterable[str | Path]) -> list[ScenarioResult]:
    results = []
    for path in scenario_files(paths):
        try:
            scenario = load_scenario(path)
        except ScenarioError as error:
            results.append(ScenarioResult(path.stem, str(path), False, [f"cannot load: {error}"]))
            continue
        results.append(run_scenario(scenario))
    return results


def snapshot_of(path: str | Path) -> dict[str, Any]:
    result = run_scenario(load_scenario(Path(path)))
    if result.snapshot is None:
        raise ScenarioError("; ".join(result.mismatches))
    return result.snapshot
