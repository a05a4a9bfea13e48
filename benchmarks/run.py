"""Print the figures for the README's performance section. Measures; never asserts.

    .venv/bin/python benchmarks/run.py [--bouts N]

- cold load-and-validate of the base pack (first load in a fresh process: grammar compile,
  schema registry, parse, check, schema validation),
- warm load-and-validate (grammar and schemas compiled; files read, parsed and checked again;
  schema verdicts of unchanged declarations reused),
- parse time per declaration,
- validating one card in the editor (parse, check, schema and card face, base loaded),
- the card editor's whole answer to typed text (the page run again with the new text: validation,
  problems, card face and every widget; Streamlit's AppTest, so an upper bound of the server's time),
- heuristic bouts per second on one core,
- a 500-bout batch of the base game on 2 worker processes (the editor's batch mode): seconds.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COLD_SNIPPET = (
    "import time; t = time.perf_counter(); "
    "from nexus_dsl.content.loader import load_ruleset; load_ruleset(['base']); "
    "print(time.perf_counter() - t)"
)


def cold_load(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", COLD_SNIPPET], capture_output=True, text=True, cwd=ROOT, check=True)
        times.append(float(out.stdout.strip()))
    return times


def warm_load(runs: int) -> list[float]:
    from nexus_dsl.content.loader import load_ruleset

    load_ruleset(["base"])
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        load_ruleset(["base"])
        times.append(time.perf_counter() - start)
    return times


def parse_per_declaration(rounds: int) -> tuple[float, int]:
    from nexus_dsl.syntax.parser import parse

    sources = [p.read_text() for p in sorted((ROOT / "content").rglob("*.nexus"))]
    count = sum(len(parse(s).declarations) for s in sources)
    start = time.perf_counter()
    for _ in range(rounds):
        for source in sources:
            parse(source)
    elapsed = time.perf_counter() - start
    return elapsed / (rounds * count), count


def validate_one_card(rounds: int) -> list[float]:
    """The editor's check of one card as the designer types: parse, check, schema, card face."""
    from nexus_dsl import cached_ruleset
    from nexus_dsl.workbench.authoring import duplicate, validate_item

    ruleset = cached_ruleset(("base",))
    text = duplicate(ruleset, "aim_focused", "aim_focused_copy", "Aim Focused, Copied")
    validate_item("command", text, ruleset)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        validate_item("command", text, ruleset)
        times.append(time.perf_counter() - start)
    return times


def card_editor_answer(rounds: int) -> list[float]:
    """The card editor page run again after the script changed, alternately broken and mended (what
    happens each time typing pauses in the code editor), timed on the server side."""
    import os
    import shutil
    import tempfile

    from streamlit.testing.v1 import AppTest

    with tempfile.TemporaryDirectory() as work:
        content = Path(work) / "content"
        shutil.copytree(ROOT / "content", content, ignore=shutil.ignore_patterns(".history", "*.draft"))
        os.environ["NEXUS_CONTENT_ROOT"] = str(content)
        os.environ["NEXUS_SESSIONS_DIR"] = str(Path(work) / "sessions")
        at = AppTest.from_file(str(ROOT / "editor" / "app.py"), default_timeout=120).run()
        at.switch_page("views/card_editor.py").run()
        at.selectbox(key="ed_kind").set_value("influence").run()
        at.text_input(key="ed_new_id").input("bench_card")
        at.button(key="ed_start").click().run()
        good = at.session_state["ed_text"]
        bad = good.replace("modify_sds", "modfy_sds")
        times = []
        for index in range(rounds):
            at.session_state["ed_text"] = bad if index % 2 else good
            start = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - start)
        return times


def bouts_per_second(bouts: int) -> tuple[float, float]:
    from nexus_dsl import cached_ruleset, make_agent, play, standard_setup

    ruleset = cached_ruleset(("base",))
    cycles = []
    start = time.perf_counter()
    for seed in range(bouts):
        agents = {"red": make_agent("heuristic"), "blue": make_agent("heuristic")}
        bout = play(ruleset, standard_setup(), agents, seed=seed)
        cycles.append(bout.state.cycle)
    elapsed = time.perf_counter() - start
    return bouts / elapsed, statistics.median(cycles)


def batch_seconds(bouts: int, workers: int) -> tuple[float, int]:
    """Wall time of `workbench.batch.run_batch` (two motivations, two lanistas, a random barge)."""
    from nexus_dsl.content.loader import cached_ruleset
    from nexus_dsl.workbench.batch import run_batch
    from nexus_dsl.workbench.testrun import TestRunSettings

    ruleset = cached_ruleset(("base",))
    motivations = tuple(item["id"] for item in ruleset.data_items("motivations"))[:2]
    lanistas = tuple(item["id"] for item in ruleset.data_items("lanistas"))[:2]
    settings = TestRunSettings(motivations=motivations, lanistas=lanistas, barge="random")
    ticks: list[int] = []
    start = time.perf_counter()
    run_batch(settings, bouts, progress=lambda done, _total: ticks.append(done), workers=workers, ruleset=ruleset)
    return time.perf_counter() - start, len(ticks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bouts", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=500, help="bouts in the 2-worker batch (0 skips it)")
    args = parser.parse_args()

    cold = cold_load(args.runs)
    warm = warm_load(args.runs * 4)
    per_declaration, declarations = parse_per_declaration(20)
    one_card = validate_one_card(20)
    answer = card_editor_answer(20)
    rate, median_cycles = bouts_per_second(args.bouts)
    print(f"base pack cold load+validate : {statistics.median(cold) * 1000:8.1f} ms (median of {len(cold)} fresh processes)")
    print(f"base pack warm load+validate : {statistics.median(warm) * 1000:8.1f} ms (median of {len(warm)})")
    print(f"parse per declaration        : {per_declaration * 1e6:8.1f} µs ({declarations} declarations)")
    print(f"validate one card            : {statistics.median(one_card) * 1000:8.1f} ms (median of {len(one_card)})")
    print(f"card editor page rerun       : {statistics.median(answer) * 1000:8.1f} ms (median of {len(answer)}, "
          f"slowest {max(answer) * 1000:.0f} ms)")
    print(f"heuristic bouts per second   : {rate:8.1f} on one core ({args.bouts} bouts, median {median_cycles:g} cycles)")
    if args.batch:
        seconds, ticks = batch_seconds(args.batch, workers=2)
        print(f"{args.batch}-bout batch, 2 workers    : {seconds:8.1f} s ({ticks} progress calls)")


if __name__ == "__main__":
    main()
