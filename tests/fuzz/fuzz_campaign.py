"""A fuzzing campaign: many seeded inputs over every core, failures grouped, minimised and kept.

`run_campaign(kind, count)` makes inputs `first .. first+count-1` of a kind (`fuzz_corpus.make_input`)
and runs each through the pipeline (`fuzz_harness.run_input`) on worker processes started by a fork
server (a clean process: never a fork of a test process that may hold other threads' locks), each
loading base once before it takes inputs. A worker that stops answering (stuck below Python, where the CPU
timer cannot interrupt it) is killed after `WALL_LIMIT` seconds and its input recorded as a hang; a
worker that dies is recorded as a crash and replaced. Each worker's address space is capped, so a
memory bomb raises `MemoryError` (a traceback failure) instead of exhausting the shared machine.

Failures with the same signature are one problem: the first input that shows it is minimised and
written to `build/fuzz/` with a description of how to replay it.

From the command line:
    python tests/fuzz/fuzz_campaign.py replay KIND NUMBER   # one input: its mutations, its failures
"""

from __future__ import annotations

import multiprocessing
import re
import resource
import sys
import time
from collections import Counter, deque
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Callable

from fuzz_corpus import REPOSITORY, FuzzInput, make_input
from fuzz_harness import BOUT_FAULTS, STAGE_CPU, STAGE_RUNS, Failure, Workspace, run_input, warm_up
from fuzz_minimise import minimise

OUTPUT = REPOSITORY / "build" / "fuzz"
#: Wall-clock seconds a worker may spend on one input before it is killed (the CPU budgets of all
#: stages together are far less; only code stuck outside the interpreter's reach gets here).
WALL_LIMIT = 120.0
#: Address space a worker may grow by beyond what it had when it started.
WORKER_MEMORY = 2 * 1024 ** 3
SUFFIX = {"script": ".nexus", "data": ".yaml", "scenario": ".yaml"}


@dataclass
class Distinct:
    """One problem: its first failure, the inputs that showed it, the minimised input."""

    failure: Failure
    first: int
    inputs: int = 0
    minimised: Path | None = None
    minimised_size: int | None = None


@dataclass
class CampaignReport:
    kind: str
    first: int
    count: int
    workers: int
    seconds: float = 0.0
    startup: float = 0.0  # of `seconds`, the time until the first worker had loaded base
    failed: dict[int, list[Failure]] = field(default_factory=dict)  # input number -> its failures
    stage_cpu: Counter[str] = field(default_factory=Counter)  # CPU seconds per stage, all workers
    stage_runs: Counter[str] = field(default_factory=Counter)
    bout_faults: Counter[str] = field(default_factory=Counter)  # codes of the script faults that stopped bouts

    @property
    def rate(self) -> float:
        """Inputs per second once the workers have started."""
        working = self.seconds - self.startup
        return self.count / working if working > 0 else 0.0

    def inputs_by_failure_kind(self) -> Counter[str]:
        return Counter(kind for failures in self.failed.values() for kind in {f.kind for f in failures})

    def distinct(self) -> dict[str, Distinct]:
        found: dict[str, Distinct] = {}
        for number in sorted(self.failed):
            for failure in self.failed[number]:
                entry = found.setdefault(failure.signature, Distinct(failure, number))
                entry.inputs += 1
        return found

    def figures(self) -> str:
        by_kind = self.inputs_by_failure_kind()
        kinds = ", ".join(f"{k} {by_kind.get(k, 0)}" for k in ("traceback", "hang", "unpositioned"))
        stages = ", ".join(f"{stage} {self.stage_runs[stage]} runs {self.stage_cpu[stage]:.1f} s"
                           for stage in sorted(self.stage_runs))
        return (f"{self.kind}: {self.count} inputs (#{self.first}..#{self.first + self.count - 1}) in "
                f"{self.seconds:.1f} s on {self.workers} workers ({self.startup:.1f} s of it starting them) = "
                f"{self.rate:.1f} inputs/s; "
                f"inputs failing: {len(self.failed)} ({kinds}); distinct problems: {len(self.distinct())}; "
                f"CPU by stage: {stages}"
                + (f"; bouts stopped by script faults: {dict(self.bout_faults.most_common())}" if self.bout_faults else ""))


# ---------------------------------------------------------------- workers
def limit_memory(extra: int) -> None:
    """Cap this process's address space at its current size plus `extra` bytes."""
    current = _virtual_size()
    if current is not None:
        resource.setrlimit(resource.RLIMIT_AS, (current + extra, resource.RLIM_INFINITY))


def _virtual_size() -> int | None:
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii")
    except OSError:
        return None
    match = re.search(r"^VmSize:\s+(\d+) kB", status, re.M)
    return int(match.group(1)) * 1024 if match else None


Runner = Callable[[FuzzInput, Workspace], list[Failure]]


def _worker(kind: str, connection: Connection, runner: Runner) -> None:
    """Answer input numbers sent by the parent with their failures until sent None. Every message is
    written before the next input starts, so a worker that dies loses nothing it has answered."""
    limit_memory(WORKER_MEMORY)
    workspace = Workspace()
    warm_up(workspace)
    STAGE_CPU.clear()  # count only the inputs' work, not the warm-up
    STAGE_RUNS.clear()
    BOUT_FAULTS.clear()
    connection.send(("ready",))
    try:
        while True:
            number = connection.recv()
            if number is None:
                connection.send(("stages", dict(STAGE_CPU), dict(STAGE_RUNS), dict(BOUT_FAULTS)))
                return
            connection.send(("done", number, runner(make_input(kind, number), workspace)))
    finally:
        workspace.close()


def _worker_failure(kind: str, reason: str) -> Failure:
    return Failure(kind, "worker", f"{kind}|worker|{reason}", reason, reason)


@dataclass
class _Busy:
    process: Any
    number: int | None = None  # the input it is working on
    started: float = 0.0


class _Pool:
    """Worker processes, each handed one input at a time over its own pipe, and watched: one that
    takes too long is killed, one that dies is replaced; either way its input is a failure."""

    def __init__(self, kind: str, numbers: range, workers: int, runner: Runner) -> None:
        self.context = multiprocessing.get_context("forkserver")
        self.kind = kind
        self.runner = runner
        self.pending = deque(numbers)
        self.workers: dict[Connection, _Busy] = {}
        self.stage_cpu: Counter[str] = Counter()
        self.stage_runs: Counter[str] = Counter()
        self.bout_faults: Counter[str] = Counter()
        self.first_ready: float | None = None  # when the first worker had loaded base
        for _ in range(workers):
            self._start()

    def _start(self) -> None:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(self.kind, theirs, self.runner), daemon=True)
        process.start()
        theirs.close()  # only the worker holds its end: its death closes the pipe
        self.workers[ours] = _Busy(process)  # fed once it says it is ready

    def _feed(self, connection: Connection) -> None:
        busy = self.workers[connection]
        busy.number = self.pending.popleft() if self.pending else None
        busy.started = time.monotonic()
        connection.send(busy.number)

    def collect(self) -> dict[int, list[Failure]]:
        outcomes: dict[int, list[Failure]] = {}
        progress = _Progress(self.kind, len(self.pending))
        while self.workers:
            for connection in wait(list(self.workers), timeout=1.0):
                self._receive(connection, outcomes)
            self._watch(outcomes)
            progress.show(outcomes)
        return outcomes

    def _receive(self, connection: Any, outcomes: dict[int, list[Failure]]) -> None:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            busy = self.workers[connection]
            busy.process.join()
            self._retire(connection, outcomes, "traceback", f"the worker died (exit code {busy.process.exitcode})")
            return
        if message[0] == "ready":
            self.first_ready = self.first_ready or time.monotonic()
            self._feed(connection)
        elif message[0] == "done":
            outcomes[message[1]] = message[2]
            self._feed(connection)
        else:
            self.stage_cpu.update(message[1])
            self.stage_runs.update(message[2])
            self.bout_faults.update(message[3])
            self.workers.pop(connection).process.join()
            connection.close()

    def _watch(self, outcomes: dict[int, list[Failure]]) -> None:
        now = time.monotonic()
        for connection, busy in list(self.workers.items()):
            if busy.number is not None and now - busy.started > WALL_LIMIT:
                busy.process.kill()
                busy.process.join()
                self._retire(connection, outcomes, "hang", f"killed after {WALL_LIMIT:g} s without an answer")

    def _retire(self, connection: Connection, outcomes: dict[int, list[Failure]], kind: str, reason: str) -> None:
        """A worker gone with its input unanswered: the input fails, a new worker goes on."""
        busy = self.workers.pop(connection)
        connection.close()
        if busy.number is not None:  # (a worker that died before saying it was ready had no input)
            outcomes[busy.number] = [_worker_failure(kind, reason)]
        if self.pending or busy.number is not None:
            self._start()


class _Progress:
    """A line on stderr at every tenth of a long campaign: how far, how fast, how many failed."""

    def __init__(self, kind: str, total: int) -> None:
        self.kind, self.total, self.started, self.shown = kind, total, time.monotonic(), 0
        self.step = max(1, total // 10) if total >= 2000 else total + 1

    def show(self, outcomes: dict[int, list[Failure]]) -> None:
        if len(outcomes) - self.shown < self.step:
            return
        self.shown = len(outcomes)
        rate = self.shown / max(1e-9, time.monotonic() - self.started)
        failing = sum(1 for failures in outcomes.values() if failures)
        print(f"  {self.kind}: {self.shown}/{self.total} inputs, {rate:.1f}/s, {failing} failing",
              file=sys.stderr, flush=True)


def run_campaign(kind: str, count: int, first: int = 0, workers: int = 2, runner: Runner | None = None
                 ) -> CampaignReport:
    """Run inputs `first .. first+count-1` of `kind`; only failing inputs are kept in the report.
    `runner` replaces `run_input` (a module-level function, for the workers to import: tests)."""
    runner = runner or run_input
    report = CampaignReport(kind, first, count, workers)
    started = time.monotonic()
    if workers <= 1:
        before = Counter(STAGE_CPU), Counter(STAGE_RUNS), Counter(BOUT_FAULTS)
        outcomes = _run_here(kind, range(first, first + count), runner)
        report.stage_cpu, report.stage_runs = STAGE_CPU - before[0], STAGE_RUNS - before[1]
        report.bout_faults = BOUT_FAULTS - before[2]
    else:
        pool = _Pool(kind, range(first, first + count), workers, runner)
        outcomes = pool.collect()
        report.startup = (pool.first_ready or started) - started
        report.stage_cpu, report.stage_runs, report.bout_faults = pool.stage_cpu, pool.stage_runs, pool.bout_faults
    report.seconds = time.monotonic() - started
    report.failed = {n: f for n, f in sorted(outcomes.items()) if f}
    return report


def _run_here(kind: str, numbers: range, runner: Runner) -> dict[int, list[Failure]]:
    workspace = Workspace()
    try:
        warm_up(workspace)
        return {number: runner(make_input(kind, number), workspace) for number in numbers}
    finally:
        workspace.close()


# ---------------------------------------------------------------- keeping what was found
def keep_failures(report: CampaignReport, seconds_each: float, seconds_in_all: float) -> dict[str, Distinct]:
    """Minimise the first input of every distinct problem (within the time allowed) and write it,
    with its description, to `build/fuzz/`."""
    distinct = report.distinct()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + seconds_in_all
    workspace = Workspace()
    try:
        warm_up(workspace)
        for signature, entry in distinct.items():
            item = make_input(report.kind, entry.first)
            allowance = min(seconds_each, max(0.0, deadline - time.monotonic()))
            data = shrink(item, signature, workspace, allowance) if allowance > 0 else item.data
            entry.minimised = write_case(item, entry, data)
            entry.minimised_size = len(data)
    finally:
        workspace.close()
    return distinct


def shrink(item: FuzzInput, signature: str, workspace: Workspace, seconds: float) -> bytes:
    def still_fails(data: bytes) -> bool:
        return any(f.signature == signature for f in run_input(replace(item, data=data), workspace))

    return minimise(item.data, still_fails, seconds)


def _slug(signature: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", signature).strip("_")[:90]


def write_case(item: FuzzInput, entry: Distinct, data: bytes) -> Path:
    stem = OUTPUT / f"{item.name}-{_slug(entry.failure.signature)}"
    minimised = stem.with_name(stem.name + ".min" + SUFFIX[item.kind])
    minimised.write_bytes(data)
    stem.with_name(stem.name + ".orig" + SUFFIX[item.kind]).write_bytes(item.data)
    stem.with_name(stem.name + ".txt").write_text(
        f"{item.describe()}\n\nminimised ({len(data)} of {len(item.data)} bytes): {minimised.name}\n"
        f"bytes: {data!r}\n\n{entry.failure.describe()}\n", encoding="utf-8")
    return minimised


def failure_report(report: CampaignReport, distinct: dict[str, Distinct], detailed: int = 25) -> str:
    """Every distinct problem: the input that first showed it (seed and mutations), the minimised
    bytes, and (for the first `detailed`) the traceback or diagnostic."""
    parts = [report.figures()]
    for index, (signature, entry) in enumerate(distinct.items()):
        item = make_input(report.kind, entry.first)
        head = f"\n== {signature}  ({entry.inputs} inputs)\n{item.describe()}"
        if entry.minimised is not None:
            head += f"\n  minimised to {entry.minimised_size} bytes: {entry.minimised}"
            head += f"\n  {entry.minimised.read_bytes()[:300]!r}"
        parts.append(head + "\n" + (entry.failure.describe() if index < detailed else entry.failure.summary))
    return "\n".join(parts)


# ---------------------------------------------------------------- replaying one input
def replay(kind: str, number: int) -> int:
    item = make_input(kind, number)
    print(item.describe())
    print(f"  bytes: {item.data[:400]!r}{'...' if len(item.data) > 400 else ''}")
    workspace = Workspace()
    try:
        warm_up(workspace)
        failures = run_input(item, workspace)
    finally:
        workspace.close()
    for failure in failures:
        print(failure.describe())
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "replay":
        sys.exit(replay(sys.argv[2], int(sys.argv[3])))
    print(__doc__)
    sys.exit(2)
