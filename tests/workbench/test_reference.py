"""The language reference's sections: every entry once per group, properties by kind, the packs'
words by kind, and a search that narrows them."""

from __future__ import annotations

from nexus_dsl import assist
from nexus_dsl import vocabulary as V
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench import reference


def words_in(sections: list[reference.Section], group: str) -> set[str]:
    return {entry.word for section in sections if section.group == group for entry in section.entries}


def test_without_packs_the_reference_holds_the_language_alone() -> None:
    found = reference.sections(None)
    assert words_in(found, "effect") == set(V.PRIMITIVES)
    assert words_in(found, "function") == set(V.FUNCTIONS)
    assert words_in(found, "keyword") == set(assist.KEYWORDS)
    assert not words_in(found, "declared")
    groups = [section.group for section in found]
    assert groups == sorted(groups, key=assist.GROUPS.index)


def test_properties_are_listed_under_each_kind_holding_them(base: Ruleset) -> None:
    found = reference.sections(base)
    weapon = next(s for s in found if s.title == "Properties of `weapon`")
    assert {entry.word for entry in weapon.entries} == set(V.PROPERTIES["weapon"])
    influence = next(s for s in found if s.title.endswith(": influence"))
    assert "protection_money" in {entry.word for entry in influence.entries}


def test_a_search_matches_every_word_of_it_in_an_entry(base: Ruleset) -> None:
    found = reference.sections(base, "Coins PILE")
    assert {"transfer", "coins"} <= words_in(found, "effect") | words_in(found, "function")
    assert "front_arc" not in words_in(found, "function")
    assert reference.sections(base, "zzz no such word") == []
