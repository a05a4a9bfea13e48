"""Card faces in the game's own English: every card of every pack reads without script syntax, and
hand-chosen cards read as their rulebook text means, word for word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nexus_dsl import vocabulary as V
from nexus_dsl.cards import CardFace, Speaker, all_faces, show
from nexus_dsl.cards.phrases import FUNCTION_PHRASES, PRIMITIVE_PHRASES
from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.syntax import ast_nodes as A

CONTENT = Path(__file__).resolve().parents[1] / "content"
PACKS = sorted(pack.name for group in CONTENT.iterdir() if group.is_dir() for pack in group.iterdir()
               if (pack / "pack.yaml").is_file())
# The kinds a player holds as cards (a kind a pack declares is like one of them).
CARD_KINDS = ("command", "trait_ability", "hazard", "drawn_card", "hand_card", "weapon", "card")
# What a script says and a card must not: a piece's attribute, comparisons, a command's tags, a
# loop or a branch as written, a call, an identifier's underscore, a membership test on a name.
SCRIPT_SYNTAX = re.compile(r"self\.|==|!=|<=|>=|command\.tags|for each|- if|\w\(|\(\)|_|\b\w+ (?:not )?in [a-z]+_")


def card_faces(ruleset: Ruleset) -> list[CardFace]:
    return [face for face in all_faces(ruleset) if (ruleset.words.base_kind(face.kind) or face.kind) in CARD_KINDS]


def rules_of(ruleset: Ruleset, ident: str) -> list[str]:
    return [line.strip() for line in show(ruleset, ident)[0][0].lines]


@pytest.fixture(scope="module")
def base() -> Ruleset:
    return cached_ruleset(("base",))


def test_every_primitive_and_function_of_the_language_has_its_phrase() -> None:
    assert set(PRIMITIVE_PHRASES) == set(V.PRIMITIVES)
    assert set(FUNCTION_PHRASES) == set(V.FUNCTIONS)


@pytest.mark.parametrize("pack", PACKS)
def test_no_card_of_any_pack_prints_script_syntax(pack: str) -> None:
    ruleset = cached_ruleset((pack,))
    faces = card_faces(ruleset)
    assert faces, f"{pack} holds no card"
    found = [f"{face.id}: {line.strip()}" for face in faces for line in face.lines if SCRIPT_SYNTAX.search(line)]
    assert found == []


def test_the_syntax_pattern_catches_what_faces_printed_before() -> None:
    for printed in ("Requires: self.fighting", '"wild" not in command.tags', "- for each h in helots():",
                    "- if h.fighting:", "self.grappling == none", "coins(crowd) > 0", "left_upper"):
        assert SCRIPT_SYNTAX.search(printed), printed
    assert not SCRIPT_SYNTAX.search("Play only when your helot is still fighting.")


def test_influence_cards_read_as_their_rulebook_text_means(base: Ruleset) -> None:
    # "Any time: ... take 3 cred from the crowd (as many as the pile holds)."
    assert rules_of(base, "announcers_favour") == [
        "Play: Any time",
        "Play only when the number of coins on the Crowd Coin Pile is more than 0 "
        "(otherwise: \u201cthe Crowd Coin Pile is empty\u201d).",
        "Effect:",
        "- Move 3 coins from the Crowd Coin Pile to your Cred.",
    ]
    # "Play in your own round: take 5 cred from an opposing lanista who has more cred than you."
    assert rules_of(base, "blackmail_dossier")[1:] == [
        "Play only when the target's Cred is more than your Cred "
        "(otherwise: \u201cblackmail only works on a lanista with more cred than you\u201d).",
        "Effect:",
        "- Move 5 coins from the target's Cred to your Cred.",
    ]
    chain = rules_of(base, "chain_from_the_stands")
    assert "- The target moves one square in the chosen direction." in chain
    assert "Play: Own round, for your own helot" in chain  # no "by the helot it concerns" on a lanista's card
    assert "- The attack roll slides +SDS on its dice scale." in rules_of(base, "loaded_dice")
    assert "- The chosen trait of your helot rises by 2." in rules_of(base, "meat_garden_tonic")


def test_commands_and_abilities_read_with_the_game_s_names(base: Ruleset) -> None:
    grapple = rules_of(base, "grapple")
    assert ("Use only when your helot's Left Upper Appendage is more than 0 and your helot's Right Upper Appendage "
            "is more than 0 (otherwise: \u201cgrappling takes a working left and right upper appendage\u201d).") in grapple
    assert ("Use only when your helot is grappling no one "
            "(otherwise: \u201cyour helot already holds an opponent\u201d).") in grapple
    assert grapple[-2:] == ["- The target is held by your helot.", "- The target is no longer Prone."]
    assert rules_of(base, "mend")[-1] == "- Your helot is no longer Bleeding."
    assert "- The attack does 4 more damage." in rules_of(base, "haymaker")  # the param's value, not its name
    assert ("Use only when \u201cwild\u201d is not among the command's tags "
            "(otherwise: \u201cdamage bonuses do not apply to wild attacks\u201d).") in rules_of(base, "haymaker")


def test_what_is_on_a_square_and_how_many_are_left_read_as_there_is(base: Ruleset) -> None:
    assert ("Use only when there is a Crate on your helot's front-centre square "
            "(otherwise: \u201cthere is no crate in your front-centre square\u201d).") in rules_of(base, "destroy_crate")
    assert ("Play only when there is at least one of the one handed weapon cards that no one holds "
            "(otherwise: \u201cevery one-handed weapon card is in a helot's hands\u201d).") in rules_of(base, "dmart_care_package")


def test_a_loop_over_every_piece_reads_as_every_piece(base: Ruleset) -> None:
    assert rules_of(base, "coins_from_the_stands") == [
        "Effect:",
        "- For every helot on the board, clockwise from your helot:",
        "- Move 2 coins from the Crowd Coin Pile to that helot's Cred.",
    ]
    assert "- Your helot's Swagger rises by 2." in rules_of(base, "fan_favourite")


def test_a_game_without_pieces_speaks_of_its_players() -> None:
    pirates = cached_ruleset(("nexus_pirates",))
    parley = rules_of(pirates, "parley")
    assert "- Drawing for Parleying: your player." in parley
    assert not any("helot" in line for face in all_faces(pirates) for line in face.lines)


def test_a_word_no_table_knows_is_said_by_its_own_words_never_dropped() -> None:
    speaker = Speaker(None, {}, "your piece")
    assert speaker.noun(A.Call(func="mystery_gauge", args=(A.Name(id="self"), A.Num(value=3)))) == \
        "mystery gauge of your piece and 3"
    action = A.Action(verb="shout_loudly", args=(A.Str(value="hello_there"),))
    assert speaker.action(action) == "Shout loudly: \u201chello there\u201d."
