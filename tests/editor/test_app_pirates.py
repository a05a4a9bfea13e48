"""Every page of the editor with NEXUS Pirates loaded, a card game with no board: its cards' faces in
the browser and the card editor, a test run over its zones, a batch and an A/B comparison, a hot
seat that hides each hand from the other player, and the board's pages saying there is no board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from editor_app import APP, TIMEOUT, save_into_new_pack, texts
from streamlit.testing.v1 import AppTest

HOUSE = "pirates_rich_seven_app"


def open_with(page: str, packs: list[str]) -> AppTest:
    """The app with `packs` chosen in the sidebar, switched to one page."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state["loaded_packs"] = packs
    at.run()
    assert not at.exception, at.exception
    at.switch_page(f"views/{page}")
    at.run()
    assert not at.exception, at.exception
    return at


def drawn_html(at: AppTest) -> str:
    return "\n".join(element.proto.body for element in at.get("html"))


def zone_titles(at: AppTest) -> list[str]:
    return re.findall(r'<p style="[^"]*">([^<]*)</p>', drawn_html(at))


def hidden_counts(at: AppTest) -> list[str]:
    return re.findall(r'class="nexus-hidden"[^>]*>([^<]*)<', drawn_html(at))


def option_buttons(at: AppTest) -> list:
    return [b for b in at.button if (b.key or "").startswith("pt_option_")]


def test_the_browser_shows_a_pirates_cards_face(app_env) -> None:
    at = open_with("browser.py", ["nexus_pirates"])
    at.text_input(key="browser_query").input("n07").run()
    assert not at.exception, at.exception
    assert any("(n07)" in e.label for e in at.expander)
    face = drawn_html(at)
    assert "Number: 7" in face and "Skulls: 1" in face
    assert 'class="nexus-assumed"' in face and "Assumed value" in face


def test_the_card_editor_makes_a_new_pirates_card(app_env, content_copy: Path) -> None:
    at = open_with("card_editor.py", ["nexus_pirates"])
    at.selectbox(key="ed_kind").select("card").run()
    at.radio(key="ed_mode").set_value("New").run()
    at.text_input(key="ed_new_id").input("n46")
    at.text_input(key="ed_new_name").input("46")
    at.button(key="ed_start").click().run()
    assert not at.exception, at.exception
    at.session_state["ed_text"] = 'card n46 "46" {\n    number 46\n    stars 2\n    assumed "a guess"\n}\n'
    at.run()
    assert not at.exception, at.exception
    assert not [e.value for e in at.error]
    preview = texts(at) + drawn_html(at)
    assert "Number: 46" in preview and "Stars: 2" in preview and "a guess" in preview

    # Saved into a new pack, the card plays the game it was made for: the pack builds on Pirates.
    save_into_new_pack(at, "pirates_extra_card", "An Extra Card", "house_rules")
    assert any("Saved into pack `pirates_extra_card`" in s.value for s in at.success), texts(at)
    manifest = yaml.safe_load((content_copy / "house-rules" / "pirates_extra_card" / "pack.yaml").read_text())
    assert manifest["builds_on"] == ["nexus_pirates"]
    assert (content_copy / "house-rules" / "pirates_extra_card" / "cards" / "n46.nexus").is_file()


def test_a_test_run_shows_the_zones_and_hides_them_by_player(app_env) -> None:
    at = open_with("test_run.py", ["nexus_pirates"])
    shown = texts(at)
    assert "no barge, motivations or lanistas" in shown
    assert not [s for s in at.selectbox if (s.key or "").startswith(("tr_motivation", "tr_lanista", "tr_barge"))]
    assert at.selectbox(key="tr_players").options == ["2"]
    at.number_input(key="tr_seed").set_value(3).run()
    at.button(key="tr_start").click().run()
    at.button(key="tr_step").click().run()
    assert not at.exception, at.exception
    shown = texts(at)
    assert "Step 1:" in shown and "Round 1" in shown and "crowd" not in shown
    assert "'s Turn" in shown  # the log in the game's words
    titles = zone_titles(at)
    assert titles[0].startswith("The Nexus (") and "top first" in titles[0]
    assert any(t.startswith("Parade of red") for t in titles) and any(t.startswith("Score Zone of blue") for t in titles)
    assert titles[-1].startswith("The Deck")
    assert hidden_counts(at) == []  # the designer sees every card
    players = next(d.value for d in at.dataframe if "Score" in d.value.columns)
    assert list(players["player"]) == ["red", "blue"]

    at.radio(key="tr_seen_by").set_value("blue").run()
    assert not at.exception, at.exception
    hidden = hidden_counts(at)
    assert any(t.startswith("Hand of red (") for t in zone_titles(at))
    assert len(hidden) == 4 and all(h.endswith("hidden") for h in hidden)  # red's hand, 2 Score Zones, the Deck
    log = next(t.value for t in at.text if "to hand of red" in t.value)
    assert "a card moves from deck to hand of red" in log  # blue's log tells no card of red's hand
    deck = next(h for h in hidden if int(h.split()[0]) > 30)
    assert deck.startswith(str(len(at.session_state["tr_stepper"].bout.state.decks["deck"])))

    at.button(key="tr_finish").click().run()
    assert not at.exception, at.exception
    assert any("The bout is over" in s.value and "score: red" in s.value for s in at.success)


def test_cards_forced_into_a_hand_in_the_test_run(app_env) -> None:
    at = open_with("test_run.py", ["nexus_pirates"])
    at.selectbox(key="tr_place_zone").select("hand").run()
    at.selectbox(key="tr_place_owner").select("blue").run()
    at.multiselect(key="tr_place_cards").select("n45").run()
    at.button(key="tr_start").click().run()
    assert not at.exception, at.exception
    assert "n45" in at.session_state["tr_stepper"].bout.state.owned["hand"]["blue"]


def test_a_batch_and_an_ab_comparison_on_pirates(app_env, content_copy: Path) -> None:
    house = content_copy / "house-rules" / HOUSE
    house.mkdir(parents=True, exist_ok=True)
    (house / "pack.yaml").write_text(f'id: {HOUSE}\nname: "Rich Seven"\nversion: 0.1.0\nkind: house_rules\n'
                                     "builds_on: [nexus_pirates]\n")
    (house / "seven.nexus").write_text('card n07 "7" {\n    number 7\n    stars 3\n}\n')
    at = open_with("test_run.py", ["nexus_pirates", HOUSE])
    at.number_input(key="tr_bouts").set_value(6)
    at.button(key="tr_run_batch").click().run()
    assert not at.exception, at.exception
    shown = texts(at)
    assert "**6 bouts**" in shown and "0 engine errors" in shown
    assert "Final score" in shown and "cred" not in shown.split("Batch results")[-1]
    wins = next(d.value for d in at.dataframe if "win rate" in d.value.columns)
    assert list(wins["side"]) == ["red", "blue"]

    at.selectbox(key="tr_ab_without").select(HOUSE).run()
    at.button(key="tr_run_ab").click().run()
    assert not at.exception, at.exception
    comparison = at.session_state["tr_comparison"].comparison
    assert comparison.a.errors == [] and comparison.b.errors == []
    assert comparison.a.settings.packs == ("nexus_pirates",)
    differences = next(d.value for d in at.dataframe if "verdict" in d.value.columns).set_index("figure")
    assert {"red win rate", "blue win rate", "draws", "red mean final score"} <= set(differences.index)
    assert not any("crowd" in figure or "cred" in figure for figure in differences.index)
    assert "Mean final score" in texts(at)


def start_hot_seat(packs: list[str], players: int, name: str) -> AppTest:
    at = open_with("playtest.py", packs)
    assert at.selectbox(key="pt_players").options == [str(players)]
    assert not [s for s in at.selectbox if (s.key or "").startswith(("pt_motivation", "pt_lanista", "pt_barge"))]
    at.text_input(key="pt_new_name").input(name)
    for index in range(players):
        at.selectbox(key=f"pt_seat_{index}").select("person")
    at.run()
    at.button(key="pt_start").click().run()
    assert not at.exception, at.exception
    return at


def test_hot_seat_hides_each_hand_from_the_other_player(app_env: Path) -> None:
    at = start_hot_seat(["nexus_pirates"], 2, "pirates-hot-seat")
    session = at.session_state["pt_session"]
    first = session.pending_decision().actor
    # Until the screen is handed over, nobody's hand shows and there are no options.
    assert not option_buttons(at) and hidden_counts(at)[:3] == ["0 cards, hidden", "0 cards, hidden", "3 cards, hidden"]
    assert any(f"hand the screen to {first}" in w.value for w in at.warning)
    assert not [i.value for i in at.info if "Choose whose view" in i.value]
    at.button(key="pt_hand_over").click().run()
    assert not at.exception, at.exception
    other = "blue" if first == "red" else "red"
    titles = zone_titles(at)
    assert f"Hand of {first} (3 — top first)" in titles and f"Hand of {other} (3)" in titles
    assert "3 cards, hidden" in hidden_counts(at)
    labels = [b.label for b in option_buttons(at)]
    assert labels[0] == "Parley" and "place 1 (top)" in labels and "place 8 (bottom)" in labels
    assert any(m.value.startswith("*YARRR!: ") for m in at.markdown)

    next(b for b in option_buttons(at) if b.label == "place 1 (top)").click().run()
    assert not at.exception, at.exception
    option_buttons(at)[0].click().run()  # end the turn
    assert not at.exception, at.exception
    assert at.session_state["pt_session"].pending_decision().actor == other
    assert not option_buttons(at)  # the screen waits to be handed over
    at.button(key="pt_hand_over").click().run()
    titles = zone_titles(at)
    assert f"Hand of {other} (3 — top first)" in titles and f"Hand of {first} (2)" in titles

    saved = at.session_state["pt_session"].actions
    again = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    again.query_params["session"] = "pirates-hot-seat"
    again.run()
    again.switch_page("views/playtest.py").run()
    assert not again.exception, again.exception
    assert [a.to_json() for a in again.session_state["pt_session"].actions] == [a.to_json() for a in saved]


def test_hot_seat_for_four_in_two_vs_two(app_env: Path) -> None:
    at = start_hot_seat(["pirates_two_vs_two"], 4, "pirates-four")
    at.button(key="pt_hand_over").click().run()
    assert not at.exception, at.exception
    viewer = at.session_state["pt_session"].pending_decision().actor
    titles = zone_titles(at)
    assert f"Hand of {viewer} (3 — top first)" in titles
    assert sum(1 for t in titles if t.startswith("Hand of") and t.endswith("(3)")) == 3
    assert any(t.startswith("Parade of north_south") for t in titles)
    assert option_buttons(at)


def test_playing_pirates_against_an_agent(app_env: Path) -> None:
    at = open_with("playtest.py", ["nexus_pirates"])
    at.text_input(key="pt_new_name").input("pirates-agent")
    at.button(key="pt_start").click().run()
    assert not at.exception, at.exception
    assert not at.get("button") or "pt_hand_over" not in [b.key for b in at.button]  # one person: no handover
    for _ in range(4):
        option_buttons(at)[0].click().run()
        assert not at.exception, at.exception
    assert "red's view" in texts(at) or "blue's view" in texts(at)


@pytest.mark.parametrize("page, says", [("barge_editor.py", "no board, so no barges to edit"),
                                        ("odds.py", "no Sliding Dice Scale")])
def test_the_boards_pages_say_the_game_has_no_board(app_env, page: str, says: str) -> None:
    at = open_with(page, ["nexus_pirates"])
    notes = [i.value for i in at.info]
    assert any("NEXUS Pirates, is played without a board" in n and says in n for n in notes), notes
    # Nothing of the page itself is drawn: no dice levels, no barge grid, no figures.
    assert not at.dataframe and not at.metric
    assert not [w.key for w in [*at.selectbox, *at.button] if (w.key or "").startswith(("odds_", "bg_"))]


def test_nexus_arenas_board_pages_are_as_before(app_env) -> None:
    odds = open_with("odds.py", ["base"])
    assert not odds.info and odds.selectbox(key="odds_attack") and odds.metric
    barge = open_with("barge_editor.py", ["base"])
    assert not [i.value for i in barge.info if "without a board" in i.value]
