"""Properties of checking any text: it never raises, never runs away, and positions every problem.

Hypothesis draws arbitrary text, text made of the language's own tokens and vocabulary, and real
content files mutated by the fuzzer's mutators (their random choices drawn by hypothesis, so a
failure shrinks to few, small edits). Runs are deterministic (`derandomize=True`, no example
database); `NEXUS_FUZZ_EXAMPLES` sets the examples per property (`make fuzz` raises it).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from fuzz_corpus import data_corpus, script_corpus
from fuzz_harness import Blamed, Failure, base_ruleset, judge_diagnostics, run_stage
from fuzz_mutators import (EMPTY_YAML_FILES, LINE_BREAKS_AND_SPACES, SCRIPT_MUTATORS, SCRIPT_TOKENS,
                           VOCABULARY_WORDS, YAML_MUTATORS, YAML_TOKENS, Corpus, mutate)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nexus_dsl.schema import load_yaml_with_positions
from nexus_dsl.validate_files import check_script_text, check_yaml_text
from nexus_dsl.workbench.authoring import KINDS, validate_item

EXAMPLES = int(os.environ.get("NEXUS_FUZZ_EXAMPLES", 60))
PROPERTY = settings(derandomize=True, database=None, deadline=None, max_examples=EXAMPLES,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Text as a file holds it: any character but lone surrogates (which UTF-8 text cannot contain).
ANY_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=400)
ODD_CHARACTERS = tuple(LINE_BREAKS_AND_SPACES.values())
SCRIPT_PIECES = st.sampled_from(SCRIPT_TOKENS + VOCABULARY_WORDS + ODD_CHARACTERS + (" ", "\n", "\n    ", '"x"', "1"))
SCRIPT_TEXT = st.one_of(ANY_TEXT, st.lists(SCRIPT_PIECES, max_size=60).map(" ".join),
                        st.lists(SCRIPT_PIECES, max_size=60).map("".join))
YAML_PIECES = st.sampled_from(YAML_TOKENS + ODD_CHARACTERS + EMPTY_YAML_FILES + ("id", "x", " ", "\n", "\n  ", "1"))
YAML_TEXT = st.one_of(ANY_TEXT, st.lists(YAML_PIECES, max_size=60).map("".join))
#: CPU seconds one example may take. Far above the campaign's stage budgets: a property is about
#: never raising and always positioning, and an example that lands near a tight budget would make
#: hypothesis report a flaky failure; the campaign (test_fuzz_campaign.py) judges slowness.
EXAMPLE_BUDGET = 30.0
DATA_FILES = {"barges": "barges.yaml", "lanistas": "lanistas.yaml", "motivations": "motivations.yaml",
              "objects": "objects.yaml", "pack": "pack.yaml"}


def _assert_clean(stage: str, call, file: str, text: str) -> None:
    """`call()` (returning diagnostics) neither raised, ran away nor left a problem unpositioned."""
    failures: list[Failure] = []
    outcome = run_stage(stage, call, failures, budget=EXAMPLE_BUDGET)
    judge_diagnostics(stage, outcome, outcome if isinstance(outcome, list) else None,
                      Blamed(frozenset({file}), text), failures)
    assert not failures, f"text {text[:600]!r}:\n" + "\n".join(f.describe() for f in failures)


def _mutated(draw_random: random.Random, files, mutators) -> str:
    source = draw_random.choice(files)
    return mutate(draw_random, source.text, Corpus(tuple(f.text for f in files)), mutators).text


@PROPERTY
@given(text=SCRIPT_TEXT)
def test_any_text_checked_as_a_script_never_raises_and_positions_every_problem(text: str) -> None:
    _assert_clean("check_script_text", lambda: check_script_text(text, "any.nexus", base_ruleset()), "any.nexus", text)


@PROPERTY
@given(rng=st.randoms(use_true_random=False))
def test_a_mutated_content_script_never_raises_and_positions_every_problem(rng: random.Random) -> None:
    text = _mutated(rng, script_corpus(), SCRIPT_MUTATORS)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # invalid UTF-8 bytes: an editor never holds them (the loader's case)
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    _assert_clean("check_script_text", lambda: check_script_text(text, "m.nexus", base_ruleset()), "m.nexus", text)


@PROPERTY
@given(text=YAML_TEXT, data_type=st.sampled_from(sorted(DATA_FILES)))
def test_any_text_checked_as_yaml_data_never_raises_and_positions_every_problem(text: str, data_type: str) -> None:
    name = DATA_FILES[data_type]
    _assert_clean("check_yaml_text", lambda: check_yaml_text(text, name, Path(name), base_ruleset()), name, text)


@PROPERTY
@given(rng=st.randoms(use_true_random=False), data_type=st.sampled_from(sorted(DATA_FILES)))
def test_a_mutated_data_file_never_raises_and_positions_every_problem(rng: random.Random, data_type: str) -> None:
    text = _mutated(rng, data_corpus()[data_type], YAML_MUTATORS)
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    name = DATA_FILES[data_type]
    _assert_clean("check_yaml_text", lambda: check_yaml_text(text, name, Path(name), base_ruleset()), name, text)


@PROPERTY
@given(text=YAML_TEXT)
def test_loading_any_yaml_gives_data_or_positioned_problems(text: str) -> None:
    _assert_clean("check_yaml_text", lambda: load_yaml_with_positions(text, "any.yaml") and [], "any.yaml", text)


@pytest.mark.parametrize("kind", KINDS)
def test_validating_any_item_text_never_raises_and_positions_every_problem(kind: str) -> None:
    pieces = SCRIPT_TEXT if kind in ("command", "trait_ability", "hazard", "turning_point", "influence", "weapon",
                                     "rule") else YAML_TEXT

    @PROPERTY
    @given(text=pieces)
    def check(text: str) -> None:
        _assert_clean("check_script_text", lambda: validate_item(kind, text, base_ruleset()).diagnostics, "<item>",
                      text)

    check()
