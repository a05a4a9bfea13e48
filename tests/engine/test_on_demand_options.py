"""A command decision's options worked out on demand (`engine/on_demand.py`) are the options worked
out whole: the same actions in the same order, whatever was asked before; the same bouts, action for
action and line for line; and a fault met on demand stops the bout where the whole list stops it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nexus_dsl import Bout, cached_ruleset, load_ruleset, make_agent, standard_setup
from nexus_dsl.engine.actions import COMMAND, Action
from nexus_dsl.engine.bout import next_action, on_demand_actors
from nexus_dsl.engine.on_demand import OPTIONS_FAULTED, CommandOptions, OptionsFaulted

PACKS = Path(__file__).resolve().parents[1] / "fixtures" / "packs"


def played(packs: tuple[str, ...], players: int, agent: str, seed: int, on_demand: bool) -> Bout:
    ruleset = cached_ruleset(packs)
    setup = standard_setup(players=players)
    bout = Bout(ruleset, setup, seed=seed, options_on_demand=on_demand)
    actors = bout.state.pieces or bout.state.players  # a game of players alone has no pieces
    agents = {label: make_agent(agent, seed=seed * 31 + index) for index, label in enumerate(actors)}
    while bout.pending is not None:
        bout.apply(next_action(bout, agents))
    return bout


@pytest.mark.parametrize(("packs", "players", "agent", "seeds"), [
    (("base",), 2, "heuristic", range(1, 5)),
    (("base",), 4, "heuristic", range(1, 3)),
    (("base",), 2, "random", range(1, 4)),
    (("nexus_pirates",), 2, "heuristic", range(1, 3)),
])
def test_bouts_played_on_demand_are_the_bouts_played_whole(packs, players, agent, seeds):
    for seed in seeds:
        whole = played(packs, players, agent, seed, on_demand=False)
        asked = played(packs, players, agent, seed, on_demand=True)
        assert asked.history == whole.history, seed
        assert json.dumps(asked.events_json()) == json.dumps(whole.events_json()), seed


def test_decisions_are_worked_out_on_demand_for_the_agents_that_ask_one_by_one():
    """A heuristic agent against a random one: the heuristic's command decisions are offered on
    demand, the random agent's whole (it reads every option), and the bout is the bout played whole."""
    ruleset = cached_ruleset(("base",))
    for seed in (1, 2):
        twin = Bout(ruleset, standard_setup(), seed=seed)  # every decision worked out whole
        labels = list(twin.state.pieces)
        agents = {labels[0]: make_agent("heuristic"), labels[1]: make_agent("random", seed=seed)}
        assert on_demand_actors(agents) == frozenset({labels[0]})
        mixed = Bout(ruleset, standard_setup(), seed=seed, options_on_demand=on_demand_actors(agents))
        twin_agents = {labels[0]: make_agent("heuristic"), labels[1]: make_agent("random", seed=seed)}
        offered = {label: set() for label in labels}
        while mixed.pending is not None:
            decision = mixed.pending
            if decision.kind == "command":
                offered[decision.actor].add(decision.on_demand is not None)
            mixed.apply(next_action(mixed, agents))
            twin.apply(next_action(twin, twin_agents))
        assert offered[labels[0]] == {True} and offered[labels[1]] == {False}, offered
        assert mixed.history == twin.history
        assert json.dumps(mixed.events_json()) == json.dumps(twin.events_json())


def test_each_command_asked_alone_in_any_order_gives_the_whole_lists_actions():
    """At every command decision of a bout: the commands asked last to first give, in their order,
    the list `legal_commands` works out at once; the decision offers exactly those and the rest."""
    ruleset = cached_ruleset(("base",))
    bout = Bout(ruleset, standard_setup(), seed=5, options_on_demand=True)
    agents = {label: make_agent("heuristic", seed=index) for index, label in enumerate(bout.state.pieces)}
    checked = 0
    while bout.pending is not None and checked < 60:
        decision = bout.pending
        on_demand = decision.on_demand
        if isinstance(on_demand, CommandOptions):
            piece = bout.state.actor(decision.actor)
            asked = [on_demand.commands(frozenset((name,))) for name in reversed(on_demand.names)]
            in_order = [action for actions in reversed(asked) for action in actions]
            assert in_order == bout.legality.legal_commands(piece)
            assert decision.options == tuple(in_order) + on_demand.rest
            assert all(decision.offers(option) for option in decision.options)
            assert not decision.offers(Action(COMMAND, decision.actor, "no_such_command"))
            checked += 1
        bout.apply(next_action(bout, agents))
    assert checked >= 20


def _faulty_requirement_pack(tmp_path: Path) -> Path:
    """A movement command whose requirement faults whenever it is asked: a number beyond the limit."""
    files = {
        "pack.yaml": "id: faulty_requirement\nname: Faulty requirement\nversion: 1.0.0\nkind: house_rules\n"
                     "builds_on: [base]\n",
        "moves.nexus": 'command stumble_step "Stumble Step" {\n    group movement\n    text "A step no one can take."\n'
                       '    cost 1 MP\n    requires (self.cred + 1) * 1000000 * 1000000 * 1000000 > 0 else "never"\n'
                       '    effect {\n        log "stumbled"\n    }\n}\n',
    }
    pack = tmp_path / "faulty_requirement"
    pack.mkdir()
    for name, text in files.items():
        (pack / name).write_text(text)
    return pack


def test_a_fault_met_on_demand_stops_the_bout_as_the_whole_list_stops_it(tmp_path):
    ruleset = load_ruleset(["base", str(_faulty_requirement_pack(tmp_path))])
    bouts = []
    for on_demand in (False, True):
        bout = Bout(ruleset, standard_setup(), seed=2, options_on_demand=on_demand)
        agents = {label: make_agent("heuristic", seed=index) for index, label in enumerate(bout.state.pieces)}
        while bout.pending is not None:
            bout.apply(next_action(bout, agents))
        bouts.append(bout)
    whole, asked = bouts
    assert whole.fault is not None and "stumble_step" in whole.fault.message
    assert asked.fault == whole.fault
    assert asked.history == whole.history
    assert json.dumps(asked.events_json()) == json.dumps(whole.events_json())
    assert asked.state.outcome == whole.state.outcome


def test_an_agent_that_meets_a_fault_on_demand_is_answered_for_and_the_bout_stops(tmp_path):
    """Reading the whole list of a decision whose commands fault raises `OptionsFaulted`;
    `next_action` answers `OPTIONS_FAULTED` for the agent, on which `apply` stops the bout."""
    ruleset = load_ruleset(["base", str(_faulty_requirement_pack(tmp_path))])
    bout = Bout(ruleset, standard_setup(), seed=2, options_on_demand=True)
    agents = {label: make_agent("random", seed=index) for index, label in enumerate(bout.state.pieces)}
    while bout.pending is not None and bout.pending.on_demand is None:
        bout.apply(next_action(bout, agents))
    decision = bout.pending
    assert decision is not None and decision.on_demand is not None
    with pytest.raises(OptionsFaulted):
        decision.options  # noqa: B018 - the whole list, worked out when read
    assert next_action(bout, agents) is OPTIONS_FAULTED
    bout.apply(OPTIONS_FAULTED)
    assert bout.pending is None and bout.fault is not None and bout.log[-1].type == "fault"
