"""Dice: seeding, forcing per purpose, history, the Sliding Dice Scale and exact copies."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nexus_dsl.engine.dice import (
    PURPOSES,
    Dice,
    DiceError,
    ForcedDiceExhausted,
    Roll,
    ScaleRoll,
)


def test_known_purposes() -> None:
    assert set(PURPOSES) == {
        "attack", "defense", "location", "check", "trait_die", "ratio_die",
        "tiebreak", "compass", "grid_col", "grid_row", "d8", "crate", "weapon_card",
        "first_player",
    }  # fmt: skip  (the die picking one of more than eight board layouts rolls for the game's `layout_word`)


def test_same_seed_same_sequence() -> None:
    first, second = Dice(42), Dice(42)
    rolls = [first.roll("attack") for _ in range(50)]
    assert rolls == [second.roll("attack") for _ in range(50)]
    assert all(1 <= r <= 6 for r in rolls)
    assert len(set(rolls)) > 1
    assert [Dice(1).roll("d8", 8) for _ in range(5)] != [Dice(2).roll("d8", 8) for _ in range(5)]


def test_sides_are_respected() -> None:
    dice = Dice(3)
    assert {dice.roll("compass", 8) for _ in range(400)} == set(range(1, 9))
    assert {dice.roll("check") for _ in range(300)} == set(range(1, 7))
    with pytest.raises(DiceError):
        dice.roll("check", 0)


def test_forced_values_are_consumed_in_order_per_purpose() -> None:
    dice = Dice(0, forced={"attack": [6, 5, 1], "location": [2]})
    assert dice.roll("attack") == 6
    assert dice.roll("location") == 2
    assert dice.roll("attack") == 5
    assert dice.roll("attack") == 1
    assert dice.remaining_forced() == {"attack": 0, "location": 0}


def test_unforced_purposes_use_the_seed_unaffected_by_forcing() -> None:
    plain = Dice(9)
    forced = Dice(9, forced={"attack": [1, 1, 1]})
    forced.roll("attack")
    expected = [plain.roll("defense") for _ in range(10)]
    assert [forced.roll("defense") for _ in range(10)] == expected


def test_exhaustion_names_the_purpose() -> None:
    dice = Dice(0, forced={"attack": [4], "check": []})
    dice.roll("attack")
    with pytest.raises(ForcedDiceExhausted, match="the forced dice for 'attack' ran out") as error:
        dice.roll("attack")
    assert error.value.purpose == "attack"
    assert isinstance(error.value, DiceError)
    with pytest.raises(ForcedDiceExhausted, match="'check'"):
        dice.roll("check")


def test_out_of_range_forced_value_raises_and_consumes_nothing() -> None:
    dice = Dice(0, forced={"attack": [7], "compass": [7]})
    with pytest.raises(DiceError, match="d6"):
        dice.roll("attack")
    assert dice.remaining_forced()["attack"] == 1
    assert dice.history == []
    assert dice.roll("compass", 8) == 7  # 7 is fine on a d8


@pytest.mark.parametrize("bad", [[0], [-1], [2.5], [True], "66"])
def test_impossible_forced_values_are_rejected_up_front(bad: object) -> None:
    with pytest.raises(DiceError):
        Dice(0, forced={"attack": bad})  # type: ignore[dict-item]


def test_roll_many_and_history() -> None:
    dice = Dice(5, forced={"crate": [3, 4]})
    assert dice.roll_many("crate", 2) == [3, 4]
    seeded = dice.roll("d8", 8)
    assert dice.history == [
        Roll("crate", 6, 3, True),
        Roll("crate", 6, 4, True),
        Roll("d8", 8, seeded, False),
    ]
    drained = dice.drain_history()
    assert len(drained) == 3
    assert dice.history == []
    dice.roll("check")
    assert [r.purpose for r in dice.drain_history()] == ["check"]
    assert dice.drain_history() == []


def test_history_is_a_copy() -> None:
    dice = Dice(0)
    dice.roll("check")
    dice.history.clear()
    assert len(dice.history) == 1


# -- the Sliding Dice Scale ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "level, pool, kept",
    [
        (0, [3, 5], (3, 5)),
        (1, [6, 5, 1], (6, 5)),
        (-1, [6, 5, 1], (5, 1)),
        (2, [1, 6, 2, 5], (6, 5)),
        (-2, [4, 6, 1, 2], (1, 2)),
        (3, [2, 3, 6, 1, 6], (6, 6)),
        (-3, [6, 2, 5, 1, 4], (2, 1)),
        (1, [1, 4, 6], (4, 6)),  # kept dice stay in pool order
        (-1, [1, 4, 6], (1, 4)),
    ],
)
def test_sds_keeps_the_right_two(level: int, pool: list[int], kept: tuple[int, int]) -> None:
    dice = Dice(0, forced={"attack": pool})
    result = dice.scale_roll("attack", level)
    assert result == ScaleRoll(level=level, dice=tuple(pool), kept=kept)
    assert result.total == sum(kept)
    assert dice.remaining_forced() == {"attack": 0}


def test_sds_examples_from_the_brief() -> None:
    plus = Dice(0, forced={"attack": [6, 5, 1]}).scale_roll("attack", 1)
    assert (plus.kept, plus.total) == ((6, 5), 11)
    minus = Dice(0, forced={"attack": [6, 5, 1]}).scale_roll("attack", -1)
    assert (minus.kept, minus.total) == ((5, 1), 6)


def test_sds_level_is_clamped_to_three() -> None:
    dice = Dice(0, forced={"defense": [1, 2, 3, 4, 5, 6, 6, 6, 6, 6]})
    high = dice.scale_roll("defense", 7)
    assert high.level == 3 and high.dice == (1, 2, 3, 4, 5) and high.kept == (4, 5)
    low = dice.scale_roll("defense", -5)
    assert low.level == -3 and len(low.dice) == 5 and low.total == 12
    capped = Dice(0, forced={"attack": [1, 2, 3]}).scale_roll("attack", 4, cap=1)
    assert capped.level == 1 and capped.kept == (2, 3)


def test_sds_exhaustion_names_the_purpose() -> None:
    dice = Dice(0, forced={"attack": [6, 5]})
    with pytest.raises(ForcedDiceExhausted, match="'attack'"):
        dice.scale_roll("attack", 1)


def test_is_double() -> None:
    assert Dice(0, forced={"attack": [4, 4]}).scale_roll("attack", 0).is_double
    assert Dice(0, forced={"attack": [6, 1, 6]}).scale_roll("attack", 1).is_double
    assert not Dice(0, forced={"attack": [6, 1, 6]}).scale_roll("attack", -1).is_double
    assert Dice(0, forced={"attack": [6, 1, 1]}).scale_roll("attack", -1).is_double


def test_scale_rolls_are_recorded_per_die() -> None:
    dice = Dice(0, forced={"attack": [6, 5, 1]})
    dice.scale_roll("attack", 1)
    assert [r.value for r in dice.drain_history()] == [6, 5, 1]


@given(
    level=st.integers(-5, 5),
    pool=st.lists(st.integers(1, 6), min_size=5, max_size=5),
)
def test_sds_total_bounds_and_ordering(level: int, pool: list[int]) -> None:
    result = Dice(0, forced={"attack": pool}).scale_roll("attack", level)
    assert 2 <= result.total <= 12
    assert len(result.dice) == 2 + abs(result.level)
    assert result.dice == tuple(pool[: len(result.dice)])
    # With the same first two dice, a bonus never lowers the total and a penalty never raises it.
    standard = pool[0] + pool[1]
    if result.level > 0:
        assert result.total >= standard
        assert result.total == sum(sorted(result.dice)[-2:])
    elif result.level < 0:
        assert result.total <= standard
        assert result.total == sum(sorted(result.dice)[:2])
    else:
        assert result.total == standard


# -- copying ------------------------------------------------------------------------------------


def test_state_round_trip_continues_identically() -> None:
    dice = Dice(11, forced={"attack": [6, 5, 4, 3, 2, 1]})
    dice.roll_many("attack", 2)
    dice.roll_many("defense", 3)
    saved = dice.state()
    restored = Dice.from_state(saved)
    duplicate = dice.copy()
    assert restored.history == dice.history

    def play(d: Dice) -> list[int]:
        return [d.roll("defense"), *d.roll_many("attack", 3), d.scale_roll("check", 2).total,
                d.roll("compass", 8)]  # fmt: skip

    expected = play(dice)
    assert play(restored) == expected
    assert play(duplicate) == expected
    # The original state object is immutable: restoring it again replays the same future.
    assert play(Dice.from_state(saved)) == expected


def test_copy_is_independent() -> None:
    dice = Dice(4, forced={"attack": [1, 2]})
    duplicate = dice.copy()
    assert duplicate.roll("attack") == 1
    assert dice.remaining_forced() == {"attack": 2}
    assert dice.roll("attack") == 1


@pytest.mark.parametrize("rolls_since", [0, 1, 4])
def test_rewound_dice_are_the_dice_at_the_checkpoint(rolls_since: int) -> None:
    # Of the RNG, the checkpoint keeps the count of words drawn: rewinding is exact whether it drew
    # since or not, forced results used and rolls not yet drained included.
    dice = Dice(11, forced={"attack": [3, 4, 5, 6, 1, 2, 3]})
    dice.roll("defense")
    dice.roll("attack")
    dice.checkpoint()
    at_checkpoint = dice.copy()
    for _ in range(rolls_since):
        dice.roll("defense")
        dice.roll("attack")
    dice.drain_history()
    rewound = dice.rewound()
    assert rewound.history == at_checkpoint.history
    assert rewound.remaining_forced() == at_checkpoint.remaining_forced()
    assert [rewound.roll("defense") for _ in range(20)] == [at_checkpoint.roll("defense") for _ in range(20)]
    assert rewound.roll("attack") == at_checkpoint.roll("attack")


def test_a_later_checkpoint_replaces_the_earlier() -> None:
    dice = Dice(12)
    dice.roll("defense")
    dice.checkpoint()
    dice.roll("defense")
    dice.checkpoint()
    at_second = dice.copy()
    dice.roll("defense")
    assert dice.rewound().roll("defense") == at_second.roll("defense")


@pytest.mark.parametrize("sides", [6, 3, 1, 2**32 - 1, 2**32, 2**40 + 7, 2**70 + 3])
def test_rewound_dice_are_exact_after_many_draws_of_any_size(sides: int) -> None:
    # Rewinding draws again the words drawn before the checkpoint (thousands here, in several
    # chunks), whatever the sides: a die above 32 bits takes more than one word per draw, and a
    # rejected draw takes its words too.
    dice = Dice(21)
    for _ in range(2500):
        dice.roll("defense", sides)
    dice.checkpoint()
    at_checkpoint = dice.copy()
    dice.roll_many("defense", 7, sides)
    rewound = dice.rewound()
    assert rewound.state() == at_checkpoint.state()
    assert [rewound.roll("attack", sides) for _ in range(10)] == [at_checkpoint.roll("attack", sides) for _ in range(10)]


def test_rewound_dice_restored_from_a_state_start_from_that_state() -> None:
    dice = Dice(8)
    dice.roll_many("defense", 5)
    restored = Dice.from_state(dice.state())
    restored.roll_many("defense", 3)
    restored.checkpoint()
    at_checkpoint = restored.copy()
    restored.roll_many("defense", 4)
    assert restored.rewound().state() == at_checkpoint.state()
    # and rewound twice: the rewound dice start from the same state
    twice = restored.rewound()
    twice.roll_many("attack", 2)
    assert twice.rewound().state() == at_checkpoint.state()


def _shuffled_roll_by_roll(dice: Dice, purpose: str, items: list[str]) -> list[str]:
    """Fisher-Yates, the last place first, each die rolled as `roll` rolls it."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = dice.roll(purpose, i + 1) - 1
        items[i], items[j] = items[j], items[i]
    return items


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=40))
def test_a_shuffle_draws_the_dice_a_roll_by_roll_shuffle_draws_and_records_none(seed: int, count: int) -> None:
    cards = [f"card{n}" for n in range(count)]
    rolled = Dice(seed)
    expected = _shuffled_roll_by_roll(rolled, "shuffle", cards)
    shuffled = Dice(seed)
    items = list(cards)
    shuffled.shuffle("shuffle", items, False)
    assert items == expected
    assert shuffled.history == []
    # The dice go on from the same place: the next roll is the same.
    assert shuffled.roll("attack") == rolled.roll("attack")


def test_a_shuffle_takes_forced_results_in_order_and_names_the_purpose_when_they_run_out() -> None:
    items = ["a", "b", "c"]
    Dice(1, forced={"shuffle": [1, 2]}).shuffle("shuffle", items, False)
    # place 2 takes place 0 (a d3 rolled 1), then place 1 takes place 1 (a d2 rolled 2)
    assert items == ["c", "b", "a"]
    dice = Dice(1, forced={"shuffle": [1]})
    with pytest.raises(ForcedDiceExhausted, match="shuffle"):
        dice.shuffle("shuffle", ["a", "b", "c"], False)


def test_a_recorded_shuffle_keeps_each_die_as_rolling_it_would() -> None:
    rolled, shuffled = Dice(7), Dice(7)
    expected = _shuffled_roll_by_roll(rolled, "shuffle", ["a", "b", "c", "d"])
    items = ["a", "b", "c", "d"]
    shuffled.shuffle("shuffle", items, True)
    assert items == expected
    assert shuffled.history == rolled.history
