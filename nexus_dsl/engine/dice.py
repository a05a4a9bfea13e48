"""The one source of randomness in the engine.

Every die the engine rolls goes through a `Dice` object, and every roll names its *purpose*
(`attack`, `location`, `compass`, ...; see SCENARIOS.md "Dice purposes"). That single choke point
buys three things:

* reproducibility: a bout is a function of its seed and its decisions;
* forcing: a scenario can fix the results of one purpose (e.g. every attack die) and let the rest
  come from the seed; running out of forced dice is an error naming the purpose, never a silent
  fall-back to the RNG, because a scenario that runs out was written against different rules;
* logging: every roll is recorded so the engine can attach the dice to the event that used them.

This is the only module that may import `random`. Exact odds belong elsewhere.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "PURPOSES",
    "Dice",
    "DiceError",
    "DiceState",
    "ForcedDiceExhausted",
    "Roll",
    "ScaleRoll",
]

#: The purposes the base game rolls for (SCENARIOS.md "Dice purposes"). Content may roll for new
#: purposes too; this list documents the known ones and is not a whitelist.
PURPOSES: tuple[str, ...] = (
    "attack",
    "defense",
    "location",
    "check",
    "trait_die",
    "ratio_die",
    "tiebreak",
    "compass",
    "grid_col",
    "grid_row",
    "d8",
    "crate",
    "weapon_card",
    "first_player",  # who plays first, in a game whose setup draws lots for it
)

#: How far a roll slides up or down its dice scale when nothing says otherwise (a rule param may:
#: `Rolls` reads `scale_cap`): every level a die more in the pool, so the cap bounds the pool.
SCALE_CAP = 3


class DiceError(Exception):
    """A roll that cannot be made as asked (bad sides, a forced value that cannot be rolled...)."""


class ForcedDiceExhausted(DiceError):
    """A purpose with forced results was rolled more often than it has results."""

    def __init__(self, purpose: str) -> None:
        self.purpose = purpose
        super().__init__(f"the forced dice for {purpose!r} ran out")


@dataclass(frozen=True)
class Roll:
    """One die as rolled: what for, how many sides, the result, and whether it was forced."""

    purpose: str
    sides: int
    value: int
    forced: bool

    # Written out, the dataclass's own `__init__` would do: the compiled engine then makes a roll
    # with compiled code, not the interpreted method the decorator generates (`Square` says more).
    def __init__(self, purpose: str, sides: int, value: int, forced: bool) -> None:
        object.__setattr__(self, "purpose", purpose)
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "forced", forced)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Roll, (self.purpose, self.sides, self.value, self.forced))


@dataclass(frozen=True)
class ScaleRoll:
    """A roll on the dice scale: its level, the whole pool in rolling order and the two dice kept."""

    level: int
    dice: tuple[int, ...]
    kept: tuple[int, int]

    # Written out, the dataclass's own `__init__` would do: one is made for every side of every
    # opposed roll (`Roll` says why).
    def __init__(self, level: int, dice: tuple[int, ...], kept: tuple[int, int]) -> None:
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "kept", kept)

    def __reduce__(self) -> tuple[Any, ...]:
        return (ScaleRoll, (self.level, self.dice, self.kept))

    @property
    def total(self) -> int:
        return self.kept[0] + self.kept[1]

    @property
    def is_double(self) -> bool:
        """The two kept dice match (doubles, which content may reward)."""
        return self.kept[0] == self.kept[1]


@dataclass(frozen=True)
class DiceState:
    """Everything needed to rebuild a `Dice` exactly: the RNG's internal state, the forced
    results with how many of each have been used, and the rolls not yet drained."""

    seed: int
    rng_state: tuple[Any, ...]
    forced: tuple[tuple[str, tuple[int, ...]], ...]
    positions: tuple[tuple[str, int], ...]
    history: tuple[Roll, ...]


class Dice:
    """Seeded dice with optional forced results per purpose.

    `forced` maps a purpose to the results its rolls must produce, consumed in order. A purpose
    without a list uses the seeded RNG. Forced lists are validated as they are consumed, because
    only then are the die's sides known.
    """

    def __init__(self, seed: int, forced: Mapping[str, Sequence[int]] | None = None) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise DiceError(f"the dice seed must be a whole number, got {seed!r}")
        self._seed = seed
        self._rng = random.Random(seed)
        self._forced: dict[str, tuple[int, ...]] = _validated_forced(forced or {})
        self._positions: dict[str, int] = {purpose: 0 for purpose in self._forced}
        self._history: list[Roll] = []
        # Where the RNG stands, as the state it started from (None: seeded with `seed`) and the
        # Mersenne Twister words drawn since: a number, where a copy of its state is 625 of them.
        self._base_rng: tuple[Any, ...] | None = None
        self._words = 0
        # What `checkpoint` kept.
        self._kept_positions: tuple[tuple[str, int], ...] = ()
        self._kept_history: tuple[Roll, ...] = ()
        self._kept_words = 0
        self.checkpoint()

    # -- rolling -------------------------------------------------------------------------------

    @property
    def seed(self) -> int:
        return self._seed

    def roll(self, purpose: str, sides: int = 6) -> int:
        """Roll one die for `purpose`: the next forced result if the purpose is forced, else the
        RNG. Nothing is consumed or recorded when the roll fails."""
        _check_sides(sides)
        if purpose in self._forced:
            value = self._next_forced(purpose, sides)
            forced = True
        else:
            value = _drawn_die(self, sides)
            forced = False
        self._history.append(Roll(purpose, sides, value, forced))
        return value

    def shuffle(self, purpose: str, items: list[Any], recorded: bool) -> None:
        """Shuffle `items` in place (Fisher-Yates, the last place first: a die of i + 1 sides picks
        what goes to place i), each die rolled for `purpose` as `roll` rolls it, forced results
        included. `recorded`: each die kept in the history as `roll` keeps it (a deck made again
        from its discards: the next line of the log shows them); else none is (the decks shuffled
        as a bout is set up, whose dice the log never shows: no record made only to be thrown away)."""
        forced = purpose in self._forced
        for i in range(len(items) - 1, 0, -1):
            if recorded:
                j = self.roll(purpose, i + 1) - 1
            else:
                j = (self._next_forced(purpose, i + 1) if forced else _drawn_die(self, i + 1)) - 1
            items[i], items[j] = items[j], items[i]

    def roll_many(self, purpose: str, n: int, sides: int = 6) -> list[int]:
        """Roll `n` dice for `purpose`, in order."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise DiceError(f"cannot roll {n!r} dice")
        return [self.roll(purpose, sides) for _ in range(n)]

    def scale_roll(self, purpose: str, level: int, cap: int = SCALE_CAP) -> ScaleRoll:
        """A roll on the dice scale: 2d6 plus one d6 per level of advantage or penalty; keep the
        highest two for a positive level, the lowest two for a negative one.

        The level is clamped to [-cap, cap], so callers may simply add up every bonus and penalty.
        All dice of the pool are rolled, in order, so a forced list reads as "the whole pool, in
        rolling order".
        """
        if cap < 0:
            raise DiceError(f"the dice scale's cap must be >= 0, got {cap}")
        level = max(-cap, min(cap, level))
        pool = tuple(self.roll_many(purpose, 2 + abs(level), 6))
        return ScaleRoll(level=level, dice=pool, kept=_keep_two(pool, level))

    def _next_forced(self, purpose: str, sides: int) -> int:
        queue, position = self._forced[purpose], self._positions[purpose]
        if position >= len(queue):
            raise ForcedDiceExhausted(purpose)
        value = queue[position]
        if not 1 <= value <= sides:
            raise DiceError(
                f"forced die {value} for {purpose!r} cannot be rolled on a d{sides}: "
                f"results are 1..{sides}"
            )
        self._positions[purpose] = position + 1
        return value

    # -- history -------------------------------------------------------------------------------

    @property
    def history(self) -> list[Roll]:
        """The rolls since the last `drain_history()` (a copy), oldest first."""
        return list(self._history)

    def drain_history(self) -> list[Roll]:
        """Return the rolls since the last drain and forget them, so the engine can attach each
        batch of dice to the log event that rolled them."""
        drained, self._history = self._history, []
        return drained

    def forced_results(self) -> dict[str, list[int]]:
        """The forced results as the dice were given them, each purpose's whole list (used or not):
        what new dice rolling the same from the start are made with."""
        return {purpose: list(results) for purpose, results in self._forced.items()}

    def remaining_forced(self) -> dict[str, int]:
        """How many forced results each forced purpose still holds (e.g. to warn about unused
        dice in a scenario)."""
        return {p: len(q) - self._positions[p] for p, q in self._forced.items()}

    # -- copying -------------------------------------------------------------------------------

    def state(self) -> DiceState:
        return DiceState(
            seed=self._seed,
            rng_state=self._rng.getstate(),
            forced=tuple(self._forced.items()),
            positions=tuple(self._positions.items()),
            history=tuple(self._history),
        )

    @classmethod
    def from_state(cls, state: DiceState) -> Dice:
        """A `Dice` that will roll exactly what the dice that produced `state` would roll next."""
        dice = cls(state.seed, dict(state.forced))
        dice._rng.setstate(state.rng_state)
        dice._base_rng = state.rng_state
        dice._positions = dict(state.positions)
        dice._history = list(state.history)
        dice.checkpoint()
        return dice

    # -- putting back -------------------------------------------------------------------------

    def checkpoint(self) -> None:
        """Remember the dice as they are now, for `rewound`. A bout takes one before every action,
        so it costs next to nothing: of the RNG, only the count of words it has drawn is kept."""
        self._kept_positions = tuple(self._positions.items())
        self._kept_history = tuple(self._history)
        self._kept_words = self._words

    def rewound(self) -> Dice:
        """New dice as these were at the last `checkpoint` (or when made): they roll exactly what
        these would have rolled from there. The RNG is brought to where it stood by drawing again,
        from the state it started from, the words it had drawn: its state depends on their number
        alone (`_drawn_die`)."""
        dice = Dice(self._seed, dict(self._forced))
        if self._base_rng is not None:
            dice._rng.setstate(self._base_rng)
            dice._base_rng = self._base_rng
        _skip_words(dice._rng, self._kept_words)
        dice._words = self._kept_words
        dice._positions = dict(self._kept_positions)
        dice._history = list(self._kept_history)
        dice.checkpoint()
        return dice

    def copy(self) -> Dice:
        return Dice.from_state(self.state())

    def __repr__(self) -> str:
        forced = ", ".join(f"{p}: {n} left" for p, n in self.remaining_forced().items())
        return f"Dice(seed={self._seed}{', forced {' + forced + '}' if forced else ''})"


def _drawn_die(dice: Dice, sides: int) -> int:
    """`rng.randint(1, sides)` for a positive `sides`, the very same number drawn the very same way
    (randint is `1 + rng._randbelow(sides)`, which draws `sides.bit_length()` bits until they make
    a number below `sides`), without its three interpreted layers above `getrandbits`. Counts the
    Mersenne Twister words drawn: `getrandbits(k)` takes one 32-bit word for each 32 bits of `k` begun."""
    rng = dice._rng
    bits = _BITS[sides] if sides < len(_BITS) else sides.bit_length()
    words = (bits - 1) // 32 + 1
    drawn = rng.getrandbits(bits)
    taken = words
    while drawn >= sides:
        drawn = rng.getrandbits(bits)
        taken += words
    dice._words += taken
    return 1 + drawn


# `n.bit_length()` of the dice's usual sides, read from a table (the method is called on a boxed int).
_BITS: Final[tuple[int, ...]] = tuple(n.bit_length() for n in range(65))

# The most words `_skip_words` draws in one call (32 bits each).
_SKIP_CHUNK = 1024


def _skip_words(rng: random.Random, words: int) -> None:
    """Draw `words` 32-bit words and drop them: `getrandbits(32 * n)` takes exactly n words."""
    while words > 0:
        chunk = min(words, _SKIP_CHUNK)
        rng.getrandbits(32 * chunk)
        words -= chunk


def _check_sides(sides: object) -> None:
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
        raise DiceError(f"a die must have a whole, positive number of sides, got {sides!r}")


def _validated_forced(forced: Mapping[Any, Sequence[object]]) -> dict[str, tuple[int, ...]]:
    """Copy the forced lists, rejecting what could never be a die result whatever its sides."""
    result: dict[str, tuple[int, ...]] = {}
    for purpose, values in forced.items():
        if not isinstance(purpose, str) or isinstance(values, (str, bytes)):
            raise DiceError(f"forced dice must map a purpose to a list of results, got {purpose!r}")
        results: list[int] = []
        for value in values:  # read as any object: a compiled check of `int` would refuse before this one explains
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise DiceError(f"forced die {value!r} for {purpose!r} is not a die result")
            results.append(value)
        result[purpose] = tuple(results)
    return result


def _keep_two(pool: tuple[int, ...], level: int) -> tuple[int, int]:
    """The two dice a scale roll keeps, in pool order. Among equal dice the earliest rolled are kept:
    it makes no difference to the total but keeps the choice deterministic. (The two first of the
    pool ranked by (best first, earliest first), picked in one pass without a sort.)"""
    if level == 0:
        return pool[0], pool[1]
    sign = -1 if level > 0 else 1
    first, second = 0, -1
    for index in range(1, len(pool)):
        rank = sign * pool[index]
        if rank < sign * pool[first]:  # strictly better: among equals the earlier stays ahead
            first, second = index, first
        elif second < 0 or rank < sign * pool[second]:
            second = index
    if second < first:
        first, second = second, first
    return pool[first], pool[second]
