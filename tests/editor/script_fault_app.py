"""What the script-fault tests of the editor share: the faulting fixture packs in the editor's
content root, opening a page with one loaded, and what a page showing the fault must show.

Both packs build on base. `fault_at_round_end`'s rule `dud_die` rolls a die of no sides when the
first Command Round ends (rules.nexus:6:17); `fault_at_setup`'s rule `opening_roll` does the same
as the bout starts (rules.nexus:7:17), which stops a bout before its first decision."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from editor_app import open_page, texts
from streamlit.testing.v1 import AppTest

REPOSITORY = Path(__file__).resolve().parents[2]
PACKS = REPOSITORY / "tests" / "fixtures" / "packs"
PACK_ID = "fault_at_round_end"
SETUP_PACK_ID = "fault_at_setup"
WHERE = "rules.nexus:6:17"
MESSAGE = "in rule `dud_die`: a die's number of sides must be at least 2, not 0"
SCRIPT_LINE = "let x = die(d8, self.cred - self.cred)"
SETUP_WHERE = "rules.nexus:7:17"
SETUP_MESSAGE = "in rule `opening_roll`: a die's number of sides must be at least 2, not 0"
SETUP_LINE = "let x = die(check, coins(crowd) - coins(crowd))"


@pytest.fixture
def faulty_env(app_env: Path, content_copy: Path) -> Path:
    """The editor's content root with the faulting packs in it (under their own names, so no other
    test loads them); the sessions folder, as `app_env`."""
    for pack_id in (PACK_ID, SETUP_PACK_ID):
        target = content_copy / "house-rules" / pack_id
        if not target.exists():
            shutil.copytree(PACKS / pack_id, target)
    return app_env


def open_with_pack(page: str, pack_id: str = PACK_ID) -> AppTest:
    at = open_page(page)
    at.sidebar.multiselect(key="loaded_packs").select(pack_id).run()
    assert not at.exception, at.exception
    return at


def plain_bout(at: AppTest, prefix: str, players: int = 2) -> None:
    """Set the page's bout to the stripped one these faults were found in: an empty barge, and no
    motivation or lanista (the page's defaults draw them at random)."""
    at.selectbox(key=f"{prefix}_barge").select("(empty barge)")
    for index in range(players):
        at.selectbox(key=f"{prefix}_motivation_{index}").select("(none)")
        at.selectbox(key=f"{prefix}_lanista_{index}").select("(none)")
    at.run()  # the page's buttons take the settings of the run that drew them
    assert not at.exception, at.exception


def assert_fault_shown(at: AppTest, where: str = WHERE, message: str = MESSAGE, line: str = SCRIPT_LINE) -> None:
    """The positioned fault in an error box, its script line and caret in a code block, the note
    that the state shown is the one before the faulting action, and no outcome."""
    errors = [e.value for e in at.error]
    assert any(where in e and message in e for e in errors), errors
    code = "\n".join(c.value for c in at.code)
    assert where in code and line in code and "^^^" in code, code
    assert "the state before the action that faulted" in texts(at)
    assert not [s.value for s in at.success if "The bout is over" in s.value]
