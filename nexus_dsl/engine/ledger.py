"""The ledger: every pile of coins, and the one way a coin moves between two of them.

Every coin that moves goes through the ledger (`_move_coins`: `transfer_coins`, and a counter's
`mark_counter_coin` and `collect_counter_coins`), which logs it with its source and destination pile,
so the ledger can prove after every event that no coin was created or lost.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import ScriptRuntimeError
from .interpreter import Limits
from .state import BoutState, Piece

Pile = tuple  # ("crowd",) ("box",) ("pile", name) ("cred", label) ("overall", label) ("location", label, loc) ("counter", name, label)
CROWD: Pile = ("crowd",)
BOX: Pile = ("box",)


def pile_name(pile: Pile) -> str:
    """A pile as the log names it: its parts joined (`overall:red`); a piece's counter by the counter's
    own name (`<counter>:red`), as the game declares it."""
    return ":".join(pile[1:] if pile[0] == "counter" else pile)


def counter_pile(piece: Piece, counter: str) -> Pile:
    """A piece's counter: one coin on each number marked."""
    return ("counter", counter, piece.label)


class LedgerHost(Protocol):
    """What the ledger needs of the bout: its piles (the state), the number limit, and the log."""

    state: BoutState
    limits: Limits

    def emit(self, event_type: str, /, **data: Any) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Ledger:
    """The coin piles of a bout and the moves between them."""

    def __init__(self, host: LedgerHost):
        self.host = host

    def _pile_amount(self, pile: Pile) -> int:
        state = self.host.state
        kind = pile[0]
        if kind == "crowd":
            return state.crowd
        if kind == "box":
            return 10**18  # the box never runs out (more than any amount a script may name)
        if kind == "pile":
            return state.piles[pile[1]]
        if kind == "counter":
            return len(state.pieces[pile[2]].counters[pile[1]])
        piece = state.pieces[pile[1]]
        if kind == "cred":
            return piece.cred
        if kind == "overall":
            return piece.overall
        return piece.locations[pile[2]]

    def _pile_add(self, pile: Pile, amount: int, slot: int | None = None) -> None:
        """Change one pile. Only the ledger (`_move_coins`) calls this: a coin taken from one pile
        is always put on another in the same step. A counter takes a coin on the number `slot`
        and gives up its coins lowest number first."""
        state = self.host.state
        kind = pile[0]
        if kind == "crowd":
            state.crowd += amount
        elif kind == "box":
            state.box_drawn -= amount
        elif kind == "pile":
            state.piles[pile[1]] += amount
        elif kind == "counter":
            numbers = state.pieces[pile[2]].counters[pile[1]]
            if amount > 0:
                assert amount == 1 and slot is not None and slot not in numbers
                numbers.add(slot)
            else:
                for number in sorted(numbers)[:-amount]:
                    numbers.discard(number)
        else:
            piece = state.pieces[pile[1]]
            if kind == "cred":
                piece.cred += amount
            elif kind == "overall":
                piece.overall += amount
            else:
                piece.locations[pile[2]] += amount

    def _move_coins(self, moved: int, source: Pile, dest: Pile, reason: str, slot: int | None = None) -> None:
        """The ledger: `moved` coins (already known to be in `source`) go to `dest`, logged."""
        limit = self.host.limits.max_number
        if dest[0] != "box" and self._pile_amount(dest) + moved > limit:
            raise self.host.runtime_error("number_too_large",
                                          f"the pile `{pile_name(dest)}` would hold {self._pile_amount(dest) + moved} "
                                          f"coins, beyond the limit of {limit}")
        self._pile_add(source, -moved)
        self._pile_add(dest, moved, slot)
        self.host.emit("coins", amount=moved, source=pile_name(source), dest=pile_name(dest), reason=reason)

    def transfer_coins(self, amount: int, source: Pile, dest: Pile, reason: str) -> int:
        """Move up to `amount` coins (as many as the source holds). Returns how many moved."""
        moved = max(0, min(amount, self._pile_amount(source)))
        if moved == 0 or source == dest:
            return 0
        if dest[0] == "counter":
            raise self.host.runtime_error("bad_value", "coins reach a counter only by `mark_counter`")
        self._move_coins(moved, source, dest, reason)
        return moved

    def mark_counter_coin(self, piece: Piece, counter: str, number: int, reason: str) -> None:
        """Mark `number` on the piece's counter with a coin from the crowd, or from the box when the
        crowd is empty: a mark is never missed for want of a coin. A number already marked is left alone."""
        if number in piece.counters[counter]:
            return
        source = CROWD if self.host.state.crowd > 0 else BOX
        self._move_coins(1, source, counter_pile(piece, counter), reason, slot=number)

    def collect_counter_coins(self, piece: Piece, counter: str, dest: Pile, reason: str) -> int:
        """Every coin of the piece's counter goes to `dest`; the counter starts again. Collecting an
        empty counter is logged too, as a move of no coins, so the log shows the counter was emptied."""
        pile = counter_pile(piece, counter)
        coins = self._pile_amount(pile)
        if coins == 0:
            self.host.emit("coins", amount=0, source=pile_name(pile), dest=pile_name(dest), reason=reason)
            return 0
        if dest[0] == "counter":
            raise self.host.runtime_error("bad_value", "a counter's coins cannot go to a counter")
        self._move_coins(coins, pile, dest, reason)
        return coins

    def as_pile(self, value: Any) -> Pile:
        if isinstance(value, Piece):
            return ("cred", value.label)
        if value == "crowd":
            return CROWD
        if value == "box":
            return BOX
        if isinstance(value, str) and value in self.host.state.piles:  # a pile content declares
            return ("pile", value)
        raise self.host.runtime_error("wrong_type", f"{value!r} is not a coin pile")
