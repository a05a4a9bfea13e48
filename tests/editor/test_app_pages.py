"""Every page of the editor renders without an exception."""

from __future__ import annotations

import pytest

from editor_app import open_page, texts

PAGES = ["browser.py", "card_editor.py", "barge_editor.py", "test_run.py", "playtest.py", "odds.py"]


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
