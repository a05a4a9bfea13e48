"""Unit tests of the parser: each construct parses to the expected syntax tree."""

from __future__ import annotations

import pytest

from nexus_dsl.errors import SyntaxLayerError
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.syntax.parser import parse, parse_declaration

N = A.Name


def num(value: int) -> A.Num:
    return A.Num(value=value)


def clauses_of(body: str, kind: str = "command") -> tuple:
    return parse_declaration(f'{kind} c "C" {{\n{body}\n}}\n').clauses


def one_clause(body: str, kind: str = "command") -> A.Clause:
    (clause,) = clauses_of(body, kind)
    return clause


def statements_of(body: str) -> tuple:
    (effect,) = clauses_of("    effect {\n" + body + "\n    }")
    assert isinstance(effect, A.Effect)
    return effect.body.statements


def one_statement(body: str) -> A.Stmt:
    (stmt,) = statements_of(body)
    return stmt


def e(source: str) -> A.Expr:
    """A lone expression, parsed as the value of a rule's param."""
    param = parse(f'rule expression "E" {{ param value = {source} }}').declarations[0].clauses[0]
    assert isinstance(param, A.Param)
    return param.value


# ---------------------------------------------------------------- files and declarations
def test_an_empty_file_has_no_declarations() -> None:
    assert parse("").declarations == ()
    assert parse("# only a comment\n\n").declarations == ()


@pytest.mark.parametrize("kind", A.DECLARATION_KINDS)
def test_every_declaration_kind(kind: str) -> None:
    declaration = parse_declaration(f'{kind} some_id "Some Name" {{}}')
    assert declaration == A.Declaration(kind=kind, id="some_id", name="Some Name", clauses=())


def test_a_file_holds_several_declarations_and_remembers_its_name() -> None:
    module = parse('command a "A" {}\n\nrule b "B" {\n    param x = 1\n}\nhazard c "C" {}', "pack/x.nexus")
    assert [(d.kind, d.id) for d in module.declarations] == [("command", "a"), ("rule", "b"), ("hazard", "c")]
    assert module.file == "pack/x.nexus"
    assert all(d.pos.file == "pack/x.nexus" for d in module.declarations)


def test_comments_are_ignored_everywhere() -> None:
    text = """# a file comment
command mend "Mend" {  # after the header
    # a whole-line comment
    cost 2 AP  # after a clause
    effect {
        remove_state self bleeding  # after a statement
    }
}
"""
    declaration = parse_declaration(text)
    assert declaration.clauses == (
        A.Cost(items=(A.CostItem(amount=num(2), resource="AP"),)),
        A.Effect(body=A.Block(statements=(A.Action(verb="remove_state", args=(N(id="self"), N(id="bleeding"))),))),
    )


def test_a_hash_inside_text_is_not_a_comment() -> None:
    assert one_clause('    text "Rule #1: no biting"') == A.Property(name="text", values=(A.Str(value="Rule #1: no biting"),))


def test_keywords_are_case_sensitive_so_capitalised_keywords_are_names() -> None:
    assert e("Command + Rule") == A.Binary(op="+", left=N(id="Command"), right=N(id="Rule"))


# ---------------------------------------------------------------- clauses
def test_property_with_one_and_with_several_values() -> None:
    assert clauses_of("    group melee\n    tags attack, wild\n    damage 4") == (
        A.Property(name="group", values=(N(id="melee"),)),
        A.Property(name="tags", values=(N(id="attack"), N(id="wild"))),
        A.Property(name="damage", values=(num(4),)),
    )


def test_cost_with_several_items() -> None:
    assert one_clause("    cost 1 AP, 1 overall") == A.Cost(items=(
        A.CostItem(amount=num(1), resource="AP"),
        A.CostItem(amount=num(1), resource="overall"),
    ))


def test_cost_amount_may_be_an_expression() -> None:
    assert one_clause("    cost base_cost + 1 MP") == A.Cost(items=(
        A.CostItem(amount=A.Binary(op="+", left=N(id="base_cost"), right=num(1)), resource="MP"),
    ))


def test_requires_with_and_without_a_message() -> None:
    assert clauses_of('    requires self is prone\n    requires target in front_center(self) else "not in front"') == (
        A.Requires(condition=A.Compare(op="is", left=N(id="self"), right=N(id="prone"))),
        A.Requires(
            condition=A.Compare(op="in", left=N(id="target"), right=A.Call(func="front_center", args=(N(id="self"),))),
            message="not in front",
        ),
    )


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("roll attack SD vs defense", A.OpposedRoll(level=A.ScaleLevel(level=0), against="defense")),
        ("roll attack -SDS vs defense", A.OpposedRoll(level=A.ScaleLevel(level=-1), against="defense")),
        ("roll attack +2SDS vs defense", A.OpposedRoll(level=A.ScaleLevel(level=2), against="defense")),
        ("roll attack -3SDS vs defense", A.OpposedRoll(level=A.ScaleLevel(level=-3), against="defense")),
        ("roll attack bonus + 1 vs defense",
         A.OpposedRoll(level=A.Binary(op="+", left=N(id="bonus"), right=num(1)), against="defense")),
        ("roll check 4+", A.ThresholdRoll(target=4)),
        ("roll check 12+", A.ThresholdRoll(target=12)),
        ("roll check automatic", A.AutomaticRoll()),
    ],
)
def test_roll_specs(text: str, spec: A.RollSpec) -> None:
    roll = one_clause("    " + text)
    assert isinstance(roll, A.Roll)
    assert roll.kind == text.split()[1]
    assert roll.spec == spec


def test_on_success_and_on_failure() -> None:
    body = "    roll check 4+\n    on success {\n        remove_state self prone\n    }\n    on failure {}"
    _, success, failure = clauses_of(body)
    assert success == A.On(outcome="success", body=A.Block(statements=(
        A.Action(verb="remove_state", args=(N(id="self"), N(id="prone"))),)))
    assert failure == A.On(outcome="failure", body=A.Block())


def test_effect_clause() -> None:
    assert one_clause("    effect {\n        add_damage 4\n    }", "trait_ability") == A.Effect(
        body=A.Block(statements=(A.Action(verb="add_damage", args=(num(4),)),)))


def test_when_with_and_without_a_condition() -> None:
    when_plain, when_if = clauses_of(
        "    when round_starts {\n        log \"hi\"\n    }\n    when dice_rolled if doubles {\n        log \"x\"\n    }", "rule")
    assert when_plain == A.When(event="round_starts", condition=None,
                                body=A.Block(statements=(A.Action(verb="log", args=(A.Str(value="hi"),)),)))
    assert when_if.event == "dice_rolled"
    assert when_if.condition == N(id="doubles")


def test_when_if_none_is_a_condition_not_a_missing_one() -> None:
    when = one_clause("    when bout_starts if none {}", "rule")
    assert when == A.When(event="bout_starts", condition=A.NoneLit(), body=A.Block())


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("window any_time", A.Window(name="any_time")),
        ("window after_attack_succeeds by self", A.Window(name="after_attack_succeeds", by="self")),
        ("window before_damage by opponent", A.Window(name="before_damage", by="opponent")),
    ],
)
def test_window_clause(text: str, window: A.Window) -> None:
    assert one_clause("    " + text, "trait_ability") == window


def test_param_clause() -> None:
    assert clauses_of("    param sds_cap = 3\n    param fatal_locations = [head, chest]\n    param penalty = -2", "rule") == (
        A.Param(name="sds_cap", value=num(3)),
        A.Param(name="fatal_locations", value=A.ListLit(items=(N(id="head"), N(id="chest")))),
        A.Param(name="penalty", value=A.Neg(operand=num(2))),
    )


@pytest.mark.parametrize(
    ("text", "arg_type"),
    [
        ("arg location: location", A.NamedType(name="location")),
        ("arg direction: {forward, forward_left, forward_right}",
         A.ChoiceType(options=("forward", "forward_left", "forward_right"))),
        ("arg side: {left}", A.ChoiceType(options=("left",))),
        ("arg squares: number 1..3", A.RangeType(name="number", low=1, high=3)),
        ("arg squares: number 0 .. 12", A.RangeType(name="number", low=0, high=12)),
    ],
)
def test_arg_types(text: str, arg_type: A.ArgType) -> None:
    arg = one_clause("    " + text)
    assert arg == A.Arg(name=text.split()[1].rstrip(":"), type=arg_type)


def test_choice_options_may_span_lines() -> None:
    arg = one_clause("    arg direction: {\n        forward,\n        forward_left\n    }")
    assert arg == A.Arg(name="direction", type=A.ChoiceType(options=("forward", "forward_left")))


# ---------------------------------------------------------------- statements
def test_let() -> None:
    assert one_statement("let owed = self.ap + self.mp") == A.Let(
        name="owed",
        value=A.Binary(op="+", left=A.Attr(obj=N(id="self"), name="ap"), right=A.Attr(obj=N(id="self"), name="mp")),
    )


def test_if_elif_else() -> None:
    stmt = one_statement("if a {\n log \"a\"\n} elif b {\n log \"b\"\n} elif c {} else {\n log \"z\"\n}")
    assert isinstance(stmt, A.If)
    assert [b.condition for b in stmt.branches] == [N(id="a"), N(id="b"), N(id="c")]
    assert stmt.branches[2].body == A.Block()
    assert stmt.otherwise == A.Block(statements=(A.Action(verb="log", args=(A.Str(value="z"),)),))


def test_if_without_else_has_no_otherwise_and_empty_else_is_an_empty_block() -> None:
    assert one_statement("if a {}").otherwise is None
    assert one_statement("if a {} else {}").otherwise == A.Block()


def test_for_each() -> None:
    assert one_statement("for each h in opponents(self) {\n    transfer 1 from h to crowd\n}") == A.ForEach(
        var="h",
        iterable=A.Call(func="opponents", args=(N(id="self"),)),
        body=A.Block(statements=(A.Action(verb="transfer", args=(num(1),), preps=(
            A.PrepArg(prep="from", value=N(id="h")), A.PrepArg(prep="to", value=N(id="crowd")))),)),
    )


def test_for_each_iterable_may_itself_use_in() -> None:
    stmt = one_statement("for each x in a in b {}")
    assert stmt == A.ForEach(var="x", iterable=A.Compare(op="in", left=N(id="a"), right=N(id="b")), body=A.Block())


def test_repeat() -> None:
    assert one_statement("repeat 2 {\n    rotate target right\n}") == A.Repeat(
        count=num(2), body=A.Block(statements=(A.Action(verb="rotate", args=(N(id="target"), N(id="right"))),)))


def test_action_with_positional_and_preposition_arguments() -> None:
    assert one_statement("damage target by margin + damage_bonus at random_location() to crowd") == A.Action(
        verb="damage",
        args=(N(id="target"),),
        preps=(
            A.PrepArg(prep="by", value=A.Binary(op="+", left=N(id="margin"), right=N(id="damage_bonus"))),
            A.PrepArg(prep="at", value=A.Call(func="random_location")),
            A.PrepArg(prep="to", value=N(id="crowd")),
        ),
    )


def test_every_preposition() -> None:
    stmt = one_statement("act by 1 to 2 from 3 at 4 into 5 with 6")
    assert [p.prep for p in stmt.preps] == ["by", "to", "from", "at", "into", "with"]
    assert stmt.prep("into") == num(5)
    assert stmt.prep("over") is None


def test_action_positional_arguments_are_simple_values() -> None:
    stmt = one_statement('act x 3 "t" -SDS SD true false none f(1, k: 2) self.square table[die(location) - 1].x')
    assert stmt.args == (
        N(id="x"), num(3), A.Str(value="t"), A.ScaleLevel(level=-1), A.ScaleLevel(level=0), A.Bool(value=True),
        A.Bool(value=False), A.NoneLit(),
        A.Call(func="f", args=(num(1),), kwargs=(A.KeywordArg(name="k", value=num(2)),)),
        A.Attr(obj=N(id="self"), name="square"),
        A.Attr(obj=A.Index(obj=N(id="table"), index=A.Binary(
            op="-", left=A.Call(func="die", args=(N(id="location"),)), right=num(1))), name="x"),
    )


@pytest.mark.parametrize("text", ["act (x)", "act [x]", "act -x", "act x + 1", "act not x"])
def test_complex_positional_arguments_are_refused(text: str) -> None:
    with pytest.raises(SyntaxLayerError):
        statements_of(text)


def test_complex_values_go_after_a_preposition() -> None:
    assert one_statement("act with [x, -y]").preps == (
        A.PrepArg(prep="with", value=A.ListLit(items=(N(id="x"), A.Neg(operand=N(id="y"))))),)


def test_an_action_without_arguments() -> None:
    assert one_statement("shout") == A.Action(verb="shout")


# ---------------------------------------------------------------- separators and layout
def test_semicolons_separate_statements_and_clauses() -> None:
    text = 'command c "C" { cost 1 MP; requires self is prone; effect { remove_state self prone; log "up" } }'
    declaration = parse_declaration(text)
    assert [type(c) for c in declaration.clauses] == [A.Cost, A.Requires, A.Effect]
    assert len(declaration.clauses[2].body.statements) == 2


def test_a_whole_declaration_on_one_line_and_spread_out_are_equal() -> None:
    one_line = 'command c "C" { cost 1 MP; effect { log "a"; log "b" } }'
    spread = 'command c "C" {\n\n    cost 1 MP\n\n\n    effect {\n\n        log "a"\n        log "b"\n\n    }\n\n}\n'
    assert parse_declaration(one_line) == parse_declaration(spread)


def test_repeated_separators_and_trailing_semicolons_are_one_separator() -> None:
    assert len(statements_of('log "a";;\n;log "b";')) == 2


def test_newlines_inside_brackets_are_ignored() -> None:
    stmt = one_statement("let x = max(\n    a,\n    b\n) + [\n    1,\n    2\n][0] + (a\n   + b\n)")
    assert stmt == A.Let(name="x", value=A.Binary(
        op="+",
        left=A.Binary(op="+", left=A.Call(func="max", args=(N(id="a"), N(id="b"))),
                      right=A.Index(obj=A.ListLit(items=(num(1), num(2))), index=num(0))),
        right=A.Binary(op="+", left=N(id="a"), right=N(id="b")),
    ))


def test_a_newline_outside_brackets_ends_the_statement() -> None:
    with pytest.raises(SyntaxLayerError):
        statements_of("let x = a +\n    b")


def test_a_line_may_break_after_a_comma() -> None:
    assert one_clause("    tags attack,\n        wild") == A.Property(name="tags", values=(N(id="attack"), N(id="wild")))
    assert one_clause("    cost 1 AP,\n         1 overall") == A.Cost(items=(
        A.CostItem(amount=num(1), resource="AP"), A.CostItem(amount=num(1), resource="overall")))


def test_else_and_elif_may_start_a_new_line() -> None:
    same_line = one_statement("if a {\n log \"a\"\n} elif b {\n log \"b\"\n} else {\n log \"c\"\n}")
    new_lines = one_statement("if a {\n log \"a\"\n}\nelif b {\n log \"b\"\n}\n\nelse {\n log \"c\"\n}")
    assert same_line == new_lines


def test_requires_else_may_start_a_new_line() -> None:
    assert one_clause('    requires self is prone\n        else "stand up first"') == A.Requires(
        condition=A.Compare(op="is", left=N(id="self"), right=N(id="prone")), message="stand up first")


def test_an_if_after_an_if_is_not_an_elif() -> None:
    first, second = statements_of("if a {}\nif b {}")
    assert first.otherwise is None and second.branches[0].condition == N(id="b")


# ---------------------------------------------------------------- expressions
@pytest.mark.parametrize(
    ("text", "expr"),
    [
        ("0", num(0)),
        ("123456789", num(123456789)),
        ("-3", A.Neg(operand=num(3))),
        ("+3", num(3)),
        ('"text"', A.Str(value="text")),
        ('""', A.Str(value="")),
        (r'"say \"hi\"\nback\\slash"', A.Str(value='say "hi"\nback\\slash')),
        ("SD", A.ScaleLevel(level=0)),
        ("+SDS", A.ScaleLevel(level=1)),
        ("-SDS", A.ScaleLevel(level=-1)),
        ("+2SDS", A.ScaleLevel(level=2)),
        ("-2SDS", A.ScaleLevel(level=-2)),
        ("+3SDS", A.ScaleLevel(level=3)),
        ("-3SDS", A.ScaleLevel(level=-3)),
        ("true", A.Bool(value=True)),
        ("false", A.Bool(value=False)),
        ("none", A.NoneLit()),
        ("margin", N(id="margin")),
        ("_x9", N(id="_x9")),
        ("SDS", N(id="SDS")),
        ("SDx", N(id="SDx")),
        ("[]", A.ListLit(items=())),
        ("[head, chest]", A.ListLit(items=(N(id="head"), N(id="chest")))),
        ("target.head", A.Attr(obj=N(id="target"), name="head")),
        ("self.PHYS", A.Attr(obj=N(id="self"), name="PHYS")),
        ("self.square.col", A.Attr(obj=A.Attr(obj=N(id="self"), name="square"), name="col")),
        ("fatal_locations[0]", A.Index(obj=N(id="fatal_locations"), index=num(0))),
        ("random_location()", A.Call(func="random_location")),
        ("die(d8, 8)", A.Call(func="die", args=(N(id="d8"), num(8)))),
        ("f(1, size: 2)", A.Call(func="f", args=(num(1),), kwargs=(A.KeywordArg(name="size", value=num(2)),))),
        ("f(size: 2, 1)", A.Call(func="f", args=(num(1),), kwargs=(A.KeywordArg(name="size", value=num(2)),))),
        ("opponents(self)[0].overall",
         A.Attr(obj=A.Index(obj=A.Call(func="opponents", args=(N(id="self"),)), index=num(0)), name="overall")),
        ("(margin)", N(id="margin")),
        ("((1))", num(1)),
        ("7 / 2", A.Binary(op="/", left=num(7), right=num(2))),
        ("a != b", A.Compare(op="!=", left=N(id="a"), right=N(id="b"))),
        ("a <= b", A.Compare(op="<=", left=N(id="a"), right=N(id="b"))),
        ("a >= b", A.Compare(op=">=", left=N(id="a"), right=N(id="b"))),
        ("a < b", A.Compare(op="<", left=N(id="a"), right=N(id="b"))),
        ("a > b", A.Compare(op=">", left=N(id="a"), right=N(id="b"))),
        ("a == b", A.Compare(op="==", left=N(id="a"), right=N(id="b"))),
        ("x in front_arc(self)", A.Compare(op="in", left=N(id="x"), right=A.Call(func="front_arc", args=(N(id="self"),)))),
        ("x not in [head]", A.Compare(op="not in", left=N(id="x"), right=A.ListLit(items=(N(id="head"),)))),
        ("target is prone", A.Compare(op="is", left=N(id="target"), right=N(id="prone"))),
        ("target is not grappled", A.Compare(op="is not", left=N(id="target"), right=N(id="grappled"))),
        ("not doubles", A.Not(operand=N(id="doubles"))),
        ("a and b", A.Binary(op="and", left=N(id="a"), right=N(id="b"))),
        ("a or b", A.Binary(op="or", left=N(id="a"), right=N(id="b"))),
    ],
)
def test_expression_forms(text: str, expr: A.Expr) -> None:
    assert e(text) == expr


@pytest.mark.parametrize(
    ("text", "expr"),
    [
        ("a + b * c", A.Binary(op="+", left=N(id="a"), right=A.Binary(op="*", left=N(id="b"), right=N(id="c")))),
        ("a * b + c", A.Binary(op="+", left=A.Binary(op="*", left=N(id="a"), right=N(id="b")), right=N(id="c"))),
        ("(a + b) * c", A.Binary(op="*", left=A.Binary(op="+", left=N(id="a"), right=N(id="b")), right=N(id="c"))),
        ("a - b - c", A.Binary(op="-", left=A.Binary(op="-", left=N(id="a"), right=N(id="b")), right=N(id="c"))),
        ("a / b / c", A.Binary(op="/", left=A.Binary(op="/", left=N(id="a"), right=N(id="b")), right=N(id="c"))),
        ("not a and b", A.Binary(op="and", left=A.Not(operand=N(id="a")), right=N(id="b"))),
        ("not (a and b)", A.Not(operand=A.Binary(op="and", left=N(id="a"), right=N(id="b")))),
        ("a or b and c", A.Binary(op="or", left=N(id="a"), right=A.Binary(op="and", left=N(id="b"), right=N(id="c")))),
        ("a and b or c", A.Binary(op="or", left=A.Binary(op="and", left=N(id="a"), right=N(id="b")), right=N(id="c"))),
        ("a or b or c", A.Binary(op="or", left=A.Binary(op="or", left=N(id="a"), right=N(id="b")), right=N(id="c"))),
        ("-x.y", A.Neg(operand=A.Attr(obj=N(id="x"), name="y"))),
        ("-f(x)[0]", A.Neg(operand=A.Index(obj=A.Call(func="f", args=(N(id="x"),)), index=num(0)))),
        ("-2 * 3", A.Binary(op="*", left=A.Neg(operand=num(2)), right=num(3))),
        ("--x", A.Neg(operand=A.Neg(operand=N(id="x")))),
        ("a - -SDS", A.Binary(op="-", left=N(id="a"), right=A.ScaleLevel(level=-1))),
        ("not a == b", A.Not(operand=A.Compare(op="==", left=N(id="a"), right=N(id="b")))),
        ("a == b and c", A.Binary(op="and", left=A.Compare(op="==", left=N(id="a"), right=N(id="b")), right=N(id="c"))),
        ("a + 1 < b * 2", A.Compare(op="<", left=A.Binary(op="+", left=N(id="a"), right=num(1)),
                                    right=A.Binary(op="*", left=N(id="b"), right=num(2)))),
        ("x in a or y not in b", A.Binary(op="or", left=A.Compare(op="in", left=N(id="x"), right=N(id="a")),
                                          right=A.Compare(op="not in", left=N(id="y"), right=N(id="b")))),
        ("self.overall - 1 is prone", A.Compare(op="is", left=A.Binary(
            op="-", left=A.Attr(obj=N(id="self"), name="overall"), right=num(1)), right=N(id="prone"))),
        ("not not a", A.Not(operand=A.Not(operand=N(id="a")))),
    ],
)
def test_operator_precedence(text: str, expr: A.Expr) -> None:
    assert e(text) == expr


@pytest.mark.parametrize("text", ["a < b < c", "a == b == c", "a in b in c", "a is prone is prone", "a is (prone)"])
def test_comparisons_do_not_chain(text: str) -> None:
    with pytest.raises(SyntaxLayerError):
        e(text)


def test_parenthesised_comparisons_may_nest() -> None:
    assert e("(a < b) == c") == A.Compare(op="==", left=A.Compare(op="<", left=N(id="a"), right=N(id="b")), right=N(id="c"))


# ---------------------------------------------------------------- positions
SOURCE = """# header comment
command standard_attack "Standard Attack" {
    targets opponent
    cost 2 AP
    on success {
        damage target by margin + damage_bonus
    }
}
"""


def test_position_of_a_declaration_id() -> None:
    declaration = parse(SOURCE, "melee.nexus").declarations[0]
    assert (declaration.pos.line, declaration.pos.column) == (2, 9)
    assert declaration.pos.file == "melee.nexus"


def test_position_of_an_action_verb_and_of_a_name_in_an_expression() -> None:
    declaration = parse(SOURCE).declarations[0]
    on = declaration.clauses[2]
    action = on.body.statements[0]
    assert (action.pos.line, action.pos.column) == (6, 9)
    assert (action.args[0].pos.line, action.args[0].pos.column) == (6, 16)  # target
    by = action.preps[0]
    assert (by.pos.line, by.pos.column) == (6, 23)
    margin, damage_bonus = by.value.left, by.value.right
    assert (margin.pos.line, margin.pos.column, margin.pos.end_column) == (6, 26, 32)
    assert (damage_bonus.pos.line, damage_bonus.pos.column) == (6, 35)
    assert (by.value.pos.line, by.value.pos.column) == (6, 26)  # the sum starts at its left operand


def test_positions_of_clauses() -> None:
    targets, cost, on = parse(SOURCE).declarations[0].clauses
    assert (targets.pos.line, targets.pos.column) == (3, 5)
    assert (cost.items[0].pos.line, cost.items[0].pos.column) == (4, 12)  # the resource
    assert (on.pos.line, on.pos.column) == (5, 8)  # the outcome word


def test_positions_count_lines_after_semicolons_and_comments() -> None:
    text = 'rule r "R" {\n    # comment\n    when bout_starts { log "a"; log "b" }\n}'
    when = parse(text).declarations[0].clauses[0]
    second = when.body.statements[1]
    assert (second.pos.line, second.pos.column) == (3, 33)


def test_positions_are_not_part_of_equality() -> None:
    spread = parse(SOURCE, "a.nexus").declarations[0]
    squeezed = parse('command standard_attack "Standard Attack" { targets opponent; cost 2 AP; on success { damage target '
                     'by margin + damage_bonus } }', "b.nexus").declarations[0]
    assert spread == squeezed
    assert spread.pos != squeezed.pos
    assert hash(spread) == hash(squeezed)
    assert A.Name(id="x", pos=A.Pos(1, 2, 1, 3, "f")) == A.Name(id="x")


# ---------------------------------------------------------------- entry points
def test_parse_declaration_wants_exactly_one() -> None:
    with pytest.raises(SyntaxLayerError) as caught:
        parse_declaration('rule a "A" {}\nrule b "B" {}')
    assert caught.value.code == "syntax/declaration_count"
    with pytest.raises(SyntaxLayerError):
        parse_declaration("")


def test_a_param_value_cannot_be_a_statement() -> None:
    with pytest.raises(SyntaxLayerError):
        e("damage target by 1")
