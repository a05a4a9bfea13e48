"""Rule scripts as highlighted HTML driven by the language's own lexer."""

from __future__ import annotations

import html
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from nexus_dsl.errors import Diagnostic
from nexus_dsl.workbench.highlight import highlight_html, token_spans

from .conftest import CONTENT

SCRIPT = '''# A comment <b>
influence loaded_dice "Loaded <Dice> & co" {
    param loaded_bonus = +SDS
    cost 1 cred
    roll check 4+
    requires x >= 2 and self.fighting
}
'''


def _classes(source: str) -> dict[str, str]:
    return {source[start:end]: kind for start, end, kind in token_spans(source)}


def test_tokens_are_classed_by_the_grammar() -> None:
    classes = _classes(SCRIPT)
    assert classes["# A comment <b>"] == "com"
    assert classes["influence"] == "kw" and classes["param"] == "kw" and classes["requires"] == "kw"
    assert classes["and"] == "kw" and classes["cost"] == "kw"
    assert classes["loaded_dice"] == "name" and classes["cred"] == "name"
    assert classes['"Loaded <Dice> & co"'] == "str"
    assert classes["+SDS"] == "sds" and classes["4+"] == "num" and classes["1"] == "num"
    assert classes[">="] == "op" and classes["{"] == "punct"


def test_spans_cover_every_character_once() -> None:
    source = open(CONTENT / "base" / "hazards" / "floor_saw.nexus").read()
    spans = token_spans(source)
    assert spans[0][0] == 0 and spans[-1][1] == len(source)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))


def test_lines_are_numbered_and_errors_shown_beneath_with_a_caret() -> None:
    diagnostic = Diagnostic("check/unknown_name", "unknown name `x` <here>", "f", 6, 14, 15, hint="did you mean `y`?")
    out = highlight_html(SCRIPT, [diagnostic, Diagnostic("content/x", "whole file & more")])
    assert out.count('class="nx-line"') == len(SCRIPT.split("\n"))
    assert '>6</span>' in out and 'data-error="1"' in out
    assert "unknown name `x` &lt;here&gt;" in out and "hint: did you mean `y`?" in out
    assert " " * 13 + "^" in out
    assert "whole file &amp; more" in out
    assert "<b>" not in out and "&lt;b&gt;" in out and "Loaded &lt;Dice&gt; &amp; co" in out


def test_unreadable_characters_are_marked_not_fatal() -> None:
    out = highlight_html("command x \"X\" { @@@ }\n$")
    assert out.count('class="nx-err"') == 4


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.lists(st.tuples(st.integers(-3, 30), st.integers(-3, 120), st.text(max_size=20)),
                                        max_size=4))
def test_never_raises_and_escapes_everything(source: str, problems: list) -> None:
    diagnostics = [Diagnostic("x/y", message, "f", line, column) for line, column, message in problems]
    out = highlight_html(source, diagnostics)
    text_only = html.unescape(re.sub(r"<[^>]+>", "", out))
    assert "<" not in re.sub(r"</?(div|span)( [^>]*)?>", "", out)  # only our own tags
    for character in source.replace("\n", "").replace("\r", ""):
        assert character in text_only
