"""The editor end to end, in a real browser: the Streamlit app is started as `make editor` starts it
(on a free port, over a temporary copy of content/), and Debian's chromium drives it through a
designer's afternoon — a new influence card written, broken, mended and saved into a new pack, a
word of its script explained and another completed, card faces found in the content browser and
printed, a barge drawn by clicking its picture, a short batch of bouts played with that card dealt,
a 200-bout A/B comparison with and without it, a bout stepped through, a drawn card traced from a
line of the log to its script line and opened in the card editor, a hot-seat playtest played on
the board by two people, and a playtest against an agent clicked to its end. The tests share one
server and one browser tab and run in file order, each building on the one before.

Its pictures are kept in build/e2e/ (`make screenshots` writes them to docs/screenshots/ for the
README). Nothing is downloaded: the browser is the system's chromium and the machine may have no
network at all.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from playwright import sync_api
from playwright.sync_api import Locator, Page, expect

from nexus_dsl import cached_ruleset, shipped
from nexus_dsl.content.root import default_content_root
from nexus_dsl.editor_server import EditorServer as Server
from nexus_dsl.editor_server import EditorServerError, start_editor
from nexus_dsl.workbench.highlight import token_spans

REPOSITORY = Path(__file__).resolve().parents[2]
# Screenshots are kept as test artifacts in build/e2e/; `make screenshots` runs this test with
# NEXUS_SCREENSHOTS=docs/screenshots to refresh the README's pictures.
SCREENSHOTS = Path(os.environ.get("NEXUS_SCREENSHOTS") or REPOSITORY / "build" / "e2e")
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 1000}
# Streamlit on a busy two-core machine: a rerun can take several seconds, a batch longer.
STARTUP_SECONDS = 90
STEP_MS = 60_000
BATCH_MS = 120_000

CARD_ID = "back_alley_bribe"
CARD_NAME = "Back Alley Bribe"
PACK_ID = "alley_rules"
BARGE_ID = "practice_yard"
BOUTS = 10

# `make test` installs the browser (`make chromium`); without it this test fails, it is not skipped.
assert CHROMIUM.exists(), f"the editor's browser test needs Debian's chromium at {CHROMIUM}: run `make chromium`"


# ---------------------------------------------------------------- the server
# To walk through an editor that is already running — `make editor` on a fresh clone, as a new
# user would start it — give its address: NEXUS_EDITOR_URL=http://localhost:8501 (its content
# root is the clone's content/, or $NEXUS_CONTENT_ROOT). The test then writes into that content.
RUNNING_EDITOR = os.environ.get("NEXUS_EDITOR_URL")


def wait_for_health(server: Server) -> None:
    try:
        server.wait_until_healthy(STARTUP_SECONDS)
    except EditorServerError as error:
        pytest.fail(str(error))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    work = tmp_path_factory.mktemp("editor_e2e")
    if RUNNING_EDITOR:
        root = default_content_root()
        running = Server(RUNNING_EDITOR.rstrip("/"), None, work / "streamlit.log", root)
        wait_for_health(running)
        yield running
        return
    content = work / "content"
    shutil.copytree(shipped.content_folder(), content, ignore=shutil.ignore_patterns(".history", "*.draft"))
    running = start_editor(content, work / "sessions", work / "streamlit.log")
    try:
        wait_for_health(running)
        yield running
    finally:
        running.stop()
        # Shown by pytest only when a test of this module failed.
        print(f"---- streamlit output ----\n{running.output()}")


@pytest.fixture(scope="module")
def page(server: Server) -> Iterator[Page]:
    """One browser tab for the module: the tests follow one designer from page to page, in order."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=VIEWPORT)
            context.set_default_timeout(STEP_MS)
            expect.set_options(timeout=STEP_MS)
            tab = context.new_page()
            tab.goto(server.url)
            settle(tab)
            yield tab
        finally:
            browser.close()


# ---------------------------------------------------------------- driving Streamlit
def settle(page: Page, timeout: int = STEP_MS) -> None:
    """Wait until the app is connected and its script has finished the run an interaction caused.

    The app marks its state on the root element: a widget change turns it to `rerunRequested`
    at once (so a run about to start is not mistaken for a finished one), then `running`, then
    `notRunning` once every element of the run is drawn and the stale ones are gone."""
    app = page.locator('[data-testid="stApp"]')
    expect(app).to_have_attribute("data-test-connection-state", "CONNECTED", timeout=timeout)
    page.wait_for_timeout(100)  # let the browser deliver the interaction before looking
    expect(app).to_have_attribute("data-test-script-state", "notRunning", timeout=timeout)
    expect(page.locator('[data-testid="stStatusWidget"]')).to_be_hidden(timeout=timeout)


def main_area(page: Page) -> Locator:
    return page.locator('[data-testid="stMain"]')


def go_to(page: Page, title: str) -> None:
    """Follow the sidebar's navigation (the app keeps its state, so the loaded packs carry over),
    once the run the last step caused is over (a busy server draws the sidebar late) and no list is
    left open over the page (a journey that failed may leave one)."""
    page.keyboard.press("Escape")
    settle(page)
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title).click()
    expect(main_area(page).get_by_role("heading", name=title)).to_be_visible()
    settle(page)


def widget(page: Page, key: str) -> Locator:
    """A widget by its Streamlit key (each keyed element carries the class `st-key-<key>`)."""
    return page.locator(f".st-key-{key}")


def choose(page: Page, key: str, option: str) -> None:
    """Pick an option of a selectbox."""
    box = widget(page, key).get_by_role("combobox")
    box.click()
    page.get_by_role("option", name=option, exact=True).click()
    expect(box).to_have_value(option)
    settle(page)


def until_taken(page: Page, act: Callable[[], None], taken: Callable[[], bool], tries: int = 3) -> None:
    """Do `act` and let the app's run settle, again while `taken` says the page did not keep it: on a
    busy machine a run drawn late can put a widget's old value back."""
    for _ in range(tries):
        act()
        settle(page)
        if taken():
            return


def type_into(page: Page, key: str, text: str) -> None:
    """Fill a text input (or number input) and press Enter, which sends the value to the app."""
    field = widget(page, key).locator("input")

    def fill() -> None:
        field.fill(text)
        field.press("Enter")
    until_taken(page, fill, lambda: field.input_value() == text)
    expect(field).to_have_value(text)


def put_caret(script: Locator, offset: int) -> None:
    """Put the code editor's caret at a character offset, as a click there would."""
    script.evaluate("(area, at) => { area.focus(); area.setSelectionRange(at, at); }", offset)


def click(page: Page, key: str) -> None:
    widget(page, key).get_by_role("button").click()
    settle(page)


def shoot(page: Page, top: Locator, name: str) -> None:
    """A picture of the window (1400x1000) with `top` scrolled to just under the app's header."""
    top.evaluate("element => { element.style.scrollMarginTop = '70px'; element.scrollIntoView({block: 'start'}); }")
    page.mouse.move(VIEWPORT["width"] - 30, VIEWPORT["height"] // 2)  # no tooltip left over the picture
    page.wait_for_timeout(600)  # a tooltip fades out after the pointer leaves its button
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), animations="disabled")


@contextlib.contextmanager
def explained_failure(server: Server, page: Page, name: str) -> Iterator[None]:
    """On failure, print the app's output and keep a picture of the page beside it."""
    try:
        yield
    except BaseException:
        picture = server.log.with_name(f"failed-{name}.png")
        with contextlib.suppress(Exception):
            page.screenshot(path=str(picture), full_page=True)
        print(f"page at failure: {picture}\n---- streamlit output so far ----\n{server.output()}")
        raise


# ---------------------------------------------------------------- the walk through
def test_card_editor_writes_breaks_mends_and_saves_a_card(page: Page, server: Server) -> None:
    with explained_failure(server, page, "card"):
        expect(main_area(page).get_by_role("heading", name="NEXUS workbench")).to_be_visible()  # the home page
        expect(main_area(page).get_by_role("link", name=re.compile("Write a card"))).to_be_visible()
        go_to(page, "Card editor")
        main = main_area(page)

        choose(page, "ed_kind", "Influence Card")
        type_into(page, "ed_new_id", CARD_ID)
        type_into(page, "ed_new_name", CARD_NAME)
        click(page, "ed_start")
        expect(main.get_by_text("A new item, not saved yet")).to_be_visible()
        editor = widget(page, "ed_script")
        script = editor.locator("textarea")
        status = editor.locator(".nx-status")
        # The code editor gets its text just after it is drawn: wait for the template itself.
        expect(script).to_have_value(re.compile(rf"influence {CARD_ID} .*slide_roll", re.DOTALL))
        template = script.input_value()
        # Coloured by the grammar: the declaration's keyword, the card's id, its SDS level — and every
        # coloured piece exactly as the parser's own lexer cuts and classes the text.
        expect(editor.locator(".t-kw").first).to_have_text("influence")
        expect(editor.locator(".t-name").first).to_have_text(CARD_ID)
        expect(editor.locator(".t-sds").first).to_have_text("+SDS")
        coloured = editor.locator(".nx-coloured span").evaluate_all(
            "spans => spans.map(span => [span.textContent, span.className.replace('t-', '')])")
        base_kinds = cached_ruleset(("base",)).words.kinds  # `influence` is a kind of card the base game declares
        expected = [[template[start:end], kind] for start, end, kind in token_spans(template, base_kinds)
                    if kind != "plain"]
        assert coloured == expected
        expect(status).to_contain_text("no errors")

        # A typo, typed as a designer would (no button pressed): once typing pauses the editor
        # checks it and points at it — on its line, at its column — and suggests the right word.
        put_caret(script, template.index("slide_roll") + len("sl"))
        page.keyboard.press("Delete")
        expect(status).to_contain_text("1 error")
        settle(page)
        expect(editor.locator(".nx-number.bad")).to_have_text("10")
        expect(editor.locator(".nx-lens")).to_contain_text("unknown effect `slde_roll`")
        expect(main.get_by_text("unknown effect `slde_roll`").first).to_be_visible()
        expect(main.get_by_text("line 10, column 9").first).to_be_visible()
        expect(main.get_by_text("did you mean `slide_roll`").first).to_be_visible()
        expect(main.get_by_text("The preview appears once the item is valid.")).to_be_visible()
        expect(widget(page, "ed_save").get_by_role("button")).to_be_disabled()
        shoot(page, editor, "card-editor-problem.png")

        # Mended by typing the letter back: valid, and the card as players will read it.
        page.keyboard.type("i")
        expect(status).to_contain_text("no errors")
        settle(page)
        assert script.input_value() == template
        expect(editor.locator(".nx-number.bad")).to_have_count(0)
        expect(main.get_by_text(f"Valid Influence Card: {CARD_ID}")).to_be_visible()
        card = main.locator(".nexus-card")
        expect(card).to_be_visible()
        expect(card).to_contain_text(CARD_NAME)
        expect(card).to_contain_text("Cost: 1 cred")
        expect(card).to_contain_text("The attack roll slides +SDS")
        script.blur()  # no focus ring in the picture
        shoot(page, editor, "card-editor.png")

        # Saved into a pack created on the way.
        type_into(page, "ed_pack_id", PACK_ID)
        type_into(page, "ed_pack_name", "Alley Rules")
        click(page, "ed_save")
        expect(main.get_by_text(f"Saved into pack {PACK_ID}")).to_be_visible()
        pack = server.content_root / "house-rules" / PACK_ID  # a new pack is house rules by default
        saved = pack / "influence" / f"{CARD_ID}.nexus"
        assert saved.is_file(), sorted(p.as_posix() for p in server.content_root.rglob(f"*{CARD_ID}*"))
        assert f"influence {CARD_ID}" in saved.read_text()
        assert (pack / "pack.yaml").is_file()
        expect(page.locator('[data-testid="stSidebar"]').get_by_text("Alley Rules")).to_be_visible()


HELPED_ID = "helped_card"


def hover_word(page: Page, editor: Locator, word: str) -> None:
    """Rest the pointer on the middle of a word of the code editor (its coloured copy lies under
    the text area at the same place)."""
    box = editor.locator(".nx-coloured span", has_text=re.compile(rf"^{word}$")).first.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_code_editor_explains_a_word_and_completes_one(page: Page, server: Server) -> None:
    with explained_failure(server, page, "assist"):
        go_to(page, "Card editor")
        main = main_area(page)
        # Still chosen when the card editor's walk came first; chosen here when this test runs alone.
        if widget(page, "ed_kind").get_by_role("combobox").input_value() != "Influence Card":
            choose(page, "ed_kind", "Influence Card")
        type_into(page, "ed_new_id", HELPED_ID)
        type_into(page, "ed_new_name", "Helped Card")
        click(page, "ed_start")
        editor = widget(page, "ed_script")
        script = editor.locator("textarea")
        status = editor.locator(".nx-status")
        expect(script).to_have_value(re.compile(rf"influence {HELPED_ID} .*slide_roll", re.DOTALL))
        template = script.input_value()
        # The editor takes the page's width, not a column's.
        assert editor.bounding_box()["width"] > main.bounding_box()["width"] * 0.8  # type: ignore[index]

        # Hover: the pointer resting on a word shows its entry, how it is written, what it does, an example.
        tooltip = editor.locator(".nx-hover")
        hover_word(page, editor, "slide_roll")
        expect(tooltip).to_be_visible()
        expect(tooltip.locator(".nx-h-signature").first).to_have_text("slide_roll <roll_side> by <number>")
        expect(tooltip).to_contain_text("Slide the current attack or defense roll")
        expect(tooltip.locator(".nx-h-example").first).to_contain_text("slide_roll attack by 1")
        hover_word(page, editor, "before_rolls")  # a word of the loaded pack: its kind and where it is declared
        expect(tooltip).to_contain_text("window: ")
        expect(tooltip).to_contain_text("content/base/windows/")
        page.mouse.move(5, 5)
        expect(tooltip).to_be_hidden()

        # Completion: a new line of the effect, Ctrl+Space lists the effects valid there, typing
        # narrows the list, Enter inserts the word.
        put_caret(script, template.index("by bribe_bonus") + len("by bribe_bonus"))
        page.keyboard.press("Enter")
        page.keyboard.press("Control+Space")
        choices = editor.locator(".nx-complete")
        expect(choices).to_be_visible()
        expect(choices.locator("li", has_text="transfer").first).to_be_visible()
        expect(choices.locator("li", has_text="front_arc")).to_have_count(0)  # a function, not an effect
        page.keyboard.type("add_d")
        expect(choices.locator("li")).to_have_count(1)
        expect(choices.locator("li .nx-c-label")).to_have_text("add_damage")
        settle(page)
        shoot(page, editor, "code-editor-completion.png")
        page.keyboard.press("Enter")
        expect(choices).to_be_hidden()
        page.keyboard.type(" 1")
        # A pause in a word asks by itself: the list comes, Escape closes it, nothing typed is lost.
        page.keyboard.press("Enter")
        page.keyboard.type("tra")
        expect(choices.locator("li .nx-c-label").first).to_have_text("transfer")
        page.keyboard.press("Escape")
        expect(choices).to_be_hidden()
        for _ in range(len("tra") + 1 + 8):  # the word, then the line it opened
            page.keyboard.press("Backspace")
        expect(status).to_contain_text("no errors")
        settle(page)
        typed = script.input_value()
        assert typed == template.replace("by bribe_bonus\n", "by bribe_bonus\n        add_damage 1\n")
        # The text reached the page: checked, valid, and previewed with the new line (the template's
        # card says nothing of damage before it).
        assert "damage" not in template.split("effect {")[1]
        expect(main.get_by_text(f"Valid Influence Card: {HELPED_ID}")).to_be_visible()
        expect(main.locator(".nexus-card")).to_contain_text("damage")
        # The meanings came with the editor's first rerun only: after the reruns of typing, the
        # browser still answers a hover from those it kept.
        hover_word(page, editor, "add_damage")
        expect(tooltip.locator(".nx-h-signature").first).to_have_text("add_damage <number>")


def square_on(board: Locator, col: int, row: int) -> Locator:
    """A square of a board view as a click finds it: the object standing on it if any (drawn over
    the square, it answers for it), else the square itself."""
    return board.locator(f'[data-target="sq:{col},{row}"]').last


SVG = "{http://www.w3.org/2000/svg}"


def pick_many(page: Page, key: str, option: str) -> None:
    """Add an option to a multiselect."""
    chip = option.split(" (")[0]

    def pick() -> None:
        widget(page, key).get_by_role("combobox").click()
        page.get_by_role("option", name=option, exact=True).click()
        page.keyboard.press("Escape")
    until_taken(page, pick, lambda: chip in widget(page, key).inner_text())
    expect(widget(page, key)).to_contain_text(chip)  # its chip, once the page has it


def downloaded(page: Page, key: str) -> str:
    """The text of the file a download button of that key gives (its data made on the click)."""
    with page.expect_download(timeout=STEP_MS) as download:
        widget(page, key).get_by_role("button").click()
    return Path(download.value.path()).read_text(encoding="utf-8")


def printed_faces(sheet: str) -> list[list[str]]:
    """The cards on each page of a printed sheet (an XHTML document of one SVG a page), by id."""
    root = ET.fromstring(sheet.split("\n", 1)[1] if sheet.startswith("<?xml") else sheet)
    pages = [page for page in root.iter(f"{SVG}svg") if page.get("class") == "print-page"]
    return [[face.get("data-card", "") for face in page if "card-face" in (face.get("class") or "")] for page in pages]


def test_content_browser_prints_card_faces(page: Page, server: Server) -> None:
    with explained_failure(server, page, "faces"):
        go_to(page, "Content browser")
        main = main_area(page)
        type_into(page, "browser_query", "loaded dice")
        # The one card found, opened: its face drawn, its name inside the SVG.
        face = main.locator('.nexus-picture svg.card-face[data-card="loaded_dice"]')
        expect(face).to_be_visible()
        expect(face.locator(".card-name")).to_have_text("Loaded Dice")
        expect(face.locator(".card-cost").first).to_be_visible()
        expect(face.locator(".card-rules")).to_contain_text("The attack roll slides +SDS")
        svg = downloaded(page, "browser_face_0")
        assert ET.fromstring(svg).get("data-card") == "loaded_dice" and "Loaded Dice" in svg

        # Printed: the faces found, on A4 sheets.
        assert printed_faces(downloaded(page, "browser_print")) == [["loaded_dice"]]
        type_into(page, "browser_query", "")
        pick_many(page, "browser_types", "Influence Card")
        found = int(re.search(r"(\d+) of \d+ items", main.get_by_text(re.compile(r"\d+ of \d+ items")).inner_text())[1])
        assert found >= 24  # the base box's influence cards, and any a designer added
        sheet = downloaded(page, "browser_print")
        pages = printed_faces(sheet)
        assert [len(faces) for faces in pages[:-1]] == [9] * (len(pages) - 1) and 0 < len(pages[-1]) <= 9
        assert len({card for faces in pages for card in faces}) == found
        assert "Loaded Dice" in sheet and "The Announcer's Favour" in sheet


def test_barge_editor_places_an_object(page: Page, server: Server) -> None:
    """A barge drawn by clicking its picture: pieces appear where clicked, the counts follow, and a
    piece on a starting square is marked on that square and named as `nexus check` names it."""
    with explained_failure(server, page, "barge"):
        go_to(page, "Barge editor")
        main = main_area(page)
        type_into(page, "bg_new_id", BARGE_ID)
        click(page, "bg_new")
        expect(main.get_by_role("heading", name=f"Editing {BARGE_ID}")).to_be_visible()
        choose(page, "bg_type", "P — Pillar")
        board = widget(page, "bg_board")
        for col, row in ((3, 3), (6, 6)):
            expect(board.locator(f'g.object[data-col="{col}"][data-row="{row}"]')).to_have_count(0)
            square_on(board, col, row).click()
            settle(page)
            expect(board.locator(f'g.object[data-col="{col}"][data-row="{row}"]')).to_have_attribute("data-type", "pillar")
        expect(main.get_by_text("Pillar: 2 placed (4 in the box)")).to_be_visible()
        expect(board.locator(".nx-mark")).to_have_count(0)
        # A pillar on the west seat's starting square: marked on the square, named beside the picture.
        square_on(board, 1, 1).click()
        settle(page)
        expect(board.locator('.nx-mark-problem[data-of="sq:1,1"]')).to_be_attached()
        # (the message's `code` spans are drawn as code: their text reads without the backticks)
        expect(main.get_by_text(re.compile(r"^\[1, 1\]: error: barge practice_yard places pillar on \[1, 1\], "
                                           r"the west seat's starting square .*\[content/barge_start_occupied\]$"))).to_be_visible()
        expect(main.get_by_text("Pillar: 3 placed (4 in the box)")).to_be_visible()
        shoot(page, main.get_by_role("heading", name=f"Editing {BARGE_ID}"), "barge-editor.png")
        # Clicked again, the pillar goes, and its mark with it.
        square_on(board, 1, 1).click()
        settle(page)
        expect(board.locator(".nx-mark")).to_have_count(0)
        expect(board.locator('g.object[data-col="1"][data-row="1"]')).to_have_count(0)
        expect(main.get_by_text("Pillar: 2 placed (4 in the box)")).to_be_visible()


def test_test_run_plays_a_short_batch(page: Page, server: Server) -> None:
    with explained_failure(server, page, "batch"):
        go_to(page, "Test run")
        main = main_area(page)
        expect(main.get_by_text(f"Packs: base, {PACK_ID}")).to_be_visible()
        # The new card, dealt into red's hand in every bout, so the batch follows it.
        deal = widget(page, "tr_deal_cards").get_by_role("combobox")
        deal.click()
        page.get_by_role("option", name=re.compile(rf"\({CARD_ID}\)$")).click()  # shown as `Name (id)`
        deal.press("Escape")
        settle(page)
        main.get_by_role("tab", name="Batch and A/B").click()
        expect(main.get_by_text(f"Following the forced cards: {CARD_ID}")).to_be_visible()
        type_into(page, "tr_bouts", str(BOUTS))
        widget(page, "tr_run_batch").get_by_role("button").click()
        expect(main.get_by_role("heading", name="Batch results")).to_be_visible(timeout=BATCH_MS)
        settle(page, BATCH_MS)
        expect(main.get_by_text(f"{BOUTS} bouts, seeds 0..{BOUTS - 1}")).to_be_visible()
        expect(main.get_by_text("0 engine errors")).to_be_visible()
        expect(main.get_by_text(f"{CARD_ID}: played ")).to_be_visible()
        wins = main.locator('[data-testid="stDataFrame"]').first
        expect(wins).to_contain_text("win rate")
        expect(main.get_by_text("The followed cards and abilities")).to_be_visible()
        # The charts (win rates, final cred, bout lengths, the followed card) drawn by the browser.
        charts = main.locator('[data-testid="stVegaLiteChart"]')
        expect(charts.nth(3)).to_be_attached()
        for chart in charts.all():
            expect(chart.locator("svg.marks")).to_be_visible()
        shoot(page, main.get_by_role("heading", name="Batch results"), "batch-result.png")


AB_BOUTS = 200
AB_MS = 240_000


def test_test_run_compares_with_and_without_the_card(page: Page, server: Server) -> None:
    """An A/B batch: the same 200 seeds without (A) and with (B) the card dealt, and what changed."""
    with explained_failure(server, page, "ab"):
        main = main_area(page)
        type_into(page, "tr_bouts", str(AB_BOUTS))
        expect(widget(page, "tr_ab_without").get_by_role("combobox")).to_have_value("the forced cards")
        widget(page, "tr_run_ab").get_by_role("button").click()
        heading = main.get_by_role("heading", name="A/B: A without, B with")
        expect(heading).to_be_visible(timeout=AB_MS)
        settle(page, AB_MS)
        expect(main.get_by_text(f"{AB_BOUTS} bouts each")).to_be_visible()
        # The verdict in words first: how often the dealt card came into play, then what moved or
        # that nothing clearly did, and the bouts a clear answer would take.
        verdict = main.get_by_text(re.compile(rf"came into play in \d+ of the {AB_BOUTS} bouts with it"))
        expect(verdict).to_be_visible()
        expect(verdict).to_contain_text(re.compile(r"What moved: |Nothing moved clearly"))
        table = main.locator('[data-testid="stDataFrame"]').last
        for column in ("B − A", "95% CI", "p-value", "verdict"):
            expect(table).to_contain_text(column)
        # The differences drawn as forest plots: rates, and mean cred.
        expect(main.get_by_text("Win and draw rates: B − A with 95% intervals")).to_be_visible()
        expect(main.get_by_text("Mean final cred: B − A with 95% intervals")).to_be_visible()
        # One sentence per figure: the change, its interval, its p-value and the verdict in words.
        sentence = re.compile(r"red win rate: .*→.*points, 95% CI .* to .*\), p = [0-9.e-]+: "
                              r"(significant at 5%|not significant) \(two-proportion z-test\)")
        expect(main.get_by_text(sentence)).to_be_visible()
        expect(main.get_by_text(re.compile(r"p = [0-9.e-]+: .*Welch's t-test")).first).to_be_visible()
        shoot(page, heading, "ab-comparison.png")


def test_test_run_steps_through_a_bout(page: Page, server: Server) -> None:
    """Three steps of one bout, each with the board, its dice and what happened."""
    with explained_failure(server, page, "steps"):
        main = main_area(page)
        main.get_by_role("tab", name="Step through one bout").click()
        click(page, "tr_start")
        expect(main.get_by_text(re.compile(r"Seed \d+ set up; press Step"))).to_be_visible()
        seen: list[str] = []
        for number in range(1, 4):
            click(page, "tr_step")
            heading = main.get_by_role("heading", name=re.compile(rf"^Step {number}: "))
            expect(heading).to_be_visible()
            seen.append(heading.inner_text())
            expect(widget(page, "tr_board").locator("svg g.helot").first).to_be_attached()
            expect(main.get_by_text("Dice of this step")).to_be_visible()
            dice = main.locator('[data-testid="stDataFrame"]').filter(has_text="rolled")
            expect(dice.or_(main.get_by_text("no dice", exact=True)).first).to_be_visible()
            log = main.locator('[data-testid="stText"]').first
            expect(log).not_to_be_empty()
        assert len(set(seen)) == 3, seen
        # The whole log holds every step's lines so far.
        main.get_by_text("The whole log so far").click()
        expect(main.locator('[data-testid="stExpander"] [data-testid="stText"]')).to_contain_text("red")


TRACED_CARD, TRACED_NAME = "fan_favourite", "Fan Favourite"
TRACED_LINE = "add_trait self SWAG by fan_swag"
# A seed whose bout reaches a Turning Point, so the card stacked on top is drawn, both with the
# packs and the dealt card the journeys before leave chosen and with the base game alone (this
# journey run by itself): in neither within the first dozen steps, so the bout is run to its end.
TRACED_SEED = 13


def test_test_run_traces_a_drawn_card_to_its_script_line(page: Page, server: Server) -> None:
    """A Turning Point card stacked on its deck, the bout played until it is drawn, the line of its
    effect chosen in the log: the card named as its cause, its script line shown, and the card
    opened from there in the card editor."""
    with explained_failure(server, page, "traces"):
        go_to(page, "Test run")
        main = main_area(page)
        main.get_by_role("tab", name="Step through one bout").click()
        pick_many(page, "tr_stack", f"{TRACED_NAME} ({TRACED_CARD})")
        type_into(page, "tr_seed", str(TRACED_SEED))
        click(page, "tr_start")
        expect(main.get_by_text(re.compile(rf"^Seed {TRACED_SEED} set up"))).to_be_visible()
        click(page, "tr_finish")
        expect(main.get_by_text(re.compile(r"^The bout is over"))).to_be_visible()
        # The card was drawn in an earlier step: its lines are found in the whole log, by its name.
        main.get_by_text("every step so far", exact=True).click()
        settle(page)
        type_into(page, "tr_why_find", TRACED_NAME)
        widget(page, "tr_why").get_by_role("combobox").click()
        page.get_by_role("option", name=re.compile(rf"← turning point {TRACED_NAME}$")).first.click()
        settle(page)
        why = main.get_by_text(re.compile(rf"^Why: turning point {TRACED_NAME}, at .*turning_points/crowd\.nexus:\d+:9"))
        expect(why).to_be_visible()
        expect(main.locator('[data-testid="stCode"]').filter(has_text=TRACED_LINE)).to_be_visible()
        expect(main.get_by_text(re.compile(r"`?add_trait`? was given: piece (red|blue)"))).to_be_visible()
        shoot(page, main.get_by_text("Why did it happen?", exact=True), "test-run-why.png")
        main.get_by_role("button", name=f"Open {TRACED_NAME} in the card editor").click()
        expect(main.get_by_role("heading", name="Card editor")).to_be_visible()
        settle(page)
        script = widget(page, "ed_script").locator("textarea")
        expect(script).to_have_value(re.compile(rf'^turning_point {TRACED_CARD} "{TRACED_NAME}"'))
        expect(main.get_by_text(re.compile(r"^Editing .*crowd\.nexus"))).to_be_visible()


# ---------------------------------------------------------------- playtests clicked on the board
PLAYTEST_SEED = 5
MAX_DECISIONS = 400
BOARD = "pt_board"
FIGURE = "pt_figure"
MAX_STEPS = 12  # the choices of one command after its target, at most


def gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# Shared by the readings below: keyed elements of the main area, and elements of a custom
# component's picture, which may sit in a shadow root.
READ_HELPERS = """
  const main = document.querySelector('[data-testid="stMain"]');
  const keyed = (prefix) => [...main.querySelectorAll(`[class*="st-key-${prefix}"]`)].map(element => {
    const key = [...element.classList].find(name => name.startsWith(`st-key-${prefix}`));
    return [key.slice('st-key-'.length), element.innerText.trim()];
  });
  const deep = (root, selector) => [...root.querySelectorAll(selector),
    ...[...root.querySelectorAll('*')].filter(e => e.shadowRoot).flatMap(e => deep(e.shadowRoot, selector))];
  const targets = (key) => {
    const picture = main.querySelector(`.st-key-${key}`);
    return [...new Set((picture ? deep(picture, '.nx-selectable') : []).map(element => element.dataset.target))];
  };
  const idle = document.querySelector('[data-testid="stApp"]').getAttribute('data-test-script-state') === 'notRunning';
"""

READ_TABLE = f"""() => {{{READ_HELPERS}
  const board = main.querySelector('.st-key-{BOARD}');
  const helots = Object.fromEntries((board ? deep(board, 'g.helot') : []).map(
    g => [g.dataset.label, [Number(g.dataset.col), Number(g.dataset.row), g.dataset.status]]));
  const header = [...main.querySelectorAll('p')].map(p => p.innerText).find(t => t.endsWith(')') && t.includes(', your move ('));
  const handover = main.querySelector('[class*="st-key-pt_hand_over"] button') !== null;
  return {{options: keyed('pt_option_'), keep: keyed('pt_keep_'), helots, selectable: targets('{BOARD}'),
          header: header || null, handover, over: main.innerText.includes('The bout is over'), idle}};
}}"""

# The choices of a command after its target: go, a body location on the figure, or a step's buttons.
READ_STEPS = f"""() => {{{READ_HELPERS}
  return {{go: main.querySelector('.st-key-pt_go button') !== null, figure: targets('{FIGURE}'),
          steps: keyed('pt_step_'), idle}};
}}"""


def steady_reading(page: Page, script: str, ready: Callable[[dict], bool]) -> dict:
    """What `script` reads of the page once it has stopped changing: the same reading three times, a
    quarter of a second apart, with the app's script at rest and `ready` (up to 15 seconds). A click
    reaches the app a moment after it is made, and a run drawn late replaces what the last one drew,
    so a page read at once may show what is about to go."""
    readings = [page.evaluate(script)]
    for _ in range(60):
        page.wait_for_timeout(250)
        readings = [*readings[-2:], page.evaluate(script)]
        seen = readings[-1]
        if len(readings) == 3 and readings[0] == readings[1] == seen and seen["idle"] and ready(seen):
            break
    return readings[-1]


def read_table(page: Page) -> dict:
    """The table as a player sees it, once it has stopped changing, showing either choices or the
    bout's end (a page read before a click's run began would offer the last turn's choices)."""
    return steady_reading(page, READ_TABLE, lambda seen: bool(
        seen["over"] or seen["handover"] or (seen["header"] and (seen["options"] or seen["keep"]))))


def click_on_board(page: Page, target: str, key: str = BOARD) -> None:
    """Click a piece, a square or a figure's part on a picture, as a person would."""
    element = widget(page, key).locator(f'[data-target="{target}"]')
    element.first.click(force=True)  # an object drawn on a square takes the click for it
    settle(page)
    if key == BOARD:  # the page answers by drawing the click's target selected
        expect(widget(page, key).locator(f'.nx-selected[data-of="{target}"]')).to_have_count(1)


def offer_buttons(page: Page) -> list[tuple[str, str]]:
    """The commands offered at the target clicked (waiting for them to be drawn)."""
    expect(page.locator('[class*="st-key-pt_offer_"]').first).to_be_visible()
    return page.evaluate("""() => [...document.querySelectorAll('[class*="st-key-pt_offer_"]')].map(element =>
        [[...element.classList].find(n => n.startsWith('st-key-pt_offer_')).slice(7), element.innerText.trim()])""")


def attack_on_the_board(page: Page, me: str, foe: str, picture: str | None = None) -> bool:
    """Click one's piece, then the foe, then an attack: one that needs no more choices, else the
    first, its choices taken as offered (a body location on the figure, the least count). With
    `picture`, an attack with a body location is chosen when there is one, and the figure offering
    the locations is photographed: True once it is."""
    click_on_board(page, f"piece:{me}")
    click_on_board(page, f"piece:{foe}")
    offers = offer_buttons(page)
    located = [key for key, label in offers if label.startswith(("Focused Attack…", "Combo…"))]
    direct = [key for key, label in offers if "…" not in label]
    if picture is None or not located:
        picture = None
        click(page, direct[0] if direct else offers[0][0])
    else:
        click(page, located[0])
        direct = []
    for _ in range(MAX_STEPS):  # the command's further choices, one at a time, then go
        if direct:
            break
        seen = steady_reading(page, READ_STEPS, lambda seen: bool(seen["go"] or seen["figure"] or seen["steps"]))
        if seen["go"]:
            click(page, "pt_go")
            break
        if seen["figure"]:
            if picture is not None:
                shoot(page, main_area(page).get_by_text(re.compile(", your move")), picture)
            click_on_board(page, seen["figure"][0], FIGURE)
            expect(widget(page, FIGURE)).to_have_count(0)  # the location is taken: on to the next choice
        else:
            assert seen["steps"], f"the command's choices show neither go, the figure nor a step: {seen}"
            click(page, seen["steps"][0][0])
    else:
        raise AssertionError(f"the command's choices did not end in {MAX_STEPS} steps")
    return picture is not None


def move_on_the_board(page: Page, me: str, here: tuple[int, int], there: tuple[int, int], squares: list[str]) -> bool:
    """Click one's piece, then the offered square that comes closest to `there`, then its first command."""
    closer = [(gap(tuple(map(int, s[3:].split(","))), there), s) for s in squares]
    best = min(closer, default=None)
    if best is None or best[0] >= gap(here, there):
        return False
    click_on_board(page, f"piece:{me}")
    click_on_board(page, best[1])
    click(page, offer_buttons(page)[0][0])
    return True


def beside_option(options: list[tuple[str, str]], near: bool, rotations: int) -> str:
    """A fighter's choice among the buttons beside the board: points for attacking when close, for
    moving when far; on with the bout; a turn when no step brings it closer; else end the round."""
    labels = [label for _, label in options]
    for label in labels:
        if label.startswith(("Continue", "Pass")):
            return label
    ratios = [label for label in labels if label.startswith("Ratio die")]
    if ratios:
        wanted = [label for label in ratios if ("to AP" if near else "to MP") in label.split(",")[0]]
        return max(wanted or ratios, key=lambda label: int(label.split("(")[1].split(")")[0]))
    if rotations < 4:
        rotate = next((label for label in labels if label.startswith("Rotate")), None)
        if rotate:
            return rotate
    return next((label for label in labels if label.startswith("End the command round")), labels[0])


@dataclass
class Played:
    """What the clicks of a playtest did: decisions taken, screens handed over, moves and attacks
    made on the board, whether the attack at the figure was photographed, and whether the bout is over."""

    decisions: int = 0
    handovers: int = 0
    moved: int = 0
    attacked: int = 0
    shot: bool = False
    over: bool = False


def play_on_the_board(page: Page, enough: Callable[[Played], bool], fight: bool = True) -> Played:
    """Take the decisions of whoever's turn it is, on the board and beside it, until the bout is over
    or `enough` says so: a piece clicked, then an opponent to attack (a body location picked on the
    figure) or a square to move to, the round's other choices by the buttons beside the board.
    `fight=False`: a person who only ends the rounds (the agent across the board does the fighting)."""
    played, rotations = Played(), 0
    while played.decisions < MAX_DECISIONS and not enough(played):
        seen = read_table(page)
        if seen["over"]:
            played.over = True
            break
        if seen["handover"]:  # the screen passes to the next person: every hand hidden until then
            played.handovers += 1
            click(page, "pt_hand_over")
            continue
        assert seen["header"], f"nobody has choices after {played.decisions} decisions"
        played.decisions += 1
        if seen["keep"]:  # the deal: keep the first card shown
            click(page, seen["keep"][0][0])
            continue
        me = seen["header"].split(",")[0]
        foe = next(label for label in seen["helots"] if label != me)
        here, there = (tuple(seen["helots"][label][:2]) for label in (me, foe))
        if fight and f"piece:{foe}" in seen["selectable"]:
            # The first attack with a body location to choose is photographed at the figure.
            played.shot = attack_on_the_board(page, me, foe, None if played.shot else "playtest-turn.png") or played.shot
            played.attacked += 1
            continue
        squares = [target for target in seen["selectable"] if target.startswith("sq:")]
        if fight and move_on_the_board(page, me, here, there, squares):
            played.moved, rotations = played.moved + 1, 0
            continue
        chosen = beside_option(seen["options"], gap(here, there) <= 2, rotations if fight else 4)
        rotations = rotations + 1 if chosen.startswith("Rotate") else 0
        click(page, seen["options"][[label for _, label in seen["options"]].index(chosen)][0])
        if chosen.startswith("End the command round") and read_table(page)["header"] == seen["header"]:
            warned = [key for key, label in read_table(page)["options"] if label.endswith("anyway")]
            if warned:  # asked first, points left unspent: end it anyway
                click(page, warned[0])
    return played


def start_playtest(page: Page, name: str, second_seat: str) -> Locator:
    """A new playtest session of a person and `second_seat`, the open one (if any) left first."""
    go_to(page, "Playtest")
    main = main_area(page)
    if widget(page, "pt_leave").count():
        click(page, "pt_leave")
    choose(page, "pt_seat_0", "a person")
    choose(page, "pt_seat_1", second_seat)
    type_into(page, "pt_seed", str(PLAYTEST_SEED))
    type_into(page, "pt_new_name", name)
    click(page, "pt_start")
    expect(main.get_by_role("heading", name=re.compile(rf"^Session\W+{name}"))).to_be_visible()
    return main


def test_playtest_hot_seat_on_the_board(page: Page, server: Server) -> None:
    """Two people on one screen play their turns on the board, the screen passed between them,
    until each has moved and attacked there (the attack at the body figure photographed)."""
    with explained_failure(server, page, "playtest"):
        start_playtest(page, "hot seat", "a person")
        played = play_on_the_board(page, lambda p: p.moved >= 2 and p.attacked >= 2 and p.shot and p.handovers >= 2)
        assert played.handovers >= 2, played  # the screen passed between the two people
        assert played.moved >= 2 and played.attacked >= 2 and played.shot, played  # played on the board itself
        print(f"hot seat: {played}")


def test_playtest_against_an_agent_to_the_end(page: Page, server: Server) -> None:
    """A person against the heuristic agent, to the bout's end: the agent's turns are taken on the
    server between the person's, and the end shows the outcome and the whole log."""
    with explained_failure(server, page, "playtest-end"):
        main = start_playtest(page, "to the end", "heuristic agent")
        played = play_on_the_board(page, lambda p: False, fight=False)
        assert played.over, played
        over = main.get_by_text(re.compile(r"The bout is over: .*; (winner: \w+|no winner \(a draw\)); cred: "))
        expect(over).to_be_visible()
        main.locator('[data-testid="stExpander"] summary').click()
        expect(main.locator('[data-testid="stExpander"] [data-testid="stText"]')).to_contain_text(re.compile("attack", re.I))
        shoot(page, main.get_by_role("heading", name=re.compile(r"^Session\W+to the end")), "playtest-end.png")
        print(f"against the agent: {played}")
