"""One fuzz input through the real pipeline, and what counts as a failure.

Scripts go through `validate_files.check_script_text` (the editor's and `nexus check`'s check of one
file on top of base), then as a one-file pack building on base through the loader, and, when they
load cleanly, through a short seeded bout. YAML data goes through `validate_files.check_yaml_text`
(with the real base, for the barge checks) and `validate_files.check_paths` on a pack folder holding
the file, under a private content root whose `base` is a stand-in manifest (a mutated expansion
manifest still builds on `base` without reloading the whole base pack for every input). Scenarios go
through `scenario.run_paths` from a private copy of tests/scenarios (their relative pack references
keep working).

Three kinds of failure:
- `traceback`: an exception other than the documented `NexusError` family escaped (or a scenario
  reported an internal error);
- `hang`: a stage used more than its CPU budget (a `SIGPROF` timer raises `OverBudget`, a
  `BaseException`, so the code under test cannot swallow it with `except Exception`);
- `unpositioned`: a diagnostic whose line or column is 0, or that names a line or column past the
  end of the file it blames. `WHOLE_FILE_CODES` lists the codes exempt because they are about a
  whole file by nature: none. A problem with a whole file (empty, too large, not UTF-8, outside its
  folder) still has a first place to point at, 1:1, and an editor needs a line to mark.
  A scenario's FAIL lines are not diagnostics (the scenario contract asks for a clear message, not a
  position), so scenarios are judged for tracebacks and hangs only.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import tempfile
import time
import traceback
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Iterable, Iterator

from fuzz_corpus import CONTENT, SCENARIOS, FuzzInput

from nexus_dsl.agents import make_agent
from nexus_dsl.content.loader import MANIFEST, LoadedPack, cached_ruleset, layer, load_pack_folder
from nexus_dsl.engine.bout import Bout, next_action
from nexus_dsl.engine.setup import standard_setup
from nexus_dsl.errors import Diagnostic, NexusError
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.scenario import run_paths
from nexus_dsl.validate_files import check_paths, check_script_text, check_yaml_text

WHOLE_FILE_CODES: frozenset[str] = frozenset()

#: CPU seconds one stage may use on one input. Real content takes a fraction of a second per stage
#: (a bout stage at most about one); anything past these is runaway work, not a slow machine, since
#: CPU time does not grow when other processes share the cores.
STAGE_BUDGETS = {"check_script_text": 4.0, "load": 4.0, "bout": 8.0, "check_yaml_text": 4.0, "check_paths": 4.0,
                 "scenario": 8.0}
#: Actions a fuzz bout plays at most: enough for several rounds of commands, abilities and cards.
BOUT_ACTIONS = 80

FUZZ_MANIFEST = "id: fuzz\nname: Fuzz pack\nversion: 1.0.0\nkind: expansion\nbuilds_on: [{base}]\n"
BASE_STUB_MANIFEST = "id: base\nname: Stand-in for the base pack\nversion: 1.0.0\nkind: base\nbuilds_on: []\n"


class OverBudget(BaseException):
    """A stage ran past its CPU budget."""


@dataclass(frozen=True)
class Failure:
    kind: str  # traceback, hang or unpositioned
    stage: str
    signature: str  # what makes two failures the same problem
    summary: str  # one line
    detail: str  # the traceback, or the diagnostic

    def describe(self) -> str:
        return f"[{self.kind}] {self.stage}: {self.summary}\n{_indent(self.detail)}"


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines())


# ---------------------------------------------------------------- budgets
@contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Raise `OverBudget` in this thread once the process has used `seconds` more CPU time."""

    def on_timer(signum: int, frame: object) -> None:
        raise OverBudget(f"more than {seconds:g} s of CPU")

    previous = signal.signal(signal.SIGPROF, on_timer)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# ---------------------------------------------------------------- classifying what happened
def where(tb: TracebackType | None) -> str:
    """The innermost frame of the package under test (else the innermost frame) as `file:function`."""
    frames = traceback.extract_tb(tb)
    ours = [f for f in frames if "nexus_dsl" in f.filename.replace(os.sep, "/")]
    frame = (ours or frames or [None])[-1]
    if frame is None:
        return "?"
    path = frame.filename.replace(os.sep, "/")
    short = path[path.index("nexus_dsl"):] if "nexus_dsl" in path else path.rsplit("/", 1)[-1]
    return f"{short}:{frame.name}"


def traceback_failure(stage: str, error: BaseException) -> Failure:
    at = where(error.__traceback__)
    first_line = (str(error).splitlines() or [""])[0][:200]
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__, limit=-12))
    return Failure("traceback", stage, f"traceback|{stage}|{type(error).__name__}|{at}",
                   f"{type(error).__name__}: {first_line} (at {at})", text)


def hang_failure(stage: str, error: OverBudget) -> Failure:
    at = where(error.__traceback__)
    text = "".join(traceback.format_tb(error.__traceback__, limit=-12))
    return Failure("hang", stage, f"hang|{stage}|{at}", f"{error} (interrupted in {at})", text)


@dataclass(frozen=True)
class Blamed:
    """A file a stage's diagnostics may blame, with its text (to check positions against)."""

    names: frozenset[str]  # every way the file may be named in a diagnostic
    text: str | None


def position_problem(diagnostic: Diagnostic, blamed: Blamed | None) -> str | None:
    """Why a diagnostic's position names no place in its file, or None when it does."""
    if diagnostic.code in WHOLE_FILE_CODES:
        return None
    if diagnostic.line < 1 or diagnostic.column < 1:
        return f"no position (line {diagnostic.line}, column {diagnostic.column})"
    if blamed is None or blamed.text is None or diagnostic.file not in blamed.names:
        return None
    lines = blamed.text.split("\n")
    if diagnostic.line > len(lines):
        return f"line {diagnostic.line} is past the end of the file ({len(lines)} lines)"
    if diagnostic.column > len(lines[diagnostic.line - 1]) + 1:
        return f"column {diagnostic.column} is past the end of line {diagnostic.line} ({len(lines[diagnostic.line - 1])} characters)"
    return None


def unpositioned_failures(stage: str, diagnostics: Iterable[Diagnostic], blamed: Blamed | None) -> list[Failure]:
    failures: dict[str, Failure] = {}
    for diagnostic in diagnostics:
        problem = position_problem(diagnostic, blamed)
        if problem is None:
            continue
        reason = "no position" if problem.startswith("no position") else "past the end"
        signature = f"unpositioned|{stage}|{diagnostic.code}|{reason}"
        failures.setdefault(signature, Failure(
            "unpositioned", stage, signature, f"{diagnostic.code}: {problem}: {diagnostic.message[:160]}",
            f"{diagnostic.file}:{diagnostic.line}:{diagnostic.column}: {diagnostic.code}: {diagnostic.message}"))
    return list(failures.values())


#: CPU seconds and runs per stage in this process (the campaign's figures say where the time goes).
STAGE_CPU: Counter[str] = Counter()
STAGE_RUNS: Counter[str] = Counter()


def run_stage(stage: str, call: Callable[[], Any], failures: list[Failure], budget: float | None = None) -> Any:
    """`call()` within the stage's CPU budget; a traceback or a hang is added to `failures` (and
    None returned). A `NexusError` is a documented outcome: it is returned for the caller to judge."""
    started = time.process_time()
    try:
        with cpu_budget(STAGE_BUDGETS[stage] if budget is None else budget):
            return call()
    except OverBudget as error:
        failures.append(hang_failure(stage, error))
    except NexusError as error:
        return error
    except Exception as error:  # noqa: BLE001 - every other exception is what the fuzzer looks for
        failures.append(traceback_failure(stage, error))
    finally:
        STAGE_CPU[stage] += time.process_time() - started
        STAGE_RUNS[stage] += 1
    return None


def judge_diagnostics(stage: str, outcome: Any, diagnostics: list[Diagnostic] | None, blamed: Blamed | None,
                      failures: list[Failure]) -> None:
    if isinstance(outcome, NexusError):
        diagnostics = outcome.diagnostics
    failures.extend(unpositioned_failures(stage, diagnostics or [], blamed))
    failures.extend(engine_failures(stage, diagnostics or []))


def engine_failures(stage: str, diagnostics: Iterable[Diagnostic]) -> list[Failure]:
    """A Python error the engine caught inside a function or effect (`runtime/internal`): the user
    saw a positioned message, but it is the engine's bug, so it counts as a traceback."""
    failures: dict[str, Failure] = {}
    for diagnostic in diagnostics:
        if diagnostic.code != "runtime/internal":
            continue
        signature = f"traceback|{stage}|runtime/internal|{diagnostic.message.split(':')[0][:60]}"
        failures.setdefault(signature, Failure(
            "traceback", stage, signature, diagnostic.message[:160],
            f"{diagnostic.file}:{diagnostic.line}:{diagnostic.column}: {diagnostic.code}: {diagnostic.message}"))
    return list(failures.values())


def decoded(data: bytes) -> str | None:
    """The text an editor would hold for these bytes (strict UTF-8), or None."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


# ---------------------------------------------------------------- the process's shared state
class Workspace:
    """A private folder per process: a pack for mutated scripts, a content root for mutated data and
    a copy of the scenarios (so scenarios' relative pack references keep working)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root or tempfile.mkdtemp(prefix="nexus-fuzz-"))
        self.script_pack = self.root / "scripts" / "fuzz"
        self.data_root = self.root / "data"
        self.data_pack = self.data_root / "fuzz"
        self.script_pack.mkdir(parents=True, exist_ok=True)
        (self.data_root / "base").mkdir(parents=True, exist_ok=True)
        (self.data_root / "base" / MANIFEST).write_text(BASE_STUB_MANIFEST, encoding="utf-8")

    @property
    def scenarios(self) -> Path:
        """A copy of tests/scenarios, made when first needed."""
        folder = self.root / "scenarios"
        if not folder.exists():
            shutil.copytree(SCENARIOS, folder)
        return folder

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def empty_pack(folder: Path, manifest: str | None) -> None:
    """Clear a pack folder of everything but its manifest (or everything, when a new one is given)."""
    folder.mkdir(parents=True, exist_ok=True)
    for entry in folder.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        elif entry.name != MANIFEST or manifest is not None:
            entry.unlink()
    if manifest is not None:
        (folder / MANIFEST).write_text(manifest, encoding="utf-8")


def write_file(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


_BASE_PACK: list[tuple[LoadedPack, list[Diagnostic]]] = []


def base_ruleset() -> Ruleset:
    return cached_ruleset(("base",))


def base_pack() -> tuple[LoadedPack, list[Diagnostic]]:
    """The base pack's files, parsed and validated once per process."""
    if not _BASE_PACK:
        diagnostics: list[Diagnostic] = []
        pack = load_pack_folder(CONTENT / "base", diagnostics)
        assert pack is not None, diagnostics
        _BASE_PACK.append((pack, diagnostics))
    return _BASE_PACK[0]


def load_on_base(folder: Path) -> tuple[Ruleset | None, list[Diagnostic]]:
    """What `load_ruleset_collecting([folder])` does for a pack building on base: the pack's own files
    read, parsed and validated, then every declaration layered and checked as a whole, with base's
    files parsed only once per process (a test holds the two equal)."""
    base, base_diagnostics = base_pack()
    diagnostics = list(base_diagnostics)
    pack = load_pack_folder(folder, diagnostics)
    ruleset = layer([base] + ([pack] if pack is not None else []), diagnostics)
    return (None if diagnostics else ruleset), diagnostics


@contextmanager
def content_root(root: Path) -> Iterator[None]:
    """The default content root (`$NEXUS_CONTENT_ROOT`) set to `root` while the block runs."""
    previous = os.environ.get("NEXUS_CONTENT_ROOT")
    os.environ["NEXUS_CONTENT_ROOT"] = str(root)
    try:
        yield
    finally:
        if previous is None:
            del os.environ["NEXUS_CONTENT_ROOT"]
        else:
            os.environ["NEXUS_CONTENT_ROOT"] = previous


def warm_up(workspace: Workspace) -> None:
    """Everything a worker loads once: the base ruleset, base's parsed files, the parser."""
    base_ruleset()
    base_pack()
    check_script_text('rule warm "Warm" { param warm_up = 1 }\n', "warm.nexus", base_ruleset())


# ---------------------------------------------------------------- scripts
def run_script_input(item: FuzzInput, workspace: Workspace) -> list[Failure]:
    failures: list[Failure] = []
    text = decoded(item.data)
    name = item.source.relative
    if text is not None:
        outcome = run_stage("check_script_text", lambda: check_script_text(text, name, base_ruleset()), failures)
        judge_diagnostics("check_script_text", outcome, outcome if isinstance(outcome, list) else None,
                          Blamed(frozenset({name}), text), failures)
    empty_pack(workspace.script_pack, FUZZ_MANIFEST.format(base="base"))
    target = write_file(workspace.script_pack / name, item.data)
    loaded = run_stage("load", lambda: load_on_base(workspace.script_pack), failures)
    blamed = Blamed(_names_of(target), text)
    if isinstance(loaded, tuple):
        ruleset, diagnostics = loaded
        judge_diagnostics("load", None, diagnostics, blamed, failures)
        if ruleset is not None:
            faults = run_stage("bout", lambda: short_bout(ruleset, item.number), failures)
            judge_diagnostics("bout", faults, faults if isinstance(faults, list) else None, blamed, failures)
    else:
        judge_diagnostics("load", loaded, None, blamed, failures)
    return failures


def _names_of(path: Path) -> frozenset[str]:
    names = {str(path), str(path.resolve())}
    try:
        names.add(str(path.resolve().relative_to(Path.cwd().resolve())))
    except ValueError:
        pass
    return frozenset(names)


def short_bout(ruleset: Ruleset, seed: int, actions: int = BOUT_ACTIONS) -> list[Diagnostic]:
    """A seeded bout of the loaded content, played by agents for at most `actions` actions. Returns
    the diagnostic of the script fault that stopped it, if one did (the engine stops a bout on a
    fault and logs it); an error the engine raises instead propagates."""
    rng = random.Random(f"nexus-fuzz-bout:{seed}")
    players = rng.choice((2, 2, 3, 4))
    motivations = [item["id"] for item in ruleset.data_items("motivations")]
    lanistas = [item["id"] for item in ruleset.data_items("lanistas")]
    setup = standard_setup(players=players, roles=[rng.choice(motivations) for _ in range(players)],
                           profiles=[rng.choice(lanistas) for _ in range(players)]) \
        if motivations and lanistas else standard_setup(players=players)
    agent = "heuristic" if rng.random() < 0.25 else "random"
    agents = {h.label: make_agent(agent, seed=seed * 31 + i) for i, h in enumerate(setup.pieces)}
    bout = Bout(ruleset, setup, seed=seed)
    applied = 0
    while bout.pending is not None and applied < actions:
        bout.apply(next_action(bout, agents))
        applied += 1
    faults = [_diagnostic_of(event.data) for event in bout.log if event.type == "fault"]
    BOUT_FAULTS.update(d.code for d in faults)
    return faults


#: Codes of the script faults that stopped fuzz bouts in this process (a figure of the campaign; an
#: engine error caught inside a function or effect, `runtime/internal`, is also a failure).
BOUT_FAULTS: Counter[str] = Counter()


def _diagnostic_of(data: dict[str, Any]) -> Diagnostic:
    return Diagnostic(str(data.get("code")), str(data.get("message")), str(data.get("file")),
                      int(data.get("line") or 0), int(data.get("column") or 0))


# ---------------------------------------------------------------- YAML data
def run_data_input(item: FuzzInput, workspace: Workspace) -> list[Failure]:
    failures: list[Failure] = []
    text = decoded(item.data)
    is_manifest = item.data_type == "pack"
    empty_pack(workspace.data_pack, None if is_manifest else FUZZ_MANIFEST.format(base=""))
    target = write_file(workspace.data_pack / item.source.relative, item.data)
    _add_companions(item, workspace)
    blamed = Blamed(_names_of(target) | {item.source.relative}, text)
    if text is not None:
        outcome = run_stage("check_yaml_text", lambda: check_yaml_text(text, item.source.relative, target,
                                                                       base_ruleset()), failures)
        judge_diagnostics("check_yaml_text", outcome, outcome if isinstance(outcome, list) else None, blamed, failures)

    def check_pack() -> list[Diagnostic]:
        with content_root(workspace.data_root):
            return check_paths([workspace.data_pack]).diagnostics

    outcome = run_stage("check_paths", check_pack, failures)
    judge_diagnostics("check_paths", outcome, outcome if isinstance(outcome, list) else None, blamed, failures)
    return failures


def _add_companions(item: FuzzInput, workspace: Workspace) -> None:
    """A mutated manifest gets one data file to load; other data gets the box's object types, which
    barges name (a stand-in `base` pack beside it has none)."""
    companion = "lanistas.yaml" if item.data_type == "pack" else "objects.yaml"
    if item.data_type != "objects" and not (workspace.data_pack / companion).exists():
        shutil.copyfile(CONTENT / "base" / companion, workspace.data_pack / companion)


# ---------------------------------------------------------------- scenarios
SCENARIO_FILE = "fuzz_input.yaml"


def run_scenario_input(item: FuzzInput, workspace: Workspace) -> list[Failure]:
    failures: list[Failure] = []
    target = write_file(workspace.scenarios / Path(item.source.relative).parent / SCENARIO_FILE, item.data)
    try:
        results = run_stage("scenario", lambda: run_paths([target]), failures)
    finally:
        target.unlink(missing_ok=True)
    if isinstance(results, NexusError):
        judge_diagnostics("scenario", results, None, None, failures)
    for result in results if isinstance(results, list) else []:
        if result.internal_error is not None:
            failures.append(traceback_failure("scenario", result.internal_error))
    return failures


RUNNERS: dict[str, Callable[[FuzzInput, Workspace], list[Failure]]] = {
    "script": run_script_input, "data": run_data_input, "scenario": run_scenario_input,
}


def run_input(item: FuzzInput, workspace: Workspace) -> list[Failure]:
    return RUNNERS[item.kind](item, workspace)
