"""Driving the editor with AppTest: open a page, collect what it shows as text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from editor.board_view import click_key
from nexus_dsl import shipped

REPOSITORY = Path(__file__).resolve().parents[2]
APP = shipped.editor_app()
TIMEOUT = 90


def open_page(page: str) -> AppTest:
    """The app, run once, then switched to one page of `editor/views/` and run again."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    at.switch_page(f"views/{page}")
    at.run()
    return at


def texts(at: AppTest) -> str:
    """Everything the page shows as text (markdown, captions, alerts, code, html), for searching."""
    parts: list[str] = []
    for kind in ("markdown", "caption", "error", "warning", "success", "info", "code", "title", "header",
                 "subheader", "metric", "html", "text", "json"):
        for element in at.get(kind):
            for attribute in ("value", "body", "label"):
                value = getattr(element, attribute, None)
                if isinstance(value, str):
                    parts.append(value)
    return "\n".join(parts)


# The card editor's script lives in a code editor (a custom component). AppTest cannot run its
# JavaScript, so a test types by putting the text where the page keeps it (what the editor's
# change callback does), and reads what the page handed the editor from the element's data.
SCRIPT_TEXT = "ed_text"
SCRIPT_EDITOR = "ed_script"


def script_text(at: AppTest) -> str:
    return at.session_state[SCRIPT_TEXT]


def type_script(at: AppTest, text: str) -> None:
    at.session_state[SCRIPT_TEXT] = text
    at.run()
    assert not at.exception, at.exception


def code_editor_data(at: AppTest, key: str = SCRIPT_EDITOR) -> dict[str, Any]:
    """The data the page passed to the code editor on its last run: text, revision, problems."""
    for element in at.get("bidi_component"):
        if element.proto.id.endswith(f"-{key}"):
            return json.loads(element.proto.json)
    raise AssertionError(f"no component `{key}` on the page")


def board_data(at: AppTest, key: str) -> dict[str, Any]:
    """The data the page passed to the board view `key` on its last run: svg, selectable, marks."""
    return code_editor_data(at, key)


def click_board(at: AppTest, key: str, target: str) -> None:
    """Click `target` (a `data-target`: `sq:COL,ROW`, `piece:LABEL`) on the board view `key`, as
    its change callback reports a click: AppTest cannot run the component's JavaScript. Only a
    target the page made selectable can be clicked, as in the browser."""
    shown = board_data(at, key)
    assert target in shown["selectable"], f"{target} is not clickable on board {key}"
    at.session_state[click_key(key)] = {"target": target, "seq": shown["seq"] + 1}
    at.run()
    assert not at.exception, at.exception


def save_into_new_pack(at: AppTest, pack_id: str, name: str, kind: str, button: str = "ed_save",
                       prefix: str = "ed") -> None:
    """Save the work on a page into a new pack (`prefix` is the page's key prefix: `ed` the card
    editor, `bg` the barge editor), by the button given (a save, or a save as a draft)."""
    pack = at.selectbox(key=f"{prefix}_pack")
    if pack.value != "(a new pack)":
        pack.select("(a new pack)").run()
    at.text_input(key=f"{prefix}_pack_id").input(pack_id)
    at.text_input(key=f"{prefix}_pack_name").input(name)
    at.selectbox(key=f"{prefix}_pack_kind").select(kind)
    at.button(key=button).click().run()
    assert not at.exception, at.exception


def in_page_order(at: AppTest) -> list[Any]:
    """The main area's elements from top to bottom (containers walked in their order)."""
    found: list[Any] = []

    def walk(node: Any) -> None:
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for index in sorted(children):
                walk(children[index])
        else:
            found.append(node)

    walk(at.main)
    return found
