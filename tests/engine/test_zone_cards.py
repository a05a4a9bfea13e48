"""Cards in zones: `cards` and `discards` read a zone, `move_card` moves a card between zones or
within one, to a place counted from the top (what ordered zones of cards, such as a row of cards
dealt face up, need)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support import write_pack

from nexus_dsl import Action, Bout, load_ruleset
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup

STACKED = ["barge_lurch", "burning_tar", "trapdoor"]


def after(tmp_path: Path, body: str) -> dict[str, Any]:
    """Red runs a free command whose effect is `body`, the Turning Point deck stacked with three
    cards on top: the marks it leaves on red, the decks and the cards moved, or the fault."""
    pack = write_pack(tmp_path / "zones", "zones", {"probe.nexus": (
        f'command probe "Probe" {{\n    group fame\n    cost 0 AP\n    effect {{\n        {body}\n    }}\n}}\n')},
        builds_on="[base]")
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6),
                              PieceSetup("blue", "north", Square(4, 4), Direction.S)],
                      decks={"turning_point": list(STACKED)}, phase="command", active="red")
    bout = Bout(load_ruleset(["base", str(pack)]), setup, seed=1)
    before = {zone: list(cards) for zone, cards in bout.state.decks.items()}
    bout.apply(Action.make("command", "red", "probe"))
    if bout.fault is not None:
        unchanged = {zone: list(cards) for zone, cards in bout.state.decks.items()} == before
        return {"fault": bout.fault.code, "message": bout.fault.message, "unchanged": unchanged}
    moved = [(e["card"], e["origin"], e["destination"], e["at"]) for e in bout.events_json() if e["type"] == "card_moved"]
    return {"marks": dict(bout.state.pieces["red"].marks), "decks": bout.state.decks, "moved": moved}


def test_a_zone_reads_top_card_first(tmp_path: Path) -> None:
    result = after(tmp_path, 'mark self "top" with first(cards(turning_point))\n'
                             '        mark self "none" with count(discards(turning_point))')
    assert result["marks"] == {"top": "barge_lurch", "none": 0}


def test_the_top_card_goes_to_the_bottom_of_its_own_zone(tmp_path: Path) -> None:
    result = after(tmp_path, 'move_card first(cards(turning_point)) from turning_point to turning_point '
                             'at count(cards(turning_point))')
    deck = result["decks"]["turning_point"]
    assert deck[:2] == STACKED[1:] and deck[-1] == "barge_lurch"
    assert result["moved"] == [("barge_lurch", "turning_point", "turning_point", len(deck))]


def test_a_card_goes_to_another_zone_at_a_place_from_the_top(tmp_path: Path) -> None:
    result = after(tmp_path, 'move_card "trapdoor" from turning_point to influence at 2')
    assert result["decks"]["turning_point"][:2] == STACKED[:2] and "trapdoor" not in result["decks"]["turning_point"]
    assert result["decks"]["influence"][1] == "trapdoor"
    on_top = after(tmp_path / "top", 'move_card "trapdoor" from turning_point to influence')
    assert on_top["decks"]["influence"][0] == "trapdoor"


def test_a_card_that_is_not_there_or_a_place_that_is_not_there_moves_nothing(tmp_path: Path) -> None:
    absent = after(tmp_path, 'move_card "loaded_dice" from turning_point to influence')
    assert absent["fault"] == "runtime/bad_value" and absent["unchanged"]
    assert "is not a card of the zone `turning_point`" in absent["message"]
    beyond = after(tmp_path / "beyond", 'move_card "trapdoor" from turning_point to turning_point at 99')
    assert beyond["fault"] == "runtime/bad_value" and beyond["unchanged"]
    assert "to a place from 1 (the top) to" in beyond["message"]


def test_a_script_records_a_declared_event_in_the_log(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "omens", "omens", {"omens.nexus": (
        'event omen_read "An Omen Read" {\n    arg self: helot\n    arg card: text\n    arg around: squares\n'
        '    arg reader: helot\n}\n'
        'rule listening "Listening" {\n    when omen_read {\n        log "heard"\n    }\n}\n'
        'command read "Read" {\n    group fame\n    cost 0 AP\n    effect {\n        let card = first(cards(turning_point))\n'
        '        let around = front_arc(self)\n        record omen_read\n    }\n}\n')}, builds_on="[base]")
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6),
                              PieceSetup("blue", "north", Square(4, 2), Direction.S)],
                      decks={"turning_point": list(STACKED)}, phase="command", active="red")
    bout = Bout(load_ruleset(["base", str(pack)]), setup, seed=1)
    bout.apply(Action.make("command", "red", "read"))
    (line,) = [e for e in bout.events_json() if e["type"] == "omen_read"]
    assert {k: line[k] for k in ("helot", "card", "around", "reader")} == {
        "helot": "red", "card": "barge_lurch", "around": [[3, 4], [4, 4], [5, 4]], "reader": None}
    assert not [e for e in bout.events_json() if e["type"] == "note"]  # recorded, not raised: no one listens
