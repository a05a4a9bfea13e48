"""Hands, the deal and roles, as content declares them: a shared zone whose drawn cards are kept
makes the kind it holds a card played from a hand; `deal_and_keep` deals such a zone, each player
keeping as many as its setup or the field of its profile the zone's `keep` names; the game's
`profiles` and `roles` name the data a setup picks a player's profile and a piece's role from."""

from __future__ import annotations

from pathlib import Path

from support import write_pack

from nexus_dsl import load_ruleset
from nexus_dsl.engine.actions import CARD, CHOICE
from nexus_dsl.engine.bout import Bout
from nexus_dsl.engine.setup import standard_setup

# A game building on nothing, with a hand of its own: its cards are trait abilities dealt from the
# zone `boons`, each used at any time from its holder's hand.
BOONS = '''event turn_over "Turn over" {
    arg self: piece
}

window any_time "Any Time" {
    text "Whenever its holder may act."
}

stat tally "Tally" {
    low 0
    high 99
}

stat luck "Luck" {
    group trait
    start 4
}

zone boons "Boons" {
    holds trait_ability
    drawn kept
    text "Dealt out at the start; each player keeps as many as its setup says."
}

trait_ability plus_one "Plus One" {
    window any_time
    cost 1 luck
    effect {
        add_stat self tally by 1
    }
}

trait_ability plus_two "Plus Two" {
    window any_time
    cost 1 luck
    effect {
        add_stat self tally by 2
    }
}

trait_ability plus_three "Plus Three" {
    window any_time
    cost 1 luck
    effect {
        add_stat self tally by 3
    }
}

trait_ability plus_four "Plus Four" {
    window any_time
    cost 1 luck
    effect {
        add_stat self tally by 4
    }
}

procedure dealing "Dealing" {
    effect {
        deal_and_keep boons
    }
}

procedure rounds "A Round" {
    effect {
        take_turns in_play()
    }
}

turn a_turn "A Turn" {
    over turn_over
}

command wait "Wait" {
    cost 0 AP
    effect {
        add_stat self tally by 0
    }
}

game boons_game "Boons" {
    text "Each player keeps one boon of the two dealt it, and uses it when it likes."
    setup dealing
    round rounds
    turn a_turn
    score tally
}
'''


def dealt_bout(tmp_path: Path, game: str = BOONS) -> Bout:
    """A bout of `game` (a pack building on nothing) with its hands dealt, each player to keep one."""
    ruleset = load_ruleset([str(write_pack(tmp_path / "boons", "boons", {"game.nexus": game}))])
    setup = standard_setup(2)
    for spec in setup.pieces:
        spec.keep = 1
    return Bout(ruleset, setup, seed=3)


def test_a_pack_that_builds_on_nothing_deals_its_own_hand(tmp_path: Path) -> None:
    bout = dealt_bout(tmp_path)
    assert bout.ruleset.words.hand_kinds == ("trait_ability",) and bout.ruleset.words.hand == "boons"
    kept = {}
    for label in ("red", "blue"):  # each is asked which of its two cards to keep, by the zone's name
        decision = bout.pending
        assert decision is not None and decision.kind == "keep_boons" and decision.actor == label
        assert len(decision.options) == 2 and all(o.kind == CHOICE for o in decision.options)
        kept[label] = decision.options[1].arg("card")
        bout.apply(decision.options[1])
    dealt = [e for e in bout.events_json() if e["type"] == "boons_dealt"]
    assert [(e["piece"], e["kept"]) for e in dealt] == [("red", 1), ("blue", 1)]
    snapshot = bout.snapshot()
    assert snapshot["red"]["boons"] == [kept["red"]] and snapshot["blue"]["boons"] == [kept["blue"]]
    assert len(bout.state.discards["boons"]) == 2  # the cards not kept


def test_a_card_in_hand_is_offered_and_played_from_it_alone(tmp_path: Path) -> None:
    bout = dealt_bout(tmp_path)
    while bout.pending is not None and bout.pending.kind == "keep_boons":
        bout.apply(bout.pending.options[0])
    red = bout.state.pieces["red"]
    (card,) = red.hand
    decision = bout.pending
    assert decision is not None and decision.actor == "red"
    offered = [o for o in decision.options if o.kind == CARD and o.actor == "red"]
    assert [o.name for o in offered] == [card]  # its own card only, not the other player's
    (blue_card,) = bout.state.pieces["blue"].hand  # the other's, offered to it alone (any time)
    assert [o.name for o in decision.options if o.kind == CARD and o.actor == "blue"] == [blue_card]
    before = red.stats["tally"]
    bout.apply(offered[0])
    assert red.hand == [] and card in bout.state.discards["boons"]
    assert red.stats["tally"] == before + int({"plus_one": 1, "plus_two": 2, "plus_three": 3, "plus_four": 4}[card])
    assert any(e["type"] == "card" and e["name"] == card for e in bout.events_json())


def test_a_zone_s_keep_names_the_profile_field_each_player_keeps_as_many_as(tmp_path: Path) -> None:
    """A house rule of the base game: the influence deck dealt by each lanista's Deception."""
    house = write_pack(tmp_path / "by_deception", "by_deception", {"zones.nexus": '''zone influence "The Influence Deck" {
    holds influence
    drawn kept
    keep "deception"
}
'''}, builds_on="[base]")
    ruleset = load_ruleset(["base", str(house)])
    profiles = [item["id"] for item in ruleset.data_items("lanistas") if item["deception"] != item["influence"]][:2]
    bout = Bout(ruleset, standard_setup(2, profiles=profiles), seed=1)
    asked: dict[str, int] = {}
    while bout.pending is not None and bout.pending.kind == "keep_influence":
        asked[bout.pending.actor] = asked.get(bout.pending.actor, 0) + 1
        bout.apply(bout.pending.options[0])
    for label, profile in zip(("red", "blue"), profiles):
        deception = ruleset.data_item("lanistas", profile)["deception"]
        assert asked.get(label, 0) == deception and len(bout.state.pieces[label].hand) == deception
        # The count the deal asked for, as the cycle tells it to whoever shows the deal.
        assert bout.cycle.keep_count(bout.state.pieces[label], "influence") == deception


def test_the_game_names_its_profiles_and_roles() -> None:
    ruleset = load_ruleset(["base"])
    assert (ruleset.game.profiles, ruleset.game.roles, ruleset.game.role_word) == ("lanistas", "motivations", "motivation")
    setup = standard_setup(2, roles=["hoarder", None], profiles=["madame_oorl", None])
    bout = Bout(ruleset, setup, seed=1)
    red = bout.state.pieces["red"]
    assert (red.role, red.profile) == ("hoarder", "madame_oorl")
    assert bout.piece_attribute(red, "motivation") == "hoarder"  # read by the game's role word
    advantages = ruleset.role_of("hoarder")["advantages"]
    assert all(red.traits[trait] >= value for trait, value in advantages.items())
    talent = ruleset.declaration("rule", ruleset.role_of("hoarder")["talent"])
    assert bout.legality.owns_ability(red, talent) and not bout.legality.owns_ability(bout.state.pieces["blue"], talent)
