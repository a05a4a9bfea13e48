"""The catalogue of known-bad snippets (tests/check/known_bad/catalogue.yaml): mistakes a designer
new to the language makes, each checked through the editor's validation of one item (parse, check,
JSON Schema) to give exactly one diagnostic, at its place, in the words written for it, and
through `nexus check` of a lone file to give the same one. docs/common-mistakes.md is generated from the catalogue and kept in step
here; after changing the catalogue, write it again with

    PYTHONPATH=$PWD python tests/check/test_known_bad.py --write
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = Path(__file__).resolve().parent / "known_bad" / "catalogue.yaml"
PAGE = ROOT / "docs" / "common-mistakes.md"
FIELDS = {"mistake", "kind", "snippet", "code", "severity", "line", "column", "end_column", "message", "hint"}


def entries() -> list[dict[str, Any]]:
    loaded = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
    assert isinstance(loaded, list)
    return loaded


ENTRIES = entries()


@pytest.fixture(scope="module")
def base_rules() -> Any:
    from nexus_dsl.content.loader import cached_ruleset

    return cached_ruleset(("base",))


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["mistake"] for entry in ENTRIES])
def test_a_known_mistake_gets_one_positioned_message_of_its_own(entry: dict[str, Any], base_rules: Any) -> None:
    from nexus_dsl.workbench.authoring import validate_item

    found = validate_item(entry["kind"], entry["snippet"], base_rules).diagnostics
    assert len(found) == 1, [d.format(entry["snippet"]) for d in found]
    (diagnostic,) = found
    assert diagnostic.code == entry["code"]
    assert diagnostic.severity == entry.get("severity", "error")
    assert (diagnostic.line, diagnostic.column, diagnostic.end_column) == (entry["line"], entry["column"],
                                                                            entry["end_column"])
    assert diagnostic.message == entry["message"]
    assert entry["hint"] in (diagnostic.hint or "")


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["mistake"] for entry in ENTRIES])
def test_nexus_check_of_a_lone_file_gives_the_same_message(entry: dict[str, Any], base_rules: Any) -> None:
    from nexus_dsl.validate_files import check_script_text

    found = check_script_text(entry["snippet"], f"{entry['kind']}.nexus", base_rules)
    assert [(d.code, d.line, d.column, d.message) for d in found] == [
        (entry["code"], entry["line"], entry["column"], entry["message"])]


def test_the_catalogue_is_well_formed() -> None:
    assert len(ENTRIES) >= 30
    for entry in ENTRIES:
        assert set(entry) <= FIELDS and FIELDS - {"severity"} <= set(entry), entry["mistake"]
        assert entry["end_column"] > entry["column"] >= 1 and entry["line"] >= 1
        assert entry["snippet"].startswith(entry["kind"] + " "), "a snippet declares the kind it is checked as"
        assert "expected `" not in entry["message"] + entry["hint"], "a list of tokens is no message of its own"
    assert len({entry["snippet"] for entry in ENTRIES}) == len(ENTRIES)
    assert len({entry["mistake"] for entry in ENTRIES}) == len(ENTRIES)


def render_page(catalogue: list[dict[str, Any]]) -> str:
    """docs/common-mistakes.md: each mistake, its snippet and the message it gets."""
    from nexus_dsl.errors import Diagnostic

    parts = [
        "# Common mistakes\n",
        "What a designer new to the language often writes, and what the editor and `nexus check` answer. "
        "Each example is checked by the tests (tests/check/known_bad/catalogue.yaml, "
        "tests/check/test_known_bad.py) to give exactly this message, so the page stays true; "
        "this page is generated from that catalogue.\n",
    ]
    for entry in catalogue:
        diagnostic = Diagnostic(entry["code"], entry["message"], f"{entry['kind']}.nexus", entry["line"],
                                entry["column"], entry["end_column"], entry["hint"], entry.get("severity", "error"))
        parts.append(f"## {entry['mistake']}\n")
        parts.append(f"```\n{entry['snippet'].rstrip()}\n```\n")
        parts.append(f"```text\n{diagnostic.format(entry['snippet'])}\n```\n")
    return "\n".join(parts)


def test_the_page_of_common_mistakes_is_the_catalogue() -> None:
    assert PAGE.read_text(encoding="utf-8") == render_page(ENTRIES), (
        "docs/common-mistakes.md is out of step: run `PYTHONPATH=$PWD python tests/check/test_known_bad.py --write`")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    PAGE.write_text(render_page(ENTRIES), encoding="utf-8")
