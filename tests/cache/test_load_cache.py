"""The load cache: a pack loaded from it is the pack loaded without it, to the last position and
diagnostic; a changed file is parsed again; an entry that cannot be trusted is ignored and
replaced; no cache (turned off, or a folder that cannot be used) loads the same."""

from __future__ import annotations

import dataclasses
import importlib
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from nexus_dsl import cache
from nexus_dsl.content.loader import load_collecting_sources, load_ruleset
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.syntax import parse_cache, parser
from support import write_pack

# The module, not the function of the same name that `nexus_dsl.schema` exports.
validate_module = importlib.import_module("nexus_dsl.schema.validate")

BROKEN_SCRIPT = 'rule ok_one "Fine" {\n    param ok_one_value = 2\n}\n\nrule broken "Broken" {\n    param = 3\n}\n'
BAD_SCHEMA_DATA = "id: bad_barge\nname: Bad\ndescription: Has a stray key.\nobjects: []\nhazards: []\nstray: 1\n"
FINE_SCRIPT = 'rule fine_rule "Fine" {\n    param fine_value = 2\n}\n'


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty load cache of this test's own, and a process that remembers nothing yet."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_VAR, str(folder))
    as_new_process()
    yield folder
    as_new_process()


def as_new_process() -> None:
    """Forget what this process remembers, as a new process starts: only the disk cache is left."""
    parse_cache.forget()
    validate_module.forget_verdicts()
    parser.grammar_parser.cache_clear()


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the parser is asked to parse, in order (a text kept is parsed under a stand-in name)."""
    seen: list[str] = []
    real = parser.parse

    def counting(source: str, file: str = "<input>", *args: Any, **kwargs: Any) -> Any:
        seen.append(source)
        return real(source, file, *args, **kwargs)

    monkeypatch.setattr(parser, "parse", counting)
    return seen


def entries(folder: Path, namespace: str = "") -> list[Path]:
    return sorted(folder.glob(f"{namespace}*.entry"))


def same_tree(left: Any, right: Any) -> bool:
    """Equal including every source position (the syntax tree's equality leaves positions out)."""
    if dataclasses.is_dataclass(left) and not isinstance(left, type):
        return type(left) is type(right) and all(
            same_tree(getattr(left, f.name), getattr(right, f.name)) for f in dataclasses.fields(left))
    if isinstance(left, (tuple, list)):
        return type(left) is type(right) and len(left) == len(right) and all(map(same_tree, left, right))
    return bool(left == right)


def same_ruleset(left: Ruleset, right: Ruleset) -> bool:
    if left != right or dict(left.sources) != dict(right.sources) or left.packs != right.packs:
        return False
    for kind, items in left.scripts.items():
        for ident, item in items.items():
            other = right.scripts[kind][ident]
            if item.origin != other.origin or not same_tree(item.declaration, other.declaration):
                return False
    return all(item.positions == right.data[kind][ident].positions and item.origin == right.data[kind][ident].origin
               for kind, items in left.data.items() for ident, item in items.items())


def test_a_pack_loaded_from_the_cache_is_the_pack_loaded_without_it(cache_folder: Path, parses: list[str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_ruleset(["base"])
    assert parses and entries(cache_folder, "parsed")
    parsed_first = len(parses)
    as_new_process()
    from_cache = load_ruleset(["base"])
    assert len(parses) == parsed_first  # nothing parsed again
    monkeypatch.setenv(cache.ENV_VAR, "off")
    as_new_process()
    without = load_ruleset(["base"])
    assert same_ruleset(from_cache, first) and same_ruleset(from_cache, without)


def test_a_second_load_in_one_process_parses_nothing_and_has_declarations_of_its_own(
        cache_folder: Path, parses: list[str]) -> None:
    first = load_ruleset(["base"])
    parsed = len(parses)
    second = load_ruleset(["base"])
    assert len(parses) == parsed
    assert same_ruleset(first, second)
    assert all(item.declaration is not second.scripts[kind][ident].declaration
               for kind, items in first.scripts.items() for ident, item in items.items())


def test_diagnostics_are_the_same_from_the_cache(cache_folder: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    pack = write_pack(tmp_path / "packs" / "broken", "broken", {
        "rules/broken.nexus": BROKEN_SCRIPT, "barges/bad.yaml": BAD_SCHEMA_DATA}, builds_on="[base]")
    first = load_collecting_sources([pack])
    assert {d.code for d in first.diagnostics} >= {"schema/unknown_key"}
    assert any(d.code.startswith("syntax/") for d in first.diagnostics)
    as_new_process()
    again = load_collecting_sources([pack])
    monkeypatch.setenv(cache.ENV_VAR, "off")
    as_new_process()
    without = load_collecting_sources([pack])
    assert first.diagnostics == again.diagnostics == without.diagnostics
    assert first.sources == again.sources == without.sources


def test_a_changed_file_is_parsed_again(cache_folder: Path, tmp_path: Path, parses: list[str]) -> None:
    pack = write_pack(tmp_path / "packs" / "mine", "mine", {"rules/a.nexus": FINE_SCRIPT}, builds_on="[base]")
    load_ruleset([pack])
    as_new_process()
    parses.clear()
    (pack / "rules" / "a.nexus").write_text(FINE_SCRIPT.replace("= 2", "= 5"), encoding="utf-8")
    changed = load_ruleset([pack])
    assert parses == [FINE_SCRIPT.replace("= 2", "= 5")]  # the changed file only
    assert changed.setting("fine_value") == 5


def test_a_pack_copied_elsewhere_is_not_parsed_again_and_names_its_own_files(
        cache_folder: Path, tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The cache keeps a parse without the file's name: a content root moved, a pack copied, a test's
    # temporary folder parse nothing again, and every position and diagnostic names the file loaded.
    packs = {"fine": {"rules/a.nexus": FINE_SCRIPT}, "broken": {"rules/broken.nexus": BROKEN_SCRIPT}}
    for ident, files in packs.items():
        load_collecting_sources([write_pack(tmp_path / "one" / ident, ident, files, builds_on="[base]")])
    as_new_process()
    parses.clear()
    copies = [write_pack(tmp_path / "elsewhere" / ident, ident, files, builds_on="[base]")
              for ident, files in packs.items()]
    from_cache = [load_collecting_sources([copy]) for copy in copies]
    assert parses == []
    monkeypatch.setenv(cache.ENV_VAR, "off")
    as_new_process()
    without = [load_collecting_sources([copy]) for copy in copies]
    fine, broken = from_cache
    assert fine.ruleset is not None and without[0].ruleset is not None
    assert same_ruleset(fine.ruleset, without[0].ruleset)
    item = fine.ruleset.scripts["rule"]["fine_rule"]
    assert item.origin.file.endswith("elsewhere/fine/rules/a.nexus")
    assert item.declaration.pos.file == item.origin.file
    assert broken.diagnostics == without[1].diagnostics
    syntax = [d for d in broken.diagnostics if d.code.startswith("syntax/")]
    assert syntax and all(d.file.endswith("elsewhere/broken/rules/broken.nexus") for d in syntax)


def test_a_text_holding_the_stand_in_name_is_parsed_as_written_every_time(cache_folder: Path,
                                                                            parses: list[str]) -> None:
    text = FINE_SCRIPT.replace('"Fine"', '"' + parse_cache.STAND_IN_NAME + '"')
    for _ in range(2):
        module = parse_cache.parse_file(text, "rules/odd.nexus")
        assert module.declarations[0].name == parse_cache.STAND_IN_NAME
        assert module.declarations[0].pos.file == "rules/odd.nexus"
    assert parses == [text, text] and not entries(cache_folder, "parsed")


def corrupt(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flipped":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:])
    elif how == "garbage":
        path.write_bytes(b"not a cache entry at all")
    else:
        path.write_bytes(b"")


@pytest.mark.parametrize("how", ["truncated", "flipped", "garbage", "empty"])
def test_a_corrupt_entry_is_ignored_and_replaced(cache_folder: Path, parses: list[str], how: str) -> None:
    first = load_ruleset(["base"])
    damaged = entries(cache_folder)
    assert damaged
    for path in damaged:
        corrupt(path, how)
    as_new_process()
    parses.clear()
    again = load_ruleset(["base"])
    assert parses  # the damaged entries were not used
    assert same_ruleset(again, first)
    as_new_process()
    parses.clear()
    load_ruleset(["base"])
    assert not parses  # ... and were written again


def test_an_entry_of_another_key_is_a_miss(cache_folder: Path) -> None:
    cache.write("parsed", "one key", "one value")
    cache.write("parsed", "another key", "another value")
    one, another = entries(cache_folder)
    assert cache.read("parsed", "one key") == "one value"
    os.replace(another, one)  # the other entry under this one's name: a foreign entry
    assert cache.read("parsed", "one key") is cache.MISS


def test_an_entry_of_an_unexpected_type_is_a_miss(cache_folder: Path, tmp_path: Path, parses: list[str]) -> None:
    pack = write_pack(tmp_path / "packs" / "mine", "mine", {"rules/a.nexus": FINE_SCRIPT}, builds_on="[base]")
    load_ruleset([pack])
    for key in list(parse_cache._memo):  # each entry rewritten, under its own key, as a string
        cache.write("parsed", key, "not a module")
    as_new_process()
    parses.clear()
    assert load_ruleset([pack]).setting("fine_value") == 2
    assert parses


@pytest.mark.parametrize("value", ["off", "OFF", "", "  "])
def test_a_cache_turned_off_writes_nothing_and_loads_the_same(value: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV_VAR, value)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_folder() is None
    as_new_process()
    assert load_ruleset(["base"]).setting("crowd_pleaser_bonus") == 1
    assert not list(tmp_path.rglob("*.entry"))
    as_new_process()


def test_the_folder_defaults_to_the_user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_folder() == tmp_path / "xdg" / "nexus_dsl"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_folder() == tmp_path / "home" / ".cache" / "nexus_dsl"


def test_a_folder_that_cannot_be_made_means_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("in the way")
    monkeypatch.setenv(cache.ENV_VAR, str(blocker / "cache"))
    as_new_process()
    assert load_ruleset(["base"]).setting("crowd_pleaser_bonus") == 1
    assert cache.read("parsed", "anything") is cache.MISS
    as_new_process()


def test_a_folder_others_may_write_into_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   parses: list[str]) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv(cache.ENV_VAR, str(shared))
    as_new_process()
    load_ruleset(["base"])
    assert not entries(shared)
    as_new_process()
    parses.clear()
    load_ruleset(["base"])
    assert parses  # parsed again: nothing came from the shared folder
    as_new_process()


def test_schema_verdicts_come_from_the_cache(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load_ruleset(["base"])
    assert entries(cache_folder, "verdicts")
    as_new_process()

    def no_validating(*args: Any) -> bool:
        raise AssertionError("validated again")

    monkeypatch.setattr(validate_module, "_surely_valid", no_validating)
    assert load_ruleset(["base"]).setting("crowd_pleaser_bonus") == 1


def test_an_invalid_declaration_is_reported_every_time(cache_folder: Path, tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "packs" / "bad", "bad", {"barges/bad.yaml": BAD_SCHEMA_DATA}, builds_on="[base]")
    for _ in range(2):
        as_new_process()
        assert [d.code for d in load_collecting_sources([pack]).diagnostics] == ["schema/unknown_key"]


def test_the_grammar_compiled_from_the_cache_parses_the_same(cache_folder: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "content" / "base" / "rules" / "combat.nexus").read_text()
    compiled = parser.grammar_parser()
    assert entries(cache_folder, "grammar")
    as_new_process()
    loaded = parser.grammar_parser()
    assert loaded is not compiled
    # All but the grammar's text and its unanalysed form, which `Lark.save` does not keep and nothing reads.
    assert set(vars(compiled)) - set(vars(loaded)) == {"grammar", "source_grammar"}
    assert loaded.ignore_tokens == compiled.ignore_tokens
    assert list(loaded.lex(text)) == list(compiled.lex(text))
    assert loaded.parse(text) == compiled.parse(text)
    assert same_tree(parser.parse(text, "combat.nexus"), parser._ToAst("combat.nexus").transform(compiled.parse(text)))


def test_the_cache_is_kept_within_its_bounds(cache_folder: Path) -> None:
    for number in range(10):
        cache.write("parsed", f"key {number}", "x" * 100)
        os.utime(cache._entry_path(cache_folder, "parsed", f"key {number}"), (1000 + number, 1000 + number))
    cache.prune(cache_folder, max_entries=4)
    assert [cache.read("parsed", f"key {number}") is cache.MISS for number in range(10)] == [True] * 6 + [False] * 4
    cache.prune(cache_folder, max_entries=100, max_bytes=1)
    assert not entries(cache_folder)


def kept_files() -> list[str]:
    """The names of the parsed files the process keeps (the tests name `f{n}.nexus` the text whose
    value is n), oldest kept first."""
    kept = [parse_cache._outcome_of(pickled, "any name") for pickled in parse_cache._memo.values()]
    # The outcomes are kept without the files' names: each text is known by its value, `= number`.
    return [f"f{module.declarations[0].clauses[0].value.value}.nexus" for module in kept if isinstance(module, A.Module)]


def test_the_process_keeps_its_parsed_files_within_bounds(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [FINE_SCRIPT.replace("= 2", f"= {number}") for number in range(6)]
    bounds = parse_cache.MEMO_SIZE, parse_cache.MEMO_BYTES
    parse_cache.parse_file(texts[0], "f0.nexus")
    (one_size,) = map(len, parse_cache._memo.values())
    monkeypatch.setattr(parse_cache, "MEMO_BYTES", 2 * one_size + 1)
    parse_cache.forget()  # the memo takes its bounds when it is made
    for number, text in enumerate(texts):
        parse_cache.parse_file(text, f"f{number}.nexus")
    assert kept_files() == ["f4.nexus", "f5.nexus"]  # two fit in the bytes: the most recently used
    parse_cache.parse_file(texts[4], "f4.nexus")  # used again: f5 is now the least recently used
    parse_cache.parse_file(texts[0], "f0.nexus")
    assert sorted(kept_files()) == ["f0.nexus", "f4.nexus"]
    monkeypatch.setattr(parse_cache, "MEMO_SIZE", 1)  # the same bytes, one outcome at most
    parse_cache.forget()
    for number, text in enumerate(texts):
        parse_cache.parse_file(text, f"f{number}.nexus")
    assert kept_files() == ["f5.nexus"]
    monkeypatch.setattr(parse_cache, "MEMO_BYTES", one_size - 1)  # each outcome larger than the whole budget
    parse_cache.forget()
    assert parse_cache.parse_file(texts[1], "f1.nexus").file == "f1.nexus"  # parsed all the same, not kept
    assert not parse_cache._memo
    monkeypatch.setattr(parse_cache, "MEMO_SIZE", bounds[0])
    monkeypatch.setattr(parse_cache, "MEMO_BYTES", bounds[1])
    parse_cache.forget()  # the next tests get a memo of the usual bounds
    assert parse_cache._memo.maxsize == bounds[1]


def test_the_process_keeps_its_schema_verdicts_within_bounds(cache_folder: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    manifests = [{"id": f"pack_{number}", "name": "A pack", "version": "1.0.0", "builds_on": []}
                 for number in range(4)]
    assert all(validate_module.validate(manifest, "pack", file="pack.yaml", remember=True) == [] for manifest in manifests[:2])
    kept = validate_module._verdicts()
    assert len(kept) == 2 and kept.maxsize == validate_module.MAX_VERDICTS
    monkeypatch.setattr(validate_module, "MAX_VERDICTS", 2)
    validate_module.forget_verdicts()  # read again, within the new bound
    assert validate_module.validate(manifests[0], "pack", file="pack.yaml", remember=True) == []  # remembered: now the most recent
    assert validate_module.validate(manifests[2], "pack", file="pack.yaml", remember=True) == []
    digests = [validate_module._verdict_key(manifest, "pack") for manifest in manifests]
    assert sorted(validate_module._verdicts()) == sorted([digests[0], digests[2]])  # pack_1's, the least recent, went
    validate_module.save_verdicts()
    monkeypatch.setattr(validate_module, "MAX_VERDICTS", 50_000)
    validate_module.forget_verdicts()
    assert set(validate_module._verdicts()) == {digests[0], digests[2]}  # what was kept is what was saved
