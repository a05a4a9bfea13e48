"""A pack that builds on nothing names kinds of card of its own (`kind boon "Boon" { like hand_card }`,
`kind omen "Omen" { like drawn_card }`) and plays them as the built-in kinds they are like: a boon is
dealt from a zone that keeps what is drawn and used from its holder's hand in a timing window, an
omen is played at once when drawn from a zone that plays what is drawn."""

from __future__ import annotations

from pathlib import Path

from test_hands import BOONS, dealt_bout

from nexus_dsl.cards import all_faces
from nexus_dsl.engine.actions import CARD
from nexus_dsl.engine.bout import Bout

# The game of test_hands, its boons of a kind of its own rather than trait abilities, with omens
# read on demand.
OWN_KINDS = BOONS.replace("holds trait_ability", "holds boon").replace("trait_ability plus_", "boon plus_") + \
    '''
kind boon "Boon" {
    like hand_card
    text "Kept in a hand, used whenever its holder likes."
}

kind omen "Omen" {
    like drawn_card
    text "Played at once by whoever draws it."
}

zone omens "Omens" {
    holds omen
    drawn played
}

omen windfall "Windfall" {
    effect {
        add_stat self tally by 10
    }
}

command read_omen "Read an Omen" {
    cost 0 AP
    effect {
        draw omens for self
    }
}
'''


def _bout(tmp_path: Path) -> Bout:
    bout = dealt_bout(tmp_path, OWN_KINDS)
    while bout.pending is not None and bout.pending.kind == "keep_boons":
        bout.apply(bout.pending.options[0])
    return bout


def test_a_pack_s_own_kinds_are_the_kinds_its_zones_hold(tmp_path: Path) -> None:
    ruleset = _bout(tmp_path).ruleset
    assert dict(ruleset.words.kinds) == {"boon": "hand_card", "omen": "drawn_card"}
    assert ruleset.words.hand_kinds == ("boon",) and ruleset.words.played_kinds == ("omen",)
    assert ruleset.declaration("boon", "plus_one") is not None and ruleset.declaration("hand_card", "plus_one") is None
    assert {face.id: face.kind_title for face in all_faces(ruleset, "boon")}["plus_two"] == "Boon"


def test_a_card_of_a_kind_like_hand_card_is_dealt_and_used_from_the_hand(tmp_path: Path) -> None:
    bout = _bout(tmp_path)
    red = bout.state.pieces["red"]
    (card,) = red.hand
    decision = bout.pending
    assert decision is not None and decision.actor == "red"
    offered = [o for o in decision.options if o.kind == CARD and o.actor == "red"]
    assert [o.name for o in offered] == [card]
    before = red.stats["tally"]
    bout.apply(offered[0])
    assert red.hand == [] and card in bout.state.discards["boons"]
    assert red.stats["tally"] == before + {"plus_one": 1, "plus_two": 2, "plus_three": 3, "plus_four": 4}[card]
    assert any(e["type"] == "card" and e["name"] == card for e in bout.events_json())


def test_a_card_of_a_kind_like_drawn_card_is_played_when_drawn(tmp_path: Path) -> None:
    bout = _bout(tmp_path)
    red = bout.state.pieces["red"]
    decision = bout.pending
    assert decision is not None and decision.actor == "red"
    (read,) = [o for o in decision.options if o.name == "read_omen" and o.actor == "red"]
    before = red.stats["tally"]
    bout.apply(read)
    assert red.stats["tally"] == before + 10 and bout.state.discards["omens"] == ["windfall"]
