"""Every page of the editor renders without an exception."""

from __future__ import annotations

import re

import pytest

from editor_app import APP, TIMEOUT, board_data, open_page, texts
from streamlit.testing.v1 import AppTest

PAGES = ["home.py", "browser.py", "card_editor.py", "barge_editor.py", "test_run.py", "playtest.py", "odds.py"]


@pytest.mark.parametrize("page", PAGES)
def test_page_renders(app_env, page: str) -> None:
    at = open_page(page)
    assert not at.exception, at.exception
    assert at.title, f"{page} shows no title"


def test_browser_searches_and_filters(app_env) -> None:
    at = open_page("browser.py")
    at.text_input(key="browser_query").input("loaded dice").run()
    assert not at.exception
    shown = [e.label for e in at.expander]
    assert any("loaded_dice" in label for label in shown), shown
    assert "content/base/influence/bribes.nexus" in texts(at) or "bribes.nexus" in texts(at)
    assert 'class="nexus-source"' in texts(at)  # the script, coloured by the grammar


def test_browser_pages_through_every_item(app_env) -> None:
    at = open_page("browser.py")
    pages = at.number_input(key="browser_page")
    assert pages.value == 1 and pages.max > 1
    first = [e.label for e in at.expander]
    pages.set_value(pages.max).run()
    assert not at.exception, at.exception
    last = [e.label for e in at.expander]
    assert len(first) == 40 and 0 < len(last) <= 40 and not set(first) & set(last)
    total = int(next(c.value for c in at.caption if " of " in c.value and "items" in c.value).split()[2])
    assert (pages.max - 1) * 40 + len(last) == total


def test_browser_opens_an_item_in_its_editor(app_env) -> None:
    at = open_page("browser.py")
    at.text_input(key="browser_query").input("loaded dice").run()
    index = next(i for i, e in enumerate(at.expander) if "(loaded_dice)" in e.label)
    at.button(key=f"browser_open_{index}").click().run()
    assert not at.exception, at.exception
    assert at.selectbox(key="ed_kind").value == "influence"
    assert "influence loaded_dice" in at.session_state["ed_text"]
    assert "Editing" in texts(at) and "bribes.nexus" in texts(at)

    at.switch_page("views/browser.py").run()
    at.text_input(key="browser_query").input("brimstone").run()
    at.button(key="browser_open_0").click().run()
    assert not at.exception, at.exception
    assert "Editing `brimstone_pit`" in texts(at)
    objects = re.findall(r'<g class="object" [^>]*data-col="(\d)" data-row="(\d)"', board_data(at, "bg_board")["svg"])
    assert ("5", "1") in objects  # the barge's own objects are on the picture


def test_a_search_that_finds_nothing_loaded_points_at_the_pack_that_has_it(app_env) -> None:
    at = open_page("browser.py")
    at.text_input(key="browser_query").input("laced waterskin").run()
    assert not at.exception, at.exception
    assert not at.expander  # nothing in the loaded packs
    assert any("Found in pack `poison_gallery`, which is not loaded: `laced_waterskin`." in i.value for i in at.info)
    at.button(key="browser_load_poison_gallery").click().run()
    assert not at.exception, at.exception
    assert "poison_gallery" in at.sidebar.multiselect(key="loaded_packs").value
    assert any("(laced_waterskin)" in e.label for e in at.expander)
    at.text_input(key="browser_query").input("no such thing anywhere").run()
    assert "nor in any other pack under the content root" in texts(at)


def test_the_first_page_says_what_to_do_first(app_env) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    assert not at.exception, at.exception
    assert at.title[0].value == "NEXUS workbench"
    shown = texts(at)
    assert "Start a new card from a template" in shown and "A/B comparison" in shown
    assert "Loaded now: `base`" in shown
