"""Seeded mutation fuzzing of the real content through the real pipeline.

Every test run plays a share of the inputs; `make fuzz` sets the sizes (`NEXUS_FUZZ_SCRIPTS`,
`NEXUS_FUZZ_DATA`, `NEXUS_FUZZ_SCENARIOS`) to the full campaign. `NEXUS_FUZZ_FIRST` starts at another
input number, `NEXUS_FUZZ_WORKERS` sets the processes, `NEXUS_FUZZ_MINIMISE_SECONDS` the time spent
shrinking each distinct failure. A failure names its input (kind and number: the seed), the
mutations that made it and the minimised bytes, written to build/fuzz/ with the original.
"""

from __future__ import annotations

import os

import pytest
from fuzz_campaign import OUTPUT, failure_report, keep_failures, run_campaign
from fuzz_corpus import KINDS


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


#: The share every test run plays (about half a minute on two cores), and the full campaign's sizes
#: when `make fuzz` sets them.
SIZES = {
    "script": _env_int("NEXUS_FUZZ_SCRIPTS", 300),
    "data": _env_int("NEXUS_FUZZ_DATA", 400),
    "scenario": _env_int("NEXUS_FUZZ_SCENARIOS", 60),
}
FIRST = _env_int("NEXUS_FUZZ_FIRST", 0)
WORKERS = _env_int("NEXUS_FUZZ_WORKERS", 2)
MINIMISE_EACH = _env_float("NEXUS_FUZZ_MINIMISE_SECONDS", 2.0)
#: At most this long is spent minimising all the failures of one kind together.
MINIMISE_ALL = MINIMISE_EACH * 10


@pytest.mark.parametrize("kind", KINDS)
def test_mutated_content_is_refused_with_positions_never_a_traceback_or_a_hang(kind: str) -> None:
    for stale in OUTPUT.glob(f"{kind}-*"):  # what an earlier campaign kept: this one says afresh
        stale.unlink()
    report = run_campaign(kind, SIZES[kind], first=FIRST, workers=WORKERS)
    print(f"\n{report.figures()}")
    distinct = keep_failures(report, MINIMISE_EACH, MINIMISE_ALL) if report.failed else {}
    OUTPUT.mkdir(parents=True, exist_ok=True)
    summary = failure_report(report, distinct)
    (OUTPUT / f"summary-{kind}.txt").write_text(summary + "\n", encoding="utf-8")
    if report.failed:
        pytest.fail(summary, pytrace=False)
