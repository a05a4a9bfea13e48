"""`set <name> = <value>` binds again a name a `let` bound: checked where it is written (the name a
`let` of the effect bound, the value of the kind it held), run by rebinding the name where the
`let` bound it, and kept by the printer and the canonical form."""

from __future__ import annotations

from support import base_context

from nexus_dsl import check_declarations, parse
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.syntax.canonical import stmt_from_json, stmt_to_json
from nexus_dsl.syntax.printer import print_declaration

CONTEXT = base_context(settings={"bonus": "number"})


def problems(body: str) -> list[tuple[str, int, int, str]]:
    source = f'rule r "R" {{\n    param reach = 2\n    when round_ends {{\n{body}    }}\n}}\n'
    diagnostics = check_declarations(parse(source, "t.nexus").declarations, CONTEXT)
    return [(d.code, d.line, d.column, d.message) for d in diagnostics]


def test_set_binds_again_a_name_a_let_bound_in_its_block_or_around_it() -> None:
    assert problems('        let total = 0\n        for each p in in_play() {\n            if p.fighting {\n'
                    '                set total = total + p.cred\n            }\n        }\n'
                    '        damage self by total\n') == []


def test_set_refuses_a_name_no_let_bound() -> None:
    for name, what in (("nothing", "is not bound here"), ("reach", "was not bound by `let`"),
                       ("bonus", "was not bound by `let`"), ("self", "was not bound by `let`")):
        found = problems(f"        set {name} = 1\n")
        assert [(code, line, column) for code, line, column, _ in found] == [("check/not_a_local", 4, 13)], name
        assert found[0][3] == f"`set {name}`: `{name}` {what}"


def test_set_refuses_a_loop_s_name() -> None:
    found = problems("        for each p in in_play() {\n            set p = self\n        }\n")
    assert [(code, line) for code, line, _, _ in found] == [("check/not_a_local", 5)]


def test_set_refuses_a_name_bound_only_in_a_block_that_has_ended() -> None:
    found = problems("        if true {\n            let inner = 1\n        }\n        set inner = 2\n")
    assert [(code, line) for code, line, _, _ in found] == [("check/not_a_local", 7)]


def test_set_keeps_the_kind_the_name_held() -> None:
    found = problems('        let total = 0\n        set total = "many"\n')
    assert [(code, line, message) for code, line, _, message in found] == [
        ("check/wrong_type", 5, "`total` holds a number, not text")]


def test_a_name_set_again_is_no_longer_known_while_reading() -> None:
    # `let n = 0` is a number known while reading; once `set` it is worked out in play, so the
    # range of `damage ... by` is held to it when the effect runs, not refused here.
    assert problems("        let n = 0\n        set n = self.cred\n        damage self by n\n") == []


def test_set_is_printed_and_kept_by_the_canonical_form() -> None:
    source = 'rule r "R" {\n    when round_ends {\n        let n = 1\n        set n = n + 1\n    }\n}\n'
    declaration = parse(source).declarations[0]
    assert parse(print_declaration(declaration)).declarations == (declaration,)
    statement = declaration.clauses[0].body.statements[1]
    assert isinstance(statement, A.Set) and statement.name == "n"
    assert stmt_to_json(statement)["set"] == "n"
    assert stmt_from_json(stmt_to_json(statement)) == A.Set(name="n", value=statement.value)
