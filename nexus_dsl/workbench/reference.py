"""The language reference: every word of the language and of the loaded packs with its entry
(the same entries hover shows, `nexus_dsl.assist`), grouped as a designer looks for them and
searchable. Generated from the vocabulary and the packs, so it never drifts from the language."""

from __future__ import annotations

from dataclasses import dataclass

from .. import assist
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A


@dataclass(frozen=True)
class Section:
    """A group of the reference (`Effects`), or a part of one (the properties of a `command`)."""

    group: str
    title: str
    entries: tuple[assist.Entry, ...]


def matches(entry: assist.Entry, query: str) -> bool:
    """Whether every word of the query is in the entry's word, way of writing, kind or meaning."""
    haystack = " ".join((entry.word, entry.signature, entry.kind, entry.doc, entry.where)).lower()
    return all(part in haystack for part in query.lower().split())


def sections(ruleset: Ruleset | None, query: str = "") -> list[Section]:
    """The reference's sections holding entries that match `query` (all of them for ""), in the
    order of `assist.GROUPS`: properties by the kind holding them, the packs' words by kind."""
    found = [entry for entry in assist.entries(ruleset) if matches(entry, query)]
    result: list[Section] = []
    for group in assist.GROUPS:
        in_group = sorted((e for e in found if e.group == group), key=lambda e: e.word.lower())
        if not in_group:
            continue
        if group == "property":
            for kind in A.DECLARATION_KINDS:
                held = tuple(e for e in in_group if kind in e.kinds)
                if held:
                    result.append(Section(group, f"Properties of `{kind}`", held))
        elif group == "declared":
            by_kind: dict[str, list[assist.Entry]] = {}
            for entry in in_group:
                by_kind.setdefault(entry.kind.split(":")[0], []).append(entry)
            result.extend(Section(group, f"{assist.GROUP_TITLES[group]}: {kind}", tuple(entries))
                          for kind, entries in sorted(by_kind.items()))
        else:
            result.append(Section(group, assist.GROUP_TITLES[group], tuple(in_group)))
    return result
