"""Kinds content declares (`kind <id> "<name>" { like <built-in kind> }`): a declaration written with
the kind's id is checked, validated and played as the built-in kind it is like; a kind not in view is
refused at its kind; a kind clashing with a built-in one, like none a kind may be like, or declared
twice in a pack is refused; a pack overrides a kind by its id."""

from __future__ import annotations

from pathlib import Path

from support import base_word_declarations, write_pack

from nexus_dsl import cached_ruleset, check_declarations, load_ruleset_collecting, parse
from nexus_dsl.cards import all_faces, kind_title
from nexus_dsl.check.context import context_of
from nexus_dsl.validate_files import check_script_text

BOON = 'kind boon "Boon" {\n    like hand_card\n}\n'


def found(source: str, with_base: bool = True) -> list[tuple[str, int, int, int, str, str | None]]:
    """The problems of `source` checked alone, on top of the base game's words or of nothing."""
    declarations = parse(source, "t.nexus").declarations
    context = context_of([*(base_word_declarations() if with_base else ()), *declarations])
    return [(d.code, d.line, d.column, d.end_column, d.message, d.hint) for d in check_declarations(declarations, context)]


def test_the_base_game_declares_its_cards_kinds_after_the_built_in_ones() -> None:
    base = cached_ruleset(("base",))
    assert dict(base.words.kinds) == {"influence": "hand_card", "turning_point": "drawn_card"}
    assert base.words.base_kind("influence") == "hand_card" and base.words.base_kind("hazard") == "hazard"
    assert base.words.base_kind("potion") is None
    assert base.declaration("influence", "loaded_dice") is not None
    assert base.words.hand_kinds == ("influence",) and base.words.played_kinds == ("turning_point",)
    assert kind_title("influence", base) == "Influence Card" and kind_title("hand_card", base) == "Hand Card"
    faces = {face.id: face for face in all_faces(base, "turning_point")}
    assert faces["trapdoor"].text().startswith("Trapdoor — Turning Point Card (trapdoor)")


def test_a_declaration_of_a_kind_not_in_view_is_refused_at_its_kind() -> None:
    ((code, line, column, end, message, hint),) = found('\n  potion brew "Brew" {\n    text "x"\n}\n')
    assert (code, line, column, end) == ("check/unknown_kind", 2, 3, 9)
    assert message == "unknown declaration kind `potion`" and "hand_card" in (hint or "")
    ((code, *_rest, hint),) = found('influnce bribe "Bribe" {\n    window any_time\n}\n')
    assert code == "check/unknown_kind" and hint == "did you mean `influence`?"


def test_a_pack_that_builds_on_nothing_sees_none_of_the_base_game_s_kinds() -> None:
    ((code, line, column, _end, message, _hint),) = found('influence bribe "Bribe" {\n    window any_time\n}\n',
                                                            with_base=False)
    assert (code, line, column, message) == ("check/unknown_kind", 1, 1, "unknown declaration kind `influence`")
    # Its own kind, like a built-in one, takes that kind's clauses and properties.
    window = 'window whenever "Whenever" {\n    text "x"\n}\n'
    assert found(BOON + window + 'boon lucky "Lucky" {\n    targets opponent\n    window whenever\n}\n',
                 with_base=False) == []


def test_a_declared_kind_is_held_to_the_clauses_and_properties_of_the_kind_it_is_like() -> None:
    omen = 'kind omen "Omen" {\n    like drawn_card\n}\n'
    problems = found(omen + 'omen dark "Dark" {\n    arg who: piece\n    colour "#000000"\n}\n')
    assert [(p[0], p[1], p[4]) for p in problems] == [
        ("check/clause_not_allowed", 5, "a omen cannot have a `arg` clause"),
        ("check/unknown_property", 6, "a omen has no property `colour`")]


def test_a_kind_is_like_a_built_in_kind_of_card_and_is_named_for_no_built_in_kind() -> None:
    assert [p[:3] for p in found('kind hazard "Hazard" {\n    like hand_card\n}\n')] == [("check/duplicate_name", 1, 6)]
    (missing,) = found('kind boon "Boon" {\n    text "x"\n}\n')
    assert missing[:3] == ("check/missing_clause", 1, 6) and "like hand_card" in (missing[5] or "")
    (unlike,) = found('kind boon "Boon" {\n    like hazard\n}\n')
    assert unlike[:3] == ("check/unknown_kind", 2, 10) and "not `hazard`" in unlike[4]
    (typo,) = found('kind boon "Boon" {\n    like hand_crd\n}\n')
    assert typo[0] == "check/unknown_kind" and typo[5] == "did you mean `hand_card`?"
    # A declaration of a kind declared like none is not checked again: the kind's declaration says why.
    assert [p[0] for p in found('kind boon "Boon" {\n    like hazard\n}\nboon b "B" {\n    text "x"\n}\n')] == \
        ["check/unknown_kind"]


def test_a_zone_holds_a_declared_kind_in_view() -> None:
    assert found(BOON + 'zone boons "Boons" {\n    holds boon\n    drawn kept\n}\n') == []
    (unknown,) = found('zone boons "Boons" {\n    holds boon\n    drawn kept\n}\n')
    assert unknown[0] == "check/unknown_name" and unknown[1:3] == (2, 11)


def test_a_declared_kind_s_card_is_validated_against_the_schema_of_the_kind_it_is_like() -> None:
    text = 'influence pricey "Pricey" {\n    cost 13 cred\n    window any_time\n}\n'
    assert [(d.code, d.line, d.column) for d in check_script_text(text, "t.nexus", cached_ruleset(("base",)))] == [
        ("schema/out_of_range", 2, 10)]


def test_a_kind_declared_twice_in_a_pack_is_refused_and_a_later_pack_overrides_it(tmp_path: Path) -> None:
    twice = write_pack(tmp_path / "twice", "twice", {"kinds.nexus": BOON + BOON})
    _ruleset, diagnostics = load_ruleset_collecting([str(twice)])
    assert [(d.code, d.line) for d in diagnostics] == [("content/duplicate_id", 4)]
    house = write_pack(tmp_path / "house", "house", {
        "kinds.nexus": 'kind influence "Bribe Card" {\n    like hand_card\n}\n'}, builds_on="[base]")
    ruleset, diagnostics = load_ruleset_collecting(["base", str(house)])
    assert diagnostics == [] and ruleset is not None
    assert kind_title("influence", ruleset) == "Bribe Card" and ruleset.words.hand_kinds == ("influence",)


def test_a_pack_s_own_kind_s_cards_are_checked_and_validated_when_loaded(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "own", "own", {"cards.nexus": BOON + (
        'boon pricey "Pricey" {\n    cost 13 AP\n    window any_time\n    roll check 4+\n    roll check 5+\n}\n')})
    _ruleset, diagnostics = load_ruleset_collecting([str(pack)])
    assert sorted((d.code, d.line) for d in diagnostics) == [
        ("check/duplicate_clause", 8), ("check/unknown_window", 6), ("schema/out_of_range", 5)]
