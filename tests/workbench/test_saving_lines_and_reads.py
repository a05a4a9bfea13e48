"""Saving one item into a file splices the lines the parser counts (by `\\n` only, whatever line or
paragraph separators a comment or a value holds); a file is opened for editing as the loader reads
it (a byte-order mark dropped, text that is not UTF-8 refused, positioned, rather than decoded with
replacement characters that a save would write back); one save of a declaration parses the new text
of the file once; the editor's list of packs and the load that follows read each manifest once."""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl import validate_files
from nexus_dsl.content import loader
from nexus_dsl.syntax.parser import parse
from nexus_dsl.workbench import packs, store
from nexus_dsl.workbench.authoring import template
from nexus_dsl.workbench.store import StoreError, open_for_edit, save_data_item, save_declaration
from support import record_calls
from nexus_dsl.content.loader import cached_ruleset as _cached_ruleset

# The base game, whose packs declare the kinds of card its templates are asked for (`influence`).
BASE_RULES = _cached_ruleset(("base",))

FIRST = 'rule first_rule "First" {\n    text "One."\n}\n'
SECOND = 'rule second_rule "Second" {\n    text "Two."\n}\n'
SECOND_REVISED = 'rule second_rule "Second" {\n    text "Two, revised."\n}\n'
BOM = b"\xef\xbb\xbf"


@pytest.fixture
def house(content_root: Path) -> Path:
    return store.create_pack(content_root, "my_house", "House Rule: Mine", "house_rules", ["base"])


# ---------------------------------------------------------------- lines as the parser counts them
@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0c", "\x1c", "\r"])
def test_a_declaration_is_replaced_at_its_own_lines_whatever_a_comment_holds(house: Path, base,
                                                                              separator: str) -> None:
    path = house / "rules.nexus"
    kept = f"# a note{separator}that goes on\n"
    path.write_text(kept + FIRST + "\n" + SECOND, encoding="utf-8")
    save_declaration(path, SECOND_REVISED, open_for_edit(path).fingerprint, context=base)
    text = path.read_bytes().decode("utf-8")  # not read_text: it would take a lone `\r` for a new line
    assert text == kept + FIRST + "\n" + SECOND_REVISED
    assert [d.id for d in parse(text).declarations] == ["first_rule", "second_rule"]


def test_a_data_item_is_replaced_at_its_own_lines_whatever_a_value_holds(house: Path, base) -> None:
    path = house / "lanistas.yaml"
    first = '- id: first_one\n  name: "First\u2028One"\n  influence: 1\n  deception: 1\n  command: 1\n'
    path.write_text(first + "- id: second_one\n  name: Second\n  influence: 1\n  deception: 1\n  command: 1\n",
                    encoding="utf-8")
    revised = "id: second_one\nname: Second Revised\ninfluence: 2\ndeception: 1\ncommand: 1\n"
    save_data_item(path, revised, open_for_edit(path).fingerprint, context=base)
    assert path.read_text(encoding="utf-8") == first + "- id: second_one\n  name: Second Revised\n  influence: 2\n" \
        "  deception: 1\n  command: 1\n"


# ---------------------------------------------------------------- opening as the loader reads
def test_a_file_with_a_byte_order_mark_takes_a_declaration(house: Path, base) -> None:
    path = house / "rules.nexus"
    path.write_bytes(BOM + FIRST.encode())
    opened = open_for_edit(path)
    assert opened.text == FIRST
    saved = save_declaration(path, SECOND, opened.fingerprint, context=base)
    assert path.read_text(encoding="utf-8") == FIRST + "\n" + SECOND
    assert saved.backup is not None and saved.backup.read_bytes() == BOM + FIRST.encode()


NOT_UTF8 = b'rule first_rule "First" {\n    text "caf\xe9"\n}\n'


def test_a_file_that_is_not_utf8_is_not_opened_for_editing_and_says_where(house: Path) -> None:
    path = house / "rules.nexus"
    path.write_bytes(NOT_UTF8)
    with pytest.raises(store.NotEditableError) as refused:
        open_for_edit(path)
    problem = refused.value.diagnostics[0]
    assert (problem.code, problem.line, problem.column) == ("content/not_utf8", 2, 14)
    assert isinstance(refused.value, StoreError) and "line 2, column 14" in str(refused.value)


def test_a_declaration_is_never_spliced_into_a_file_that_is_not_utf8(house: Path, base) -> None:
    path = house / "rules.nexus"
    path.write_bytes(NOT_UTF8)
    with pytest.raises(store.NotEditableError):
        save_declaration(path, SECOND, store.fingerprint_of(path), context=base)
    assert path.read_bytes() == NOT_UTF8  # not rewritten with a replacement character for its é


def test_a_file_too_large_is_not_opened_for_editing(house: Path) -> None:
    path = house / "rules.nexus"
    path.write_text(FIRST + "#" * 600_000 + "\n", encoding="utf-8")
    with pytest.raises(store.NotEditableError) as refused:
        open_for_edit(path)
    assert refused.value.diagnostics[0].code == "content/too_large"


# ---------------------------------------------------------------- no work done twice
def test_one_save_of_a_declaration_parses_the_new_text_of_the_file_once(house: Path, base,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = house / "rules.nexus"
    path.write_text(FIRST + "\n" + SECOND, encoding="utf-8")
    opened = open_for_edit(path)
    parsed = record_calls(monkeypatch, store, "parse", lambda text, *_, **__: text)
    record_calls(monkeypatch, validate_files, "parse", lambda text, *_, **__: text, parsed)
    save_declaration(path, SECOND_REVISED, opened.fingerprint, context=base)
    new_text = path.read_text(encoding="utf-8")
    assert new_text == FIRST + "\n" + SECOND_REVISED
    assert parsed.count(new_text) == 1
    assert parsed.count(opened.text) == parsed.count(SECOND_REVISED) == 1  # to find the old one, to read the new


def test_the_list_of_packs_and_their_load_read_each_manifest_once(content_root: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    store.create_pack(content_root, "my_house", "House Rule: Mine", "house_rules", ["base"])
    packs.clear_cache()
    parsed = record_calls(monkeypatch, loader, "load_yaml_with_positions", lambda text, file, **_: Path(file))
    result = packs.load_packs(["my_house"], content_root)
    assert result.ok, result.diagnostics
    assert sorted(path.parent.name for path in parsed if path.name == "pack.yaml") == ["base", "my_house"]


def test_a_template_saved_into_a_new_file_still_loads(house: Path, base) -> None:
    path = house / "cards.nexus"
    save_declaration(path, template("influence", "tipped_scales", "Tipped Scales", BASE_RULES), store.ABSENT, context=base)
    assert [d.id for d in parse(path.read_text(encoding="utf-8")).declarations] == ["tipped_scales"]
