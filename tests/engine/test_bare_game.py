"""A game that builds on nothing plays from its own declarations alone: its round, its turn, its
end and its verdict. The engine offers it nothing of NEXUS (no initiative, no split of points, no
influence deal, no crowd's coins) and names its winner by its own verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import write_pack

from nexus_dsl import load_ruleset
from nexus_dsl.agents.base import make_agent
from nexus_dsl.engine.bout import play
from nexus_dsl.engine.setup import standard_setup

COUNTING = '''event turn_starts "Turn starts" {
    arg self: piece
}

event turn_over "Turn over" {
    arg self: piece
}

stat tally "Tally" {
    low 0
    high 9
}

game counting "Counting" {
    text "Each player in turn adds one or two to its tally; the first to reach 5 ends the game, and the highest tally wins."
    round rounds
    turn counting_turn
    score tally
    verdict most_tally
}

turn counting_turn "A Turn" {
    starts turn_starts
    over turn_over
    length 1
    passing false
}

procedure rounds "A Round" {
    effect {
        take_turns in_play()
    }
}

procedure most_tally "The Highest Tally" {
    effect {
        if count(leading_sides()) == 1 {
            win first(leading_sides())
        }
    }
}

command count_one "Count One" {
    cost 0 AP
    effect {
        add_stat self tally by 1
    }
}

command count_two "Count Two" {
    cost 0 AP
    effect {
        add_stat self tally by 2
    }
}

rule five_ends_it "Five Ends It" {
    when turn_over if stat_value(self, tally) >= 5 {
        end_game "reached_five"
    }
}
'''

NEXUS_STEPS = {"initiative", "allocate", "motivation_button", "deception", "influence_dealt", "coins"}


@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_a_game_that_builds_on_nothing_plays_to_its_own_verdict(tmp_path: Path, agent: str) -> None:
    pack = write_pack(tmp_path / "counting", "counting", {"game.nexus": COUNTING})
    ruleset = load_ruleset([str(pack)])
    for seed in range(1, 11):
        bout = play(ruleset, standard_setup(2), {label: make_agent(agent, seed=seed) for label in ("red", "blue")},
                    seed=seed)
        events = bout.events_json()
        assert bout.fault is None and bout.state.piles == {}  # it declares no pile: no crowd
        assert not NEXUS_STEPS & {e["type"] for e in events}
        assert not [d for e in events for d in e.get("dice", ())]  # a game without dice rolls none
        outcome = bout.state.outcome
        assert outcome is not None and outcome.termination == "reached_five"
        tallies = {label: h.stats["tally"] for label, h in bout.state.pieces.items()}
        leader = max(tallies, key=lambda label: tallies[label])
        assert max(tallies.values()) >= 5 and outcome.totals == tallies  # the outcome records its scores
        expected = leader if list(tallies.values()).count(tallies[leader]) == 1 else None
        assert outcome.winner == expected
        turns = [e["piece"] for e in events if e["type"] == "round_start"]
        assert turns == ["red", "blue"] * (len(turns) // 2) + ["red"] * (len(turns) % 2)  # strictly alternating
