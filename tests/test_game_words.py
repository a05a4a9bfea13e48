"""The engine, the checker and the vocabulary are to name no word of the NEXUS game: its words belong
to its content. This ratchet counts them, word by word, and holds each count to the one recorded in
`tests/golden/game_words.json`: a count may fall, never rise. When a change lowers one, record the
new counts, so the lower figure holds from then on:

    .venv/bin/python tests/test_game_words.py --record

Two counts per word: where the engine, the checker and the vocabulary name it in their source, and
how many of the names a pack that builds on nothing may use (primitives, functions, attributes,
globals) contain it. Both reach 0 when the game is wholly content.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from nexus_dsl import vocabulary as V
from nexus_dsl.check.checker import Checker, CheckContext

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "golden" / "game_words.json"
SOURCES = [*sorted((ROOT / "nexus_dsl" / "engine").rglob("*.py")), *sorted((ROOT / "nexus_dsl" / "check").rglob("*.py")),
           ROOT / "nexus_dsl" / "vocabulary.py"]

# The game's words (the issue of an open engine names them): each as a pattern over source text and
# names, case-insensitive, a letter on neither side (so `helots` and `piece_attribute` count, and
# `incredible` does not).
GAME_WORDS = {
    "helot": r"helots?", "lanista": r"lanistas?", "barge": r"barges?", "cred": r"cred", "crowd": r"crowds?",
    "motivation": r"motivations?", "deception": r"deceptions?", "turning point": r"turning[ _]points?",
    "influence": r"influences?", "SDS": r"sds", "tpdm": r"tpdm", "prone": r"prone", "grapple": r"grappl(?:e|ed|er|ing|es)",
    "bleeding": r"bleeding", "flaming": r"flaming",
    **{trait: trait.lower() for trait in ("WILL", "INST", "PHYS", "DEFT", "SWAG", "CUNN")},
    **{location: location for location in ("head", "chest", "midsection", "left_upper", "right_upper",
                                           "left_lower", "right_lower")},
}
# Traits are written in capitals: matched as such, so `will` (the English word) does not count.
CASE_SENSITIVE = {"WILL", "INST", "PHYS", "DEFT", "SWAG", "CUNN"}


def _pattern(word: str) -> re.Pattern[str]:
    if word in CASE_SENSITIVE:
        return re.compile(rf"(?<![A-Za-z]){word}(?![A-Za-z])")
    return re.compile(rf"(?<![a-z]){GAME_WORDS[word]}(?![a-z])", re.IGNORECASE)


def source_counts() -> dict[str, int]:
    text = "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)
    return {word: len(_pattern(word).findall(text)) for word in GAME_WORDS}


def bare_pack_names() -> set[str]:
    """Every name a pack that builds on nothing may use in its scripts."""
    checker = Checker(CheckContext())
    return (set(checker.globals.all_names()) | set(V.PRIMITIVES) | set(V.FUNCTIONS) | set(V.PIECE_ATTRIBUTES)
            | set(V.ROLL_NAMES) | set(V.PURPOSES) | set(V.ARG_TYPES) | set(V.BOUND_TYPES)
            | {p for props in V.PROPERTIES.values() for p in props} | {v for vs in V.PROPERTY_VALUES.values() for v in vs})


def name_counts() -> dict[str, int]:
    names = bare_pack_names()
    return {word: sum(1 for name in names if _pattern(word).search(name)) for word in GAME_WORDS}


def counts() -> dict[str, dict[str, int]]:
    return {"source": source_counts(), "bare pack names": name_counts()}


def test_no_count_of_a_game_word_rises() -> None:
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    now = counts()
    risen = [f"{where}: `{word}` {recorded[where][word]} -> {count}"
             for where, by_word in now.items() for word, count in by_word.items() if count > recorded[where][word]]
    assert not risen, "the engine, checker or vocabulary names more of the game than before:\n" + "\n".join(risen)
    fallen = [f"{where}: `{word}` {recorded[where][word]} -> {count}"
              for where, by_word in now.items() for word, count in by_word.items() if count < recorded[where][word]]
    assert not fallen, ("fewer game words than recorded (well done): record the new counts with "
                        "`.venv/bin/python tests/test_game_words.py --record`\n" + "\n".join(fallen))


def test_the_words_that_left_stay_out() -> None:
    """The words content now declares are names of no pack that builds on nothing."""
    names = bare_pack_names()
    for word in ("head", "chest", "midsection", "left_upper", "right_upper", "left_lower", "right_lower",
                 "WILL", "INST", "PHYS", "DEFT", "SWAG", "CUNN", "prone", "bleeding", "flaming",
                 "grapple", "grappling", "grappler", "cred", "cred_gained", "crowd_coins", "crowd_coins_per_player"):
        assert word not in names


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    RECORD.write_text(json.dumps(counts(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {RECORD}")
