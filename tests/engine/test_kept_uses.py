"""The legal uses of abilities and cards kept from decision to decision (`use_reads`,
`Legality.legal_uses`): a declaration whose requirements read nothing of the piece using it but its
status, states, trait reserves and plain fields has one answer per value of what they read. At every
decision of seeded bouts, the uses and controls offered are those a legality keeping nothing finds, in
the same order."""

from __future__ import annotations

import random

import pytest

from nexus_dsl import Bout, cached_ruleset, make_agent, standard_setup
from nexus_dsl.engine.bout import next_action
from nexus_dsl.engine.legality import Legality
from nexus_dsl.engine.state import Piece
from nexus_dsl.engine.use_reads import ReadsFinder, SelfReads


def _setup(seed: int, players: int, drawn: bool):
    """A standard setup, or one on a random barge with each player's role and profile drawn."""
    if not drawn:
        return standard_setup(players)
    ruleset = cached_ruleset(("base",))
    motivations = [item["id"] for item in ruleset.data_items("motivations")]
    lanistas = [item["id"] for item in ruleset.data_items("lanistas")]
    draw = random.Random(seed)
    return standard_setup(players, roles=[draw.choice(motivations) for _ in range(players)],
                          profiles=[draw.choice(lanistas) for _ in range(players)], layout="random")


def _afresh(bout: Bout) -> Legality:
    """A legality of the bout keeping nothing from one question to the next."""
    afresh = Legality(bout)
    afresh.wire()
    afresh._actions, afresh._cost_plans, afresh._offered = {}, {}, {}
    return afresh


def _compare(bout: Bout, piece: Piece) -> int:
    """The instant uses and controls offered by the bout's legality (which keeps what it found at
    earlier decisions) against a legality keeping nothing; the number of uses offered."""
    kept_uses = bout.timing.instant_options(piece)
    kept_controls = bout.legality.legal_controls(piece)
    afresh = _afresh(bout)
    keeping, bout.legality = bout.legality, afresh
    bout.timing.wire()  # (timing keeps the bout's legality at hand)
    try:
        assert bout.timing.instant_options(piece) == kept_uses
        assert afresh.legal_controls(piece) == kept_controls
    finally:
        bout.legality = keeping
        bout.timing.wire()
    return len(kept_uses)


@pytest.mark.parametrize("agent, players, drawn, seeds", [
    ("heuristic", 2, False, (1, 2)),
    ("heuristic", 2, True, (3, 4)),
    ("random", 2, True, (5, 6, 7)),
    ("heuristic", 4, True, (8,)),
    ("random", 4, True, (9, 10)),
])
def test_uses_kept_between_decisions_are_those_worked_out_afresh(agent: str, players: int, drawn: bool,
                                                                  seeds: tuple[int, ...]) -> None:
    ruleset = cached_ruleset(("base",))
    compared = offered = 0
    for seed in seeds:
        bout = Bout(ruleset, _setup(seed, players, drawn), seed=seed)
        agents = {spec.label: make_agent(agent, seed=seed * 31 + i) for i, spec in enumerate(bout.setup.pieces)}
        while bout.pending is not None:
            decision = bout.pending
            piece = bout.state.pieces.get(decision.actor)
            if isinstance(piece, Piece) and not bout.timing.windows:
                offered += _compare(bout, piece)
                compared += 1
            bout.apply(next_action(bout, agents))
    assert compared > 30 and offered > 0
    assert any(memo.by_piece for memo in bout.legality._memos.values())  # (something was kept)


def test_what_the_requirements_read_is_told_from_their_text() -> None:
    """A requirement reading the piece's attributes, states or trait reserves, its arguments and
    settings is told; one reading a target, a mark (a function that may read more), the piece as a
    value or a window's name is not, and its uses are never kept."""
    ruleset = cached_ruleset(("base",))
    finder = ReadsFinder(ruleset)

    def reads(kind: str, name: str):
        found = finder.reads_of(ruleset.declaration(kind, name))
        return None if found is None else (tuple(found.names), tuple(found.states), found.traits)

    assert reads("trait_ability", "jack_of_all_traits") == (("fighting",), (), True)
    assert reads("trait_ability", "unshackled") == (("fighting",), ("grappled",), False)
    assert reads("trait_ability", "healing_faith") == (("fighting", "overall"), (), False)
    assert reads("command", "spend_command_token") == (("command_tokens",), (), False)
    assert reads("trait_ability", "elusive") is None  # `has_mark(self, ...)`
    assert reads("trait_ability", "made_you_look") is None  # `target.fighting`
    assert reads("trait_ability", "hurdle") is None  # `step(self, forward)`: the board


def test_a_requirement_reading_the_piece_as_a_value_or_a_window_s_name_is_not_kept() -> None:
    from nexus_dsl.syntax import ast_nodes as A
    from nexus_dsl.syntax.parser import parse_declaration

    ruleset = cached_ruleset(("base",))
    finder = ReadsFinder(ruleset)
    window_name = sorted(finder.window_names)[0]
    holding = ruleset.words.hold.holding
    for text, told in (("self.fighting and trait_cap > 1", True), ("self == none", False),
                       (f"{window_name} == none", False), ("command == none", False),
                       ("count(self.marks) > 0", False), (f"self.{holding} == none", False)):
        declaration = parse_declaration(f'trait_ability probe "Probe" {{\n    requires {text}\n}}\n')
        condition = declaration.clauses_of(A.Requires)[0].condition
        assert finder._reads_only(condition, SelfReads(), frozenset()) is told, text
