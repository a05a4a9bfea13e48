"""Zones each player or side has one of (`zone <id> { owner player }`): empty at the start, filled
by a setup's `zones`, read and changed bare for the acting player or through `zone_of(zone, owner)`,
and shown in the snapshot by owner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support import write_pack

from nexus_dsl import Action, Bout, load_ruleset
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup
from nexus_dsl.engine.snapshot import snapshot_of
from nexus_dsl.errors import NexusError

ZONES = ('zone stash "Stash" {\n    owner player\n    visible owner\n}\n'
         'zone trophies "Trophies" {\n    owner side\n    visible all\n}\n'
         'zone row "The Row" {\n    visible all\n}\n')


def bout_with(tmp_path: Path, body: str, zones: dict[str, Any] | None = None) -> Bout:
    """Red and blue (one side each) with the zones above; red's free `probe` runs `body`."""
    pack = write_pack(tmp_path / "owned", "owned", {"zones.nexus": ZONES, "probe.nexus": (
        f'command probe "Probe" {{\n    group fame\n    cost 0 AP\n    effect {{\n        {body}\n    }}\n}}\n')},
        builds_on="[base]")
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6),
                              PieceSetup("blue", "north", Square(4, 4), Direction.S)],
                      decks={"turning_point": ["barge_lurch", "burning_tar", "trapdoor"]},
                      zones=zones or {}, phase="command", active="red")
    return Bout(load_ruleset(["base", str(pack)]), setup, seed=1)


def test_each_owner_has_its_own_zone_empty_at_the_start(tmp_path: Path) -> None:
    bout = bout_with(tmp_path, "log \"nothing\"")
    zones = snapshot_of(bout.state, bout.ruleset)["zones"]
    assert zones["stash"] == {"red": [], "blue": []}
    assert zones["trophies"] == {"red": [], "blue": []}  # each piece is a side of its own here
    assert zones["row"] == [] and zones["turning_point"][:3] == ["barge_lurch", "burning_tar", "trapdoor"]


def test_a_bare_owned_zone_is_the_acting_players_and_zone_of_names_anothers(tmp_path: Path) -> None:
    bout = bout_with(tmp_path, 'move_card first(cards(turning_point)) from turning_point to stash\n'
                               '        move_card first(cards(turning_point)) from turning_point to zone_of(stash, "blue")\n'
                               '        move_card first(cards(turning_point)) from turning_point to zone_of(trophies, self)\n'
                               '        mark self "mine" with cards(stash)\n'
                               '        mark self "theirs" with count(cards(zone_of(stash, "blue")))')
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.fault is None
    zones = snapshot_of(bout.state, bout.ruleset)["zones"]
    assert zones["stash"] == {"red": ["barge_lurch"], "blue": ["burning_tar"]}
    assert zones["trophies"] == {"red": ["trapdoor"], "blue": []}
    assert bout.state.pieces["red"].marks["mine"] == ("barge_lurch",) and bout.state.pieces["red"].marks["theirs"] == 1
    moved = [(e["card"], e["origin"], e["destination"]) for e in bout.events_json() if e["type"] == "card_moved"]
    assert moved[1] == ("burning_tar", "turning_point", "stash of blue")


def test_a_setup_places_cards_by_owner_and_they_leave_the_deck(tmp_path: Path) -> None:
    bout = bout_with(tmp_path, 'move_card "trapdoor" from stash to row at 2',
                     zones={"stash": {"red": ["trapdoor"]}, "row": ["barge_lurch", "burning_tar"]})
    deck = bout.state.decks["turning_point"]
    assert not {"trapdoor", "barge_lurch", "burning_tar"} & set(deck)
    bout.apply(Action.make("command", "red", "probe"))
    zones = snapshot_of(bout.state, bout.ruleset)["zones"]
    assert zones["row"] == ["barge_lurch", "trapdoor", "burning_tar"] and zones["stash"]["red"] == []


def test_a_zone_of_no_one_or_of_the_table_is_a_positioned_fault(tmp_path: Path) -> None:
    bout = bout_with(tmp_path, 'move_card "x" from zone_of(stash, "green") to row')
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.fault is not None and bout.fault.code == "runtime/bad_value"
    assert "has no `stash`" in bout.fault.message and bout.fault.line > 0
    shared = bout_with(tmp_path / "shared", 'move_card "x" from zone_of(row, self) to row')
    shared.apply(Action.make("command", "red", "probe"))
    assert shared.fault is not None and "shared by every player" in shared.fault.message


def test_a_setup_naming_an_owner_without_the_zone_is_refused(tmp_path: Path) -> None:
    try:
        bout_with(tmp_path, "log \"x\"", zones={"stash": {"green": ["trapdoor"]}})
    except NexusError as error:
        assert "`green` has no zone `stash`" in str(error)
    else:
        raise AssertionError("a stash for a player not in the game was accepted")


PLAY = ('command play "Play" {\n    group fame\n    cost 0 AP\n    arg card: in stash\n'
        '    arg place: number 1..count(cards(row)) + 1\n'
        '    effect {\n        move_card card from stash to row at place\n    }\n}\n')


def test_a_command_offers_each_card_of_the_players_own_zone_at_each_place_of_a_row(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "play", "play", {"zones.nexus": ZONES, "play.nexus": PLAY}, builds_on="[base]")
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6),
                              PieceSetup("blue", "north", Square(4, 4), Direction.S)],
                      zones={"stash": {"red": ["trapdoor", "barge_lurch"], "blue": ["burning_tar"]},
                             "row": ["bone_yard"]}, phase="command", active="red")
    bout = Bout(load_ruleset(["base", str(pack)]), setup, seed=1)
    offered = sorted((o.arg("card"), o.arg("place")) for o in bout.legal_actions() if o.name == "play")
    # Red's own cards only (blue's stash is not red's to play), before or after the row's one card.
    assert offered == [("barge_lurch", 1), ("barge_lurch", 2), ("trapdoor", 1), ("trapdoor", 2)]
    bout.apply(Action.make("command", "red", "play", card="trapdoor", place=2))
    assert bout.state.decks["row"] == ["bone_yard", "trapdoor"] and bout.state.owned["stash"]["red"] == ["barge_lurch"]
    offered = sorted((o.arg("card"), o.arg("place")) for o in bout.legal_actions() if o.name == "play")
    assert offered == [("barge_lurch", 1), ("barge_lurch", 2), ("barge_lurch", 3)]


def test_a_range_whose_ends_read_an_argument_or_a_card_of_no_zone_is_refused(tmp_path: Path) -> None:
    from nexus_dsl.errors import ContentError
    bad = PLAY.replace("arg card: in stash", "arg card: in stache").replace("1..count", "place..count")
    pack = write_pack(tmp_path / "bad", "bad", {"zones.nexus": ZONES, "play.nexus": bad}, builds_on="[base]")
    try:
        load_ruleset(["base", str(pack)])
    except ContentError as error:
        messages = [d.message for d in error.diagnostics]
    else:
        raise AssertionError("a range reading an argument was accepted")
    assert any("unknown zone `stache`" in m for m in messages)
    assert any("a range's ends cannot read an argument (`place`)" in m for m in messages)
