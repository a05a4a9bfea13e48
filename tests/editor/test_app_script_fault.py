"""The editor shows a bout stopped by a script fault, never a traceback and never silently: the test
run's step shows the positioned fault where the outcome would be and opens the faulting rule in the
card editor; a batch and an A/B comparison list the faulted bouts by seed, apart from engine errors.

The fixture pack and what a page showing a fault must show are in `script_fault_app.py`."""

from __future__ import annotations

from editor_app import texts
from script_fault_app import (MESSAGE, PACK_ID, SETUP_LINE, SETUP_MESSAGE, SETUP_PACK_ID, SETUP_WHERE, WHERE,
                              assert_fault_shown, faulty_env, open_with_pack, plain_bout)  # noqa: F401 (faulty_env: a fixture)

from nexus_dsl.errors import Diagnostic


def test_a_stepped_bout_shows_the_fault_where_its_outcome_would_be(faulty_env) -> None:
    at = open_with_pack("test_run.py")
    plain_bout(at, "tr")
    at.number_input(key="tr_seed").set_value(1)
    at.button(key="tr_start").click().run()
    for _ in range(20):
        if at.button(key="tr_step").disabled:
            break
        at.button(key="tr_step").click().run()
        assert not at.exception, at.exception
    assert at.button(key="tr_step").disabled and at.button(key="tr_finish").disabled
    assert "the bout stopped on a script fault" in texts(at)  # the step's headline
    assert_fault_shown(at)

    opener = at.button(key="tr_open_fault")
    assert "dud_die" in opener.label
    opener.click().run()
    assert not at.exception, at.exception
    assert at.selectbox(key="ed_kind").value == "rule"
    assert at.session_state["ed_text"].lstrip().startswith('rule dud_die "Dud Die"')
    assert "Editing" in texts(at) and "rules.nexus" in texts(at)


def test_a_bout_that_stops_before_its_first_decision_shows_the_fault_at_start(faulty_env) -> None:
    at = open_with_pack("test_run.py", SETUP_PACK_ID)
    plain_bout(at, "tr")
    at.button(key="tr_start").click().run()
    assert not at.exception, at.exception
    assert at.button(key="tr_step").disabled
    assert_fault_shown(at, SETUP_WHERE, SETUP_MESSAGE, SETUP_LINE)
    at.button(key="tr_open_fault").click().run()
    assert not at.exception, at.exception
    assert at.session_state["ed_text"].lstrip().startswith('rule opening_roll "Opening Roll"')


def test_a_batch_lists_script_faults_apart_from_engine_errors(faulty_env) -> None:
    at = open_with_pack("test_run.py")
    plain_bout(at, "tr")
    at.number_input(key="tr_seed").set_value(20)
    at.number_input(key="tr_bouts").set_value(3)
    at.button(key="tr_run_batch").click().run()
    assert not at.exception, at.exception
    shown = texts(at)
    assert "0 engine errors, 3 script faults" in shown, shown
    assert "Script faults: 3 bouts stopped" in shown
    faults = next(d.value for d in at.dataframe if "where" in d.value.columns)
    assert list(faults["seed"]) == [20, 21, 22]
    assert all(where.endswith(WHERE) for where in faults["where"]) and set(faults["message"]) == {MESSAGE}
    assert any("No bout played to its end" in w.value for w in at.warning)
    assert not at.error, [e.value for e in at.error]  # no engine error, no failure to run


def test_an_ab_comparison_lists_the_faults_of_the_side_that_has_them(faulty_env) -> None:
    at = open_with_pack("test_run.py")
    plain_bout(at, "tr")
    at.number_input(key="tr_bouts").set_value(3)
    at.selectbox(key="tr_ab_without").select(PACK_ID).run()
    at.button(key="tr_run_ab").click().run()
    assert not at.exception, at.exception
    shown = texts(at)
    assert "A: 3 bouts played to the end, 0 engine errors, 0 script faults" in shown, shown
    assert "B: 0 bouts played to the end, 0 engine errors, 3 script faults" in shown, shown
    assert "B: Script faults: 3 bouts stopped" in shown
    assert any("nothing to compare" in w.value for w in at.warning)
    assert not [d for d in at.dataframe if "verdict" in d.value.columns]  # no differences from no bouts


def test_the_fault_table_has_one_row_per_faulted_bout() -> None:
    from editor.charts import FAULT_COLUMNS, fault_table

    fault = Diagnostic("runtime/bad_value", MESSAGE, "house/rules.nexus", 6, 17)
    table = fault_table([(4, fault), (9, fault)])
    assert list(table.columns) == FAULT_COLUMNS
    assert table.to_dict("records") == [{"seed": 4, "where": "house/rules.nexus:6:17", "message": MESSAGE},
                                        {"seed": 9, "where": "house/rules.nexus:6:17", "message": MESSAGE}]
    assert list(fault_table([]).columns) == FAULT_COLUMNS
