"""The base box's components as content (rulebook pg.2-6)."""

from __future__ import annotations

from nexus_dsl import Bout, cached_ruleset, make_agent, play, standard_setup


def test_eight_lanistas_including_the_rulebooks_sample_card():
    lanistas = cached_ruleset(("base",)).data_items("lanistas")
    assert len(lanistas) == 8
    assert any((l["influence"], l["deception"], l["command"]) == (2, 0, 4) for l in lanistas)  # pg.6 sample card
    assert all(l["name"] and l["flavor"] for l in lanistas)
    # No lanista dominates: nobody is best at everything, and the weighted totals stay close.
    weight = lambda l: 1.5 * l["influence"] + 2 * l["deception"] + l["command"]  # noqa: E731
    assert max(map(weight, lanistas)) - min(map(weight, lanistas)) <= 2


def test_lanistas_give_their_command_tokens_and_deception_and_bouts_play():
    ruleset = cached_ruleset(("base",))
    setup = standard_setup(lanistas=["grask_hollowmouth", "tibbet_kreen"])
    bout = Bout(ruleset, setup, seed=4)
    red, blue = bout.state.helots["red"], bout.state.helots["blue"]
    assert (red.command_tokens, red.deception) == (5, 1)
    assert (blue.command_tokens, blue.deception) == (2, 2)
    played = play(ruleset, standard_setup(lanistas=["grask_hollowmouth", "tibbet_kreen"]),
                  {"red": make_agent("heuristic"), "blue": make_agent("heuristic")}, seed=4)
    assert played.state.ended and played.outcome is not None
