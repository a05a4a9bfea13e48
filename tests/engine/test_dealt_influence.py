"""`PieceSetup.dealt` and `PieceSetup.keep`: influence cards promised to a hand whatever the shuffle,
and how many cards of the dealt share a helot keeps (pg.8)."""

from __future__ import annotations

import pytest

from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.engine.bout import Bout
from nexus_dsl.engine.setup import standard_setup
from nexus_dsl.errors import NexusError


@pytest.fixture(scope="module")
def ruleset():
    return cached_ruleset(("base",))


def _lanistas(ruleset) -> list[str]:
    """Two lanistas that keep cards at the deal."""
    return [item["id"] for item in ruleset.data_items("lanistas") if item.get("influence", 0) > 0][:2]


def _deal(ruleset, seed: int, dealt: list[str] | None = None, keep: int | None = None) -> Bout:
    """A bout set up and dealt: every keep decision takes the first card offered."""
    setup = standard_setup(profiles=_lanistas(ruleset))
    setup.pieces[0].dealt = list(dealt or [])
    setup.pieces[0].keep = keep
    bout = Bout(ruleset, setup, seed=seed)
    while bout.pending is not None and bout.pending.kind == "keep_influence":
        bout.apply(bout.pending.options[0])
    return bout


def _every_card_place(bout: Bout) -> list[str]:
    state = bout.state
    return ([c for h in state.pieces.values() for c in h.hand] + state.decks.get("influence", [])
            + state.discards.get("influence", []))


def test_a_dealt_card_is_in_the_hand_besides_the_kept_ones_and_nowhere_else(ruleset):
    card = [d.id for d in ruleset.declarations("influence")][0]
    plain = _deal(ruleset, seed=5)
    bout = _deal(ruleset, seed=5, dealt=[card])
    red, blue = bout.state.pieces["red"], bout.state.pieces["blue"]
    influence = ruleset.data_item("lanistas", red.profile)["influence"]
    assert red.hand[-1] == card and len(red.hand) == influence + 1
    assert card not in blue.hand
    places = _every_card_place(bout)
    assert places.count(card) == 1  # taken out of the deck before the deal: it exists once
    assert sorted(places) == sorted(_every_card_place(plain))


def test_keep_zero_makes_the_dealt_cards_the_whole_hand(ruleset):
    cards = [d.id for d in ruleset.declarations("influence")][:2]
    bout = _deal(ruleset, seed=9, dealt=cards, keep=0)
    assert bout.state.pieces["red"].hand == cards
    assert bout.state.pieces["blue"].hand  # the other lanista still keeps its share
    # The setup's `keep` is the count asked, before the profile's field.
    blue = bout.state.pieces["blue"]
    assert bout.cycle.keep_count(bout.state.pieces["red"], "influence") == 0
    assert bout.cycle.keep_count(blue, "influence") == ruleset.data_item("lanistas", blue.profile)["influence"]


def test_dealing_cards_leaves_the_seeded_shuffle_alone(ruleset):
    """The promised cards leave the deck after the shuffle, so the rest keep their seeded order."""
    card = [d.id for d in ruleset.declarations("influence")][3]
    setup_plain = standard_setup()
    setup_dealt = standard_setup()
    setup_dealt.pieces[1].dealt = [card]
    plain = Bout(ruleset, setup_plain, seed=3)
    dealt = Bout(ruleset, setup_dealt, seed=3)
    assert dealt.state.decks["influence"] == [c for c in plain.state.decks["influence"] if c != card]
    assert dealt.state.decks["turning_point"] == plain.state.decks["turning_point"]
    assert dealt.state.pieces["blue"].hand == [card]  # no lanista: nothing dealt, the card still held


def test_an_unknown_dealt_card_is_a_setup_error(ruleset):
    setup = standard_setup()
    setup.pieces[0].dealt = ["no_such_card"]
    with pytest.raises(NexusError) as error:
        Bout(ruleset, setup, seed=1)
    assert error.value.code == "setup/unknown_card"
