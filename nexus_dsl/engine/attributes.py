"""The attributes a script reads of a fighter (`self.label`, `target.weapon`, `who.side`), and the
states it asks it to be in (`target is <state>`).

A piece's attribute is, in this order, one of its locations, one of its stats, one of its counters
(the numbers marked on it, lowest first), or else what the name means in the ruleset: the coins of
its player's pile, a trait, its square, its hold, a number of its weapon, a field of the piece. What
the name means in the ruleset is worked out once per name (`PieceReader`), kept in a table shared by
every bout and preview of the ruleset (`piece_attributes`); a player's attribute is one of its stats,
one of its piles, or one of the few the vocabulary names.

Each name's reader is an object of one compiled class, held by the closure of the expression reading
it and called as a method of that class: the commonest reads of a script cost no search of the
ruleset's words and no call through the bout.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from ..model.ruleset import Ruleset
from ..vocabulary import END_STATES as END_STATE_WORDS
from ..vocabulary import PLAYER_ATTRIBUTES
from .scope import UNBOUND
from .setup import declared_number, weapon_word
from .state import BoutState, Piece, Player, Status


class ReadingHost(Protocol):
    """Whose state a read looks into (the bout): only what a piece's player or hold needs asks it."""

    @property
    def state(self) -> BoutState: ...


# What a name that is none of a piece's locations, stats or counters reads (`PieceReader.kind`);
# final, so that compiled code compares with the numbers themselves, not with module globals.
OWNED_PILE: Final = 0  # the coins in its player's pile (a piece stands for its player)
PLAYER_STAT: Final = 1  # a stat each player holds (a piece stands for its player)
TRAIT: Final = 2
SQUARE: Final = 3
FACING: Final = 4  # a compass direction is a word in scripts (`self.facing == N`)
ROLE: Final = 5  # the piece's role, read by the game's word for it
FIGHTING: Final = 6
HOLDING: Final = 7  # a hold, as the game names it: the piece or none
HELD_BY: Final = 8
WEAPON: Final = 9  # `weapon_type` or a number of the weapon the piece holds
FIELD: Final = 10  # the piece's field of that name (or no such attribute)
# The fields scripts read most, each read as itself rather than looked up by its name.
LABEL: Final = 11
SIDE: Final = 12
WEAPON_HELD: Final = 13
RATIO: Final = 14
AP: Final = 15
MP: Final = 16
GAINED: Final = 17
FIELDS: Final = {"label": LABEL, "side": SIDE, "weapon": WEAPON_HELD, "ratio": RATIO, "ap": AP, "mp": MP,
                 "gained": GAINED}
UNKNOWN: Final = -1  # not worked out yet: only a read that gets as far as it asks the ruleset


def _kind(ruleset: Ruleset, name: str) -> int:
    """What `name` reads of a piece when it names none of the piece's locations, stats or counters:
    it depends on the ruleset alone (the checks in this order)."""
    words = ruleset.words
    if name in words.owned_piles:
        return OWNED_PILE
    if name in words.stats:  # a trait, or a stat each player holds
        return PLAYER_STAT if name in words.player_stats else TRAIT
    if name == "square":
        return SQUARE
    if name == "facing":
        return FACING
    if name == ruleset.game.role_word:
        return ROLE
    if name == "fighting":
        return FIGHTING
    hold = words.hold
    if name == hold.holding:
        return HOLDING
    if name == hold.held_by:
        return HELD_BY
    if name.startswith("weapon_"):
        return WEAPON
    return FIELDS.get(name, FIELD)


class PieceReader:
    """How the attribute `name` of a fighter is read in one ruleset: `read` does what the name asks."""

    __slots__ = ("ruleset", "name", "kind", "tabled")

    def __init__(self, ruleset: Ruleset, name: str):
        self.ruleset = ruleset
        self.name = name
        self.kind = UNKNOWN
        # Whether a piece's tables may hold the name at all: they hold the ruleset's stats (its
        # locations among them) and counters alone (`initial_state`, whose pieces every state's are
        # copies of; an effect sets a stat the vocabulary checks is one). Any other name (a field,
        # a trait, a hold...: most reads) is none of theirs, so it is read with no table searched.
        words = ruleset.words
        self.tabled = name in words.stats or name in words.counters or name in words.starts

    def read(self, host: ReadingHost, actor: Piece | Player) -> Any:
        """The attribute of `actor` (of the bout `host`): AttributeError when it has none."""
        name = self.name
        if not isinstance(actor, Piece):  # a piece is the commonest, and told at once by its exact class
            return _player_attribute(actor, name)
        if not self.tabled:
            return self.rest(host, actor)
        # One search of each of the piece's tables, in order (a value of none of them is UNBOUND).
        value = actor.locations.get(name, UNBOUND)
        if value is not UNBOUND:
            return value
        value = actor.stats.get(name, UNBOUND)
        if value is not UNBOUND:
            return value
        numbers = actor.counters.get(name)
        if numbers is not None:  # the numbers marked on a counter, lowest first
            return tuple(sorted(numbers))
        return self.rest(host, actor)

    def rest(self, host: ReadingHost, piece: Piece) -> Any:
        """What the name means in the ruleset, read of `piece`."""
        kind = self.kind
        if kind == UNKNOWN:
            kind = self.kind = _kind(self.ruleset, self.name)
        if kind == HOLDING:
            return host.state.pieces[piece.holding] if piece.holding else None
        if kind == FIGHTING:
            return piece.status == Status.FIGHTING
        if kind >= LABEL:
            return _field(piece, kind)
        if kind == TRAIT:
            return piece.traits.get(self.name, 0)
        if kind == FIELD:
            return getattr(piece, self.name)
        if kind == HELD_BY:
            return host.state.pieces[piece.held_by] if piece.held_by else None
        if kind == OWNED_PILE:
            return host.state.player_of(piece).piles[self.name]
        if kind == PLAYER_STAT:
            return host.state.player_of(piece).stats[self.name]
        if kind == SQUARE:
            return piece.square
        if kind == FACING:
            return piece.facing.name
        if kind == ROLE:
            return piece.role
        return weapon_attribute(self.ruleset, piece, self.name)


def _field(piece: Piece, kind: int) -> Any:
    """The field of `piece` a kind from LABEL on names (`FIELDS`)."""
    if kind == LABEL:
        return piece.label
    if kind == SIDE:
        return piece.side
    if kind == WEAPON_HELD:
        return piece.weapon
    if kind == RATIO:
        return piece.ratio
    if kind == AP:
        return piece.ap
    if kind == MP:
        return piece.mp
    return piece.gained


def _player_attribute(player: Player, name: str) -> Any:
    value = player.stats.get(name, UNBOUND)
    if value is not UNBOUND:
        return value
    value = player.piles.get(name, UNBOUND)  # the coins in a pile it holds
    if value is not UNBOUND:
        return value
    if name in PLAYER_ATTRIBUTES:
        return getattr(player, name)
    raise AttributeError(name)


def weapon_attribute(ruleset: Ruleset, piece: Piece, name: str) -> Any:
    """`weapon_type` or a number of the weapon the piece holds (none: no type, and 0)."""
    weapon = ruleset.declaration("weapon", piece.weapon) if piece.weapon else None
    if weapon is None:
        return None if name == "weapon_type" else 0
    if name == "weapon_type":
        return weapon_word(weapon, "type")
    return declared_number(weapon, name.removeprefix("weapon_")) or 0


END_STATES: Final = frozenset(END_STATE_WORDS)  # set by damage, never by `add_state`


class PieceAttributes:
    """The reader of each attribute name of a fighter in one ruleset, worked out on first use, and
    the states each end state brings in it (`has_state`, and a test of each state: `state_test`)."""

    __slots__ = ("ruleset", "readers", "implied_by", "state_tests")

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.readers: dict[str, PieceReader] = {}
        # A table of the compiled engine's own kind, searched without a call by name.
        self.implied_by: dict[str, tuple[str, ...]] = dict(ruleset.words.implied_by)
        self.state_tests: dict[str, StateTest] = {}

    def reader(self, name: str) -> PieceReader:
        found = self.readers.get(name)
        if found is None:
            found = self.readers[name] = PieceReader(self.ruleset, name)
        return found

    def read(self, host: ReadingHost, actor: Piece | Player, name: str) -> Any:
        """The attribute `name` of `actor` (of the bout `host`): AttributeError when it has none."""
        return self.reader(name).read(host, actor)

    def state_test(self, state: str) -> StateTest:
        """The test of `state`, worked out on first use (a script's `x is <state>` keeps it)."""
        found = self.state_tests.get(state)
        if found is None:
            found = self.state_tests[state] = StateTest(self, state)
        return found

    def has_state(self, actor: Any, state: str) -> bool:
        """Whether `actor` is in `state` (`x is <state>`): for an end state, whether the piece's status
        is it; else whether its status brings the state (`implied_by`) or it was given the state.
        Anything but a piece is in none."""
        return self.state_test(state).holds(actor)


class StateTest:
    """`PieceAttributes.has_state` of one state, with what depends on the state alone (whether it is
    an end state, the end states bringing it) worked out once."""

    __slots__ = ("attributes", "state", "end", "implied")

    def __init__(self, attributes: PieceAttributes, state: str):
        self.attributes = attributes  # whose ruleset's test it is (a closure keeping it checks)
        self.state = state
        self.end = state in END_STATES
        self.implied: tuple[str, ...] = attributes.implied_by.get(state, ())

    def holds(self, actor: Any) -> bool:
        """Whether `actor` is in the state (`PieceAttributes.has_state`)."""
        if not isinstance(actor, Piece):
            return False
        status = actor.status  # a word itself: a `Status` is the `str` it names
        if self.end:
            return status == self.state
        if status in self.implied:
            return True  # a state its declaration says an end state brings
        return self.state in actor.states


def piece_attributes(ruleset: Ruleset) -> PieceAttributes:
    """The readers of `ruleset`, shared by every bout and preview played with it."""
    return ruleset.derived("piece_attributes", lambda: PieceAttributes(ruleset))

