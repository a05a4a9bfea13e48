"""The editor's answer times for this tree, beside their targets. Measures; never asserts.

    .venv/bin/python benchmarks/editor_latency.py [--rounds 10] [--only NAME,...] [--no-browser]

- **a click on each page**: the server's time to answer one typical interaction of every page (the
  page's script run again after it: what the designer waits for after each click), through
  Streamlit's AppTest, which runs the very script the server runs, without the browser's drawing;
  each script compiled once, as the server keeps it (AppTest alone would compile it at every run);
  the target is at most 300 ms (median over the rounds; the slowest is shown too);
- **the first page**: a fresh `nexus editor`, then Debian's chromium opening it; the time from the
  server answering its health check to the home page drawn and idle (the server loads the packs a new
  tab opens on while the browser loads the page: `nexus_dsl/editor_host.py`); target at most 2 s.
  Beside it, in turn run by run, **a bare Streamlit page** holding only the home page's heading and
  the sidebar's widgets, served with the same settings and opened the same way: Streamlit's own
  share (its frontend's scripts loaded, parsed and connected), which the editor cannot go under;
- validating one card (parse, check, schema and card face, base loaded): the part of a keystroke's
  answer that is the language's.

Printed as a table and written to build/bench/editor_latency.json. The engine's, the loader's and the
batches' figures, beside a reference commit's, are `make bench`'s (benchmarks/bench.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# This tree's package, not the one the virtualenv has installed.
sys.path.insert(0, str(ROOT))

OUT = ROOT / "build" / "bench" / "editor_latency.json"
CLICK_TARGET_MS = 300.0
FIRST_PAGE_TARGET_S = 2.0
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def scratch_content() -> Iterator[Path]:
    """A temporary copy of content/ and a sessions folder, named by the editor's variables, so
    nothing measured writes into the tree."""
    names = ("NEXUS_CONTENT_ROOT", "NEXUS_SESSIONS_DIR")
    before = {name: os.environ.get(name) for name in names}
    with tempfile.TemporaryDirectory() as work:
        content = Path(work) / "content"
        shutil.copytree(ROOT / "content", content, ignore=shutil.ignore_patterns(".history", "*.draft"))
        os.environ["NEXUS_CONTENT_ROOT"] = str(content)
        os.environ["NEXUS_SESSIONS_DIR"] = str(Path(work) / "sessions")
        try:
            yield Path(work)
        finally:  # the loader reads the same variable: later figures load from the tree again
            for name, value in before.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


# ---------------------------------------------------------------- a click on each page
@dataclass(frozen=True)
class PageClick:
    """One page and its typical interaction: `prepare` brings the page to where the designer works
    (untimed); `click(at, round)` makes the round's change; the run after it is what is timed."""

    name: str
    page: str
    what: str
    prepare: Callable[[Any], None]
    click: Callable[[Any, int], None]
    # Whether the run after the round's change answered it (checked after the timing): a figure
    # of a page that did not do what the click asked would mean nothing.
    answered: Callable[[Any, int], bool] = lambda at, round_: True


def _nothing(at: Any) -> None:
    pass


# What a pause in typing changes in the new influence card's template: its flavour text, and every
# other pause a word misspelt that the next one mends.
FLAVOUR, SPELT, MISSPELT = "One line of colour from the arena.", "slide_roll attack", "slde_roll attack"


def _card_editor_prepare(at: Any) -> None:
    at.selectbox(key="ed_kind").set_value("influence").run()
    at.text_input(key="ed_new_id").input("bench_card")
    at.button(key="ed_start").click().run()
    template = at.session_state["ed_text"]
    if FLAVOUR not in template or SPELT not in template:
        raise SystemExit(f"card_editor: the template no longer holds {FLAVOUR!r} and {SPELT!r} to edit")
    at.session_state["bench_good"] = template


def _card_editor_type(at: Any, round_: int) -> None:
    """A new text at each pause (its flavour numbered, so its face changes too), broken every other time."""
    good = at.session_state["bench_good"].replace(FLAVOUR, f"{FLAVOUR[:-1]}, take {round_}.")
    at.session_state["ed_text"] = good.replace(SPELT, MISSPELT) if round_ % 2 else good


def _card_editor_checked(at: Any, round_: int) -> bool:
    """The misspelling found on the broken texts, the face of the mended ones drawn with their flavour."""
    found = any("slde_roll" in error.value for error in at.error)
    drawn = any(f"take {round_}" in markdown.value for markdown in at.markdown if "card-face" in markdown.value)
    return found if round_ % 2 else drawn and not found


def _browser_search(at: Any, round_: int) -> None:
    at.text_input(key="browser_query").input(("blade", "crowd", "fury", "")[round_ % 4])


def _barge_prepare(at: Any) -> None:
    at.text_input(key="bg_new_id").input("bench_barge")
    at.button(key="bg_new").click().run()


def _board_click(at: Any, board: str, target: str, round_: int) -> None:
    """A click on a board view as its component reports one (AppTest cannot run its JavaScript):
    the target and a click number above any the page has handled."""
    from editor.board_view import click_key

    at.session_state[click_key(board)] = {"target": target, "seq": 1_000_000 + round_}


def _barge_click_square(at: Any, round_: int) -> None:
    # The same square twice in a row: placed, then taken away.
    col, row = 2 + (round_ // 2) % 5, 3
    _board_click(at, "bg_board", f"sq:{col},{row}", round_)


def _test_run_prepare(at: Any) -> None:
    at.button(key="tr_start").click().run()


def _test_run_step(at: Any, round_: int) -> None:
    at.button(key="tr_step").click()


def _playtest_prepare(at: Any) -> None:
    at.text_input(key="pt_new_name").input("bench")
    at.selectbox(key="pt_seat_1").select("person").run()
    at.button(key="pt_start").click().run()


# The playtest's buttons that act, in the order a person meets them: the screen handed over, a card
# kept from the deal, a choice completed, a choice's next step, an offer on the board, a button beside it.
ACTING = ("pt_hand_over", "pt_keep_", "pt_go", "pt_step_", "pt_offer_", "pt_option_")


def _playtest_act(at: Any, round_: int) -> None:
    for prefix in ACTING:
        found = [button for button in at.button if (button.key or "").startswith(prefix)]
        if found:
            found[0].click()
            return
    raise SystemExit("playtest: no button to act with")


def _odds_change(at: Any, round_: int) -> None:
    at.selectbox(key="odds_attack").set_value((1, -1, 2, -2, 0)[round_ % 5])


PAGES = (
    PageClick("home", "home.py", "the page run again", _nothing, lambda at, _: None),
    PageClick("browser", "browser.py", "a search typed", _nothing, _browser_search),
    PageClick("card_editor", "card_editor.py", "typing paused (broken, mended)", _card_editor_prepare, _card_editor_type,
              _card_editor_checked),
    PageClick("barge_editor", "barge_editor.py", "a square clicked", _barge_prepare, _barge_click_square),
    PageClick("test_run", "test_run.py", "Step", _test_run_prepare, _test_run_step),
    PageClick("playtest", "playtest.py", "a choice clicked", _playtest_prepare, _playtest_act),
    PageClick("odds", "odds.py", "a level chosen", _nothing, _odds_change),
)


@contextmanager
def compiled_once() -> Iterator[None]:
    """Each script compiled once and kept, as the server keeps it for every session and run (until
    its file changes): AppTest makes a new script cache for each run, so it compiles the app's
    script and the page's again every time, which no click on the server waits for."""
    from streamlit.testing.v1 import app_test, local_script_runner

    shared = app_test.ScriptCache()
    made = app_test.ScriptCache, local_script_runner.ScriptCache
    app_test.ScriptCache = local_script_runner.ScriptCache = lambda: shared  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        app_test.ScriptCache, local_script_runner.ScriptCache = made  # type: ignore[misc]


def page_click_times(page: PageClick, rounds: int) -> list[float]:
    from streamlit.testing.v1 import AppTest

    with compiled_once():
        at = AppTest.from_file(str(ROOT / "editor" / "app.py"), default_timeout=120).run()
        at.switch_page(f"views/{page.page}").run()
        page.prepare(at)
        at.run()  # one run unmeasured: the page's first run builds what later runs reuse
        times = []
        for index in range(rounds):
            page.click(at, index)
            start = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - start)
            if at.exception:
                raise SystemExit(f"{page.name}: the page failed: {at.exception}")
            if not page.answered(at, index):
                raise SystemExit(f"{page.name}: round {index + 1} did not get the answer its click asks for")
    return times


# ---------------------------------------------------------------- the first page
# Streamlit's own share of the first page: a page of nothing but the home page's heading and the
# sidebar's widgets, served and opened the same way, so that the editor's figure can be read beside
# what any Streamlit app's first page costs on the same machine at the same moment.
BARE_PAGE = """import streamlit as st
st.set_page_config(page_title="NEXUS workbench", layout="wide")
st.title("NEXUS workbench")
with st.sidebar:
    st.header("Content")
    st.text_input("Content root", "content")
    st.multiselect("Packs loaded", ["base", "poison_gallery"], ["base"])
    st.button("Reload everything")
"""


def start_bare_page(work: Path) -> Any:
    from nexus_dsl.editor_launch import streamlit_settings
    from nexus_dsl.editor_server import free_port, start_server

    script = work / "bare_page.py"
    script.write_text(BARE_PAGE, encoding="utf-8")
    port = free_port()
    # Streamlit's own command line, with the editor's settings, on the bare script.
    command = [sys.executable, "-m", "streamlit", "run", str(script), *streamlit_settings("127.0.0.1", port)]
    return start_server(command, port, {}, work / "bare_page.log", work)


def start_the_editor(work: Path, port: int | None = None) -> Any:
    from nexus_dsl.editor_server import start_editor

    return start_editor(work / "content", work / "sessions", work / "streamlit.log", port)


def first_page_usable(page: Any, server: Any) -> float:
    """Seconds from opening `server`'s address in `page`, once it answers, to the home page drawn
    and idle."""
    from playwright.sync_api import expect

    server.wait_until_healthy(120)
    start = time.perf_counter()
    page.goto(server.url)
    expect(page.get_by_role("heading", name="NEXUS workbench")).to_be_visible(timeout=60_000)
    expect(page.locator('[data-testid="stApp"]')).to_have_attribute("data-test-script-state", "notRunning",
                                                                   timeout=60_000)
    return time.perf_counter() - start


def first_page_seconds(work: Path, start: Callable[[Path], Any] = start_the_editor) -> float:
    """Seconds from the server's first healthy answer to the home page drawn and idle in a chromium
    that has never opened it (no cached files, no compiled scripts)."""
    from playwright import sync_api

    server = start(work)
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            try:
                return first_page_usable(browser.new_page(), server)
            finally:
                browser.close()
    finally:
        server.stop()


def returning_first_page_seconds(work: Path, runs: int) -> list[float]:
    """The same for a chromium that has opened the editor before at the same address (its profile
    kept: cached files and compiled scripts), each time on a fresh server: the first page a designer
    sees on every day after the first. One visit first, unmeasured, fills the profile."""
    from playwright import sync_api

    from nexus_dsl.editor_server import free_port

    profile, port = work / "returning_browser", free_port()
    times = []
    with sync_api.sync_playwright() as playwright:
        for visit in range(runs + 1):
            server = start_the_editor(work, port)
            try:
                context = playwright.chromium.launch_persistent_context(
                    str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
                try:
                    seconds = first_page_usable(context.new_page(), server)
                finally:
                    context.close()
            finally:
                server.stop()
            if visit:
                times.append(seconds)
    return times


# ---------------------------------------------------------------- the language's share
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


def row(name: str, what: str, times: list[float], target: float, unit: str) -> dict[str, Any]:
    scale = 1000.0 if unit == "ms" else 1.0
    median = statistics.median(times) * scale
    return {"name": name, "what": what, "unit": unit, "median": round(median, 1),
            "slowest": round(max(times) * scale, 1), "runs": len(times), "target": target,
            "met": median <= target if target else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="clicks per page (default 10)")
    parser.add_argument("--first-page-runs", type=int, default=3, help="fresh servers opened (default 3)")
    parser.add_argument("--only", default="", help="comma-separated names of the rows to measure (default all)")
    parser.add_argument("--no-browser", action="store_true", help="leave out the first page (needs chromium)")
    args = parser.parse_args()
    wanted = {name for name in args.only.split(",") if name}
    rows = []
    with scratch_content() as work:
        for page in PAGES:
            if not wanted or page.name in wanted:
                rows.append(row(page.name, page.what, page_click_times(page, args.rounds), CLICK_TARGET_MS, "ms"))
                print(f"  {page.name}: {rows[-1]['median']} ms", file=sys.stderr)
        if not args.no_browser and (not wanted or "first_page" in wanted):
            editor, bare = [], []
            for _ in range(args.first_page_runs):  # in turn, so that both meet the machine as it is
                editor.append(first_page_seconds(work))
                bare.append(first_page_seconds(work, start_bare_page))
            rows.append(row("first_page", "server up -> home page usable", editor, FIRST_PAGE_TARGET_S, "s"))
            rows.append(row("bare_page", "the same for a bare Streamlit page", bare, 0, "s"))
            rows.append(row("return_visit", "the same in a browser that opened it before",
                            returning_first_page_seconds(work, args.first_page_runs), FIRST_PAGE_TARGET_S, "s"))
    if not wanted or "validate_card" in wanted:
        rows.append(row("validate_card", "one card validated", validate_one_card(args.rounds * 2), 0, "ms"))
    load = os.getloadavg()[0]
    print(f"\nload average {load:.2f} on {os.cpu_count()} cores; medians (slowest) per interaction\n")
    print(f"{'page':<14} {'what':<34} {'median':>9} {'slowest':>9} {'target':>8}  met")
    for item in rows:
        target = f"<= {item['target']:g} {item['unit']}" if item["target"] else "-"
        met = {True: "yes", False: "no", None: "-"}[item["met"]]
        print(f"{item['name']:<14} {item['what']:<34} {item['median']:>6} {item['unit']:<2} "
              f"{item['slowest']:>6} {item['unit']:<2} {target:>8}  {met}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"load_average": load, "rows": rows}, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
