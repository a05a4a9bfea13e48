"""A setup may leave a piece's role (a helot's motivation) or its player's profile (a lanista) to the
dice: `random` draws one with the bout's dice from those no other piece names or has drawn, as
players take their cards from the box (pg.5-7). Named items, none, and the bout's other dice stay
as they were."""

from __future__ import annotations

import pytest

from nexus_dsl import Bout, cached_ruleset, standard_setup
from nexus_dsl.engine.setup import RANDOM_ITEM, SetupError, draw_at_random

LABELS = ["red", "blue", "green", "yellow"]


def _roles(bout: Bout) -> list[tuple[str | None, str | None]]:
    return [(piece.role, piece.profile) for piece in bout.state.pieces.values()]


def test_random_roles_and_profiles_are_drawn_with_the_dice_each_a_different_one() -> None:
    ruleset = cached_ruleset(("base",))
    motivations, lanistas = list(ruleset.data["motivations"]), list(ruleset.data["lanistas"])
    seen_roles: set[str | None] = set()
    seen_profiles: set[str | None] = set()
    for seed in range(12):
        bout = Bout(ruleset, standard_setup(4, roles=[RANDOM_ITEM] * 4, profiles=[RANDOM_ITEM] * 4), seed=seed)
        roles = [role for role, _ in _roles(bout)]
        profiles = [profile for _, profile in _roles(bout)]
        assert sorted(roles) == sorted(motivations)  # four players, four motivation cards: each has one
        assert len(set(profiles)) == 4 and set(profiles) <= set(lanistas)
        seen_roles.add(roles[0])
        seen_profiles.update(profiles)
        again = Bout(ruleset, standard_setup(4, roles=[RANDOM_ITEM] * 4, profiles=[RANDOM_ITEM] * 4), seed=seed)
        assert _roles(again) == _roles(bout)  # drawn from the seed
    assert len(seen_roles) > 1 and len(seen_profiles) == len(lanistas)


def test_the_draw_is_rolled_for_the_games_word_and_can_be_forced() -> None:
    ruleset = cached_ruleset(("base",))
    motivations, lanistas = list(ruleset.data["motivations"]), list(ruleset.data["lanistas"])
    # red's motivation: face 2 of the 4 in pack order; blue's: face 3 of the 3 left.
    bout = Bout(ruleset, standard_setup(2, roles=[RANDOM_ITEM] * 2, profiles=[RANDOM_ITEM, None]), seed=5,
                forced_dice={"motivation": [2, 3], "lanista": [8]})
    left = [m for m in motivations if m != motivations[1]]
    assert _roles(bout) == [(motivations[1], lanistas[7]), (left[2], None)]


def test_a_random_draw_leaves_out_what_another_player_names() -> None:
    ruleset = cached_ruleset(("base",))
    motivations = list(ruleset.data["motivations"])
    named = motivations[0]
    for seed in range(10):
        bout = Bout(ruleset, standard_setup(4, roles=[RANDOM_ITEM, RANDOM_ITEM, named, RANDOM_ITEM]), seed=seed)
        roles = [role for role, _ in _roles(bout)]
        assert roles[2] == named and sorted(roles) == sorted(motivations)


def test_an_item_left_alone_is_taken_without_a_roll() -> None:
    rolled: list[tuple[str, int]] = []

    def roll(purpose: str, sides: int) -> int:
        rolled.append((purpose, sides))
        return 1

    assert draw_at_random(["a", RANDOM_ITEM, None, RANDOM_ITEM], LABELS, ["a", "b", "c"], roll, "role") == \
        ["a", "b", None, "c"]
    assert rolled == [("role", 2)]


def test_a_pack_item_named_random_is_named_not_drawn() -> None:
    def roll(purpose: str, sides: int) -> int:
        raise AssertionError("nothing is drawn")

    assert draw_at_random([RANDOM_ITEM, "a"], LABELS, ["a", RANDOM_ITEM], roll, "role") == [RANDOM_ITEM, "a"]


def test_more_draws_than_items_left_is_a_setup_error_naming_the_piece() -> None:
    with pytest.raises(SetupError) as raised:
        draw_at_random(["a", RANDOM_ITEM, RANDOM_ITEM], LABELS, ["a", "b"], lambda purpose, sides: 1, "role")
    assert raised.value.actor == "green" and raised.value.key == "role"
    assert raised.value.code == "setup/unknown_role"
    assert raised.value.diagnostics[0].message == ("`green`: no role left to draw at random: the loaded packs "
                                                   "hold 2, every one named or drawn already")

