"""The declaration whose script faulted is kept by the bout, not searched for by its position.

`fault_at` knows the declaration it names in the fault's message; the bout keeps it
(`Bout.fault_declaration`), a step's view carries it, and `faulting_item` looks its loaded item up
by kind and id, holding it to that very declaration (a ruleset of other packs holds none).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl import cached_ruleset, load_ruleset
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench.testrun import Stepper, TestRunSettings, faulting_item

PACK = Path(__file__).resolve().parents[1] / "fixtures" / "packs" / "fault_at_round_end"


@pytest.fixture(scope="module")
def faulty() -> Ruleset:
    return load_ruleset(["base", str(PACK)])


def test_the_step_that_faulted_carries_the_faulting_declaration(faulty: Ruleset) -> None:
    stepper = Stepper(TestRunSettings(packs=("base", str(PACK)), seed=1), ruleset=faulty)
    view = stepper.run_to_end()
    declaration = view.fault_declaration
    assert view.fault is not None and declaration is stepper.fault_declaration is stepper.bout.fault_declaration
    assert declaration is faulty.declaration("rule", "dud_die")
    assert view.fault.message.startswith("in rule `dud_die`: ")
    item = faulting_item(faulty, declaration)
    assert item is not None and item.declaration is declaration and item.origin.file == view.fault.file


def test_no_fault_no_item(faulty: Ruleset) -> None:
    stepper = Stepper(TestRunSettings(packs=("base", str(PACK)), seed=1), ruleset=faulty)
    view = stepper.step()
    assert view.fault is None and view.fault_declaration is None
    assert faulting_item(faulty, None) is None


def test_a_ruleset_without_that_very_declaration_has_no_item_for_it(faulty: Ruleset) -> None:
    stepper = Stepper(TestRunSettings(packs=("base", str(PACK)), seed=1), ruleset=faulty)
    declaration = stepper.run_to_end().fault_declaration
    assert faulting_item(cached_ruleset(("base",)), declaration) is None
    reloaded = load_ruleset(["base", str(PACK)])  # the same text, loaded again: another declaration
    assert faulting_item(reloaded, declaration) is None
