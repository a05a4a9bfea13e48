"""The heuristic agent: it finds its way to the fight and judges unfamiliar content by previewing it."""

from __future__ import annotations

import dataclasses
import heapq
import random

from nexus_dsl import Bout, BoutSetup, PieceSetup, cached_ruleset, make_agent
from nexus_dsl.agents.heuristic import (PLAIN_MOVES_SOURCE, STATE_WORTH, SURE_MARGIN, WORTH_PLAYING, _entry_cost,
                                        _new_marks, _plain_declaration, _position_score, calm_board, distances_to,
                                        nearest_foe, plain_move_score, plain_moves, position_score, standing,
                                        steps_to, trait_raise_gain, trait_raises)
from nexus_dsl.engine.actions import ABILITY, CARD
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.bout import next_action
from nexus_dsl.engine.setup import standard_setup
from nexus_dsl.engine.timing import usable_declaration
from nexus_dsl.syntax.parser import parse
from nexus_dsl.engine.state import Status

# A wall of pillars straight across the diagonal between the two seats' starting squares.
PILLAR_WALL = [(2, 5), (3, 5), (3, 4), (4, 4), (4, 3), (5, 3), (5, 2)]
# Two pillars on that diagonal: a helot that only shrinks the straight-line distance stops behind them.
DIAGONAL_PILLARS = [(4, 5), (5, 4)]


def _bout(seed: int, pillars: list[tuple[int, int]] = PILLAR_WALL) -> Bout:
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(1, 8), Direction.N),
                              PieceSetup("blue", "north", Square(8, 1), Direction.S)],
                      objects=[("pillar", Square(*at)) for at in pillars])
    return Bout(cached_ruleset(("base",)), setup, seed=seed)


def test_distances_go_round_what_blocks():
    bout = _bout(1)
    distances = distances_to(bout.state, Square(4, 2), bout.ruleset.object_flags)
    # Through the pillars at (4, 4) and (4, 3) it would be 3 steps; round the wall's end it is more.
    assert distances[Square(4, 5)] > 3
    assert distances[Square(3, 2)] == 1
    assert distances[Square(6, 4)] == 4  # (6,3), (6,2), (5,1), then the goal: the wall ends at (5, 2)


def test_helots_walk_round_pillars_on_the_diagonal_and_fight():
    for seed in (1, 2, 3):
        bout = _bout(seed, DIAGONAL_PILLARS)
        agents = {label: make_agent("heuristic", seed=seed + i) for i, label in enumerate(("red", "blue"))}
        while bout.pending is not None and bout.state.cycle <= 6:
            bout.apply(next_action(bout, agents))
        attacks = [e for e in bout.log if e.type == "attack"]
        assert attacks, f"seed {seed}: no attack in six cycles; the helots never reached each other"


def test_a_helot_scores_facing_its_opponent_as_the_board_says():
    """Straight ahead +12 (+4 more from behind it), elsewhere in the front arc +6, for every facing
    of both helots and every square round the opponent, the board's own arcs deciding."""
    bout = _bout(1, [])
    state = bout.state
    me, foe = state.pieces["red"], state.pieces["blue"]
    grid = state.grid
    foe.square = Square(4, 4)
    for square in grid.neighbours(foe.square):
        me.square = square
        for mine in Direction:
            for theirs in Direction:
                me.facing, foe.facing = mine, theirs
                bonus = 0
                if grid.front_center(square, mine) == foe.square:
                    bonus = 16 if grid.behind(foe.square, theirs) == square else 12
                elif foe.square in grid.front_arc(square, mine):
                    bonus = 6
                assert position_score(state, me) == -10.0 + bonus, (square, mine, theirs)


def _heap_search(state, goal: Square, flags) -> dict[Square, float]:
    """Walking distances found by a search taking squares off a heap, cheapest first (ties by
    column, then row): the reference `steps_to` is held to."""
    grid = state.grid
    entry = {square: _entry_cost(state, square, flags) for square in state.objects if grid.contains(square)}
    entry[goal] = 1.0
    best = {goal: 0.0}
    frontier = [(0.0, goal.col, goal.row, goal)]
    while frontier:
        cost, _, _, square = heapq.heappop(frontier)
        if cost > best[square]:
            continue
        total = cost + entry.get(square, 1.0)
        if total == float("inf"):
            continue
        for near in grid.neighbours(square):
            if total < best.get(near, float("inf")):
                best[near] = total
                heapq.heappush(frontier, (total, near.col, near.row, near))
    return best


def test_walking_distances_are_the_sums_a_heap_search_finds_to_the_last_bit():
    """`steps_to` looks at squares first in, first out (again when their steps come down): every
    step costs at least one, so it must find exactly the sums a search by a heap finds, the
    fractions of hazards and slippery squares added in any order."""
    ruleset = cached_ruleset(("base",))
    kinds = ["pillar", "crate", "fire", "floor_spikes", "floor_saw", "blood", "guts"]
    for seed in range(80):
        rng = random.Random(seed)
        state = _bout(1, []).state
        for _ in range(rng.randint(0, 30)):
            state.place(rng.choice(kinds), Square(rng.randint(1, 8), rng.randint(1, 8)))
        goal = Square(rng.randint(1, 8), rng.randint(1, 8))
        found = distances_to(state, goal, ruleset.object_flags)
        expected = _heap_search(state, goal, ruleset.object_flags)
        assert found == expected, f"seed {seed}"
        assert [value.hex() for _, value in sorted(found.items())] == [value.hex() for _, value in sorted(expected.items())]


def test_the_agents_remembered_distances_are_the_search_of_the_board_as_it_stands():
    """The walking distances the agent remembers (`HeuristicAgent._steps_to`: by goal and the costs
    of the board's squares, objects placed and taken away between asks, in any order) are what a
    search of the board as it stands finds, to the last bit."""
    ruleset = cached_ruleset(("base",))
    kinds = ["pillar", "crate", "fire", "floor_spikes", "floor_saw", "blood", "guts"]
    agent = make_agent("heuristic", seed=1)
    bout = _bout(1, [])
    state = bout.state
    rng = random.Random(5)
    goals = [Square(2, 7), Square(5, 5), Square(8, 1)]
    remembered = 0
    for _ in range(600):
        square = Square(rng.randint(1, 8), rng.randint(1, 8))
        if rng.random() < 0.5:  # else the board as it was: a remembered search
            if state.objects_at(square) and rng.random() < 0.5:
                state.remove(state.objects_at(square)[0], square)
            else:
                state.place(rng.choice(kinds), square)
        goal = rng.choice(goals)
        expected = steps_to(state, goal, ruleset.object_flags)
        searched = len(agent._distances)
        assert [v.hex() for v in agent._steps_to(bout, state, goal)] == [v.hex() for v in expected]
        remembered += len(agent._distances) == searched
    assert remembered > 150


def _nearest_by_lists(state, me):
    """The nearest foe as the agent first found it: the fighting foes (or, with none, every foe on
    the board and not dead), the least (distance, label)."""
    foes = [h for h in state.pieces.values() if h.label != me.label and h.on_board and h.status != Status.DEAD]
    if not foes:
        return None
    fighting = [h for h in foes if h.status == Status.FIGHTING] or foes
    return min(fighting, key=lambda h: (state.grid.chebyshev(me.square, h.square), h.label))


def test_the_nearest_foe_is_found_in_one_pass_as_by_lists():
    """`nearest_foe` walks the pieces once: the same foe as the lists and the least key, on
    random squares and statuses of four pieces (ties of distance among them, foes off the board)."""
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(1, 8), Direction.N),
                              PieceSetup("blue", "north", Square(8, 1), Direction.S),
                              PieceSetup("green", "east", Square(8, 8), Direction.W),
                              PieceSetup("amber", "west", Square(1, 1), Direction.E)])
    state = Bout(cached_ruleset(("base",)), setup, seed=1).state
    statuses = [Status.FIGHTING, Status.FIGHTING, Status.INCAPACITATED, Status.DEAD]
    checked = 0
    for seed in range(400):
        rng = random.Random(seed)
        for piece in state.pieces.values():
            piece.square = Square(rng.randint(1, 4), rng.randint(1, 4))
            piece.status = rng.choice(statuses)
            piece.on_board = rng.random() > 0.15
        for me in state.pieces.values():
            assert nearest_foe(state, me) is _nearest_by_lists(state, me), f"seed {seed}, {me.label}"
            checked += 1
    assert checked == 1600


def test_plain_moves_judged_from_the_board_score_as_their_previews():
    """Every plain step or turn the agent judges without a preview (`plain_move_score`) scores, over
    seeded bouts of two and four helots (heuristic and random play, hazards and blood about), what
    its preview scores; and many are judged so."""
    ruleset = cached_ruleset(("base",))
    plain = plain_moves(ruleset)
    assert plain == {"move_forward", "move_backward", "move_left", "move_right", "rotate"}
    judged = footing = 0
    for seed in range(1, 17):  # the default barge, then random ones (guts and blood about)
        setup = standard_setup(2 if seed % 2 else 4, layout="random" if seed > 8 else None)
        kind = "heuristic" if seed % 4 in (1, 2) else "random"
        bout = Bout(ruleset, setup, seed=seed)
        agents = {spec.label: make_agent(kind, seed=seed * 31 + i) for i, spec in enumerate(setup.pieces)}
        while bout.pending is not None and bout.state.cycle <= 12:
            decision = bout.pending
            state = bout.state
            if decision.kind == "command" and calm_board(state):
                me = state.pieces[decision.actor]
                foe = nearest_foe(state, me)
                steps = steps_to(state, foe.square, ruleset.object_flags) if foe is not None else None
                for option in decision.options:
                    if option.actor != me.label or option.name not in plain:
                        continue
                    known = plain_move_score(state, me, option, steps, ruleset.object_flags)
                    if known is None:
                        continue
                    after = bout.preview(option)
                    assert known == _position_score(after, after.pieces[me.label], None, steps), (seed, option)
                    judged += 1
                    footing += bool(state.objects_at(after.pieces[me.label].square))
            bout.apply(next_action(bout, agents))
    assert judged > 2000 and footing > 30, (judged, footing)


def test_only_a_step_that_sets_nothing_off_is_plain():
    """A step declared with a cost in points is plain; one that rolls, or costs condition (damage,
    with its events), or does more, is previewed."""
    expected = {d.id: d for d in parse(PLAIN_MOVES_SOURCE).declarations}["move_left"]

    def declared(clauses: str) -> bool:
        source = 'command move_left "Move Left" {\n    group movement\n' + clauses + '\n}\n'
        return _plain_declaration(parse(source).declarations[0], expected)

    assert declared("    cost 2 MP\n    effect {\n        move self left\n    }")
    assert not declared("    cost 1 MP, 1 overall\n    effect {\n        move self left\n    }")
    assert not declared("    cost 1 MP\n    roll check 4+\n    effect {\n        move self left\n    }")
    assert not declared("    cost 2 MP\n    effect {\n        move self left\n        move self left\n    }")


def test_a_quiet_listener_declared_anew_by_another_pack_makes_every_move_previewed():
    """A pack layered on the base one that declares one of its quiet listeners anew (same id) may
    make it act otherwise: no step or turn is judged without its preview then."""
    ruleset = cached_ruleset(("base",))
    item = ruleset.scripts["rule"]["slippery_blood"]
    scripts = {kind: dict(items) for kind, items in ruleset.scripts.items()}
    scripts["rule"]["slippery_blood"] = dataclasses.replace(item, origin=dataclasses.replace(item.origin, pack="house"))
    assert plain_moves(ruleset)
    assert plain_moves(dataclasses.replace(ruleset, scripts=scripts)) == frozenset()


def test_trait_raises_judged_from_the_board_gain_as_their_previews():
    """Every trait raise (`trait_raises`) the agent can judge without a preview gains, over seeded
    bouts of two and four helots on random barges (heuristic and random play), what its preview
    gains by `standing` (to the rounding of its sums), and leaves no mark: so one worked out to fall
    short of `WORTH_PLAYING` is declined as its preview would have it. Many are judged so."""
    ruleset = cached_ruleset(("base",))
    motivations = [item["id"] for item in ruleset.data_items("motivations")]
    lanistas = [item["id"] for item in ruleset.data_items("lanistas")]
    judged: dict[int, int] = {2: 0, 4: 0}
    short = capped = 0
    for seed in range(1, 25):
        players = 4 if seed % 2 else 2
        draw = random.Random(seed)
        setup = standard_setup(players, roles=[draw.choice(motivations) for _ in range(players)],
                               profiles=[draw.choice(lanistas) for _ in range(players)], layout="random")
        kind = "heuristic" if seed % 3 else "random"
        bout = Bout(ruleset, setup, seed=seed)
        agents = {spec.label: make_agent(kind, seed=seed * 31 + i) for i, spec in enumerate(setup.pieces)}
        first = judged[players]
        while bout.pending is not None and judged[players] - first < 600:
            state = bout.state
            for option in bout.pending.options:
                if option.kind not in (ABILITY, CARD):
                    continue
                declaration = usable_declaration(ruleset, option.kind, option.name or "")
                raises = trait_raises(ruleset, declaration) if declaration is not None else ()
                me = state.pieces[option.actor]
                gain = trait_raise_gain(ruleset, me, option, raises) if raises else None
                if gain is None:
                    continue
                after = bout.preview(option)
                previewed = standing(after, after.pieces[me.label]) - standing(state, me)
                assert abs(previewed - gain) < 1e-9, (seed, option, previewed, gain)
                assert not _new_marks(state, after), (seed, option)
                judged[players] += 1
                short += gain < WORTH_PLAYING - SURE_MARGIN
                capped += gain < 0.0  # the cap cut the raise
            bout.apply(next_action(bout, agents))
    assert judged[2] >= 1000 and judged[4] >= 1000 and short >= 2000 and capped >= 50, (judged, short, capped)


def test_only_a_use_that_raises_its_users_traits_and_does_nothing_else_is_a_trait_raise():
    """The base box's tonic is a trait raise, by its param; a use that costs, rolls, listens, does
    more, raises another's traits, or whose amount is a name its scope binds otherwise is not."""
    ruleset = cached_ruleset(("base",))
    tonic = ruleset.declaration("influence", "meat_garden_tonic")
    assert tonic is not None and trait_raises(ruleset, tonic) == (("trait", 2),)

    def raises(clauses: str) -> tuple:
        source = 'influence tonic "Tonic" {\n    arg trait: trait\n    window any_time\n' + clauses + '\n}\n'
        return trait_raises(ruleset, parse(source).declarations[0])

    assert raises("    param boost = 3\n    effect {\n        add_trait self trait by boost\n    }") == (("trait", 3),)
    assert raises("    effect {\n        add_trait self trait by 1\n        add_trait self trait by 2\n    }") == (
        ("trait", 1), ("trait", 2))
    assert not raises("    cost 1 AP\n    effect {\n        add_trait self trait by 2\n    }")
    assert not raises("    roll check 4+\n    effect {\n        add_trait self trait by 2\n    }")
    assert not raises("    effect {\n        add_trait self trait by 2\n        mark self \"tonic\"\n    }")
    assert not raises("    arg target: piece\n    effect {\n        add_trait target trait by 2\n    }")
    assert not raises("    param trait_cap = 2\n    arg boost: number\n    effect {\n"
                      "        add_trait self trait by boost\n    }")
    assert not raises("    when piece_moved {\n        add_trait self trait by 2\n    }\n"
                      "    effect {\n        add_trait self trait by 2\n    }")


def _standing_by_lists(state, me):
    """`standing` as first written: the others' worths listed, the best taken by `max`."""
    def worth(helot):
        value = (state.player_of(helot).piles.get("cred", 0) + 0.6 * helot.overall
                 + sum(STATE_WORTH.get(s, 0) for s in helot.states))
        value += 1.5 * helot.ap + 0.8 * helot.mp + 0.3 * sum(helot.traits.values()) + 0.5 * len(helot.hand)
        if helot.status != Status.FIGHTING:
            value -= 40
        return value

    rival = max((worth(h) for h in state.pieces.values() if h.label != me.label), default=0.0)
    return worth(me) - rival + 0.05 * position_score(state, me)


def test_standing_is_the_sum_first_written_to_the_last_bit():
    """`standing`, worked out in one pass over the pieces, is the very float the listed form gives,
    for every piece at every decision of seeded bouts of two and four helots."""
    ruleset = cached_ruleset(("base",))
    compared = 0
    for seed in range(1, 5):
        setup = standard_setup(2 if seed % 2 else 4, layout="random")
        bout = Bout(ruleset, setup, seed=seed)
        agents = {spec.label: make_agent("heuristic", seed=seed * 31 + i) for i, spec in enumerate(setup.pieces)}
        while bout.pending is not None and bout.state.cycle <= 8:
            state = bout.state
            for me in state.pieces.values():
                assert standing(state, me).hex() == _standing_by_lists(state, me).hex(), seed
                compared += 1
            bout.apply(next_action(bout, agents))
    assert compared > 500
