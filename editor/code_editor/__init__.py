"""The code editor for rule scripts and data items: coloured as it is typed, checked when typing
pauses, problems drawn on their lines (a mark in the gutter, a dotted underline at the column, the
message at the end of the line).

A Streamlit custom component (components v2: inline HTML, CSS and JavaScript, nothing to build or
download). The colours come from the language's own grammar (`highlight.editor_lexer`); the checking
stays in Python: the page validates the text the editor reports and passes the problems back in.

Headless tests (AppTest) cannot run the component's JavaScript: there the text is what the page
keeps in Session State, and a test types by setting it. The browser test types into the real one.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import streamlit as st

from nexus_dsl.errors import Diagnostic
from nexus_dsl.workbench.highlight import Language, editor_lexer

HERE = Path(__file__).parent
HTML = """<div class="nx-editor">
  <div class="nx-label"></div>
  <div class="nx-frame">
    <div class="nx-gutter" aria-hidden="true"><div class="nx-gutter-inner"></div></div>
    <div class="nx-code">
      <div class="nx-layer" aria-hidden="true"><div class="nx-marks"></div><pre class="nx-coloured"></pre></div>
      <textarea class="nx-input" spellcheck="false" autocomplete="off" autocapitalize="off" wrap="off"></textarea>
    </div>
  </div>
  <div class="nx-status" aria-live="polite"></div>
</div>"""


@lru_cache(maxsize=1)
def _component() -> Callable[..., Any]:
    # Registered once per process: registering again under the same name replaces it (with a warning).
    return st.components.v2.component(
        "nexus_code_editor", html=HTML, css=(HERE / "editor.css").read_text(encoding="utf-8"),
        js=(HERE / "editor.js").read_text(encoding="utf-8"))


def problems_for_the_editor(diagnostics: Sequence[Diagnostic]) -> list[dict[str, Any]]:
    """Diagnostics as the editor draws them: position, severity, and the message with its hint."""
    return [{"line": d.line, "column": d.column, "end_column": d.end_column, "severity": d.severity,
             "message": d.message + (f" ({d.hint})" if d.hint else "")}
            for d in diagnostics]


def code_editor(text: str, *, key: str, revision: int, language: Language, label: str,
                diagnostics: Sequence[Diagnostic], on_change: Callable[[str], None],
                kinds: Sequence[str] = ()) -> None:
    """Draw the editor holding `text`. `on_change(new_text)` runs (as a callback, before the rerun)
    whenever the designer's text reaches the app. `revision` must change whenever the app itself
    replaces the text (a template, a form, a reload): only then is the editor's content replaced,
    so text typed while a rerun was under way is never lost. `kinds`: the kinds of declaration the
    loaded packs declare, coloured as keywords like the built-in ones."""

    def changed() -> None:
        value = st.session_state.get(key) or {}
        new_text = value.get("text") if hasattr(value, "get") else None
        if isinstance(new_text, str):
            on_change(new_text)

    _component()(
        key=key,
        data={"text": text, "revision": revision, "label": label, "lexer": editor_lexer(language, kinds),
              "errors": problems_for_the_editor(diagnostics)},
        on_text_change=changed,
    )
