"""Seed plus actions replays a bout exactly: its whole state, hidden state included, at every step.

A bout is played by agents (which preview options as they choose); the same seed and the same
actions, applied to a fresh bout, must give the same whole state (`engine.fingerprint.whole_state`:
every field of the state, the log, the pending decision, the engine's stacks and counters, the
dice and the random generator's internal state, and the suspended game's frames) after every
single action.
"""

from __future__ import annotations

import pytest

from nexus_dsl import Bout, cached_ruleset
from nexus_dsl.engine.bout import next_action
from nexus_dsl.engine.fingerprint import differences, fingerprint, whole_state
from nexus_dsl.sim.batch import BoutSpec, spec_agents, spec_setup

SPECS = [
    BoutSpec(seed=1, barge="pincushion", motivations=("hoarder", "zealot"),
             lanistas=("vask_the_unbought", "madame_oorl")),
    BoutSpec(seed=7, barge="quiet_cloister", motivations=("famished", "supremacist"),
             lanistas=("tibbet_kreen", "ixa_of_the_crypt"), agents=("heuristic", "random")),
    BoutSpec(seed=8, barge="brimstone_pit", motivations=("supremacist", "hoarder"),
             lanistas=("pell_marrowgate", "drom_sevenfingers"), agents=("random",)),
    BoutSpec(seed=3, players=4, barge="riot_deck", motivations=("hoarder", "famished", "supremacist", "zealot"),
             lanistas=("vask_the_unbought", "madame_oorl", "tibbet_kreen", "grask_hollowmouth")),
]


def play(spec: BoutSpec) -> tuple[Bout, list[dict]]:
    """The bout played by its agents, and its whole state after construction and after each action."""
    setup = spec_setup(spec)
    bout = Bout(cached_ruleset(spec.packs), setup, seed=spec.seed)
    agents = spec_agents(spec, [h.label for h in setup.pieces])
    memo: dict = {}
    states = [whole_state(bout, memo)]
    while bout.pending is not None:
        bout.apply(next_action(bout, agents))
        states.append(whole_state(bout, memo))
    return bout, states


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: f"seed{spec.seed}-{spec.players}p-{'-'.join(spec.agents)}")
def test_replaying_seed_and_actions_reproduces_the_whole_state_at_every_step(spec):
    original, states = play(spec)
    assert original.outcome is not None and original.fault is None
    replay = Bout(cached_ruleset(spec.packs), spec_setup(spec), seed=spec.seed)
    memo: dict = {}
    assert differences(states[0], whole_state(replay, memo)) == []
    for step, action in enumerate(original.history, start=1):
        replay.apply(action)
        changed = differences(states[step], whole_state(replay, memo))
        assert changed == [], f"seed {spec.seed}: after action {step} ({action.describe()}) the replay differs in {changed}"
    assert fingerprint(replay) == fingerprint(original)


def test_the_whole_state_sees_what_the_snapshot_does_not():
    """Two bouts alike in every snapshot key but a mark's value, or the dice's next roll, differ."""
    spec = SPECS[0]
    bout = Bout(cached_ruleset(spec.packs), spec_setup(spec), seed=spec.seed)
    other = Bout(cached_ruleset(spec.packs), spec_setup(spec), seed=spec.seed)
    assert fingerprint(bout) == fingerprint(other)
    other.state.pieces["red"].marks["memo"] = 1
    bout.state.pieces["red"].marks["memo"] = 2
    assert bout.snapshot() == other.snapshot()
    assert differences(whole_state(bout), whole_state(other)) == ["state"]
    other.state.pieces["red"].marks["memo"] = 2
    other.dice.roll("d8", 8)
    other.dice.drain_history()
    assert differences(whole_state(bout), whole_state(other)) == ["dice"]


@pytest.mark.sources_only  # reads the suspended frames, which the compiled engine keeps to itself
def test_the_whole_state_is_the_bouts_own_not_what_its_ruleset_keeps_for_every_bout():
    """A bout paused in a window holds the window's uses, tables its ruleset keeps for every bout
    and fills as bouts ask (which roles own what): another bout played meanwhile with the same
    ruleset, by players of other roles, changes nothing of the paused bout's whole state."""
    spec = SPECS[1]
    setup = spec_setup(spec)
    bout = Bout(cached_ruleset(spec.packs), setup, seed=spec.seed)
    agents = spec_agents(spec, [h.label for h in setup.pieces])
    while bout.pending is not None and not bout.timing.windows:
        bout.apply(next_action(bout, agents))
    assert bout.timing.windows, "the bout never paused in a window"
    before = whole_state(bout)
    play(SPECS[3])
    assert differences(before, whole_state(bout)) == []
