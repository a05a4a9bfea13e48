"""The code editor for rule scripts and data items: coloured as it is typed, checked when typing
pauses, problems drawn on their lines (a mark in the gutter, a dotted underline at the column, the
message at the end of the line).

A Streamlit custom component (components v2: inline HTML, CSS and JavaScript, nothing to build or
download). The colours come from the language's own grammar (`highlight.editor_lexer`); the checking
stays in Python: the page validates the text the editor reports and passes the problems back in.

Help while writing (`LanguageHelp`, from `nexus_dsl.assist`): the page hands the editor the
meanings of every word that can occur (a few hundred, worked out once per ruleset), and the editor
shows a word's entry in a tooltip when the pointer rests on it. The meanings (some 230 KB) are sent
once per ruleset, not on every rerun: every rerun sends their version (`words_key`, a digest of
them), and the meanings themselves only go with the first rerun of a version in a session. The
browser keeps them by version for the page's lifetime, and a browser that lacks the version it is
given (a copy that never arrived) asks for it (`want_words`), which has them sent again. Completion asks Python: on Ctrl+Space,
or when typing a word pauses, the editor reports its text and the cursor (`ask`); the page answers on
that rerun with the words valid there, and the editor lists those still matching what has been typed
since. The editor only filters by prefix: what is valid where is `nexus_dsl.assist`'s to say.

Headless tests (AppTest) cannot run the component's JavaScript: there the text is what the page
keeps in Session State, and a test types by setting it (and asks for completions by setting the
request the editor would report, under `<key>_ask`). The browser test types into the real one.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import streamlit as st

from nexus_dsl import assist
from nexus_dsl.errors import Diagnostic
from nexus_dsl.model.ruleset import Ruleset
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
  <div class="nx-hover" role="tooltip" hidden></div>
  <ul class="nx-complete" role="listbox" hidden></ul>
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


@dataclass(frozen=True)
class LanguageHelp:
    """What the editor answers hovers and completions from: the words' meanings, the ruleset the
    completions are worked out in, and the meanings' version (a digest of them: what the browser
    keeps them by)."""

    words: Mapping[str, list[dict[str, object]]]
    ruleset: Ruleset | None
    version: str = ""


def language_help(ruleset: Ruleset | None) -> LanguageHelp:
    """The help for `ruleset` (none: the language's own words), its version worked out once per ruleset."""
    words = assist.dictionary(ruleset)
    if ruleset is None:
        return LanguageHelp(words, None, _language_version())
    return LanguageHelp(words, ruleset, ruleset.derived("code_editor_words_version", lambda: words_version(words)))


def words_version(words: Mapping[str, Any]) -> str:
    """A digest of the meanings as they are sent: the same meanings, the same version."""
    return hashlib.sha256(json.dumps(words, sort_keys=True).encode()).hexdigest()[:16]


@lru_cache(maxsize=1)
def _language_version() -> str:
    return words_version(assist.dictionary(None))


def answer(request: Any, word_help: LanguageHelp) -> dict[str, Any] | None:
    """The completions for a request the editor reported (`{"id", "text", "line", "column"}`),
    or None for a request that is not one."""
    if not hasattr(request, "get"):
        return None
    text, line, column, ident = (request.get(name) for name in ("text", "line", "column", "id"))
    if not isinstance(text, str) or not all(isinstance(n, int) and not isinstance(n, bool) for n in (line, column)):
        return None
    found = assist.completions(text, line, column, word_help.ruleset)
    return {"id": ident, "line": line, "column": column,
            "items": [completion.as_dict() for completion in found[:MAX_COMPLETIONS]]}


MAX_COMPLETIONS = 200  # the rest is reached by typing more of the word


def code_editor(text: str, *, key: str, revision: int, language: Language, label: str,
                diagnostics: Sequence[Diagnostic], on_change: Callable[[str], None],
                kinds: Sequence[str] = (), word_help: LanguageHelp | None = None) -> None:
    """Draw the editor holding `text`. `on_change(new_text)` runs (as a callback, before the rerun)
    whenever the designer's text reaches the app. `revision` must change whenever the app itself
    replaces the text (a template, a form, a reload): only then is the editor's content replaced,
    so text typed while a rerun was under way is never lost. `kinds`: the kinds of declaration the
    loaded packs declare, coloured as keywords like the built-in ones. `word_help`: the meanings of
    the words and the completions (none without it)."""
    ask_key = f"{key}_ask"
    sent_key = f"{key}_words_sent"  # the version of the meanings last sent to this editor in this session

    def reported(name: str) -> Any:
        value = st.session_state.get(key) or {}
        return value.get(name) if hasattr(value, "get") else None

    def changed() -> None:
        new_text = reported("text")
        if isinstance(new_text, str):
            on_change(new_text)

    def asked() -> None:
        # A request for completions carries the text it was made in: the page takes that text too.
        request = reported("ask")
        st.session_state[ask_key] = request
        if hasattr(request, "get") and isinstance(request.get("text"), str):
            on_change(request["text"])

    def wanted() -> None:
        # The browser lacks the version it was given: send the meanings again on this rerun.
        st.session_state.pop(sent_key, None)

    data: dict[str, Any] = {"text": text, "revision": revision, "label": label, "lexer": editor_lexer(language, kinds),
                            "errors": problems_for_the_editor(diagnostics)}
    if word_help is not None:
        data["words_key"] = word_help.version
        if st.session_state.get(sent_key) != word_help.version:
            data["words"] = word_help.words
            st.session_state[sent_key] = word_help.version
        data["completions"] = answer(st.session_state.get(ask_key), word_help)
    _component()(key=key, data=data, on_text_change=changed, on_ask_change=asked, on_want_words_change=wanted)
