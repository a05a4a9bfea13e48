"""The Language reference page lists every word of the vocabulary with its entry, searchable, and
the loaded packs' own words; the card editor hands its code editor the same entries and answers a
request for completions."""

from __future__ import annotations

import json

from editor_app import SCRIPT_EDITOR, code_editor_data, open_page, texts, type_script
from streamlit.testing.v1 import AppTest

from nexus_dsl import assist
from nexus_dsl import vocabulary as V


def shown_words(at: AppTest) -> str:
    return texts(at)


def test_every_word_of_the_vocabulary_is_on_the_page(app_env) -> None:
    at = open_page("reference.py")
    assert not at.exception, at.exception
    page = shown_words(at)
    words = [*V.PRIMITIVES, *V.FUNCTIONS, *(p for props in V.PROPERTIES.values() for p in props),
             *V.PIECE_ATTRIBUTES, *V.PLAYER_ATTRIBUTES, *V.HOLD_ATTRIBUTES, *V.COMMAND_ATTRIBUTES, *V.ROLL_NAMES,
             *(m for members in V.ENUM_TYPES.values() for m in members), *V.PURPOSES, *V.CLAUSES,
             *assist.KEYWORDS]
    missing = sorted({word for word in words if f"**`{word}`**" not in page})
    assert not missing
    # An entry as hover shows it: how it is written, what it does, its example.
    transfer = V.PRIMITIVES["transfer"]
    assert "`transfer <number> from <pile> to <pile>`" in page and transfer.doc in page and transfer.example in page
    # Properties are listed by the kind holding them; the loaded base pack's declarations too.
    labels = [expander.label for expander in at.expander]
    assert any(label.startswith("Properties of `weapon`") for label in labels), labels
    assert "**`protection_money`**" in page and "content/base/influence/extortion.nexus:4" in page


def test_searching_narrows_the_page_to_the_matching_words(app_env) -> None:
    at = open_page("reference.py")
    at.text_input(key="ref_search").input("coins pile").run()
    assert not at.exception, at.exception
    page = shown_words(at)
    assert "**`transfer`**" in page and "**`coins`**" in page
    assert "**`front_arc`**" not in page and "**`let`**" not in page
    at.text_input(key="ref_search").input("no word means this zzz").run()
    assert any("No word matches" in info.value for info in at.info)


def start_new(at: AppTest, kind: str, ident: str) -> None:
    """A new item of `kind` in the card editor, from its template."""
    at.selectbox(key="ed_kind").select(kind).run()
    at.radio(key="ed_mode").set_value("New").run()
    at.text_input(key="ed_new_id").input(ident)
    at.text_input(key="ed_new_name").input(ident.replace("_", " ").title())
    at.button(key="ed_start").click().run()
    assert not at.exception, at.exception


def test_the_code_editor_gets_the_words_and_the_completions_asked_for(app_env) -> None:
    at = open_page("card_editor.py")
    start_new(at, "influence", "helped_card")
    data = code_editor_data(at)
    assert data["words"]["transfer"][0]["signature"] == "transfer <number> from <pile> to <pile>"
    assert any(entry["group"] == "declared" for entry in data["words"]["protection_money"])
    assert data["completions"] is None  # nothing asked yet
    # The editor reports a request (what its JavaScript does on Ctrl+Space): the text it was made
    # in reaches the page, and the answer is the words valid at the cursor starting with `tra`.
    text = data["text"].replace("        slide_roll", "        tra\n        slide_roll")
    line = text.split("\n").index("        tra") + 1
    at.session_state[f"{SCRIPT_EDITOR}_ask"] = {"id": 7, "text": text, "line": line, "column": 12}
    type_script(at, text)
    answer = code_editor_data(at)["completions"]
    assert answer["id"] == 7 and [item["label"] for item in answer["items"]] == ["transfer"]
    assert answer["items"][0]["prefix"] == "tra"


def test_the_words_go_once_per_ruleset_and_again_when_the_browser_asks(app_env) -> None:
    from editor.code_editor import words_version

    at = open_page("card_editor.py")
    start_new(at, "influence", "once_card")
    first = code_editor_data(at)
    version = first["words_key"]
    assert first["words"] and version == words_version(first["words"])
    # A rerun (typing) sends the version the browser keeps the words by, not the words.
    type_script(at, first["text"] + "\n")
    again = code_editor_data(at)
    assert "words" not in again and again["words_key"] == version
    assert len(json.dumps(again)) < len(json.dumps(first)) // 10
    # The browser that lacks the version it is given asks for it (`want_words`): the callback
    # forgets what was sent, and the next rerun sends the words again.
    at.session_state[f"{SCRIPT_EDITOR}_words_sent"] = None
    type_script(at, first["text"])
    assert code_editor_data(at)["words"] == first["words"]


def test_a_data_item_s_editor_gets_no_script_help(app_env) -> None:
    at = open_page("card_editor.py")
    start_new(at, "lanista", "helped_lanista")
    assert "words" not in code_editor_data(at)


def test_a_request_that_is_not_one_gets_no_answer_and_no_error() -> None:
    from editor.code_editor import answer, language_help

    word_help = language_help(None)
    for request in (None, "text", {"id": 1}, {"id": 1, "text": "x", "line": "1", "column": 1},
                    {"id": 1, "text": "x", "line": True, "column": 1}):
        assert answer(request, word_help) is None
    found = answer({"id": 2, "text": "tra", "line": -5, "column": 10_000}, word_help)
    # Clamped to the text: `tra` at the top level, where a declaration kind stands.
    assert found is not None and found["id"] == 2 and [item["label"] for item in found["items"]] == ["trait_ability"]
    found = answer({"id": 3, "text": 'rule r "R" {\n    effect {\n        tra', "line": 3, "column": 12}, word_help)
    assert found is not None and [item["label"] for item in found["items"]] == ["transfer"]
