"""Hover and completion at many places of real content scripts: the meanings the vocabulary and
the loaded packs give a word, and the words the grammar and the checker's scope allow at the cursor."""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl import assist
from nexus_dsl import vocabulary as V
from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.model.ruleset import Ruleset

CONTENT = Path(__file__).resolve().parents[2] / "content"


@pytest.fixture(scope="module")
def base() -> Ruleset:
    return cached_ruleset(("base",))


@pytest.fixture(scope="module")
def pirates() -> Ruleset:
    return cached_ruleset(("nexus_pirates",))


def script(relative: str) -> str:
    return (CONTENT / relative).read_text(encoding="utf-8")


def position(text: str, marker: str, after: int = 0) -> tuple[int, int]:
    """The 1-based line and column `after` characters into the first `marker`."""
    index = text.index(marker) + after
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def offered(text: str, marker: str, after: int, rules: Ruleset | None) -> list[str]:
    return assist.words_of(assist.completions(text, *position(text, marker, after), rules))


def groups_of(hover: assist.Hover | None) -> list[str]:
    assert hover is not None
    return [entry.group for entry in hover.entries]


EXTORTION = "base/influence/extortion.nexus"
MELEE = "base/commands/melee.nexus"


# ---------------------------------------------------------------- hover
def test_hovering_an_effect_shows_its_signature_meaning_and_example(base: Ruleset) -> None:
    text = script(EXTORTION)
    found = assist.hover(text, *position(text, "transfer protection_cred", 3), base)
    assert found is not None and found.word == "transfer"
    first = found.entries[0]
    assert (first.group, first.signature) == ("effect", "transfer <number> from <pile> to <pile>")
    assert first.doc == V.PRIMITIVES["transfer"].doc and first.example.startswith("transfer ")
    assert (found.start_column, found.end_column) == (9, 17)


def test_hovering_a_function_an_attribute_and_a_keyword(base: Ruleset) -> None:
    text = script(MELEE)
    call = assist.hover(text, *position(text, "front_arc(self)", 2), base)
    assert groups_of(call)[0] == "function" and call is not None
    assert call.entries[0].signature == "front_arc(<piece>) → squares"
    attribute = assist.hover(text, *position(text, "self.weapon_type", 6), base)
    assert groups_of(attribute)[0] == "attribute"
    assert attribute is not None and attribute.entries[0].kind == "piece attribute: any"
    keyword = assist.hover(text, *position(text, "requires target", 1), base)
    assert groups_of(keyword) == ["keyword"]


def test_hovering_a_pack_s_word_gives_its_kind_name_place_and_text(base: Ruleset) -> None:
    text = script(EXTORTION)
    found = assist.hover(text, *position(text, "protection_money", 4), base)
    declared = next(e for e in found.entries if e.group == "declared") if found else None
    assert declared is not None
    assert declared.kind == "influence: Protection Money"
    assert declared.where == "content/base/influence/extortion.nexus:4"
    assert declared.doc.startswith("Any time: take 3 cred")
    state = assist.hover("requires self is armed", 1, 20, base)
    assert state is not None and state.entries[0].kind.startswith("state: ")


def test_hovering_a_name_the_script_binds_and_nothing(base: Ruleset) -> None:
    text = script(MELEE)
    local = assist.hover(text, *position(text, "let weapon_bonus", 6), base)
    assert local is not None and local.entries[0].group == "local"
    assert "bound by `let`" in local.entries[0].doc
    assert assist.hover(text, *position(text, '"A flailing attack', 4), base) is None  # inside text
    assert assist.hover("   ", 1, 2, base) is None
    assert assist.hover("x", 9, 1, base) is None  # beyond the text


def test_the_same_word_may_mean_several_things(base: Ruleset) -> None:
    found = assist.hover("damage 2", 1, 2, base)
    assert found is not None and {"effect", "property"} <= set(groups_of(found))


# ---------------------------------------------------------------- completion
def test_completion_at_a_statement_s_start_offers_effects_and_statement_keywords(base: Ruleset) -> None:
    text = script(EXTORTION)
    words = offered(text, "transfer protection_cred", 0, base)
    assert {"transfer", "damage", "let", "if", "for", "setting_up"} <= set(words)
    assert "front_arc" not in words and "flavor" not in words
    assert offered(text, "transfer protection_cred", 3, base)[:1] == ["transfer"]


def test_completion_at_a_clause_s_start_offers_the_kind_s_clauses_and_properties(base: Ruleset) -> None:
    text = script(EXTORTION)
    words = offered(text, "    targets opponent", 4, base)
    assert {"cost", "requires", "effect", "window", "flavor", "targets", "text"} <= set(words)
    assert "let" not in words and "transfer" not in words
    words = assist.words_of(assist.completions('weapon club "Club" {\n    type melee\n    \n}', 3, 5, base))
    assert {"damage", "durability", "when"} <= set(words)
    assert "cost" not in words and "effect" not in words  # a weapon holds neither


def test_completion_after_a_dot_offers_attributes_and_the_game_s_stats(base: Ruleset) -> None:
    text = script(EXTORTION)
    words = offered(text, "requires target.cred", 16, base)
    assert {"overall", "ap", "cred", "WILL", "head", "facing"} <= set(words)
    assert "transfer" not in words and "front_arc" not in words
    assert offered(text, "requires target.cred", 18, base) == ["cred"]


def test_completion_in_an_expression_offers_functions_and_names_in_scope(base: Ruleset) -> None:
    text = script(MELEE)
    words = offered(text, "requires target in front_arc", 9, base)
    assert {"front_arc", "self", "target", "opponents", "crowd", "N", "prone", "not"} <= set(words)
    assert "transfer" not in words
    found = assist.completions(text, *position(text, "requires target in front_arc", 21), base)
    front = next(c for c in found if c.label == "front_arc")
    assert (front.insert, front.prefix, front.group) == ("front_arc(", "fr", "function")
    assert front.detail == "front_arc(<piece>) → squares"


def test_completion_after_an_effect_offers_only_the_prepositions_it_takes(base: Ruleset) -> None:
    text = 'influence x "X" {\n    window any_time\n    effect {\n        transfer 2 '
    words = assist.words_of(assist.completions(text, 4, len("        transfer 2 ") + 1, base))
    assert {"from", "to"} <= set(words)
    assert not {"by", "at", "into", "against"} & set(words)


def test_completion_after_clause_keywords_offers_the_words_of_their_kind(base: Ruleset) -> None:
    head = 'influence x "X" {\n    '
    assert offered(head + "when ", "when ", 5, base) == sorted(base_events(base))
    assert set(offered(head + "window ", "window ", 7, base)) == set(base.words.windows)
    assert offered(head + "window any_time by ", " by ", 4, base) == sorted(V.WINDOW_ROLES)
    costs = offered(head + "cost 1 ", "cost 1 ", 7, base)
    assert {"AP", "MP", "overall", "WILL", "cred"} <= set(costs)
    assert "and" not in costs and "front_arc" not in costs
    states = offered(head + "requires target is ", "is ", 3, base)
    assert set(states) - {"not"} == set(base.words.states)


def base_events(base: Ruleset) -> list[str]:
    return list(base.words.events)


def test_completion_at_the_top_level_offers_declaration_kinds(base: Ruleset) -> None:
    words = assist.words_of(assist.completions("", 1, 1, base))
    assert {"command", "influence", "turning_point", "rule", "window"} <= set(words)
    words = assist.words_of(assist.completions("inf", 1, 4, base))
    assert words == ["influence"]


def test_completion_inside_text_or_a_comment_offers_nothing(base: Ruleset) -> None:
    text = script(MELEE)
    assert offered(text, 'text "A flailing', 8, base) == []
    assert offered(text, "# Bonuses are ignored", 5, base) == []
    assert assist.hover(text, *position(text, "# Bonuses are ignored", 4), base) is None
    colour = 'state s "S" {\n    colour "#5d4037"\n    t'
    assert "text" in assist.words_of(assist.completions(colour, 3, 6, base))  # a `#` in quoted text is no comment
    assert assist.completions('state s "S" {\n    text "say \\"a', 2, 18, base) == []


def test_completion_survives_a_broken_declaration_before_the_cursor(base: Ruleset) -> None:
    text = 'command broken "B" {\n    cost 1 AP +\n}\n\ninfluence x "X" {\n    window any_time\n    effect {\n        tra'
    words = assist.words_of(assist.completions(text, 8, 12, base))
    assert words == ["transfer"]


def test_completion_names_come_from_the_loaded_packs(pirates: Ruleset, base: Ruleset) -> None:
    text = 'rule x "X" {\n    when '
    pirate_events = set(offered(text, "when ", 5, pirates))
    assert pirate_events == set(pirates.words.events)
    assert pirate_events != set(offered(text, "when ", 5, base))


@pytest.mark.parametrize("relative", [EXTORTION, MELEE, "base/influence/favours.nexus"])
def test_every_word_of_a_real_script_is_offered_where_it_stands(base: Ruleset, relative: str) -> None:
    """At the start of every name of a script, once its first letter is typed, the name itself is
    among the completions, unless it is a name the script is free to choose (an id, a bound name)."""
    import re
    text = script(relative)
    free = set(assist._local_names(text)) | {m.group(1) for m in re.finditer(r'^\w+\s+(\w+)\s+"', text, re.MULTILINE)}
    # Tags are words a pack chooses freely.
    free |= {tag for m in re.finditer(r"^\s*tags\s+(.*)$", text, re.MULTILINE) for tag in re.findall(r"\w+", m.group(1))}
    missed = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.lstrip().startswith("#"):
            continue
        for match in re.finditer(r"[A-Za-z_]\w*", line):
            if assist._in_text_or_comment(line[:match.start()]) or match.group(0) in free or line[match.start() - 1:match.start()] in "+-" and match.start():
                continue
            words = assist.words_of(assist.completions(text, number, match.start() + 2, base))
            if match.group(0) not in words:
                missed.append(f"{number}:{match.start() + 1} {match.group(0)}")
    assert not missed
