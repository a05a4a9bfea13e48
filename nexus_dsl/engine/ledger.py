"""The ledger: every pile of coins, and the one way a coin moves between two of them.

Every coin that moves goes through the ledger (`_move_coins`: `transfer_coins`, and a counter's
`mark_counter_coin` and `collect_counter_coins`), which logs it with its source and destination pile,
so the ledger can prove after every event that no coin was created or lost: the coins out of the
reserve (`BoutState.drawn`) are the coins in every other pile. Since every coin moves here, the
ledger keeps that count as the coins move (`in_play`), where adding up every pile after every action
cost more the more pieces a bout has; tests prove the kept count equals the piles added up.

The piles are the game's (`pile` declarations): shared ones on the table, one of some kind for each
player (`owner player`), the reserve (`reserve true`), and the counters each piece holds; with the
condition coins of each piece, which come out of the reserve too.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from .interpreter import Limits
from .state import BoutState, Piece, Player

# ("pile", name): a shared pile; ("owned", name, label): a player's pile; ("reserve", name);
# ("overall", label) and ("location", label, loc): a piece's condition; ("counter", name, label).
Pile = tuple
# The reserve's name in the log when the game declares none: coins that no declared pile takes
# go back to it, and the coins of conditions come out of it.
UNNAMED_RESERVE = "reserve"


def pile_name(pile: Pile) -> str:
    """A pile as the log names it: a shared pile and the reserve by their ids (`<pile>`), a player's
    pile and a piece's counter by the id and the label (`<pile>:red`), a condition by its parts
    (`overall:red`, `location:red:<location>`): each by the name the game declares it under."""
    kind: str = pile[0]  # read as text: compared as text, not as any object
    if kind == "pile" or kind == "reserve":
        return str(pile[1])
    return ":".join(pile[1:] if kind == "counter" or kind == "owned" else pile)


def counter_pile(piece: Piece, counter: str) -> Pile:
    """A piece's counter: one coin on each number marked."""
    return ("counter", counter, piece.label)


class LedgerHost(Protocol):
    """What the ledger needs of the bout: its piles (the state), the declared piles (the rules), the
    number limit, and the log."""

    state: BoutState
    ruleset: Ruleset
    limits: Limits

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Ledger:
    """The coin piles of a bout and the moves between them."""

    def __init__(self, host: LedgerHost):
        self.host = host
        self.state: BoutState = host.state  # handed anew by the bout whenever it replaces its state
        # The words of the piles and the number limit, fixed for the bout: read once.
        words = host.ruleset.words
        self.reserve_name: str | None = words.reserve
        self.reserve: Pile = ("reserve", words.reserve or UNNAMED_RESERVE)
        self.owned_piles: tuple[str, ...] = tuple(words.owned_piles)
        self.shared_defaults: dict[str, str] = dict(words.shared_defaults)
        self.max_number: int = host.limits.max_number
        # The coins out of the reserve, in every other pile: counted once, then kept as coins move
        # (`_pile_add`), counted afresh whenever the bout replaces its state (`recount`).
        self.in_play: int = self.state.coins_in_play()

    def recount(self) -> None:
        """Count the coins in play afresh: the bout replaced its state (a fault undone)."""
        self.in_play = self.state.coins_in_play()

    def default_pile(self, purpose: str) -> Pile:
        """The shared pile the game names for `purpose` (`default_for`), else the reserve."""
        name = self.shared_defaults.get(purpose)
        return self.as_pile(name) if name is not None else self.reserve

    def owned_pile(self, actor: Piece | Player, name: str) -> Pile:
        """An actor's player's pile `name` (a piece stands for its player, of its label)."""
        return ("owned", name, actor.label)

    def _pile_amount(self, pile: Pile) -> int:
        state = self.state
        kind: str = pile[0]
        if kind == "reserve":
            return 10**18  # the reserve never runs out (more than any amount a script may name)
        if kind == "pile":
            return state.piles[pile[1]]
        if kind == "owned":
            return state.players[pile[2]].piles[pile[1]]
        if kind == "counter":
            return len(state.pieces[pile[2]].counters[pile[1]])
        piece = state.pieces[pile[1]]
        if kind == "overall":
            return piece.overall
        return piece.locations[pile[2]]

    def _pile_add(self, pile: Pile, amount: int, slot: int | None = None) -> None:
        """Change one pile. Only the ledger (`_move_coins`) calls this: a coin taken from one pile
        is always put on another in the same step. A counter takes a coin on the number `slot`
        and gives up its coins lowest number first. The coins in play are kept as they move."""
        state = self.state
        kind: str = pile[0]
        if kind == "reserve":
            state.drawn -= amount
            return
        if kind == "pile":
            state.piles[pile[1]] += amount
        elif kind == "owned":
            state.players[pile[2]].piles[pile[1]] += amount
        elif kind == "counter":
            numbers = state.pieces[pile[2]].counters[pile[1]]
            if amount > 0:
                assert amount == 1 and slot is not None and slot not in numbers
                numbers.add(slot)
            else:
                taken = sorted(numbers)[:-amount]
                for number in taken:
                    numbers.discard(number)
                amount = -len(taken)  # (as many as it held: a move never takes more)
        else:
            piece = state.pieces[pile[1]]
            if kind == "overall":
                piece.overall += amount
            else:
                piece.locations[pile[2]] += amount
        self.in_play += amount

    def _move_coins(self, moved: int, source: Pile, dest: Pile, reason: str, slot: int | None = None) -> None:
        """The ledger: `moved` coins (already known to be in `source`) go to `dest`, logged."""
        limit = self.max_number
        if dest[0] != "reserve" and self._pile_amount(dest) + moved > limit:
            raise self.host.runtime_error("number_too_large",
                                          f"the pile `{pile_name(dest)}` would hold {self._pile_amount(dest) + moved} "
                                          f"coins, beyond the limit of {limit}")
        self._pile_add(source, -moved)
        self._pile_add(dest, moved, slot)
        self.host.emit_line("coins", {"amount": moved, "source": pile_name(source), "dest": pile_name(dest),
                                      "reason": reason})

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
        """Mark `number` on the piece's counter with a coin from the pile the game names for a
        mark (`default_for mark`), or from the reserve when that is empty or there is none: a mark
        is never missed for want of a coin. A number already marked is left alone."""
        if number in piece.counters[counter]:
            return
        source = self.default_pile("mark")
        if self._pile_amount(source) <= 0:
            source = self.reserve
        self._move_coins(1, source, counter_pile(piece, counter), reason, slot=number)

    def collect_counter_coins(self, piece: Piece, counter: str, dest: Pile, reason: str) -> int:
        """Every coin of the piece's counter goes to `dest`; the counter starts again. Collecting an
        empty counter is logged too, as a move of no coins, so the log shows the counter was emptied."""
        pile = counter_pile(piece, counter)
        coins = self._pile_amount(pile)
        if coins == 0:
            self.host.emit_line("coins", {"amount": 0, "source": pile_name(pile), "dest": pile_name(dest),
                                          "reason": reason})
            return 0
        if dest[0] == "counter":
            raise self.host.runtime_error("bad_value", "a counter's coins cannot go to a counter")
        self._move_coins(coins, pile, dest, reason)
        return coins

    def coins_in(self, value: Any) -> int:
        """How many coins a pile holds (`coins`): the reserve, never running out, holds none to count."""
        pile = self.as_pile(value)
        return 0 if pile[0] == "reserve" else self._pile_amount(pile)

    def as_pile(self, value: Any) -> Pile:
        """The pile a script's value names: a shared pile or the reserve by its id; a piece or a
        player stands for its player's first pile (`owner player`)."""
        if isinstance(value, tuple):
            return value
        if isinstance(value, (Piece, Player)):
            if not self.owned_piles:
                raise self.host.runtime_error("wrong_type", f"{value.label} stands for no pile: no pile is "
                                                            "declared `owner player`")
            return self.owned_pile(value, self.owned_piles[0])
        if isinstance(value, str) and value == self.reserve_name:
            return self.reserve
        if isinstance(value, str) and value in self.state.piles:  # a shared pile content declares
            return ("pile", value)
        raise self.host.runtime_error("wrong_type", f"{value!r} is not a coin pile")
