"""Why a line of the log happened, on the test run and the playtest pages (`editor/log_explainer.py`):
a line chosen among the step's lines (or the whole log's) shows the reason, the script statements
under way with the script's own line, the values and the dice; its button opens the declaration in
the card editor."""

from __future__ import annotations

from pathlib import Path

from editor_app import open_page, texts
from streamlit.testing.v1 import AppTest
from test_app_playtest import start, through_the_deal

from editor.log_explainer import MOST_OFFERED, PLACEHOLDER, line_choice

CARD, CARD_NAME = "fan_favourite", "Fan Favourite"
EFFECT = "add_trait self SWAG by fan_swag"
# With these settings (the page's defaults otherwise: motivations, lanistas and barge drawn by the
# bout) red reaches its first Turning Point at step 24 and draws the card stacked on top.
SEED = 37


def line_of(path: Path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def codes(at: AppTest) -> list[str]:
    return [code.value for code in at.code]


def test_a_drawn_card_is_traced_to_its_script_line_and_opened_in_the_card_editor(
        app_env: Path, content_copy: Path) -> None:
    at = open_page("test_run.py")
    at.multiselect(key="tr_stack").select(CARD)
    at.number_input(key="tr_seed").set_value(SEED)
    at.button(key="tr_start").click().run()
    at.button(key="tr_step").click().run()
    assert not at.exception, at.exception
    why = at.selectbox(key="tr_why")
    first = at.session_state["tr_steps"][-1]
    # The choices are the step's lines, each by its number in the log; nothing is explained until one is chosen.
    assert why.options == [f"{line.seq}: {line.text.strip()}" + (f"  ← {line.tag}" if line.tag else "")
                           for line in first.log]
    assert why.value is None and why.placeholder == PLACEHOLDER and not [i for i in at.info if "Why:" in i.value]

    at.button(key="tr_finish").click().run()
    assert not at.exception, at.exception
    steps = at.session_state["tr_steps"]
    drawn = next(line for view in steps for line in view.log if line.tag == f"turning point {CARD_NAME}")
    assert drawn.seq not in [line.seq for line in steps[-1].log]  # not a line of the last step
    at.radio(key="tr_why_scope").set_value("every step so far").run()
    whole = [line for view in steps for line in view.log]
    assert len(whole) > MOST_OFFERED  # a whole bout: more lines than the choice offers at once
    assert at.selectbox(key="tr_why").options == [line_choice(line) for line in whole[:MOST_OFFERED]]
    assert f"{len(whole)} lines in all: the first {MOST_OFFERED} are offered" in texts(at)
    # The search box narrows the lines to those holding every word, in any case: the card's name finds its lines.
    at.text_input(key="tr_why_find").input(CARD_NAME.lower().replace(" ", "  ")).run()
    found = [line for line in whole if CARD_NAME in line_choice(line)]
    assert drawn in found and at.selectbox(key="tr_why").options == [line_choice(line) for line in found]
    at.text_input(key="tr_why_find").input("no such words").run()
    assert at.selectbox(key="tr_why").options == [] and "No line holds “no such words”." in texts(at)
    at.text_input(key="tr_why_find").input(CARD_NAME).run()
    at.selectbox(key="tr_why").set_value(drawn.seq).run()
    assert not at.exception, at.exception

    crowd = content_copy / "base" / "turning_points" / "crowd.nexus"
    where = f"base/turning_points/crowd.nexus:{line_of(crowd, EFFECT)}:9"  # named from the content root
    reason = next(i.value for i in at.info if "Why:" in i.value)
    assert reason == f"**Why:** turning point {CARD_NAME}, at {where}: `{EFFECT}`"
    assert EFFECT in codes(at)  # the script's line, as written
    assert codes(at)[-2:] == ["draw turning_point", EFFECT]  # the rule that drew it, under way, then the card
    shown = texts(at)
    assert f"3. **turning point {CARD_NAME}**, `{where}`  ← it happened because of this" in shown
    assert "`add_trait` was given: piece red, `SWAG`, by 2" in shown

    opener = at.button(key="tr_why_open_0")
    assert opener.label == f"Open {CARD_NAME} in the card editor"
    opener.click().run()
    assert not at.exception, at.exception
    assert at.selectbox(key="ed_kind").value == "turning_point"
    assert at.session_state["ed_text"].lstrip().startswith(f'turning_point {CARD} "{CARD_NAME}"')
    assert "Editing" in texts(at) and "crowd.nexus" in texts(at)


def test_a_playtest_line_is_explained_newest_first_and_its_rule_opened(app_env: Path) -> None:
    at = start("why-1")
    through_the_deal(at)
    session = at.session_state["pt_session"]
    log = session.log()
    why = at.selectbox(key="pt_why")
    assert why.options[0].startswith(f"{log[-1].seq}: ") and why.options[-1].startswith(f"{log[0].seq}: ")
    counter = next(line for line in log if line.tag == "rule The Turning Point Counter")
    why.set_value(counter.seq).run()
    assert not at.exception, at.exception
    reason = next(i.value for i in at.info if "Why:" in i.value)
    assert "rule The Turning Point Counter, at " in reason and "rules/turning_points.nexus:" in reason
    assert "mark_counter self tp_counter self.ratio" in codes(at)
    opener = next(b for b in at.button if b.label == "Open The Turning Point Counter in the card editor")
    opener.click().run()
    assert not at.exception, at.exception
    assert at.selectbox(key="ed_kind").value == "rule"
    assert at.session_state["ed_text"].lstrip().startswith('rule turning_point_counter "The Turning Point Counter"')
