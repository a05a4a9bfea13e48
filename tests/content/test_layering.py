"""Packs layer: the Poison Gallery expansion and the three house-rule packs of content/, loaded
alone and together, change what they say and nothing else; a heuristic bout on the expansion's
barge plays to the end."""

from __future__ import annotations

import json

import pytest

from nexus_dsl import load_ruleset
from nexus_dsl.model.ruleset import Ruleset, thaw
from nexus_dsl.sim.batch import BoutSpec, play_one
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.syntax.canonical import to_canonical

EXPANSION = "poison_gallery"
HOUSE_RULES = ("tpdm_plus_four", "no_crowd_pleaser", "steady_on_three")
# What each house-rule pack replaces in the base box, by (kind, id).
HOUSE_OVERRIDES = {
    "tpdm_plus_four": {("rule", "turning_point_damage_modifier")},
    "no_crowd_pleaser": {("rule", "crowd_pleaser")},
    "steady_on_three": {("rule", "staggering_blow")},
}
# The expansion replaces no base declaration: the Dart Column's `no_hurdle` flag is enough to keep
# Hurdle from leaping it (pg.33).
EXPANSION_OVERRIDES: set[tuple[str, str]] = set()


def fingerprint(ruleset: Ruleset) -> dict[tuple[str, str], str]:
    """Every declaration and data item of a ruleset, by (kind, id), as canonical JSON."""
    prints: dict[tuple[str, str], str] = {}
    for kind, items in ruleset.scripts.items():
        for ident, item in items.items():
            prints[(kind, ident)] = json.dumps(to_canonical(item.declaration), sort_keys=True)
    for data_type, items in ruleset.data.items():
        for ident, item in items.items():
            prints[(data_type, ident)] = json.dumps(thaw(item.data), sort_keys=True)
    return prints


def origins(ruleset: Ruleset) -> dict[tuple[str, str], str]:
    found = {(kind, ident): item.origin.pack for kind, items in ruleset.scripts.items() for ident, item in items.items()}
    found.update({(t, ident): item.origin.pack for t, items in ruleset.data.items() for ident, item in items.items()})
    return found


@pytest.fixture(scope="module")
def base() -> Ruleset:
    return load_ruleset(["base"])


@pytest.mark.parametrize("packs", [
    ["base"], [EXPANSION], *[[house] for house in HOUSE_RULES], list(HOUSE_RULES), [EXPANSION, *HOUSE_RULES],
], ids=lambda packs: "+".join(packs))
def test_every_pack_loads_alone_and_together(packs):
    ruleset = load_ruleset(packs)
    assert ruleset.pack_ids[0] == "base"
    assert set(ruleset.pack_ids) == {"base", *packs}


def test_the_expansion_leaves_the_base_box_untouched(base):
    before = fingerprint(base)
    layered = load_ruleset([EXPANSION])
    assert fingerprint(load_ruleset(["base"])) == before  # the base loaded alone, after, is the same
    after = fingerprint(layered)
    where = origins(layered)
    for key, text in before.items():
        if key in EXPANSION_OVERRIDES:
            assert where[key] == EXPANSION
        else:
            assert after[key] == text, f"{key} changed"
            assert where[key] == "base"
    added = {key for key, pack in where.items() if pack == EXPANSION} - EXPANSION_OVERRIDES
    assert not added & set(before)
    assert {("hazard", "dart_column"), ("objects", "dart_column"), ("motivations", "addict"),
            ("trait_ability", "pop_a_stim"), ("trait_ability", "purge"), ("rule", "venom_tolerance"),
            ("influence", "laced_waterskin"), ("influence", "black_market_antidote"),
            ("turning_point", "apothecary_collects"), ("turning_point", "dart_storm"),
            ("barges", "apothecarys_gallery")} <= added


def test_the_base_hurdle_refuses_the_expansions_dart_column_through_object_data(base):
    """The expansion teaches Hurdle about its column by flagging the object, not by rewriting the card."""
    layered = load_ruleset([EXPANSION])
    assert layered.declaration("trait_ability", "hurdle") == base.declaration("trait_ability", "hurdle")
    assert layered.object_flags("dart_column").get("no_hurdle") is True


@pytest.mark.parametrize("house", HOUSE_RULES)
def test_each_house_rule_replaces_only_its_own_rule(base, house):
    before = fingerprint(base)
    layered = load_ruleset([house])
    after = fingerprint(layered)
    where = origins(layered)
    changed = {key for key in before if after[key] != before[key]}
    assert changed == HOUSE_OVERRIDES[house]
    assert {key for key, pack in where.items() if pack == house} == HOUSE_OVERRIDES[house]


def test_house_rules_loaded_together_apply_all_three_changes(base):
    together = load_ruleset(list(HOUSE_RULES))
    assert base.setting("tpdm_damage_bonus") == 6 and together.setting("tpdm_damage_bonus") == 4
    assert base.setting("staggering_roll") == 4 and together.setting("staggering_roll") == 3
    assert base.declaration("rule", "crowd_pleaser").clauses_of(A.When)
    assert not together.declaration("rule", "crowd_pleaser").clauses_of(A.When)
    where = origins(together)
    for house, keys in HOUSE_OVERRIDES.items():
        assert all(where[key] == house for key in keys)


def test_expansion_and_house_rules_together(base):
    everything = load_ruleset([EXPANSION, *HOUSE_RULES])
    assert everything.setting("tpdm_damage_bonus") == 4
    assert everything.declaration("hazard", "dart_column") is not None
    assert everything.data_item("motivations", "addict") is not None


@pytest.mark.parametrize("seed", [3, 11])
def test_a_heuristic_bout_on_the_expansion_barge_plays_to_the_end(seed):
    result = play_one(BoutSpec(seed=seed, packs=(EXPANSION,), barge="apothecarys_gallery",
                               motivations=("addict", "addict"), strict_ledger=True))
    assert result.error is None, result.error
    assert result.termination is not None
    assert result.ledger_balanced
