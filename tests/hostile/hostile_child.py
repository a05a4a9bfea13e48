"""Run one hostile case in this fresh process and write what happened as JSON.

    python tests/hostile/hostile_child.py CASE_ID FOLDER

The case's trivial input is written to FOLDER/trivial and its hostile input to FOLDER/hostile. The
entry point runs the trivial input twice (the first run warms up: imports, the grammar, caches), then
the hostile one; CPU time (`resource.getrusage`, user + system) and peak memory (`ru_maxrss`) are
taken around the second trivial run and the hostile run, so the hostile input is measured over the
same process doing the same work on a trivial input. The hostile run is stopped after
`CPU_BUDGET` seconds (a `SIGPROF` timer), and the address space is capped so a memory bomb ends as
a `MemoryError` here instead of exhausting the machine. FOLDER/result.json holds the measurements,
every diagnostic, the printed output (for a `check` case with checks of its own, also `nexus
check`'s text from `cli.main`, which those checks read) and any traceback.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import random
import re
import resource
import signal
import sys
import traceback
from pathlib import Path
from typing import Any, Callable

from hostile_cases import BY_ID, Case, Layout, content_bytes

#: CPU seconds after which the hostile run is stopped (the verdict's limit is 1 s over the trivial run).
CPU_BUDGET = 10.0
#: How much the address space may grow beyond the process's size after the imports.
MEMORY_ALLOWANCE = 3 * 1024 ** 3
#: Actions a bout case plays at most before it counts as not refused.
BOUT_ACTIONS = 300
MOST_DIAGNOSTICS = 300


class OverBudget(BaseException):
    """The hostile run used more than `CPU_BUDGET` seconds of CPU (a BaseException, so the code under
    test cannot swallow it with `except Exception`)."""


def write_layout(layout: Layout, folder: Path) -> None:
    for relative, content in layout.files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content_bytes(content))
    for relative, target in layout.links.items():
        link = folder / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, link)


def diagnostic_json(diagnostic: Any) -> dict[str, Any]:
    return {"code": diagnostic.code, "severity": diagnostic.severity, "file": diagnostic.file, "line": diagnostic.line,
            "column": diagnostic.column, "message": diagnostic.message, "hint": diagnostic.hint}


# ---------------------------------------------------------------- the entry points
Outcome = tuple[list[dict[str, Any]], str]  # diagnostics as JSON, printed output


def entry_check(case: Case, folder: Path) -> Outcome:
    from nexus_dsl.errors import format_all
    from nexus_dsl.validate_files import check_paths

    report = check_paths([folder / case.target])
    return [diagnostic_json(d) for d in report.diagnostics], format_all(report.diagnostics, report.sources)


def entry_load(case: Case, folder: Path) -> Outcome:
    from nexus_dsl.content.loader import load_ruleset_collecting
    from nexus_dsl.errors import format_all

    _, diagnostics = load_ruleset_collecting([folder / case.target])
    return [diagnostic_json(d) for d in diagnostics], format_all(diagnostics)


def entry_load_packs(case: Case, folder: Path) -> Outcome:
    from nexus_dsl.errors import format_all
    from nexus_dsl.workbench.packs import load_packs

    result = load_packs([str(case.pack)], folder / case.target)
    return [diagnostic_json(d) for d in result.diagnostics], format_all(result.diagnostics)


def entry_validate_item(case: Case, folder: Path) -> Outcome:
    from nexus_dsl.content.loader import cached_ruleset
    from nexus_dsl.errors import format_all
    from nexus_dsl.workbench.authoring import validate_item

    text = (folder / case.target).read_text(encoding="utf-8")
    validation = validate_item(str(case.kind), text, cached_ruleset(("base",)))
    return [diagnostic_json(d) for d in validation.diagnostics], format_all(validation.diagnostics, {"<item>": text})


POSITION = re.compile(r"(?P<file>[^\s:;`'\"]+):(?P<line>\d+):(?P<column>\d+)")


def entry_scenario(case: Case, folder: Path) -> Outcome:
    """A scenario's problems are lines of its FAIL report; a position in one is `file:line:col`."""
    from nexus_dsl.scenario import run_paths

    results = run_paths([folder / case.target])
    diagnostics = []
    for result in results:
        if result.internal_error is not None:
            raise result.internal_error
        for message in result.mismatches:
            at = POSITION.search(message)
            diagnostics.append({"code": "scenario/fail", "severity": "error", "message": message, "hint": None,
                                "file": at["file"] if at else result.file, "line": int(at["line"]) if at else 0,
                                "column": int(at["column"]) if at else 0})
    return diagnostics, "\n".join(result.report() for result in results)


def entry_bout(case: Case, folder: Path) -> Outcome:
    """The pack on base; when it loads, a seeded bout: its script fault (logged by the engine as a
    `fault` event) is the refusal."""
    from nexus_dsl.agents import make_agent
    from nexus_dsl.content.loader import load_ruleset_collecting
    from nexus_dsl.engine.bout import Bout, next_action
    from nexus_dsl.engine.setup import standard_setup
    from nexus_dsl.errors import format_all

    ruleset, diagnostics = load_ruleset_collecting([folder / case.target])
    if ruleset is None:
        return [diagnostic_json(d) for d in diagnostics], format_all(diagnostics)
    setup = standard_setup(players=2)
    rng = random.Random(1)
    agents = {h.label: make_agent("random", seed=rng.randrange(1000)) for h in setup.pieces}
    bout = Bout(ruleset, setup, seed=1)
    for _ in range(BOUT_ACTIONS):
        if bout.pending is None:
            break
        bout.apply(next_action(bout, agents))
    faults = [{"severity": "error", "hint": None, **{k: event.data.get(k) for k in ("code", "file", "line", "column",
                                                                                     "message")}}
              for event in bout.log if event.type == "fault"]
    return faults, "\n".join(f"{f['file']}:{f['line']}:{f['column']}: {f['message']}" for f in faults)


#: What each entry point imports (the workbench's imports scipy: only the entries that need it pay).
ENTRY_MODULES: dict[str, tuple[str, ...]] = {
    "check": ("nexus_dsl.validate_files", "nexus_dsl.cli"), "load": ("nexus_dsl.content.loader",),
    "load_packs": ("nexus_dsl.workbench.packs",), "validate_item": ("nexus_dsl.workbench.authoring",),
    "scenario": ("nexus_dsl.scenario",), "bout": ("nexus_dsl.engine.bout", "nexus_dsl.agents"),
}
ENTRIES: dict[str, Callable[[Case, Path], Outcome]] = {
    "check": entry_check, "load": entry_load, "load_packs": entry_load_packs, "validate_item": entry_validate_item,
    "scenario": entry_scenario, "bout": entry_bout,
}


# ---------------------------------------------------------------- measuring
def stop_on_timer(signum: int, frame: object) -> None:
    raise OverBudget()


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_kilobytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def run(case: Case, folder: Path, budget: float | None = None) -> dict[str, Any]:
    """The entry point on one input: its diagnostics and output, or the traceback that escaped."""
    from nexus_dsl.errors import NexusError, format_all

    outcome: dict[str, Any] = {"diagnostics": [], "output": "", "exception": None, "over_budget": False}
    if budget is not None:
        signal.signal(signal.SIGPROF, stop_on_timer)
        signal.setitimer(signal.ITIMER_PROF, budget)
    try:
        outcome["diagnostics"], outcome["output"] = ENTRIES[case.entry](case, folder)
    except OverBudget:
        outcome["over_budget"] = True
    except NexusError as error:  # the command line prints these as diagnostics, not as a traceback
        outcome["diagnostics"] = [diagnostic_json(d) for d in error.diagnostics]
        outcome["output"] = format_all(error.diagnostics)
    except BaseException:  # noqa: BLE001 - a traceback is what this looks for, MemoryError included
        outcome["exception"] = traceback.format_exc(limit=-15)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return outcome


def command_line_text(case: Case, folder: Path) -> tuple[str, str | None]:
    """What `nexus check TARGET` prints (stdout and stderr), and any traceback that escaped it."""
    from nexus_dsl.cli import main

    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            signal.signal(signal.SIGPROF, stop_on_timer)
            signal.setitimer(signal.ITIMER_PROF, CPU_BUDGET)
            main(["check", str(folder / case.target)])
    except OverBudget:
        return out.getvalue(), f"`nexus check` still running after {CPU_BUDGET:g} s of CPU"
    except BaseException:  # noqa: BLE001
        return out.getvalue(), traceback.format_exc(limit=-15)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return out.getvalue(), None


def cap_memory() -> None:
    status = Path("/proc/self/status").read_text(encoding="ascii")
    match = re.search(r"^VmSize:\s+(\d+) kB", status, re.M)
    if match:
        resource.setrlimit(resource.RLIMIT_AS, (int(match.group(1)) * 1024 + MEMORY_ALLOWANCE, resource.RLIM_INFINITY))


def measure(case: Case, folder: Path) -> dict[str, Any]:
    trivial, hostile = folder / "trivial", folder / "hostile"
    write_layout(case.trivial, trivial)
    write_layout(case.hostile, hostile)
    for module in ENTRY_MODULES[case.entry]:  # imported before the address space is capped and measured
        importlib.import_module(module)
    cap_memory()
    warm = run(case, trivial)
    before = cpu_seconds()
    baseline = run(case, trivial)
    trivial_cpu, trivial_peak = cpu_seconds() - before, peak_kilobytes()
    before = cpu_seconds()
    outcome = run(case, hostile, budget=CPU_BUDGET)
    hostile_cpu, hostile_peak = cpu_seconds() - before, peak_kilobytes()
    cli_output, cli_exception = ("", None)
    if case.entry == "check" and case.checks and not outcome["over_budget"]:  # checks read what it prints
        cli_output, cli_exception = command_line_text(case, hostile)
    count = len(outcome["diagnostics"])
    return {
        "case": case.id, "entry": case.entry, "trivial_cpu": trivial_cpu, "hostile_cpu": hostile_cpu,
        "cpu_over_trivial": hostile_cpu - trivial_cpu, "memory_growth_kb": hostile_peak - trivial_peak,
        "trivial_errors": [d for d in warm["diagnostics"] + baseline["diagnostics"] if d["severity"] == "error"][:5],
        "trivial_exception": warm["exception"] or baseline["exception"],
        "diagnostic_count": count, **outcome, "diagnostics": outcome["diagnostics"][:MOST_DIAGNOSTICS],
        "output": outcome["output"][:200_000], "cli_output": cli_output[:200_000], "cli_exception": cli_exception,
    }


def main() -> int:
    case_id, folder = sys.argv[1], Path(sys.argv[2])
    result = measure(BY_ID[case_id], folder)
    (folder / "result.json").write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
