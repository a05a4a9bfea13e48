"""The recognisers of common mistakes (nexus_dsl/syntax/mistakes.py) and the words designers reach
for (vocabulary.EFFECT_SYNONYMS...): what they find, and that they name only real words. Each
message itself is held by the catalogue (tests/check/test_known_bad.py)."""

from __future__ import annotations

import pytest

from nexus_dsl import vocabulary as V
from nexus_dsl.errors import did_you_mean
from nexus_dsl.syntax.mistakes import early_closer, explain_character, unclosed_brace


@pytest.mark.parametrize(("source", "opened"), [
    ('rule r "R" {\n    text "a { in text"\n', (1, 12)),  # a brace in quoted text opens nothing
    ('rule r "R" {\n    # a } in a comment closes nothing\n', (1, 12)),
    ('rule r "R" {\n    when bout_starts {\n        if true {\n            log "x"\n    }\n}\n', (3, 17)),
    ('rule r "R" {\n    when bout_starts {\n        log "x"\n    }\n', (1, 12)),  # only the outermost is open
    ('rule r "R" {\n    when bout_starts { log "x" }\n}\n', None),
])
def test_the_block_left_open(source: str, opened: tuple[int, int] | None) -> None:
    assert unclosed_brace(source) == opened


def test_a_not_equal_sign_is_no_foreign_character() -> None:
    assert explain_character("!", "!= 2") is None
    assert explain_character("!", "self.fighting") is not None
    assert explain_character("@", "@ 2") is None


def test_a_name_in_other_letter_case_is_suggested_before_a_near_spelling() -> None:
    assert did_you_mean("Prone", ["prone", "bone", "pronto"]) == "did you mean `prone`?"
    assert did_you_mean("AP", ["ap", "mp"]) == "did you mean `ap`?"


@pytest.mark.parametrize(("table", "words"), [(V.EFFECT_SYNONYMS, V.PRIMITIVES), (V.FUNCTION_SYNONYMS, V.FUNCTIONS)])
def test_synonyms_lead_from_unknown_words_to_real_ones(table: dict, words: dict) -> None:
    for synonym, meanings in table.items():
        assert synonym not in words, f"`{synonym}` is a word of the language"
        assert meanings and all(word in words for word, _what in meanings), synonym


def test_foreign_words_are_no_words_of_the_language() -> None:
    assert not set(V.FOREIGN_WORDS) & (set(V.PRIMITIVES) | set(V.FUNCTIONS))
    assert set(V.FOREIGN_LITERALS.values()) <= {"true", "false", "none"}


def test_the_closing_brace_too_many_is_the_one_deeper_than_its_block() -> None:
    lined_up = 'rule r "R" {\n    when bout_starts {\n        log "x"\n    }\n}\n}\n'
    assert early_closer(lined_up, 6) is None
    too_deep = 'rule r "R" {\n    when bout_starts {\n        log "x"\n        }\n    }\n}\n'
    assert early_closer(too_deep, 6) == (4, 2)  # the `}` of line 4 closes the `{` of line 2
    assert early_closer(too_deep, 4) is None  # only the `}`s before the one reported count
