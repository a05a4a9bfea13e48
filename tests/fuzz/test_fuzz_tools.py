"""The fuzzer's own instruments: deterministic inputs, a corpus of every content type, failure
detection of each kind, a shortcut loader equal to the real one, a minimiser, and a process pool that
survives a worker that hangs outside Python or dies."""

from __future__ import annotations

import os
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator

import fuzz_campaign
import pytest
from fuzz_corpus import CONTENT, DATA_FILE_TYPES, data_corpus, make_input, scenario_corpus, script_corpus
from fuzz_harness import (Blamed, Failure, OverBudget, Workspace, cpu_budget, empty_pack, load_on_base,
                          position_problem, run_input, run_stage, warm_up, write_file, FUZZ_MANIFEST)
from fuzz_minimise import minimise
from fuzz_mutators import (GENERIC, INVALID_UTF8, LINE_BREAKS_AND_SPACES, LONG_DIGITS, SCRIPT_MUTATORS,
                           YAML_MUTATORS, Corpus, alias_bomb, mutate, to_bytes)

from nexus_dsl.content.loader import load_ruleset_collecting
from nexus_dsl.errors import Diagnostic, RulesError


@pytest.fixture(scope="module")
def workspace() -> Iterator[Workspace]:
    space = Workspace()
    warm_up(space)
    yield space
    space.close()


# ---------------------------------------------------------------- inputs
@pytest.mark.parametrize("kind", ["script", "data", "scenario"])
def test_an_input_is_the_same_bytes_and_mutations_every_time(kind: str) -> None:
    for number in (0, 7, 12345):
        first, second = make_input(kind, number), make_input(kind, number)
        assert (first.data, first.steps, first.source.path) == (second.data, second.steps, second.source.path)
    assert len({make_input(kind, n).data for n in range(30)}) > 25


def test_the_corpus_holds_every_script_every_data_type_and_the_scenarios() -> None:
    assert {f.path for f in script_corpus()} == set(CONTENT.rglob("*.nexus"))
    corpus = data_corpus()
    assert set(corpus) == set(DATA_FILE_TYPES)
    assert all(corpus[data_type] for data_type in DATA_FILE_TYPES)
    assert {f.path.name for f in corpus["pack"]} == {"pack.yaml"}
    assert len(corpus["pack"]) == len(list(CONTENT.rglob("pack.yaml")))
    assert len(scenario_corpus()) > 500


def test_every_data_type_and_many_sources_are_drawn() -> None:
    assert {make_input("data", n).data_type for n in range(300)} == set(DATA_FILE_TYPES)
    assert len({make_input("script", n).source.path for n in range(300)}) > 40


@pytest.mark.parametrize("mutator", SCRIPT_MUTATORS + YAML_MUTATORS, ids=lambda m: m.__name__)
def test_each_mutator_is_seeded_and_describes_its_edit(mutator: Callable[..., tuple[str, str]]) -> None:
    text = (CONTENT / "base" / "barges.yaml").read_text(encoding="utf-8")
    corpus = Corpus((text, (CONTENT / "base" / "commands" / "melee.nexus").read_text(encoding="utf-8")))
    results = [mutator(random.Random(seed), text, corpus) for seed in (1, 1, 2)]
    assert results[0] == results[1]
    assert all(isinstance(new, str) and detail for new, detail in results)
    changed = sum(mutator(random.Random(seed), text, corpus)[0] != text for seed in range(20))
    assert changed >= 15, f"{mutator.__name__} changed the text only {changed} times in 20"


def test_the_hostile_pieces_are_what_they_claim() -> None:
    assert len(LONG_DIGITS) == 4301
    assert to_bytes(INVALID_UTF8["0xff"]) == b"\xff"
    assert LINE_BREAKS_AND_SPACES["NEL"] == "\x85" and LINE_BREAKS_AND_SPACES["U+2028"] == "\u2028"
    bomb = alias_bomb(9, 9)
    assert len(bomb) < 500 and bomb.count("&l") == 9
    import yaml  # noqa: PLC0415 - only this test needs the loader itself
    assert len(yaml.safe_load(alias_bomb(3, 3))[2]) == 3


def test_a_mutation_chain_lists_every_step() -> None:
    mutated = mutate(random.Random(5), "a: 1\n", Corpus(("a: 1\n",)), GENERIC, most=3)
    assert 1 <= len(mutated.steps) <= 3 and all(": " in step for step in mutated.steps)


# ---------------------------------------------------------------- failure detection
def test_an_exception_is_a_traceback_with_where_it_was_raised() -> None:
    failures: list[Failure] = []
    assert run_stage("load", lambda: {}["missing"], failures) is None
    assert [f.kind for f in failures] == ["traceback"]
    assert failures[0].signature.startswith("traceback|load|KeyError|")
    assert "KeyError" in failures[0].detail


def test_a_documented_error_is_handed_back_to_be_judged() -> None:
    failures: list[Failure] = []
    error = RulesError(Diagnostic("rules/x", "refused", "f.nexus", 3, 4))

    def refuse() -> None:
        raise error

    assert run_stage("bout", refuse, failures) is error and failures == []


def test_runaway_work_is_a_hang_even_inside_except_exception() -> None:
    def swallowing_loop() -> None:
        while True:
            try:
                sum(range(1000))
            except Exception:  # noqa: BLE001 - code under test may do this; the budget must still stop it
                pass

    failures: list[Failure] = []
    started = time.process_time()
    run_stage("load", swallowing_loop, failures, budget=0.3)
    assert [f.kind for f in failures] == ["hang"]
    assert time.process_time() - started < 2
    with pytest.raises(OverBudget), cpu_budget(0.1):
        while True:
            pass


@pytest.mark.parametrize("line, column, problem", [
    (0, 0, "no position"), (2, 0, "no position"), (0, 3, "no position"), (4, 1, "past the end of the file"),
    (1, 6, "past the end of line 1"), (1, 5, None), (3, 1, None),
])
def test_a_position_must_name_a_place_in_the_file(line: int, column: int, problem: str | None) -> None:
    blamed = Blamed(frozenset({"f.nexus"}), "abcd\nxy\n")  # three lines by `\n`: "abcd", "xy", ""
    found = position_problem(Diagnostic("syntax/x", "m", "f.nexus", line, column), blamed)
    assert (found is None) if problem is None else (problem in found)


def test_the_shortcut_loader_reports_what_the_loader_reports(workspace: Workspace) -> None:
    """`load_on_base` parses base once per process; for the same pack it must find the same problems
    as `load_ruleset_collecting`."""
    for number in (1, 3):
        item = make_input("script", number)
        for data in (item.data, item.source.text.encode("utf-8")):
            empty_pack(workspace.script_pack, FUZZ_MANIFEST.format(base="base"))
            write_file(workspace.script_pack / item.source.relative, data)
            assert _outcome(lambda: load_on_base(workspace.script_pack)) == \
                _outcome(lambda: load_ruleset_collecting([workspace.script_pack])), item.describe()


def _outcome(load: Callable[[], Any]) -> object:
    try:
        ruleset, diagnostics = load()
    except Exception as error:  # noqa: BLE001 - both loaders must fail alike too
        return type(error).__name__
    return ruleset is None, sorted((d.code, d.file, d.line, d.column, d.message) for d in diagnostics)


def test_unchanged_content_passes_every_stage(workspace: Workspace) -> None:
    """The harness itself finds nothing wrong with the real files (else every input would fail)."""
    for kind, number in (("script", 0), ("data", 0), ("data", 1), ("scenario", 3)):
        item = make_input(kind, number)
        original = replace(item, data=item.source.text.encode("utf-8"))
        assert run_input(original, workspace) == [], original.source.shown


# ---------------------------------------------------------------- minimising
def test_the_minimiser_keeps_only_what_the_failure_needs() -> None:
    data = b"line one\nline two \xff here\nline three\n" * 5
    smallest = minimise(data, lambda candidate: b"\xff" in candidate, seconds=10)
    assert smallest == b"\xff"
    assert minimise(b"abc", lambda candidate: candidate == b"abc", seconds=5) == b"abc"


# ---------------------------------------------------------------- the pool
def test_the_pool_gives_what_one_process_gives() -> None:
    one = fuzz_campaign.run_campaign("data", 40, first=100, workers=1)
    two = fuzz_campaign.run_campaign("data", 40, first=100, workers=2)
    assert {n: [f.signature for f in fs] for n, fs in one.failed.items()} == \
        {n: [f.signature for f in fs] for n, fs in two.failed.items()}


def misbehaving_runner(item: Any, workspace: Workspace) -> list[Failure]:
    """Input 3 waits without using CPU (only the wall-clock watchdog can notice); input 5 kills its
    worker. (Module level: the workers import it by name.)"""
    if item.number == 3:
        time.sleep(3600)
    if item.number == 5:
        os._exit(7)
    return []


def test_a_worker_stuck_outside_python_is_killed_and_one_that_dies_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fuzz_campaign, "WALL_LIMIT", 3.0)  # the watchdog runs in this process
    report = fuzz_campaign.run_campaign("data", 10, first=0, workers=2, runner=misbehaving_runner)
    assert sorted(report.failed) == [3, 5]
    assert report.failed[3][0].kind == "hang" and "killed after 3 s" in report.failed[3][0].summary
    assert report.failed[5][0].kind == "traceback" and "exit code 7" in report.failed[5][0].summary


def test_a_failure_is_written_with_its_replay_and_its_minimised_bytes(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fuzz_campaign, "OUTPUT", tmp_path)
    report = fuzz_campaign.CampaignReport("script", 0, 1, 1)
    failure = Failure("traceback", "load", "traceback|load|X|here", "X: boom", "trace")
    report.failed = {0: [failure]}

    def fails_on_first_byte(item: Any, workspace: Workspace) -> list[Failure]:
        return [failure] if item.data[:1] == make_input("script", 0).data[:1] else []

    monkeypatch.setattr(fuzz_campaign, "run_input", fails_on_first_byte)
    distinct = fuzz_campaign.keep_failures(report, seconds_each=5, seconds_in_all=5)
    entry = distinct[failure.signature]
    assert entry.minimised is not None and entry.minimised.read_bytes() == make_input("script", 0).data[:1]
    description = entry.minimised.with_name(entry.minimised.name.replace(".min.nexus", ".txt")).read_text()
    assert "replay" in description and "script #0" in description and "X: boom" in description
    assert "script #0" in fuzz_campaign.failure_report(report, distinct)
