"""The engine, the checker and the vocabulary name no word of the NEXUS game: its words belong to its
content (`content/base`). The tests read their source for the game's words, read every name a pack
that builds on nothing may use, and load such a pack to see that a script naming the game's words
is refused.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import write_pack

from nexus_dsl import vocabulary as V
from nexus_dsl.check.checker import Checker, CheckContext
from nexus_dsl.content.loader import load_ruleset_collecting

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*sorted((ROOT / "nexus_dsl" / "engine").rglob("*.py")), *sorted((ROOT / "nexus_dsl" / "check").rglob("*.py")),
           ROOT / "nexus_dsl" / "vocabulary.py"]

# The game's words (as the issue of an open engine names them): each a pattern over source text and
# names, case-insensitive, with a letter on neither side (so `helots` and `piece_attribute` count, and
# `incredible` does not).
GAME_WORDS = {
    "helot": r"helots?", "lanista": r"lanistas?", "barge": r"barges?", "cred": r"cred", "crowd": r"crowds?",
    "motivation": r"motivations?", "deception": r"deceptions?", "turning point": r"turning[ _]points?",
    "influence": r"influences?", "SDS": r"sds", "tpdm": r"tpdm", "prone": r"prone", "grapple": r"grappl(?:e|ed|er|ing|es)",
    "bleeding": r"bleeding", "flaming": r"flaming",
    **{trait: trait for trait in ("WILL", "INST", "PHYS", "DEFT", "SWAG", "CUNN")},
    **{location: location for location in ("head", "chest", "midsection", "left_upper", "right_upper",
                                           "left_lower", "right_lower")},
}
# Traits are written in capitals: matched as such, so `will` (the English word) does not count.
CASE_SENSITIVE = {"WILL", "INST", "PHYS", "DEFT", "SWAG", "CUNN"}


def pattern(word: str) -> re.Pattern[str]:
    if word in CASE_SENSITIVE:
        return re.compile(rf"(?<![A-Za-z]){word}(?![A-Za-z])")
    return re.compile(rf"(?<![a-z]){GAME_WORDS[word]}(?![a-z])", re.IGNORECASE)


def game_words_in(text: str) -> list[str]:
    return [word for word in GAME_WORDS if pattern(word).search(text)]


def bare_pack_names() -> set[str]:
    """Every name the language offers a pack that builds on nothing, before it declares any."""
    checker = Checker(CheckContext())
    return (set(checker.globals.all_names()) | set(V.PRIMITIVES) | set(V.FUNCTIONS) | set(V.PIECE_ATTRIBUTES)
            | set(V.ROLL_NAMES) | set(V.PURPOSES) | set(V.ARG_TYPES) | set(V.BOUND_TYPES)
            | {p for props in V.PROPERTIES.values() for p in props} | {v for vs in V.PROPERTY_VALUES.values() for v in vs}
            | set(V.PROPERTIES) | set(V.CLAUSES))


def test_the_word_patterns_find_the_game_s_words_and_no_others() -> None:
    assert set(game_words_in("a helot's cred, the Crowd, turning_point, self.DEFT, left_upper, grappled")) == {
        "helot", "cred", "crowd", "turning point", "DEFT", "left_upper", "grapple"}
    assert game_words_in("incredible, overhead, will, chestnut, credit, piece_attribute") == []


def test_the_engine_the_checker_and_the_vocabulary_name_no_word_of_the_game() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}: {', '.join(words)}: {line.strip()}"
             for path in SOURCES
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if (words := game_words_in(line))]
    assert not found, "the game's words belong to its content:\n" + "\n".join(found)


def test_the_language_offers_a_pack_that_builds_on_nothing_no_word_of_the_game() -> None:
    names = bare_pack_names()
    assert {"transfer", "command", "AP"} <= names  # the names read are the language's own
    offered = sorted(f"{name} ({', '.join(words)})" for name in names if (words := game_words_in(name)))
    assert not offered, "names offered to a pack that builds on nothing:\n" + "\n".join(offered)


@pytest.mark.parametrize(("line", "code"), [
    ("transfer 1 from crowd to self", "check/unknown_name"),
    ("add_stat self tpdm by 1", "check/unknown_name"),
    ("let w = self.WILL", "check/unknown_name"),
    ("let h = head", "check/unknown_name"),
    ("add_state self prone", "check/unknown_name"),
    ("draw influence for self", "check/unknown_name"),
])
def test_a_pack_that_builds_on_nothing_is_refused_the_game_s_words(tmp_path: Path, line: str, code: str) -> None:
    script = f'command try_it "Try It" {{\n    cost 0 AP\n    effect {{\n        {line}\n    }}\n}}\n'
    pack = write_pack(tmp_path / "bare", "bare", {"try.nexus": script}, builds_on="[]")
    ruleset, diagnostics = load_ruleset_collecting([pack])
    assert ruleset is None
    assert [(d.code, d.line) for d in diagnostics if d.severity == "error"][:1] == [(code, 4)], diagnostics


def test_a_pack_that_builds_on_nothing_is_refused_the_game_s_kinds_of_card(tmp_path: Path) -> None:
    script = 'influence lucky "Lucky" {\n    text "Luck."\n}\n'
    pack = write_pack(tmp_path / "bare", "bare", {"lucky.nexus": script}, builds_on="[]")
    ruleset, diagnostics = load_ruleset_collecting([pack])
    assert ruleset is None
    (refusal,) = [d for d in diagnostics if d.severity == "error"]
    assert (refusal.code, refusal.line, refusal.column) == ("check/unknown_kind", 1, 1)
