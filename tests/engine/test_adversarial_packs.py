"""Adversarial but valid packs: seeded bouts end, or stop with a positioned runtime diagnostic.

Each pack under tests/fixtures/packs/adversarial_* builds on base and passes `nexus check`, but
does at run time what a stranger's content might: squares a number every round, nests repeats at
the limit, chains events without end, works out a negative cost, a die of no sides or an area of
negative radius, transfers huge amounts, offers commands that cost and do nothing... Every bout is
played with the coin ledger proved after every event (`strict_ledger`). A pack's line marked
`# faults here` is where its bout must stop; a pack without one must play to the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from nexus_dsl import Bout, load_ruleset, make_agent, standard_setup
from nexus_dsl.engine.bout import next_action
from nexus_dsl.engine.fingerprint import whole_state
from nexus_dsl.engine.interpreter import Limits
from nexus_dsl.engine.state import Termination

PACKS = Path(__file__).resolve().parents[1] / "fixtures" / "packs"
MARKER = "# faults here"
SEEDS = (1, 2, 3)
# No bout of these packs needs more actions than this; a bout that does is a hang.
MOST_ACTIONS = 6_000


@dataclass(frozen=True)
class Expected:
    code: str | None  # the runtime code the bout stops with; None: the bout plays to its end
    declaration: str = ""  # `in <kind> \`<id>\`` the diagnostic names


EXPECTED = {
    "adversarial_square_mark": Expected("runtime/number_too_large", "in rule `square_the_mark`"),
    "adversarial_huge_transfer": Expected("runtime/number_too_large", "in rule `bottomless_sponsor`"),
    "adversarial_nested_repeat": Expected("runtime/budget_exceeded", "in rule `restless_crowd`"),
    "adversarial_trigger_chain": Expected("runtime/budget_exceeded", "in rule `flickering_wound`"),
    "adversarial_negative_cost": Expected("runtime/negative_amount", "in command `bargain`"),
    "adversarial_zero_die": Expected("runtime/bad_value", "in rule `broken_die`"),
    "adversarial_negative_radius": Expected("runtime/bad_value", "in rule `shrinking_ring`"),
    "adversarial_free_command": Expected(None),
    "adversarial_self_perform": Expected("runtime/budget_exceeded", "in command `echo`"),
    "adversarial_wrong_kind": Expected("runtime/wrong_type", "in rule `falling_beam`"),
    "adversarial_many_options": Expected("runtime/too_many_options", "in command `triangulate`"),
    "adversarial_board_flood": Expected("runtime/budget_exceeded", "in rule `bleeding_sky`"),
    "adversarial_growing_mark": Expected("runtime/budget_exceeded", "in rule `russian_doll`"),
    "adversarial_negative_grant": Expected("runtime/bad_value", "in rule `sapping_heat`"),
}


def marked_line(pack: Path) -> tuple[str, int] | None:
    for path in sorted(pack.glob("*.nexus")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if MARKER in line:
                return str(path.resolve()), number
    return None


def play(pack: Path, seed: int, agent: str = "heuristic", limits: Limits | None = None, max_cycles: int = 200) -> Bout:
    ruleset = load_ruleset(["base", str(pack)])
    setup = standard_setup()
    setup.max_cycles = max_cycles
    bout = Bout(ruleset, setup, seed=seed, strict_ledger=True, limits=limits)
    agents = {label: make_agent(agent, seed=seed * 31 + i) for i, label in enumerate(bout.state.pieces)}
    actions = 0
    while bout.pending is not None:
        bout.apply(next_action(bout, agents))
        actions += 1
        assert actions <= MOST_ACTIONS, f"{pack.name} seed {seed}: the bout did not end"
    return bout


def check_outcome(pack: Path, bout: Bout) -> None:
    expected = EXPECTED[pack.name]
    state = bout.state
    assert state.coins_in_play() == state.drawn
    assert bout.outcome is not None
    if expected.code is None:
        assert bout.fault is None, bout.fault and bout.fault.format()
        assert bout.outcome.termination != Termination.SCRIPT_FAULT
        return
    fault = bout.fault
    assert fault is not None, f"{pack.name}: the bout ended without the expected fault"
    assert fault.code == expected.code, fault.format()
    assert (str(Path(fault.file).resolve()), fault.line) == marked_line(pack), fault.format()
    assert fault.column > 0 and fault.message.startswith(expected.declaration + ": ")
    assert bout.outcome.termination == Termination.SCRIPT_FAULT and bout.outcome.winner is None
    assert bout.log[-1].type == "fault" and bout.log[-1].data["line"] == fault.line


def test_every_adversarial_pack_is_listed_and_marks_its_fault():
    packs = {pack.name for pack in PACKS.glob("adversarial_*")}
    assert packs == set(EXPECTED)
    for name, expected in EXPECTED.items():
        assert (marked_line(PACKS / name) is None) == (expected.code is None), name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_seeded_bouts_of_an_adversarial_pack_end_or_stop_at_the_fault(name):
    pack = PACKS / name
    for seed in SEEDS:
        check_outcome(pack, play(pack, seed))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_random_players_meet_the_same_end(name):
    """Random agents give whatever is legal, free commands included; the round's action limit
    and the cycle limit keep even their bouts short."""
    pack = PACKS / name
    bout = play(pack, 4, agent="random", limits=Limits(max_actions_per_round=25), max_cycles=40)
    check_outcome(pack, bout)


def test_free_commands_and_abilities_end_the_round_at_its_action_limit():
    bouts = [play(PACKS / "adversarial_free_command", seed) for seed in SEEDS]
    limits = [event for bout in bouts for event in bout.log if event.type == "round_limit"]
    assert limits and all(event.data["actions"] == Limits().max_actions_per_round for event in limits)


@pytest.mark.parametrize("name", ["adversarial_square_mark", "adversarial_negative_cost", "adversarial_board_flood"])
def test_a_stopped_bout_replays_to_the_same_fault_and_state(name):
    pack = PACKS / name
    bout = play(pack, 2)
    replay = Bout(bout.ruleset, standard_setup(), seed=2, strict_ledger=True)
    for action in bout.history:
        replay.apply(action)
    assert replay.fault == bout.fault
    assert whole_state(replay) == whole_state(bout)
