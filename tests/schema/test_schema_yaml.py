"""YAML data files: positions, duplicate keys, syntax errors, and the data schemas."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from nexus_dsl.errors import SchemaError
from nexus_dsl.schema import load_yaml_with_positions, validate

BARGE = """\
id: the_pit
name: The Pit
description: A square pit with four pillars.
objects:
  - type: pillar
    at: [3, 3]
  - type: brazier
    at: [6, 6]
  - type: crate
    at: [9, 2]
hazards: [brazier, floor_saw]
notes: Saws activate after braziers.
"""

LANISTAS = """\
- id: hreon_lrlyins
  name: Hreon Lrlyins
  flavor: Always smiling.
  influence: 2
  deception: 0
  command: 4
- id: vex_morrow
  name: Vex Morrow
  inflence: 3
  deception: 2
  command: 5
"""

MOTIVATION = """\
id: hoarder
name: Hoarder
description: Takes what it can carry.
advantages:
  PHYS: 2
  DEFT: 1
abilities: [counterattack, push]
talent: stash
flavor: Mine.
"""

PACK = """\
id: base
name: NEXUS Base Game
version: 1.0.0
builds_on: []
description: The base box.
kind: base
"""


def check(text: str, schema: str, file: str = "data.yaml"):
    data, positions = load_yaml_with_positions(text, file)
    items = data if isinstance(data, list) else [data]
    prefix_for = (lambda i: (i,)) if isinstance(data, list) else (lambda i: ())
    out = []
    for i, item in enumerate(items):
        out.extend(validate(item, schema, file=file, locate=positions.get, prefix=prefix_for(i)))
    return out


# ---------------------------------------------------------------- positions
def test_positions_of_keys_items_and_root():
    data, positions = load_yaml_with_positions(BARGE, "pit.yaml")
    assert data["objects"][2] == {"type": "crate", "at": [9, 2]}
    assert positions[()] == (1, 1)
    assert positions[("id",)] == (1, 1)
    assert positions[("objects",)] == (4, 1)  # the key, not the value on the next line
    assert positions[("objects", 2)] == (9, 5)
    assert positions[("objects", 2, "at")] == (10, 5)
    assert positions[("objects", 2, "at", 0)] == (10, 10)
    assert positions[("hazards", 1)] == (11, 20)


def test_empty_document():
    assert load_yaml_with_positions("", "e.yaml") == (None, {})
    assert load_yaml_with_positions("# only a comment\n", "e.yaml") == (None, {})


def test_anchors_and_merge_keys_load():
    text = "base: &b\n  influence: 1\n  command: 2\nother:\n  <<: *b\n  command: 3\n"
    data, positions = load_yaml_with_positions(text, "m.yaml")
    assert data["other"] == {"influence": 1, "command": 3}
    assert positions[("other", "command")] == (6, 3)
    assert positions[("other", "influence")] == (5, 3)


# ---------------------------------------------------------------- YAML errors
def test_yaml_syntax_error_is_a_schema_error_with_position():
    text = "id: the_pit\nobjects: [1, 2\nhazards: []\n"
    with pytest.raises(SchemaError) as caught:
        load_yaml_with_positions(text, "bad.yaml")
    (diag,) = caught.value.diagnostics
    assert diag.code == "yaml/syntax"
    assert diag.file == "bad.yaml"
    assert diag.line == 3
    assert diag.column >= 1
    assert diag.message


def test_yaml_mapping_value_error_line():
    with pytest.raises(SchemaError) as caught:
        load_yaml_with_positions("id: a\nname: b: c\n", "bad.yaml")
    (diag,) = caught.value.diagnostics
    assert (diag.code, diag.line, diag.column) == ("yaml/syntax", 2, 8)
    assert "mapping values are not allowed" in diag.message


def test_tabs_get_a_hint():
    with pytest.raises(SchemaError) as caught:
        load_yaml_with_positions("id: a\n\tname: b\n", "bad.yaml")
    (diag,) = caught.value.diagnostics
    assert diag.code == "yaml/syntax" and diag.line == 2
    assert "tabs" in diag.hint


def test_unsafe_tags_are_refused():
    with pytest.raises(SchemaError) as caught:
        load_yaml_with_positions("x: !!python/object/apply:os.system ['true']\n", "evil.yaml")
    assert caught.value.code == "yaml/syntax"


def test_duplicate_keys_are_all_reported():
    text = "id: a\nname: A\ninfluence: 1\nname: B\nnested:\n  k: 1\n  k: 2\n"
    with pytest.raises(SchemaError) as caught:
        load_yaml_with_positions(text, "dup.yaml")
    diags = caught.value.diagnostics
    assert [d.code for d in diags] == ["yaml/duplicate_key", "yaml/duplicate_key"]
    assert [(d.line, d.column) for d in diags] == [(4, 1), (7, 3)]
    assert "`name`" in diags[0].message and "line 2" in diags[0].message


# ---------------------------------------------------------------- data schemas
def test_valid_data_files():
    assert check(PACK, "pack") == []
    assert check(MOTIVATION, "motivation") == []
    assert check(BARGE.replace("[9, 2]", "[8, 2]"), "barge") == []
    assert check(LANISTAS.replace("inflence", "influence"), "lanista") == []


def test_barge_object_off_the_board_points_at_the_item_line():
    diags = check(BARGE, "barge", file="pit.yaml")
    assert len(diags) == 1
    (diag,) = diags
    assert diag.code == "schema/out_of_range"
    assert diag.message == "objects[2].at[0]: 9 is greater than the maximum of 8"
    assert (diag.file, diag.line, diag.column) == ("pit.yaml", 10, 10)


def test_barge_shape_errors():
    text = BARGE.replace("[9, 2]", "[1, 2, 3]").replace("type: pillar", "type: Big Pillar")
    text = text.replace("A square pit with four pillars.", "|\n  two\n  lines")
    codes = {d.message.split(":")[0]: d.code for d in check(text, "barge")}
    assert codes["objects[2].at"] == "schema/too_many"
    assert codes["objects[0].type"] == "schema/not_allowed"
    assert codes["description"] == "schema/not_allowed"


def test_lanista_unknown_key_suggests_the_right_one():
    diags = check(LANISTAS, "lanista", file="lanistas.yaml")
    by_code = {d.code: d for d in diags}
    unknown = by_code["schema/unknown_key"]
    assert unknown.message == "[1]: unknown key `inflence`"
    assert "influence" in unknown.hint
    assert (unknown.line, unknown.column) == (9, 3)
    required = by_code["schema/required"]
    assert required.message == "[1]: missing required key `influence`"
    assert required.line == 7  # the list item that lacks it
    assert len(diags) == 2



def test_a_mapping_of_many_unknown_keys_names_the_first_twenty_and_counts_the_rest():
    extra = "".join(f"k{i}: {i}\n" for i in range(25))
    diags = check("id: vex\nname: Vex\ninfluence: 1\ndeception: 1\ncommand: 1\n" + extra, "lanista")
    assert [d.message for d in diags[:20]] == [f"unknown key `k{i}`" for i in range(20)]
    assert [d.line for d in diags[:20]] == list(range(6, 26))
    rest = diags[20]
    assert (rest.code, rest.message, rest.line, rest.column) == (
        "schema/unknown_key", "5 more unknown keys, from `k20` on", 26, 1)
    assert rest.hint.startswith("allowed keys: id, name")
    assert len(diags) == 21

def test_lanista_ranges_and_types():
    text = "id: x\nname: X\ninfluence: 7\ndeception: -1\ncommand: ten\n"
    diags = check(text, "lanista")
    assert [(d.code, d.line) for d in diags] == [
        ("schema/out_of_range", 3),
        ("schema/out_of_range", 4),
        ("schema/wrong_type", 5),
    ]


def test_motivation_rules():
    text = MOTIVATION.replace("DEFT: 1", "DEFT: 6\n  DEF: 1").replace("[counterattack, push]", "[push, push]")
    text = text.replace("id: hoarder", "id: Glutton")
    diags = check(text, "motivation")
    by_code: dict[str, list] = {}
    for d in diags:
        by_code.setdefault(d.code, []).append(d)
    assert by_code["schema/out_of_range"][0].message == "advantages.DEFT: 6 is greater than the maximum of 5"
    assert "`DEFT`" in by_code["schema/unknown_key"][0].hint
    assert by_code["schema/invalid"][0].message.startswith("abilities")  # not unique
    assert by_code["schema/not_allowed"][0].message.startswith("id")
    # Expansion motivations may use any snake_case id.
    assert check(MOTIVATION.replace("id: hoarder", "id: glutton"), "motivation") == []


def test_pack_manifest_rules():
    assert check(PACK.replace("kind: base\n", "").replace("builds_on: []\n", ""), "pack") == []
    text = PACK.replace("1.0.0", "1.0").replace("kind: base", "kind: addon").replace("[]", "[Base]")
    diags = {d.message.split(":")[0]: d for d in check(text, "pack")}
    assert diags["version"].code == "schema/wrong_type"  # YAML reads 1.0 as a number
    assert diags["kind"].code == "schema/not_allowed"
    assert "house_rules" in diags["kind"].hint
    assert diags["builds_on[0]"].code == "schema/not_allowed"
    quoted = check(PACK.replace("1.0.0", '"1.0"'), "pack")
    assert [d.code for d in quoted] == ["schema/not_allowed"]


# ---------------------------------------------------------------- property: every path has a position
_keys = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda k: k not in {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}
)
_data = st.recursive(
    st.integers(-50, 50) | st.booleans() | _keys,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_keys, children, max_size=4),
    max_leaves=20,
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


@settings(max_examples=40, deadline=None)
@given(_data, st.booleans())
def test_every_path_has_a_position(value, flow):
    text = yaml.safe_dump(value, default_flow_style=flow, sort_keys=False)
    data, positions = load_yaml_with_positions(text, "p.yaml")
    assert data == value
    lines = text.splitlines()
    for path in _paths(value):
        line, column = positions[path]
        assert 1 <= line <= len(lines) and column >= 1
    assert set(positions) == set(_paths(value))
