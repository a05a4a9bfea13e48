"""Hover, completion and formatting: `assist.py`'s answers and `nexus fmt`'s text, in the
protocol's shapes. The same entries the browser editor shows on a word and in its list."""

from __future__ import annotations

from lsprotocol import types

from ..assist import Completion, Entry, completions, hover
from ..errors import NexusError
from ..model.ruleset import Ruleset
from ..syntax.printer import format_source
from .positions import Text

SHOWN_ENTRIES = 3  # meanings of a word in one hover, as the browser editor's tooltip shows
# What kind of thing each group of words is, for the client's icons.
COMPLETION_KINDS = {
    "keyword": types.CompletionItemKind.Keyword,
    "declaration kind": types.CompletionItemKind.Class,
    "effect": types.CompletionItemKind.Method,
    "function": types.CompletionItemKind.Function,
    "property": types.CompletionItemKind.Property,
    "attribute": types.CompletionItemKind.Field,
    "enumeration": types.CompletionItemKind.EnumMember,
    "declared": types.CompletionItemKind.Reference,
    "local": types.CompletionItemKind.Variable,
}


def entry_markdown(entry: Entry) -> str:
    """One meaning of a word: how it is written, what it is, what it means, an example, where."""
    parts = [f"```nexus\n{entry.signature}\n```", f"*{entry.kind}*"]
    if entry.doc:
        parts.append(entry.doc)
    if entry.example:
        parts.append(f"Example: `{entry.example}`")
    if entry.where:
        parts.append(f"Defined at {entry.where}")
    return "\n\n".join(parts)


def hover_at(text: Text, position: types.Position, ruleset: Ruleset | None) -> types.Hover | None:
    line, column = text.cursor(position)
    found = hover(text.source, line, column, ruleset)
    if found is None:
        return None
    shown = "\n\n---\n\n".join(entry_markdown(entry) for entry in found.entries[:SHOWN_ENTRIES])
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=shown),
                       range=text.range(found.line - 1, found.start_column - 1, found.end_column - 1))


def _item(completion: Completion, text: Text, line: int, column: int, rank: int) -> types.CompletionItem:
    # The text typed before the cursor is replaced by the word; `sort_text` keeps assist's order.
    replaced = text.range(line - 1, column - 1 - len(completion.prefix), column - 1)
    return types.CompletionItem(
        label=completion.label, kind=COMPLETION_KINDS.get(completion.group, types.CompletionItemKind.Text),
        detail=completion.detail, sort_text=f"{rank:05d}", filter_text=completion.label,
        text_edit=types.TextEdit(range=replaced, new_text=completion.insert))


def completion_at(text: Text, position: types.Position, ruleset: Ruleset | None) -> types.CompletionList:
    line, column = text.cursor(position)
    found = completions(text.source, line, column, ruleset)
    return types.CompletionList(is_incomplete=False,
                                items=[_item(c, text, line, column, rank) for rank, c in enumerate(found)])


def formatting_edits(text: Text, file: str) -> list[types.TextEdit] | None:
    """The whole document replaced by its canonical form; no edit when it is already canonical, and
    None when it does not parse (its diagnostics say why)."""
    try:
        formatted = format_source(text.source, file)
    except NexusError:
        return None
    if formatted == text.source:
        return []
    return [types.TextEdit(range=text.whole(), new_text=formatted)]
