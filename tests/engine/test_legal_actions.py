"""Perft-style counts: the legal actions in fixed positions are a regression check on legality."""

from __future__ import annotations

from nexus_dsl import Bout, BoutSetup, PieceSetup, cached_ruleset
from nexus_dsl.engine.board import Direction, Square


def mid_round(red_at, red_facing, blue_at, blue_facing, ap, mp, objects=()):
    setup = BoutSetup(
        pieces=[PieceSetup("red", "south", Square(*red_at), red_facing, ap=ap, mp=mp),
                PieceSetup("blue", "north", Square(*blue_at), blue_facing)],
        objects=[(t, Square(*sq)) for t, sq in objects], phase="command", active="red",
    )
    return Bout(cached_ruleset(("base",)), setup, seed=0)


def names(bout: Bout) -> list[str]:
    return sorted(a.describe() for a in bout.legal_actions())


def test_face_to_face_with_ap_and_mp():
    bout = mid_round((4, 5), Direction.N, (4, 4), Direction.S, ap=3, mp=3)
    actions = names(bout)
    # 7 focused locations + standard + wild + grapple + feint + end_round (a combo needs 4 AP); moves:
    # forward blocked, 2 side-slips, 3 steps back/left/right, 2 rotations, backflip, 2 sidesteps.
    assert len([a for a in actions if a.startswith("focused_attack")]) == 7
    assert "standard_attack target=blue" in actions and "wild_attack target=blue" in actions
    assert "grapple target=blue" in actions and "feint target=blue" in actions
    assert "move_forward direction=forward" not in actions
    assert len(actions) == 7 + 2 + 2 + 1 + 2 + 3 + 2 + 3


def test_in_a_corner_the_walls_block():
    bout = mid_round((1, 8), Direction.N, (8, 1), Direction.S, ap=0, mp=2)
    # backward, left and forward-left would step into the wall (so would a backflip or a sidestep left)
    assert names(bout) == sorted([
        "end_round", "move_forward direction=forward", "move_forward direction=forward_right", "move_right",
        "rotate direction=left", "rotate direction=right", "sidestep direction=right",
    ])


def test_pillars_block_movement():
    bout = mid_round((4, 5), Direction.N, (8, 1), Direction.S, ap=0, mp=1, objects=[("pillar", (4, 4)), ("pillar", (3, 4))])
    moves = [a for a in names(bout) if a.startswith("move_forward")]
    assert moves == ["move_forward direction=forward_right"]


def test_attacks_need_position_and_ap():
    bout = mid_round((4, 5), Direction.N, (5, 4), Direction.S, ap=1, mp=0)
    # diagonal: wild attack only (front arc), standard and focused need the front-centre square
    assert names(bout) == ["end_round", "wild_attack target=blue"]


def test_fast_enumeration_agrees_with_the_full_check_of_every_combination():
    """`legal_commands` asks argument-free requirements once per command; its verdicts must be the
    ones `command_problem` gives each combination, at every decision of real bouts."""
    from nexus_dsl.agents import make_agent
    from nexus_dsl.engine.actions import COMMAND
    from nexus_dsl.engine.bout import next_action
    from nexus_dsl.engine.setup import standard_setup

    ruleset = cached_ruleset(("base",))
    compared = 0
    for seed in (1, 2, 3):
        bout = Bout(ruleset, standard_setup(players=2), seed=seed)
        agents = {label: make_agent("heuristic", seed=seed + i) for i, label in enumerate(("red", "blue"))}
        while bout.pending is not None:
            decision = bout.pending
            if decision.kind == "command":
                helot = bout.state.pieces[decision.actor]
                brute = {action for declaration in ruleset.declarations("command")
                         for action in bout.legality.enumerate_actions(
                             COMMAND, helot, declaration, lambda a, d=declaration: bout.legality.command_problem(helot, d, a))}
                assert set(bout.legality.legal_commands(helot)) == brute
                compared += 1
            bout.apply(next_action(bout, agents))
    assert compared > 50


def test_a_direction_argument_is_offered_every_compass_direction(tmp_path):
    """`arg x: direction` takes the eight compass directions (IDS.md), so content may ask for one."""
    from nexus_dsl.content.loader import load_ruleset

    pack = tmp_path / "signal_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: signal_pack\nname: Signal\nversion: 1.0.0\nkind: house_rules\nbuilds_on: [base]\n")
    (pack / "signal.nexus").write_text(
        'command point_the_way "Point the Way" {\n'
        '    group fame\n'
        '    text "Point in any compass direction."\n'
        '    arg way: direction\n'
        '    cost 1 AP\n'
        '    requires way != N else "not north"\n'
        '    effect {\n'
        '        mark self "pointed" with way\n'
        '    }\n'
        '}\n')
    ruleset = load_ruleset(["base", str(pack)])
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=1),
                              PieceSetup("blue", "north", Square(4, 2), Direction.S)], phase="command", active="red")
    bout = Bout(ruleset, setup, seed=0)
    offered = [a.arg("way") for a in bout.legality.legal_commands(bout.state.pieces["red"]) if a.name == "point_the_way"]
    assert offered == ["NE", "E", "SE", "S", "SW", "W", "NW"]


def command_decisions(ruleset, seeds):
    """Each command decision of heuristic bouts, `seeds` (players, seed) each, as (bout, the piece
    deciding): the caller compares what it likes there; the bout then goes on with the agent's choice."""
    from nexus_dsl.agents import make_agent
    from nexus_dsl.engine.bout import next_action
    from nexus_dsl.engine.setup import standard_setup

    for players, seed in seeds:
        bout = Bout(ruleset, standard_setup(players=players), seed=seed)
        labels = [spec.label for spec in bout.setup.pieces]
        agents = {label: make_agent("heuristic", seed=seed + i) for i, label in enumerate(labels)}
        while bout.pending is not None:
            decision = bout.pending
            if decision.kind == "command":
                yield bout, bout.state.pieces[decision.actor]
            bout.apply(next_action(bout, agents))


def test_fast_uses_agree_with_the_full_check_of_every_combination():
    """`Legality.legal_uses` reads written costs as written, asks a requirement that reads nothing a
    use varies in once per use, and one that reads only `self` once per piece and decision; the
    abilities, cards and controls it offers, in their order, must be those `ability_problem` and
    `control_problem` find legal among every combination, at every decision of real bouts."""
    from nexus_dsl.engine.actions import CONTROL
    from nexus_dsl.engine.timing import uses_by_window
    from nexus_dsl.model.game import offered_as_control

    ruleset = cached_ruleset(("base",))
    by_window = uses_by_window(ruleset)

    def every_use(bout: Bout, piece, window: str) -> list:
        legality, active = bout.legality, bout.state.active_piece
        if not piece.on_board or piece.status.value == "dead":
            return []
        found = []
        for plan in by_window[window].plans:
            declaration = plan.declaration
            if not legality.owns_ability(piece, declaration):
                continue
            if plan.role == "self" and piece != active or plan.role == "opponent" and not piece.foe_of(active):
                continue
            found += [action for action in legality.combinations(plan.kind, piece, declaration)
                      if bout.timing.ability_problem(piece, declaration, action, {}) is None]
        return found

    compared = offered = 0
    for bout, piece in command_decisions(ruleset, ((2, 1), (2, 2), (4, 3))):
        expected = every_use(bout, piece, "own_round")
        for other in bout.state.clockwise_from(piece.label):
            expected += every_use(bout, other, "any_time")
        assert bout.timing.instant_options(piece) == expected
        controls = [action for declaration in ruleset.declarations("command") if offered_as_control(declaration)
                    for action in bout.legality.combinations(CONTROL, piece, declaration)
                    if bout.legality.control_problem(piece, declaration, action) is None]
        assert bout.legality.legal_controls(piece) == controls
        compared += 1
        offered += len(expected)
    assert compared > 50 and offered > 50


def test_a_rule_answered_in_advance_for_some_commands_still_binds_the_others():
    """A rule's requirement whose part reading the command is answered once per command (entangled
    pieces may not move, but may attack) asks its other part once per decision for all of them: the
    moves it forbids are not offered, the attacks are, as `command_problem` says of each one."""
    from nexus_dsl.engine.actions import COMMAND

    bout = mid_round((4, 5), Direction.N, (4, 4), Direction.S, ap=3, mp=3)
    red = bout.state.pieces["red"]
    before = {action.name for action in bout.legality.legal_commands(red)}
    red.marks["entangled"] = True
    offered = bout.legality.legal_commands(red)
    brute = {action for declaration in bout.ruleset.declarations("command")
             for action in bout.legality.enumerate_actions(
                 COMMAND, red, declaration, lambda a, d=declaration: bout.legality.command_problem(red, d, a))}
    assert set(offered) == brute
    names_offered = {action.name for action in offered}
    assert {"move_backward", "sidestep", "backflip"} <= before and not names_offered & {"move_backward", "sidestep", "backflip"}
    assert {"standard_attack", "rotate", "cut_free"} <= names_offered


def test_what_legality_keeps_between_decisions_is_what_it_works_out_afresh():
    """Legality keeps what it works out once: each declaration's costs read from its text (per
    ruleset), every action it has offered (per ruleset, so shared by the bouts played with it), the
    combinations of the uses that target no one and the verdicts of use requirements that read only
    their arguments' values (per bout). At every decision of seeded bouts, the commands, controls,
    uses and costs it finds with them are those a legality keeping nothing finds, in the same order,
    and an action offered again is the one made the first time."""
    from nexus_dsl.engine.legality import Legality
    from nexus_dsl.engine.scope import Env
    from nexus_dsl.syntax import ast_nodes as A

    ruleset = cached_ruleset(("base",))
    costed = [declaration for kind in ("command", "trait_ability") for declaration in ruleset.declarations(kind)
              if declaration.clauses_of(A.Cost)]
    compared = 0
    first_made: dict = {}
    for bout, piece in command_decisions(ruleset, ((2, 11), (2, 12), (4, 13))):
        afresh = Legality(bout)
        afresh.wire()
        afresh._actions, afresh._cost_plans, afresh._offered = {}, {}, {}
        kept = bout.legality.legal_commands(piece) + bout.legality.legal_controls(piece)
        assert kept == afresh.legal_commands(piece) + afresh.legal_controls(piece)
        uses = bout.timing.instant_options(piece)
        keeping, bout.legality = bout.legality, afresh  # the uses as a legality keeping nothing finds them
        bout.timing.wire()  # (timing keeps the bout's legality at hand)
        try:
            assert bout.timing.instant_options(piece) == uses
        finally:
            bout.legality = keeping
            bout.timing.wire()
        kept += uses
        for action in kept:
            assert first_made.setdefault(action, action) is action
        env = Env({"self": piece})
        for declaration in costed:
            try:
                expected = afresh.cost_items(piece, declaration, env)
            except Exception as fault:  # a cost reading an argument, unbound here: the same fault
                try:
                    bout.legality.cost_items(piece, declaration, env)
                except Exception as again:
                    assert str(again) == str(fault)
                else:
                    raise AssertionError(declaration.id)
            else:
                assert bout.legality.cost_items(piece, declaration, env) == expected
        compared += 1
    assert compared > 50 and first_made


def test_a_part_worked_out_once_for_every_target_gives_each_target_its_verdict():
    """A command's own `target in <part>` whose part names no target works the part out once per
    decision for every target (`TargetMembership`): at every command decision of seeded bouts of 4
    players (three targets), the commands offered, in their order, are those `command_problem` finds
    legal among every combination."""
    from nexus_dsl.engine.legality_plans import TargetMembership
    from nexus_dsl.syntax import ast_nodes as A
    from nexus_dsl.syntax.parser import parse_declaration

    ruleset = cached_ruleset(("base",))
    hoisted = {id(entry.declaration) for questions in ruleset.derived("command_questions").values()
               for entry in questions.entries for _, check in entry.per_target if check.hoisted is not None}
    compared = targeted = 0
    for bout, piece in command_decisions(ruleset, ((4, 3), (4, 21))):
        offered = bout.legality.legal_commands(piece)
        assert offered == _brute_commands(bout, piece)
        compared += 1
        targeted += sum(1 for action in offered if id(ruleset.declaration("command", action.name)) in hoisted)
    assert compared > 50 and targeted > 10
    conditions = [requirement.condition for requirement in parse_declaration(HOISTED).clauses_of(A.Requires)]
    assert [TargetMembership.of(condition) is not None for condition in conditions] == [True, True, False, False]


HOISTED = '''
command c "C" {
    targets opponent
    requires target in front_arc(self)
    requires target not in adjacent(self)
    requires target in adjacent(target)
    requires self in front_arc(target)
    effect {
        log "c"
    }
}
'''


def test_combinations_of_the_content_s_domains_are_shared_by_every_bout_of_the_ruleset():
    """The combinations of the arguments of a command whose every domain is the content's are
    worked out once per ruleset and limit on options: another bout finds the very list, the product
    of the domains as it would work them out itself; one whose domain is the board's squares is
    worked out by each bout; a bout with a lower limit on options still refuses them."""
    import itertools

    import pytest

    from nexus_dsl.engine.interpreter import Limits
    from nexus_dsl.engine.setup import standard_setup
    from nexus_dsl.errors import ScriptRuntimeError

    ruleset = cached_ruleset(("base",))
    rotate, throw = ruleset.declaration("command", "rotate"), ruleset.declaration("command", "throw")
    bouts = [Bout(ruleset, standard_setup(players=2), seed=seed) for seed in (5, 6)]
    found = [bout.legality._command_combinations(next(iter(bout.state.pieces.values())), declaration, False, {})
             for bout in bouts for declaration in (rotate, throw)]
    (_, names, rotations), (_, _, throws), (_, _, again), (_, _, thrown_again) = found
    assert again is rotations and rotations == list(itertools.product(["left", "right"])) and names == ("direction",)
    assert thrown_again is not throws and thrown_again == throws
    assert Bout(ruleset, standard_setup(players=2), seed=7).legality._content_combinations(rotate) is not None
    limited = Bout(ruleset, standard_setup(players=2), seed=7, limits=Limits(max_options=1))
    assert limited.legality._content_combinations(rotate) is None
    with pytest.raises(ScriptRuntimeError, match="too_many_options|combinations"):
        limited.legality._command_combinations(next(iter(limited.state.pieces.values())), rotate, False, {})


def _brute_commands(bout: Bout, piece) -> list:
    """Every command combination `command_problem` finds nothing against, in the order listed."""
    from nexus_dsl.engine.actions import COMMAND

    return [action for declaration in bout.ruleset.declarations("command")
            for action in bout.legality.enumerate_actions(
                COMMAND, piece, declaration, lambda a, d=declaration: bout.legality.command_problem(piece, d, a))]


PACING = '''
command pace "Pace" {
    group fame
    text "A cost worked out from its argument alone."
    arg steps: number 1..4
    cost 2 + steps AP
    effect {
        log "paced"
    }
}
'''

LURCHING = '''
command lurch "Lurch" {
    group fame
    text "A cost worked out from its argument alone, that faults for one of its values."
    arg steps: number 1..3
    cost 6 / (steps - 2) AP
    effect {
        log "lurched"
    }
}
'''


def _with_pack(tmp_path, source: str):
    from nexus_dsl.content.loader import load_ruleset

    pack = tmp_path / "pacing_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: pacing_pack\nname: Pacing\nversion: 1.0.0\nkind: house_rules\nbuilds_on: [base]\n")
    (pack / "pacing.nexus").write_text(source)
    return load_ruleset(["base", str(pack)])


def test_costs_read_from_the_arguments_alone_are_kept_and_still_met_afresh(tmp_path):
    """A cost that reads only its command's arguments is worked out once per bout for each of their
    values (`CommandSlot.amounts`): at every AP the piece has, the bout's legality keeping them
    offers what `command_problem` allows, as a legality keeping nothing does."""
    from nexus_dsl.engine.legality import Legality

    ruleset = _with_pack(tmp_path, PACING)
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=0),
                              PieceSetup("blue", "north", Square(4, 2), Direction.S)], phase="command", active="red")
    bout = Bout(ruleset, setup, seed=0)
    red = bout.state.pieces["red"]
    for ap in (6, 0, 3, 5, 4, 7, 2):
        red.ap = ap
        kept = bout.legality.legal_commands(red)
        assert kept == _brute_commands(bout, red)
        afresh = Legality(bout)
        afresh.wire()
        assert kept == afresh.legal_commands(red)
        assert [a.arg("steps") for a in kept if a.name == "pace"] == list(range(1, min(ap - 2, 4) + 1))


def test_a_cost_read_from_the_arguments_faults_at_every_decision_alike(tmp_path):
    """Nothing of a cost is kept until every amount is worked out: a value it faults for faults
    again at the next decision, with the same words."""
    import pytest

    from nexus_dsl.errors import ScriptRuntimeError

    ruleset = _with_pack(tmp_path, LURCHING)
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=9),
                              PieceSetup("blue", "north", Square(4, 2), Direction.S)], phase="command", active="red")
    bout = Bout(ruleset, setup, seed=0)
    red = bout.state.pieces["red"]
    faults = []
    for _ in range(2):
        with pytest.raises(ScriptRuntimeError) as fault:
            bout.legality.legal_commands(red)
        faults.append(str(fault.value))
    assert faults[0] == faults[1] and "lurch" in faults[0]


def test_written_costs_against_a_target_granting_ap_are_met_per_target():
    """AP granted against a target counts towards written AP costs given against it alone: the
    commands listed are those `command_problem` allows, whatever the AP the piece has."""
    bout = mid_round((4, 5), Direction.N, (4, 4), Direction.S, ap=0, mp=2)
    red = bout.state.pieces["red"]
    red.bonus_ap["blue"] = 2
    for ap in (0, 1, 2, 3):
        red.ap = ap
        offered = bout.legality.legal_commands(red)
        assert offered == _brute_commands(bout, red)
    assert any(action.name == "standard_attack" for action in offered)


STUMBLING = '''
command stumble "Stumble" {
    group fame
    text "A cost the script works out, and a requirement that faults at 3 AP."
    cost self.mp AP
    requires 6 / (self.ap - 3) != 0
    effect {
        log "stumbled"
    }
}
'''


def test_requirements_asked_before_a_worked_out_cost_fault_only_where_the_cost_is_met(tmp_path):
    """A command whose cost the script works out has its argument-free requirements asked before
    its cost (`Legality._refused_before_filter`): a requirement's fault counts only where the piece
    can afford the command, as when the cost was asked first; elsewhere the commands offered are
    those `command_problem` allows."""
    import pytest

    from nexus_dsl.errors import ScriptRuntimeError

    ruleset = _with_pack(tmp_path, STUMBLING)
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=0),
                              PieceSetup("blue", "north", Square(4, 2), Direction.S)], phase="command", active="red")
    bout = Bout(ruleset, setup, seed=0)
    red = bout.state.pieces["red"]
    for ap, mp in ((3, 5), (5, 0), (3, 9), (4, 1), (2, 2)):
        red.ap, red.mp = ap, mp
        offered = bout.legality.legal_commands(red)
        assert offered == _brute_commands(bout, red)
        assert any(action.name == "stumble" for action in offered) == (ap >= mp)
    red.ap, red.mp = 3, 0
    with pytest.raises(ScriptRuntimeError) as kept:
        bout.legality.legal_commands(red)
    with pytest.raises(ScriptRuntimeError) as asked:
        _brute_commands(bout, red)
    assert str(kept.value) == str(asked.value) and "stumble" in str(kept.value)
