"""The checker: names resolve, types fit, events and windows exist — every problem reported."""

from __future__ import annotations

from support import base_context

from nexus_dsl import check_declarations, parse

CONTEXT = base_context(object_types=frozenset({"pillar", "blood"}), settings={"sds_cap": "number"})


def problems(source: str) -> list[tuple[str, int, str]]:
    diagnostics = check_declarations(parse(source, "t.nexus").declarations, CONTEXT)
    return [(d.code, d.line, d.message) for d in diagnostics]


def test_a_clean_command_has_no_problems():
    assert problems('command jab "Jab" {\n    targets opponent\n    cost 1 AP\n    requires target in front_arc(self)\n'
                    '    roll attack SD vs defense\n    on success {\n        damage target by margin\n    }\n}\n') == []


def test_unknown_event_window_and_property():
    found = problems('rule r "R" {\n    when round_strats {\n        log "x"\n    }\n}\n'
                     'trait_ability a "A" {\n    cost 3 WILL\n    window befor_rolls\n    effect {}\n}\n'
                     'command c "C" {\n    grup melee\n    cost 1 AP\n}\n')
    assert [f[0] for f in found] == ["check/unknown_event", "check/unknown_window", "check/unknown_property"]


def test_types_of_operators_and_arguments():
    found = problems('command c "C" {\n    cost 1 AP\n    requires self.overall + true > 2\n    effect {\n'
                     '        move self 3\n        transfer 2 from crowd to chest\n    }\n}\n')
    codes = [(code, line) for code, line, _ in found]
    assert codes == [("check/wrong_type", 3), ("check/wrong_type", 5), ("check/wrong_type", 6)]


def test_arity_and_prepositions():
    found = problems('rule r "R" {\n    when round_ends {\n        damage self\n        add_state self\n'
                     '        transfer 1 from crowd to self with 2\n    }\n}\n')
    assert [m for _, _, m in found] == [
        "`damage` needs a `by` argument",
        "`add_state` takes 2 arguments, got 1",
        "`transfer` takes no `with` argument",
    ]


def test_clauses_not_allowed_for_the_kind():
    found = problems('rule r "R" {\n    cost 1 AP\n}\ncommand c "C" {\n    window any_time\n    cost 1 AP\n}\n')
    assert [(code, line) for code, line, _ in found] == [("check/clause_not_allowed", 2), ("check/clause_not_allowed", 5)]


def test_let_and_for_each_bind_names_in_their_scope_only():
    found = problems('rule r "R" {\n    when round_ends {\n        for each h in opponents(self) {\n'
                     '            let owed = h.cred\n            transfer owed from h to crowd\n        }\n'
                     '        log owed\n    }\n}\n')
    assert found == [("check/unknown_name", 7, "unknown name `owed`")]


def test_object_types_come_from_the_loaded_content():
    assert problems('rule r "R" {\n    when round_ends {\n        place blood at self\n        place lava at self\n'
                    '    }\n}\n') == [("check/unknown_name", 4, "unknown object type `lava`")]


def test_settings_are_names_and_params_are_local():
    assert problems('command c "C" {\n    param reach = 2\n    cost reach AP\n    requires sds_cap > reach\n}\n') == []


def test_every_unknown_name_is_reported_and_the_first_hundred_get_a_hint():
    """A "did you mean" hint compares a word with every name in scope; past MAX_SUGGESTIONS of them
    a file of misspellings is still reported in full, in time linear in its length."""
    from nexus_dsl.check.checker import MAX_SUGGESTIONS

    uses = "\n".join(f"        log owd{i}" for i in range(MAX_SUGGESTIONS + 1))
    diagnostics = check_declarations(parse(
        f'rule r "R" {{\n    when round_ends {{\n        let owed = "x"\n{uses}\n    }}\n}}\n', "t.nexus").declarations, CONTEXT)
    assert [d.code for d in diagnostics] == ["check/unknown_name"] * (MAX_SUGGESTIONS + 1)
    assert all(d.hint and "`owed`" in d.hint for d in diagnostics[:MAX_SUGGESTIONS])
    assert diagnostics[-1].hint is None


def test_a_param_is_checked_once():
    assert problems('rule r "R" {\n    param p = foo\n}\n') == [("check/unknown_name", 2, "unknown name `foo`")]
