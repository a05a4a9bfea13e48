"""The workbench with NEXUS Pirates loaded, a game of cards and zones with no board: its cards'
faces, a test run stepping through its zones, batches and A/B comparisons in its own terms, and a
hot-seat playtest that hides each player's hand from the other."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nexus_dsl.cards import card_fields, card_label, show
from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench import authoring, batch, playtest, table, testrun

CONTENT = Path(__file__).resolve().parents[2] / "content"
PIRATES = ("nexus_pirates",)
TWO_VS_TWO = ("pirates_two_vs_two",)
HOUSE = "pirates_rich_seven"


@pytest.fixture(scope="module")
def pirates() -> Ruleset:
    return cached_ruleset(PIRATES)


@pytest.fixture(scope="module")
def pirates_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A content root with the Pirates packs and a house rule of our own: card 7 scores 3 stars
    instead of its skull."""
    root = tmp_path_factory.mktemp("pirates") / "content"
    shutil.copytree(CONTENT / "games", root / "games", ignore=shutil.ignore_patterns(".history", "*.draft"))
    house = root / "house-rules" / HOUSE
    house.mkdir(parents=True)
    (house / "pack.yaml").write_text(f'id: {HOUSE}\nname: "Rich Seven"\nversion: 0.1.0\nkind: house_rules\n'
                                     "builds_on: [nexus_pirates]\n")
    (house / "seven.nexus").write_text('card n07 "7" {\n    number 7\n    stars 3\n}\n')
    return root


# ---------------------------------------------------------------- card faces
def test_a_numbered_cards_face_shows_its_number_value_and_the_assumption(pirates: Ruleset) -> None:
    face, script = show(pirates, "n07")[0]
    assert face.kind == "card" and face.name == "7"
    assert face.lines == ["Number: 7", "Skulls: 1"]  # the fields as the pack names them
    assert face.assumed and "prime number" in face.assumed
    assert "Assumed value: the value is printed only as a picture" in face.text()
    html = authoring.card_face_html(face)
    assert 'class="nexus-assumed"' in html and "Assumed value" in html and "Number: 7" in html
    assert script is not None and "number 7" in script


def test_doublers_ships_and_stars_read_as_their_fields(pirates: Ruleset) -> None:
    doubler = show(pirates, "n15")[0][0]
    assert doubler.lines == ["Number: 15", "Multiplier: 2"]
    ship = show(pirates, "ship1")[0][0]
    assert ship.lines == ["Ship"] and ship.assumed is None
    assert ship.prose and "Worth no points" in ship.prose
    assert "nexus-assumed" not in authoring.card_face_html(ship)
    labels = {ident: card_label(pirates.declaration("card", ident), ident) for ident in ("n07", "n10", "n15", "ship1")}
    assert labels == {"n07": "7 skulls 1?", "n10": "10 stars 3?", "n15": "15 multiplier 2?", "ship1": "Ship"}


def test_a_new_card_and_a_duplicate_validate_among_the_pirates_cards(pirates: Ruleset) -> None:
    new = authoring.validate_item("card", authoring.template("card", "n46", "46"), pirates)
    assert new.ok and new.face is not None and new.face.kind == "card"
    copy = authoring.duplicate(pirates, "n10", "n46", "46")
    checked = authoring.validate_item("card", copy, pirates)
    assert checked.ok, checked.diagnostics
    assert checked.face is not None and checked.face.lines == ["Number: 10", "Stars: 3"]
    assert authoring.declaration_file("card", "n46") == "cards/n46.nexus"


# ---------------------------------------------------------------- a test run
def test_a_test_run_steps_through_the_zones_each_player_sees(pirates: Ruleset) -> None:
    settings = testrun.TestRunSettings(packs=PIRATES, seed=3)
    assert testrun.settings_problems(settings, pirates) == []
    stepper = testrun.Stepper(settings, pirates)
    first = stepper.step()
    assert first.headline in ("red: parley", "red: yarrr", "blue: parley", "blue: yarrr")
    assert any(line.endswith("'s Turn") for line in first.lines)  # narrated in the game's words
    assert set(first.players) == {"red", "blue"} and first.pieces == {}
    assert all("booty" in player.stats for player in first.players.values())

    everything = {z.title: z for z in table.table_zones(first.snapshot, pirates)}
    assert list(everything)[:3] == ["The Nexus", "Parade of red", "Parade of blue"]
    assert list(everything)[-1] == "The Deck"
    assert not any(zone.hidden for zone in everything.values())
    for viewer, other in (("red", "blue"), ("blue", "red")):
        seen = {z.title: z for z in table.table_zones(first.snapshot, pirates, viewer)}
        assert seen[f"Hand of {viewer}"].cards == tuple(first.snapshot["zones"]["hand"][viewer])
        assert seen[f"Hand of {other}"].hidden
        assert seen[f"Hand of {other}"].count == len(first.snapshot["zones"]["hand"][other])
        assert seen["The Deck"].hidden and seen["The Deck"].count == len(first.snapshot["zones"]["deck"])
        assert seen["The Nexus"].cards == everything["The Nexus"].cards
        assert "hidden" in seen[f"Hand of {other}"].text(pirates)
    # A player's log tells no card it could not see: the other hand's deal is `a card`.
    red_reads = [line for line in stepper.seen_lines(first, "red") if "to hand of blue" in line]
    assert red_reads and all(line.strip().startswith("a card moves") for line in red_reads)
    assert [line for line in first.lines if "to hand of blue" in line][0].strip().startswith("n")
    drawn = table.table_html(table.table_zones(first.snapshot, pirates, "red"), pirates)
    assert "nexus-hidden" in drawn and "Hand of blue" in drawn

    last = stepper.run_to_end()
    assert last.outcome is not None and last.outcome.termination == "deck_exhausted"
    assert any(line.startswith("== Game over") and "score red" in line for line in last.lines)
    replayed = testrun.Stepper(settings, pirates)
    assert replayed.step().lines == first.lines  # the same seed replays the same game


def test_cards_forced_into_zones_before_the_deal(pirates: Ruleset) -> None:
    settings = testrun.TestRunSettings(packs=PIRATES, seed=5,
                                       place_cards=(("hand", "red", ("n45",)), ("deck", None, ("ship1", "n15"))))
    assert testrun.settings_problems(settings, pirates) == []
    zones = testrun.Stepper(settings, pirates).bout.snapshot()["zones"]
    assert "n45" in zones["hand"]["red"]
    assert zones["nexus"][:2] == ["ship1", "n15"]  # the top of the Deck is dealt to the Nexus first


def test_settings_a_pirates_game_cannot_play_are_named(pirates: Ruleset) -> None:
    wrong = testrun.TestRunSettings(packs=PIRATES, motivations=(None, None, None),
                                    place_cards=(("hand", None, ("n01",)), ("hold", None, ("n02",)),
                                                 ("deck", None, ("n01", "n99"))))
    messages = [d.message for d in testrun.settings_problems(wrong, pirates)]
    assert any("NEXUS Pirates is played by 2, not 3" in m for m in messages), messages
    assert any("zone `hand` is one each of red, blue, green's" in m for m in messages), messages
    assert any("no zone `hold`" in m for m in messages), messages
    assert any("no `n99`" in m for m in messages), messages
    assert any("`n01` is named twice" in m for m in messages), messages
    assert testrun.player_counts(pirates) == [2]
    assert testrun.zone_owners(cached_ruleset(TWO_VS_TWO), 4, "parade") == ["north_south", "east_west"]


# ---------------------------------------------------------------- batches and A/B
def test_a_batch_reports_wins_and_scores_in_the_games_terms(pirates: Ruleset) -> None:
    settings = testrun.TestRunSettings(packs=PIRATES, agents=("heuristic", "random"), seed=0)
    report = batch.run_batch(settings, 8, workers=1, ruleset=pirates)
    assert report.errors == [] and report.faults == [] and len(report.finished) == 8
    assert report.contenders == ("red", "blue") and report.score == "score" and not report.with_crowd
    assert set(report.cred) == {"red", "blue"}  # no crowd
    assert sum(rate.wins for rate in report.wins.values()) + report.draws.wins == 8
    for result in report.finished:  # the winner is the side that scored more
        if result.winner is not None:
            loser = "blue" if result.winner == "red" else "red"
            assert result.totals[result.winner] > result.totals[loser]
    lines = report.lines()
    assert "0 engine errors" in lines[0] and "rounds" in lines[0]
    assert not any("crowd" in line or "cred" in line for line in lines), lines


def test_a_two_vs_two_batch_counts_the_teams(tmp_path: Path) -> None:
    rules = cached_ruleset(TWO_VS_TWO)
    settings = testrun.TestRunSettings(packs=TWO_VS_TWO, motivations=(None,) * 4, seed=1)
    report = batch.run_batch(settings, 4, workers=1, ruleset=rules)
    assert report.errors == [] and report.contenders == ("north_south", "east_west")
    assert sum(rate.wins for rate in report.wins.values()) + report.draws.wins == 4
    for result, north_south in zip(report.finished, report.cred["north_south"]):
        assert north_south == result.totals["red"] + result.totals["blue"]


def test_an_ab_comparison_with_a_house_rule_changing_one_card(pirates_root: Path) -> None:
    settings_b = testrun.TestRunSettings(packs=("nexus_pirates", HOUSE), seed=10, content_root=str(pirates_root))
    seven = testrun.load_settings_ruleset(settings_b).declaration("card", "n07")
    assert seven is not None and card_fields(seven) == {"number": 7, "stars": 3}
    settings_a = testrun.TestRunSettings(packs=PIRATES, seed=10, content_root=str(pirates_root))
    comparison = batch.compare(settings_a, settings_b, 6, workers=1)
    assert comparison.a.errors == [] and comparison.b.errors == []
    assert len(comparison.a.finished) == len(comparison.b.finished) == 6
    names = [difference.name for difference in comparison.differences]
    assert names == ["red win rate", "blue win rate", "draws", "red mean final score", "blue mean final score"]
    assert all(0.0 <= difference.p_value <= 1.0 for difference in comparison.differences)


# ---------------------------------------------------------------- playtest
def test_hot_seat_shows_each_player_only_its_own_hand(pirates: Ruleset, tmp_path: Path) -> None:
    settings = playtest.PlaySettings(seats=(playtest.PERSON, playtest.PERSON), packs=PIRATES, seed=1)
    session = playtest.PlaySession(settings, ruleset=pirates)
    pending = session.pending_decision()
    assert pending is not None and pending.person and pending.kind == "command"
    me = pending.actor
    other = "blue" if me == "red" else "red"
    mine = session.visible_state(me)["zones"]
    assert isinstance(mine["hand"][me], list) and mine["hand"][other] == 3 and isinstance(mine["deck"], int)
    nobody = session.visible_state(None)["zones"]
    assert nobody["hand"] == {"red": 3, "blue": 3} and isinstance(nobody["nexus"], list)

    groups = {group.title: group for group in session.options(me)}
    assert [b.label for b in groups["Parley"].buttons] == ["Parley"]
    yarrr = [title for title in groups if title.startswith("YARRR!: ")]
    assert len(yarrr) == 3  # one group per card in the hand, in the card's signs
    places = [b.label for b in groups[yarrr[0]].buttons]
    assert places[0] == "place 1 (top)" and places[-1] == "place 8 (bottom)" and len(places) == 8
    assert session.options(other) == []

    # The log never tells a card dealt into the other player's hand.
    theirs = [line for line in session.seen_log_lines(me) if f"to hand of {other}" in line]
    assert theirs and all(line.strip().startswith("a card moves") for line in theirs)
    own = [line for line in session.seen_log_lines(me) if f"to hand of {me}" in line]
    assert own and not any(line.strip().startswith("a card") for line in own)

    session.apply(groups[yarrr[0]].buttons[0])
    ending = session.buttons(me)
    assert [b.label for b in ending] == ["End your turn (then hand over to the next player)"]
    session.apply(ending[0])
    assert session.pending_decision().actor == other

    path = playtest.session_file(tmp_path, "pirates")
    session.save(path)
    resumed = playtest.PlaySession.load(path, pirates)
    assert [a.to_json() for a in resumed.actions] == [a.to_json() for a in session.actions]
    assert resumed.visible_state(other)["zones"] == session.visible_state(other)["zones"]


def test_people_against_the_agents_and_four_seats_for_two_vs_two(tmp_path: Path) -> None:
    rules = cached_ruleset(TWO_VS_TWO)
    settings = playtest.PlaySettings(seats=(playtest.PERSON, "heuristic", "random", "heuristic"),
                                     packs=TWO_VS_TWO, seed=2)
    session = playtest.PlaySession(settings, ruleset=rules)
    session.advance_agents()
    pending = session.pending_decision()
    assert pending is not None and pending.actor == "red" and pending.person
    hands = session.visible_state("red")["zones"]["hand"]
    assert isinstance(hands["red"], list) and all(isinstance(hands[p], int) for p in ("blue", "green", "yellow"))
    while session.pending_decision() is not None:
        session.apply(session.buttons("red")[0])
        session.advance_agents()
    assert session.bout.outcome is not None and session.bout.outcome.winner in (None, "north_south", "east_west")
