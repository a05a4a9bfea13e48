"""Every card, weapon, motivation ability and talent of the base box has a scenario that uses it.

A scenario "uses" an item when the item's id appears as a value in it: a stacked deck, a hand, a
held weapon, a motivation, a step's card or ability, an expected weapon. A talent works on its own,
so a scenario uses it when it names the talent (file name, title or comment) and sets a helot of
the talent's motivation. The scenarios themselves prove what the item does; this test proves none
was left without one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from nexus_dsl import cached_ruleset

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _values(node: object) -> set[str]:
    if isinstance(node, dict):
        return set().union(*(_values(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_values(v) for v in node)) if node else set()
    return {node} if isinstance(node, str) else set()


@pytest.fixture(scope="module")
def scenarios() -> list[tuple[str, set[str]]]:
    """(the file's name and text, the values it holds) for every scenario of the project."""
    found: list[tuple[str, set[str]]] = []
    for path in SCENARIOS.rglob("*.yaml"):
        if "packs" in path.relative_to(SCENARIOS).parts:
            continue
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        if isinstance(data, dict) and "steps" in data:
            found.append((path.stem + "\n" + text, _values(data)))
    return found


def _box_items() -> list[tuple[str, str, str | None]]:
    """(kind, id, the motivation a talent belongs to) for every item that needs a scenario."""
    ruleset = cached_ruleset(("base",))
    items: list[tuple[str, str, str | None]] = [
        (kind, d.id, None) for kind in ("influence", "turning_point", "weapon") for d in ruleset.declarations(kind)]
    for motivation in ruleset.data_items("motivations"):
        items += [("motivation ability", a, None) for a in motivation.get("abilities", ())]
        if motivation.get("talent"):
            items.append(("talent", motivation["talent"], motivation["id"]))
        items.append(("motivation", motivation["id"], None))
    return items


@pytest.mark.parametrize(("kind", "ident", "motivation"), _box_items(), ids=lambda v: str(v))
def test_has_a_scenario(scenarios: list[tuple[str, set[str]]], kind: str, ident: str, motivation: str | None) -> None:
    if motivation is None:
        assert any(ident in values for _, values in scenarios), f"no scenario uses the {kind} `{ident}`"
    else:
        assert any(ident in text and motivation in values for text, values in scenarios), \
            f"no scenario of a {motivation} names its talent `{ident}`"
