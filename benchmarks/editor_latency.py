"""The editor's answer times for this tree. Measures; never asserts.

    .venv/bin/python benchmarks/editor_latency.py [--rounds 20]

- validating one card in the editor (parse, check, schema and card face, base loaded),
- the card editor's whole answer to typed text (the page run again with the new text: validation,
  problems, card face and every widget; Streamlit's AppTest, so an upper bound of the server's time).

The engine's, the loader's and the batches' figures, beside a reference commit's, are `make bench`'s
(benchmarks/bench.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# This tree's package, not the one the virtualenv has installed.
sys.path.insert(0, str(ROOT))


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    one_card = validate_one_card(args.rounds)
    answer = card_editor_answer(args.rounds)
    print(f"validate one card            : {statistics.median(one_card) * 1000:8.1f} ms (median of {len(one_card)})")
    print(f"card editor page rerun       : {statistics.median(answer) * 1000:8.1f} ms (median of {len(answer)}, "
          f"slowest {max(answer) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
