"""What a playtest says beside a choice: the deal to keep from, a control's meaning and cost, and the
warnings asked before a costly choice, all read from seeded bouts."""

from __future__ import annotations

from nexus_dsl.engine.actions import CARD, END_ROUND
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.workbench.odds import matchup_odds
from nexus_dsl.workbench.play_prompts import POOR_ODDS, attack_odds_warning, control_help, keep_prompt, warnings_before

from .people_bouts import decisions, people_bout


def test_the_deal_says_how_many_to_keep_shows_faces_and_keeps_its_order() -> None:
    session = people_bout()
    actor = session.pending_decision().actor
    prompt = keep_prompt(session, actor)
    assert prompt is not None and prompt.total == prompt.remaining > 0 and not prompt.kept
    faces = [face for face, _ in prompt.offered]
    assert [face.name for face in faces] == sorted(face.name for face in faces)
    first_card = faces[0].id
    assert faces[0].name == session.ruleset.declaration("influence", first_card).name and faces[0].prose
    picked = prompt.offered[1]
    session.apply(picked[1])
    after = keep_prompt(session, actor)
    assert after is not None and after.remaining == prompt.remaining - 1 and after.total == prompt.total
    assert [face.id for face in after.kept] == [picked[0].id]
    # The others stand as they stood: only the kept card left the row.
    assert [face.id for face, _ in after.offered] == [face.id for face in faces if face.id != picked[0].id]
    assert keep_prompt(session, "nobody") is None


def test_a_deception_says_what_it_is_and_costs_and_a_block_costs_the_rule_param() -> None:
    session = people_bout()
    found = {}
    for actor in decisions(session):
        for button in session.buttons(actor):
            if button.action.name in ("deception", "block_deception"):
                found[button.action.name] = (button, control_help(session, button.action))
        if len(found) == 2:
            break
    assert set(found) == {"deception", "block_deception"}
    stat = session.ruleset.declaration("stat", "deception")
    for button, help_line in found.values():
        assert help_line.startswith(f"{stat.name}: ") and "holds" in help_line
        assert "deception_block_cost" not in help_line  # the param is given as its value
    assert found["deception"][0].cost == ((1, "deception"),)
    assert found["block_deception"][0].cost == ((session.ruleset.settings["deception_block_cost"], "deception"),)


def test_ending_a_round_asks_about_points_and_playable_cards_and_a_dear_condition_cost_asks_too() -> None:
    session = people_bout()
    ended = dear = None
    for actor in decisions(session):
        buttons = session.buttons(actor)
        for button in buttons:
            warnings = warnings_before(session, actor, button, buttons)
            if button.action.kind == END_ROUND and any(b.action.kind == CARD for b in buttons) and ended is None:
                ended = warnings
            if button.action.name == "motivation_button" and dear is None:
                dear = (warnings, session.bout.state.pieces[actor].overall, button.cost[0][0])
            if button.action.name == "wild_attack":
                # A cost of 1 condition is everyday play: only its odds (-SDS against SD) ask.
                assert not any("costs" in w for w in warnings) and any("hits about 28%" in w for w in warnings)
        if ended is not None and dear is not None:
            break
    assert ended is not None and any("could still play" in w for w in ended)
    assert dear is not None
    warnings, overall, cost = dear
    assert warnings == [w for w in warnings if f"costs {cost} condition ({overall} now, {overall - cost} after)" in w]
    assert warnings


def test_an_attack_at_poor_odds_asks_with_its_chance_and_one_at_fair_odds_does_not() -> None:
    session = people_bout()
    for actor in decisions(session):
        buttons = {b.action.name: b for b in session.buttons(actor) if b.kind == "command"}
        if "standard_attack" in buttons and "wild_attack" in buttons:
            break
    else:
        raise AssertionError("no decision offered both attacks")
    standard, wild = buttons["standard_attack"], buttons["wild_attack"]
    target = str(standard.action.arg("target"))
    assert matchup_odds(0, 0).success >= POOR_ODDS > matchup_odds(-1, 0).success  # 44% and 28%
    # SD against SD: about 44%, nothing to ask.
    assert attack_odds_warning(session, standard.action) is None
    assert warnings_before(session, actor, standard, list(buttons.values())) == []
    # -SDS against SD: about 28%.
    assert attack_odds_warning(session, wild.action) == (
        f"Wild Attack hits about 28% of the time (your 3d6 keeping the lowest two against {target}'s 2d6)")
    # A command that makes no opposed roll never asks about odds.
    assert all(attack_odds_warning(session, b.action) is None for name, b in buttons.items()
               if not session.declaration(b.action).clauses_of(A.Roll))

    # The levels are the rules' (here: a depleted arm is -SDS to attack, pg.26), and asking rolls nothing.
    piece = session.bout.state.pieces[actor]
    piece.locations["left_upper"] = 0
    before = (session.bout.snapshot(), session.bout.dice.state(), len(session.bout.log))
    assert attack_odds_warning(session, standard.action) == (
        f"Standard Attack hits about 28% of the time (your 3d6 keeping the lowest two against {target}'s 2d6)")
    assert (session.bout.snapshot(), session.bout.dice.state(), len(session.bout.log)) == before
