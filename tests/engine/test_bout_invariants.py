"""Random-playout invariants: every seeded bout ends, the coin ledger balances after every event,
no pile goes negative, and a bout replays exactly from its seed and actions."""

from __future__ import annotations

import pytest

from nexus_dsl import Action, Bout, RulesError, cached_ruleset, make_agent, standard_setup
from nexus_dsl.engine.state import Status


def play_checked(seed: int, agents: tuple[str, str]) -> Bout:
    ruleset = cached_ruleset(("base",))
    bout = Bout(ruleset, standard_setup(), seed=seed, strict_ledger=True)
    players = {label: make_agent(name, seed=seed * 7 + i) for i, (label, name) in enumerate(zip(["red", "blue"], agents))}
    while bout.pending is not None:
        decision = bout.pending
        action = players[decision.actor].choose(bout, decision)
        assert action in decision.options
        bout.apply(action)  # apply() itself asserts the ledger after every action
        state = bout.state
        assert state.piles["crowd"] >= 0
        for helot in state.pieces.values():
            assert state.player_of(helot).piles["cred"] >= 0 and helot.overall >= 0 and min(helot.locations.values()) >= 0
            assert helot.ap >= 0 and helot.mp >= 0
            assert 0 <= min(helot.traits.values()) and max(helot.traits.values()) <= 5
        assert len({h.square for h in state.pieces.values() if h.status != Status.DEAD}) == \
            len([h for h in state.pieces.values() if h.status != Status.DEAD])  # one helot per square
    return bout


@pytest.mark.parametrize("agents", [("heuristic", "heuristic"), ("heuristic", "random"), ("random", "random")])
def test_seeded_bouts_end_with_a_balanced_ledger(agents):
    for seed in range(15):
        bout = play_checked(seed, agents)
        assert bout.state.ended
        assert bout.outcome is not None
        assert bout.state.coins_in_play() == bout.state.drawn


def test_heuristic_bouts_end_by_the_fight_not_the_cycle_limit():
    outcomes = [play_checked(seed, ("heuristic", "heuristic")).outcome for seed in range(15)]
    assert all(o.termination in ("last_helot_standing", "all_expired") for o in outcomes)
    # Every helot expiring at once happens "on rare occasion" (pg.13), not as a rule.
    assert sum(o.termination == "last_helot_standing" for o in outcomes) >= 12


def test_a_bout_replays_exactly_from_seed_and_actions():
    original = play_checked(3, ("heuristic", "random"))
    replay = Bout(cached_ruleset(("base",)), standard_setup(), seed=3)
    for action in original.history:
        replay.apply(action)
    assert replay.events_json() == original.events_json()
    assert replay.snapshot() == original.snapshot()


def test_a_refused_action_changes_nothing():
    bout = Bout(cached_ruleset(("base",)), standard_setup(), seed=5)
    before = bout.snapshot()
    log_length = len(bout.log)
    with pytest.raises(RulesError) as refusal:
        bout.apply(Action.make("command", "red", "standard_attack", target="blue"))
    assert refusal.value.code.startswith("rules/")
    assert bout.snapshot() == before and len(bout.log) == log_length


def test_winner_must_beat_the_crowd():
    bout = play_checked(0, ("heuristic", "heuristic"))
    outcome = bout.outcome
    best = max(outcome.totals.values())
    if outcome.winner is None:
        assert best <= outcome.piles["crowd"] or list(outcome.totals.values()).count(best) > 1
    else:
        assert outcome.totals[outcome.winner] == best > outcome.piles["crowd"]


def test_preview_of_an_ability_shows_its_effect_and_changes_nothing():
    from nexus_dsl import BoutSetup, PieceSetup
    from nexus_dsl.engine.board import Direction, Square

    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=2, traits={"SWAG": 4}),
                              PieceSetup("blue", "north", Square(4, 1), Direction.S)],
                      phase="command", active="red")
    bout = Bout(cached_ruleset(("base",)), setup, seed=1)
    before = bout.snapshot()
    (win,) = [a for a in bout.legal_actions() if a.name == "win_them_over"]
    after = bout.preview(win)
    assert after.players["red"].piles["cred"] == 5 and after.pieces["red"].traits["SWAG"] == 0
    assert bout.snapshot() == before


def test_a_round_of_endless_free_commands_ends_by_itself(tmp_path):
    """A command that costs nothing could be given forever; the round ends at the action budget."""
    from nexus_dsl.content.loader import load_ruleset
    from nexus_dsl.engine.board import Direction, Square
    from nexus_dsl.engine.interpreter import Limits
    from nexus_dsl.engine.setup import BoutSetup, PieceSetup

    pack = tmp_path / "free_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: free_pack\nname: Free\nversion: 1.0.0\nkind: house_rules\nbuilds_on: [base]\n")
    (pack / "free.nexus").write_text('command shuffle_feet "Shuffle Feet" {\n    group movement\n'
                                     '    text "Costs nothing, does nothing."\n    cost 0 AP\n    effect {\n'
                                     '        mark self "shuffled"\n    }\n}\n')
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=2),
                              PieceSetup("blue", "north", Square(4, 2), Direction.S)], phase="command", active="red")
    bout = Bout(load_ruleset(["base", str(pack)]), setup, seed=1, limits=Limits(max_actions_per_round=5))
    given = 0
    while bout.pending is not None and bout.pending.kind == "command" and bout.pending.actor == "red":
        bout.apply(Action.make("command", "red", "shuffle_feet"))
        given += 1
        assert given <= 5
    assert given == 5
    assert [e.data["actions"] for e in bout.log if e.type == "round_limit"] == [5]
