"""Driving the editor with AppTest: open a page, collect what it shows as text."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

REPOSITORY = Path(__file__).resolve().parents[2]
APP = REPOSITORY / "editor" / "app.py"
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
