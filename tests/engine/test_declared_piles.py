"""Every coin pile is the game's: one each player holds (`owner player`), shared ones with their
starting coins (`start`, `per player`), the reserve the coins come out of (`reserve true`), and
the piles the coins go to when a script names none (`default_for damage, payment, mark`). A game
that builds on nothing declares its own under its own names and plays with them; the log, the
snapshot and the outcome name them as it declares them, and the ledger still proves every coin."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import write_pack

from nexus_dsl import load_ruleset
from nexus_dsl.engine.actions import Action
from nexus_dsl.engine.bout import Bout
from nexus_dsl.engine.setup import BoutSetup, standard_setup
from nexus_dsl.errors import NexusError

RAIDING = '''event turn_starts "Turn starts" {
    arg self: piece
}

pile gold "Gold" {
    owner player
    start 2
    default_for damage
    text "Each player's hoard: what its raider's blows take, less what it pays."
}

pile pot "The Pot" {
    start pot_share
    per player
    default_for damage, payment, mark
    text "Where wasted blows and what is paid go."
}

pile bank "The Bank" {
    reserve true
    text "The coins not in play."
}

pile notches "Notches" {
    numbered true
    reason "notch"
}

rule stakes "Stakes" {
    param pot_share = 3
}

game raiding "Raiding" {
    round rounds
    turn raid_turn
    score gold
}

turn raid_turn "A Raid" {
    starts turn_starts
    length 1
    passing false
}

procedure rounds "A Round" {
    effect {
        take_turns in_play()
    }
}

command raid "Raid" {
    cost 1 gold
    effect {
        for each p in opponents(self) {
            damage p by 2
        }
        mark self "gained" with self.gained
    }
}

command stumble "Stumble" {
    cost 0 AP
    effect {
        damage self by 1
        mark_counter self notches 4
        mark self "pot" with coins(pot)
    }
}

command bleed "Bleed" {
    cost 1 overall
    effect {
        transfer 1 from pot to self
    }
}
'''


def _ruleset(tmp_path: Path):
    return load_ruleset([str(write_pack(tmp_path / "raiding", "raiding", {"game.nexus": RAIDING}))])


def _bout(tmp_path: Path, overall: int = 5, **setup: object) -> Bout:
    """Red to give a command; each piece with `overall` coins of condition (this game names no other)."""
    base = standard_setup(2)
    for spec in base.pieces:
        spec.overall = overall
    return Bout(_ruleset(tmp_path), BoutSetup(pieces=base.pieces, phase="command", active="red", **setup),
                seed=1, strict_ledger=True)


def _give(bout: Bout, command: str) -> list[dict]:
    events = bout.apply(Action.make("command", "red", command))
    return [{"type": e.type, **e.data} for e in events]


def test_a_game_that_builds_on_nothing_starts_its_own_piles_from_its_reserve(tmp_path: Path) -> None:
    bout = _bout(tmp_path)
    words = bout.ruleset.words
    assert (words.piles, words.owned_piles, words.reserve) == (("pot", "bank"), ("gold",), "bank")
    assert bout.state.piles == {"pot": 6}  # 3 for each of two players
    assert {label: player.piles for label, player in bout.state.players.items()} == {"red": {"gold": 2}, "blue": {"gold": 2}}
    snapshot = bout.snapshot()
    assert snapshot["piles"] == {"pot": 6} and snapshot["red"]["gold"] == 2 and snapshot["players"]["blue"]["piles"] == {"gold": 2}
    assert bout.state.drawn == bout.state.coins_in_play() == 6 + 2 + 2 + sum(
        p.overall + sum(p.locations.values()) for p in bout.state.pieces.values())


def test_a_piece_s_damage_goes_to_its_player_s_pile_and_a_cost_to_the_payment_pile(tmp_path: Path) -> None:
    bout = _bout(tmp_path)
    events = _give(bout, "raid")
    coins = [(e["amount"], e["source"], e["dest"], e["reason"]) for e in events if e["type"] == "coins"]
    assert coins == [(1, "gold:red", "pot", "raid cost"), (2, "overall:blue", "gold:red", "raid")]
    assert [e["to"] for e in events if e["type"] == "damage"] == ["gold:red"]
    red = bout.state.pieces["red"]
    assert bout.state.players["red"].piles["gold"] == 3 and red.marks["gained"] == 2 and red.gained == 2
    assert bout.state.piles["pot"] == 7 and bout.state.coins_in_play() == bout.state.drawn


def test_damage_no_piece_s_player_takes_goes_to_the_shared_pile_and_a_mark_comes_from_it(tmp_path: Path) -> None:
    bout = _bout(tmp_path)
    events = _give(bout, "stumble")
    coins = [(e["amount"], e["source"], e["dest"]) for e in events if e["type"] == "coins"]
    assert coins == [(1, "overall:red", "pot"), (1, "pot", "notches:red")]
    assert bout.state.pieces["red"].marks["pot"] == 6 and bout.state.pieces["red"].gained == 0


def test_with_the_mark_pile_empty_the_coin_comes_from_the_reserve(tmp_path: Path) -> None:
    bout = _bout(tmp_path, overall=0, piles={"pot": 0})  # nothing to lose: the pot stays empty
    events = _give(bout, "stumble")
    assert [(e["source"], e["dest"]) for e in events if e["type"] == "coins"] == [("bank", "notches:red")]


def test_condition_paid_goes_to_the_payment_pile_and_a_piece_stands_for_its_player_s_pile(tmp_path: Path) -> None:
    bout = _bout(tmp_path)
    events = _give(bout, "bleed")
    coins = [(e["amount"], e["source"], e["dest"]) for e in events if e["type"] == "coins"]
    assert coins == [(1, "overall:red", "pot"), (1, "pot", "gold:red")]


def test_the_outcome_and_the_last_line_give_each_shared_pile_by_its_name(tmp_path: Path) -> None:
    bout = _bout(tmp_path)
    bout.cycle.decide("red")
    (last,) = [e for e in bout.log if e.type == "bout_end"]
    assert list(last.data) == ["termination", "winner", "totals", "pot"] and last.data["pot"] == 6
    assert bout.state.outcome is not None and bout.state.outcome.piles == {"pot": 6}
    assert bout.state.outcome.totals == {"red": 2, "blue": 2}  # the score is the players' gold


def test_a_setup_fills_the_declared_piles_only(tmp_path: Path) -> None:
    ruleset = _ruleset(tmp_path)
    base = standard_setup(2)
    base.pieces[0].piles = {"gold": 9}
    bout = Bout(ruleset, BoutSetup(pieces=base.pieces, piles={"pot": 1}), seed=1)
    assert (bout.state.players["red"].piles, bout.state.piles) == ({"gold": 9}, {"pot": 1})
    with pytest.raises(NexusError, match="no shared pile `crowd`"):
        Bout(ruleset, BoutSetup(pieces=standard_setup(2).pieces, piles={"crowd": 5}), seed=1)
    unknown = standard_setup(2)
    unknown.pieces[0].piles = {"cred": 1}
    with pytest.raises(NexusError, match="no pile `cred` each player holds"):
        Bout(ruleset, BoutSetup(pieces=unknown.pieces), seed=1)


def test_a_game_without_a_reserve_or_defaults_sends_damage_back_to_the_engine_s_reserve(tmp_path: Path) -> None:
    plain = RAIDING.replace("    default_for damage\n", "").replace("    default_for damage, payment, mark\n", "")
    plain = plain.replace("    reserve true\n", "")
    ruleset = load_ruleset([str(write_pack(tmp_path / "plain", "plain", {"game.nexus": plain}))])
    base = standard_setup(2)
    for spec in base.pieces:
        spec.overall = 5
    bout = Bout(ruleset, BoutSetup(pieces=base.pieces, phase="command", active="red"), seed=1, strict_ledger=True)
    drawn = bout.state.drawn
    events = bout.apply(Action.make("command", "red", "raid"))
    coins = [(e.data["amount"], e.data["source"], e.data["dest"]) for e in events if e.type == "coins"]
    assert coins == [(1, "gold:red", "reserve"), (2, "overall:blue", "reserve")]
    assert bout.state.drawn == drawn - 3 and bout.state.coins_in_play() == bout.state.drawn


def test_the_base_game_declares_cred_the_crowd_and_the_box() -> None:
    from nexus_dsl.content.loader import cached_ruleset

    words = cached_ruleset(("base",)).words
    assert (words.owned_piles, words.reserve, dict(words.shared_defaults), dict(words.owned_defaults)) == (
        ("cred",), "box", {"damage": "crowd", "payment": "crowd", "mark": "crowd"}, {"damage": "cred"})
    assert words.pile_starts["crowd"] == 5 and "crowd" in words.per_player
