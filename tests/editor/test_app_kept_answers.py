"""The pages keep what they drew between runs (faces, scripts, verdicts), yet always show what is true
now: the content browser shows an item as its file says after the file changed or was saved from the
card editor, the card editor's verdict and preview follow each edit, and the first page a new
session opens on runs without the engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from editor_app import APP, REPOSITORY, open_page, script_text, texts, type_script
from support import write_pack
from test_app_card_faces import drawn_faces, face_words

PACK = "kept_answers"
RULE = "kept_rule"


def rule_text(words: str) -> str:
    return f'rule {RULE} "Kept Rule" {{\n    text "{words}"\n}}\n'


def shown_words(at) -> str:
    """What the browser shows of the rule found: its printed face's words and everything else as text."""
    return " ".join(face_words(face) for face in drawn_faces(at).values()) + "\n" + texts(at)


def test_the_browser_shows_an_item_as_its_file_says_now(app_env, content_copy: Path) -> None:
    script = write_pack(content_copy / "house-rules" / PACK, PACK, {f"rules/{RULE}.nexus": rule_text("The first words.")},
                        builds_on="[base]") / "rules" / f"{RULE}.nexus"
    at = open_page("browser.py")
    at.sidebar.multiselect(key="loaded_packs").select(PACK).run()
    at.text_input(key="browser_query").input(RULE).run()
    assert not at.exception, at.exception
    assert "The first words." in shown_words(at)

    script.write_text(rule_text("The second words, changed on disk."))
    at.run()
    assert not at.exception, at.exception
    shown = shown_words(at)
    assert "The second words, changed on disk." in shown and "The first words." not in shown

    # Opened in the card editor, edited and saved: the browser shows what was saved.
    index = next(i for i, e in enumerate(at.expander) if f"({RULE})" in e.label)
    at.button(key=f"browser_open_{index}").click().run()
    assert not at.exception, at.exception
    at.switch_page("views/card_editor.py")  # where the button went (AppTest stays there only when told)
    type_script(at, script_text(at).replace("The second words, changed on disk.", "The third words, saved."))
    at.button(key="ed_save").click().run()
    assert not at.exception, at.exception
    assert "The third words, saved." in script.read_text()
    at.switch_page("views/browser.py").run()
    at.text_input(key="browser_query").input(RULE).run()
    assert not at.exception, at.exception
    shown = shown_words(at)
    assert "The third words, saved." in shown and "changed on disk" not in shown


def test_the_card_editors_verdict_and_preview_follow_each_edit(app_env) -> None:
    at = open_page("card_editor.py")
    at.selectbox(key="ed_kind").select("influence").run()
    at.radio(key="ed_mode").set_value("New").run()
    at.text_input(key="ed_new_id").input("kept_verdict")
    at.text_input(key="ed_new_name").input("Kept Verdict")
    at.button(key="ed_start").click().run()
    good = script_text(at)
    broken = good.replace("slide_roll attack", "slde_roll attack")
    assert broken != good
    for _ in range(2):  # broken, mended, broken again (a text checked before), mended again
        type_script(at, broken)
        assert any("slde_roll" in e.value for e in at.error), texts(at)
        assert at.button(key="ed_save").disabled and not drawn_faces(at)
        type_script(at, good)
        assert not at.error and any("Valid" in s.value for s in at.success)
        assert "Kept Verdict" in face_words(drawn_faces(at)["kept_verdict"])
    type_script(at, good.replace('"Kept Verdict"', '"Kept Verdict Renamed"'))
    assert "Kept Verdict Renamed" in face_words(drawn_faces(at)["kept_verdict"])


FIRST_RUN = """
import json, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(sys.argv[1], default_timeout=120).run()
assert not at.exception, at.exception
assert any(title.value == "NEXUS workbench" for title in at.title)
print(json.dumps(sorted(sys.modules)))
"""


def test_the_first_page_runs_without_the_engines_bouts(app_env) -> None:
    """A new session opens on the home page: it loads the packs, and imports nothing that plays a
    bout (the engine's bout, the narration, the test run, the batches): the pages that play them
    import it on their first run."""
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    run = subprocess.run([sys.executable, "-c", FIRST_RUN, str(APP)], cwd=REPOSITORY, env=environment,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    imported = set(json.loads(run.stdout.strip().splitlines()[-1]))
    assert "nexus_dsl.content.loader" in imported  # the packs were loaded
    assert not imported & {"nexus_dsl.engine.bout", "nexus_dsl.narrate", "nexus_dsl.workbench.testrun",
                           "nexus_dsl.workbench.table", "nexus_dsl.sim.batch"}
