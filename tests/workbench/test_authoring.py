"""Authoring one item: templates, duplicates, validation in context, card previews, form fields."""

from __future__ import annotations

import pytest
import yaml

from nexus_dsl.syntax.parser import parse
from nexus_dsl.workbench.authoring import (DATA_KINDS, KINDS, SCRIPT_FOLDERS, SCRIPT_KINDS, AuthoringError,
                                           apply_fields, card_face_html, declaration_file, duplicate, fields_of,
                                           kinds_of, template, validate_item)

from .conftest import CONTENT
from nexus_dsl.content.loader import cached_ruleset as _cached_ruleset

# The base game, whose packs declare the kinds of card its templates are asked for (`influence`).
BASE_RULES = _cached_ruleset(("base",))


@pytest.mark.parametrize("kind", KINDS)
def test_every_template_validates_cleanly_against_base(kind: str, base) -> None:
    text = template(kind, f"new_{kind}", "A New <Thing>")
    result = validate_item(kind, text, base)
    assert result.diagnostics == [], [d.format(text) for d in result.diagnostics]
    assert result.ok and result.face is not None
    assert result.ident == f"new_{kind}" and result.face.name == "A New <Thing>"


def test_template_refuses_unknown_kinds_and_bad_ids() -> None:
    with pytest.raises(AuthoringError):
        template("spell", "x", "X")
    with pytest.raises(AuthoringError):
        template("command", "not an id", "X")


@pytest.mark.parametrize("ident, kind", [("loaded_dice", "influence"), ("aim_wild", "command"), ("floor_saw", "hazard"),
                                         ("hoarder", "motivation"), ("gutter_ring", "barge"), ("pillar", "object_type"),
                                         ("madame_oorl", "lanista"), ("two_handed_weapon", "weapon")])
def test_duplicate_gives_the_source_under_a_new_id(ident: str, kind: str, base) -> None:
    text = duplicate(base, ident, f"{ident}_copy", "The Copy")
    result = validate_item(kind, text, base)
    assert result.ok, [d.format(text) for d in result.diagnostics]
    assert result.ident == f"{ident}_copy" and result.face.name == "The Copy"
    if kind not in DATA_KINDS:  # a script, of a built-in kind or of one the base game declares
        original = base.declaration(kind, ident)
        copy = parse(text).declarations[0]
        assert copy.clauses == original.clauses
    else:
        original = dict(base.data_item(DATA_KINDS[kind], ident))
        copy = yaml.safe_load(text)
        assert {k: v for k, v in copy.items() if k not in ("id", "name")} == \
               {k: v for k, v in original.items() if k not in ("id", "name")}


def test_duplicate_of_an_unknown_id_says_so(base) -> None:
    with pytest.raises(AuthoringError, match="loaded_dic"):
        duplicate(base, "loaded_dic", "x", "X")


def test_validation_positions_errors_within_the_item(base) -> None:
    text = template("influence", "tipped", "Tipped", BASE_RULES).replace("slide_roll attack by bribe_bonus",
                                                             "slide_roll attack by bribe_bonsu")
    result = validate_item("influence", text, base)
    assert not result.ok and result.face is None
    problem = result.errors[0]
    line = text.splitlines()[problem.line - 1]
    assert "bribe_bonsu" in line and line[problem.column - 1:].startswith("bribe_bonsu")
    assert problem.hint and "bribe_bonus" in problem.hint


def test_validation_reports_syntax_errors_and_wrong_kinds(base) -> None:
    broken = validate_item("command", 'command x "X" {\n    cost 2\n}\n', base)
    assert not broken.ok and broken.errors[0].line == 3 and "cost" in broken.errors[0].hint
    wrong = validate_item("command", template("influence", "x", "X", BASE_RULES), base)
    assert not wrong.ok and "not a command" in wrong.errors[0].message
    two = validate_item("influence", template("influence", "x", "X", BASE_RULES) + template("influence", "y", "Y", BASE_RULES), base)
    assert not two.ok


def test_validation_checks_cross_references(base) -> None:
    text = template("motivation", "greedy", "Greedy").replace("[jack_of_all_traits]", "[jack_of_all_trait]")
    result = validate_item("motivation", text, base)
    assert not result.ok
    problem = result.errors[0]
    assert problem.code == "content/dangling_reference" and "jack_of_all_trait" in problem.message
    assert problem.line == 6 and "jack_of_all_traits" in problem.hint
    barge = template("barge", "odd_barge", "Odd").replace("hazards: [brazier, floor_spikes]", "hazards: [brazier, lava]")
    assert "lava" in validate_item("barge", barge, base).errors[0].message


def test_validation_reports_schema_errors_with_positions(base) -> None:
    text = template("lanista", "greedy", "Greedy").replace("influence: 2", "influence: lots")
    result = validate_item("lanista", text, base)
    assert not result.ok and result.errors[0].line == 4


def test_an_item_replaces_its_namesake_in_context(base) -> None:
    # Re-validating an existing card under its own id is not a duplicate.
    assert validate_item("influence", duplicate(base, "loaded_dice", "loaded_dice", "Loaded Dice"), base).ok


def test_validation_never_raises_on_garbage(base) -> None:
    for kind in KINDS:
        for text in ("", "{{{", "- - -", "command", "id: [", "\x00"):
            assert not validate_item(kind, text, base).ok


def test_card_face_html_escapes_and_shows_the_card(base) -> None:
    text = template("influence", "tricky", 'Tricky <script>alert("x")</script>', BASE_RULES).replace(
        "One line of colour from the arena.", "Flavour & <more>")
    result = validate_item("influence", text, base)
    out = card_face_html(result.face, result.flavor)
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "Flavour &amp; &lt;more&gt;" in out and "Cost: 1 cred" in out and "Influence Card" in out
    assert "your helot is +SDS to attack" in out and "style=" in out


def test_script_fields_round_trip_and_keep_comments() -> None:
    text = ('# The card I am working on.\n'
            + template("influence", "tipped", "Tipped", BASE_RULES).replace("    cost 1 cred\n", "    cost 1 cred  # cheap on purpose\n"))
    fields = fields_of("influence", text)
    assert fields == {"id": "tipped", "name": "Tipped", "flavor": "One line of colour from the arena.",
                      "text": fields["text"], "cost": "1 cred", "window": "before_rolls by self", "tags": ["bribe"]}
    changed = apply_fields("influence", text, {"name": "Tipped Over", "cost": "2 cred", "tags": ["bribe", "crate loot"],
                                               "window": "before_rolls by opponent", "flavor": "New flavour."})
    assert "# The card I am working on." in changed and "# cheap on purpose" in changed
    again = fields_of("influence", changed)
    assert again["name"] == "Tipped Over" and again["cost"] == "2 cred" and again["tags"] == ["bribe", "crate loot"]
    assert again["window"] == "before_rolls by opponent" and again["flavor"] == "New flavour."
    assert apply_fields("influence", changed, fields_of("influence", changed)) == changed


def test_script_fields_add_and_remove_clauses(base) -> None:
    text = template("turning_point", "quiet", "Quiet", BASE_RULES)
    added = apply_fields("turning_point", text, {"cost": "2 INST"})
    assert fields_of("turning_point", added)["cost"] == "2 INST"
    assert validate_item("turning_point", added, base).ok
    removed = apply_fields("turning_point", added, {"cost": "", "tags": []})
    assert "cost" not in removed and "tags" not in removed
    with pytest.raises(Exception):
        apply_fields("turning_point", text, {"cost": "two INST ]"})


def test_yaml_fields_round_trip_and_keep_comments(base) -> None:
    text = "# A lanista of my own.\n" + template("lanista", "vex", "Vex").replace("command: 2", "command: 2  # tuned")
    fields = fields_of("lanista", text)
    assert fields["influence"] == 2 and fields["name"] == "Vex"
    changed = apply_fields("lanista", text, {"influence": 3, "flavor": "Owes everybody.", "deception": None})
    assert "# A lanista of my own." in changed and "# tuned" in changed
    data = yaml.safe_load(changed)
    assert data["influence"] == 3 and data["flavor"] == "Owes everybody." and "deception" not in data
    restored = apply_fields("lanista", changed, {"deception": 1})
    assert validate_item("lanista", restored, base).ok
    barge = template("barge", "b", "B")
    moved = apply_fields("barge", barge, {"objects": [{"type": "pillar", "at": [4, 4]}], "hazards": ["brazier"]})
    assert yaml.safe_load(moved)["objects"] == [{"type": "pillar", "at": [4, 4]}]


@pytest.mark.parametrize("kind, ident, path", [
    ("state", "dazed", "states/dazed.nexus"),
    ("command", "lunge", "commands/lunge.nexus"),
    ("trait_ability", "feint", "abilities/feint.nexus"),
    ("influence", "bribe", "influence/bribe.nexus"),
    ("spell", "fireball", "spells/fireball.nexus"),  # a kind without a folder in the table: its plural
])
def test_a_new_declaration_goes_to_its_kinds_folder(kind: str, ident: str, path: str) -> None:
    assert declaration_file(kind, ident) == path


@pytest.mark.parametrize("kind, folder", sorted(SCRIPT_FOLDERS.items()))
def test_the_declaration_folders_are_the_base_packs(kind: str, folder: str) -> None:
    # The base game has no cards of the `card` kind: NEXUS Pirates, a game of its own, has.
    pack = CONTENT / "games" / "nexus_pirates" if kind == "card" else CONTENT / "base"
    assert (pack / folder).is_dir(), f"{kind} declarations go to {folder}/, which the {pack.name} pack lacks"


def test_the_kinds_the_loaded_packs_declare_are_content_types_of_their_own(base) -> None:
    kinds = kinds_of(base)
    assert kinds[:len(SCRIPT_KINDS)] == SCRIPT_KINDS and {"influence", "turning_point"} <= set(kinds)
    assert "influence" not in kinds_of(None) and "influence" not in KINDS
    # A declared kind starts from the template of the built-in kind it is like, written with its own word.
    text = template("turning_point", "quiet", "Quiet", base)
    assert text == "turning_point" + template("drawn_card", "quiet", "Quiet")[len("drawn_card"):]
    result = validate_item("turning_point", text, base)
    assert result.ok and result.face is not None and "Turning Point Card" in card_face_html(result.face)
    with pytest.raises(AuthoringError, match="influence"):
        template("influence", "x", "X")  # no pack in view declares it
    unknown = validate_item("influence", text.replace("turning_point", "influence", 1), None)
    assert [d.code for d in unknown.errors] == ["authoring/unknown_kind"]
