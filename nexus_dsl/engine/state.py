"""The state of a bout: board objects, pieces, piles of coins, the cycle's bookkeeping.

Plain mutable dataclasses owned by one `Bout`. Everything here is mechanism: conditions are
numbers, states are flags, piles are counts. What they mean is decided by the rule scripts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from collections.abc import Mapping
from typing import Any, Union

from .board import Direction, Grid, Square


# The seats round the table in clockwise order, seen from above with north at the top.
SEATS_CLOCKWISE = ("north", "east", "south", "west")


class Status(str, Enum):
    FIGHTING = "fighting"
    INCAPACITATED = "incapacitated"
    DEAD = "dead"


class Termination(str, Enum):
    """The ways a game ends that the engine itself names; content names its own (`end_game`)."""

    # The game loop's safety net: the cycle limit was reached.
    CYCLE_LIMIT = "cycle_limit"
    # A script decided the bout (`win`, `draw`): a victory condition a pack declares.
    DECIDED = "decided"
    # A script faulted: the bout stopped, its state as it was before the action that faulted
    # (`Bout.fault` holds the positioned diagnostic). No one wins.
    SCRIPT_FAULT = "script_fault"


@dataclass(frozen=True)
class Outcome:
    """How a bout ended: `winner` is a side, or None for a draw; `termination` names how it came to
    its end (a `Termination`'s value, or the name content ended it with)."""

    termination: str
    winner: str | None
    totals: dict[str, int]  # each piece's score (the `game` declaration's `score`), by label
    piles: dict[str, int]  # what each shared pile holds at the end, by the game's names of them


@dataclass
class Piece:
    label: str
    seat: str
    square: Square
    facing: Direction
    overall: int
    locations: dict[str, int]
    role: str | None = None  # an item of the game's `roles` data, by id
    profile: str | None = None  # its player's profile: an item of the game's `profiles` data, by id
    states: set[str] = field(default_factory=set)
    traits: dict[str, int] = field(default_factory=dict)
    ap: int = 0
    mp: int = 0
    status: Status = Status.FIGHTING
    weapon: str | None = None
    counters: dict[str, set[int]] = field(default_factory=dict)  # each counter content declares: the numbers marked
    hand: list[str] = field(default_factory=list)  # the cards it holds, of the kinds played from a hand
    marks: dict[str, Any] = field(default_factory=dict)  # named markers scripts set, with a value
    ratio: int = 0
    ammo: int = 0  # of the held weapon, when it uses ammo
    durability: int = 0  # of the held weapon, when it has durability
    holding: str | None = None  # label of the piece this one holds
    held_by: str | None = None  # label of the piece holding this one
    bonus_ap: dict[str, int] = field(default_factory=dict)  # AP usable only against one piece (pg.30)
    # The coins its player's piles took from damage it dealt during the current command (`gained`).
    gained: int = 0
    on_board: bool = True  # false once a fallen piece's figure is replaced by guts
    stats: dict[str, int] = field(default_factory=dict)  # the plain stats content declares (`add_stat`)
    side: str = ""  # pieces of one side are friends: they win together and never target each other

    # Written out, the dataclass's own `__init__` would do (a table left out is a new empty one): a
    # piece is made for every copy of the state, and the compiled engine then makes it with
    # compiled code, not the interpreted method the decorator generates (`board.Square` says more).
    def __init__(self, label: str, seat: str, square: Square, facing: Direction, overall: int,
                 locations: dict[str, int], role: str | None = None, profile: str | None = None,
                 states: set[str] | None = None, traits: dict[str, int] | None = None, ap: int = 0, mp: int = 0,
                 status: Status = Status.FIGHTING, weapon: str | None = None,
                 counters: dict[str, set[int]] | None = None, hand: list[str] | None = None,
                 marks: dict[str, Any] | None = None, ratio: int = 0, ammo: int = 0, durability: int = 0,
                 holding: str | None = None, held_by: str | None = None, bonus_ap: dict[str, int] | None = None,
                 gained: int = 0, on_board: bool = True, stats: dict[str, int] | None = None, side: str = "") -> None:
        self.label = label
        self.seat = seat
        self.square = square
        self.facing = facing
        self.overall = overall
        self.locations = locations
        self.role = role
        self.profile = profile
        self.states = set() if states is None else states
        self.traits = {} if traits is None else traits
        self.ap = ap
        self.mp = mp
        self.status = status
        self.weapon = weapon
        self.counters = {} if counters is None else counters
        self.hand = [] if hand is None else hand
        self.marks = {} if marks is None else marks
        self.ratio = ratio
        self.ammo = ammo
        self.durability = durability
        self.holding = holding
        self.held_by = held_by
        self.bonus_ap = {} if bonus_ap is None else bonus_ap
        self.gained = gained
        self.on_board = on_board
        self.stats = {} if stats is None else stats
        self.side = side

    def __reduce__(self) -> tuple[Any, ...]:
        return (Piece, (self.label, self.seat, self.square, self.facing, self.overall, self.locations, self.role,
                        self.profile, self.states, self.traits, self.ap, self.mp, self.status, self.weapon,
                        self.counters, self.hand, self.marks, self.ratio, self.ammo, self.durability, self.holding,
                        self.held_by, self.bonus_ap, self.gained, self.on_board, self.stats, self.side))

    @property
    def fighting(self) -> bool:
        return self.status == Status.FIGHTING

    def counter_coins(self) -> int:
        """The coins on the piece's counters: one on each number marked. (A plain loop: the ledger
        is proved after every action, and `sum` over a generator made a list first.)"""
        coins = 0
        for numbers in self.counters.values():
            coins += len(numbers)
        return coins

    def foe_of(self, other: Piece) -> bool:
        return other.side != self.side

    def clone(self) -> Piece:
        """A copy sharing nothing mutable. Every state is copied for each preview, so every field
        is passed by position (`dataclasses.replace` costs three times as much);
        tests/engine/test_state_clone.py holds this list to the fields. A set is copied by `set(...)`,
        which compiled code makes directly, where `.copy()` is a method called by name: the same
        copy, made the same way."""
        counters = self.counters
        return Piece(self.label, self.seat, self.square, self.facing, self.overall, self.locations.copy(), self.role,
                     self.profile, set(self.states), self.traits.copy(), self.ap, self.mp, self.status, self.weapon,
                     {name: set(numbers) for name, numbers in counters.items()} if counters else {},
                     self.hand.copy(), self.marks.copy(), self.ratio, self.ammo, self.durability, self.holding,
                     self.held_by, self.bonus_ap.copy(), self.gained, self.on_board, self.stats.copy(), self.side)

    def copy_from(self, other: Piece) -> None:
        """Become what `other.clone()` would be, in this piece's own tables (a preview's copy
        started over, `BoutState.copy_from`): no piece made, none freed. A table is filled afresh
        (`clear` then `update`: the same entries in the same order as a copy), and one empty on
        both sides is left alone; the counters' sets are filled afresh while the counters are the
        same ones, and a hand is made new as a copy makes it. Marks are the state's to rebind (`BoutState.copy_from`); tests/engine/test_state_clone.py
        holds this list to the fields."""
        self.label = other.label
        self.seat = other.seat
        self.square = other.square
        self.facing = other.facing
        self.overall = other.overall
        _refill(self.locations, other.locations)
        self.role = other.role
        self.profile = other.profile
        _refill_set(self.states, other.states)
        _refill(self.traits, other.traits)
        self.ap = other.ap
        self.mp = other.mp
        self.status = other.status
        self.weapon = other.weapon
        counters, mine = other.counters, self.counters
        if _same_keys(mine, counters):  # (always, once set up): each set filled afresh in place
            for name, numbers in counters.items():
                _refill_set(mine[name], numbers)
        else:
            self.counters = {name: set(numbers) for name, numbers in counters.items()} if counters else {}
        if other.hand or self.hand:
            self.hand = other.hand.copy()
        self.ratio = other.ratio
        self.ammo = other.ammo
        self.durability = other.durability
        self.holding = other.holding
        self.held_by = other.held_by
        _refill(self.bonus_ap, other.bonus_ap)
        self.gained = other.gained
        self.on_board = other.on_board
        _refill(self.stats, other.stats)
        self.side = other.side

    def __hash__(self) -> int:  # pieces are identities inside one bout
        return hash(self.label)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Piece) and other.label == self.label

    def __repr__(self) -> str:
        return f"Piece({self.label})"


@dataclass(frozen=True)
class OwnedZone:
    """One player's (or side's) zone of a kind every player or side has one of: `zone_of(hand, p)`."""

    zone: str
    owner: str  # the player's label, or the side's name

    def __str__(self) -> str:
        return f"{self.zone} of {self.owner}"  # as the log names it: `hand of red`

    @classmethod
    def named(cls, logged: str) -> tuple[str, str | None]:
        """A zone as the log names it, read back: (`hand`, `red`), or (`nexus`, None) for the table's."""
        zone, _, owner = logged.partition(" of ")
        return zone, owner or None


@dataclass
class Player:
    """A decision-maker at the table: its seat, its side (players of one side win together) and
    the stats content declares for players (`stat <id> { owner player }`). The pieces it controls
    are listed apart (`BoutState.pieces`, each with the label of its player); a card game's
    players control none."""

    label: str
    seat: str
    side: str
    stats: dict[str, int] = field(default_factory=dict)
    # The coins in each pile the player holds (`pile <id> { owner player }`), by the pile's id.
    piles: dict[str, int] = field(default_factory=dict)
    # Always fighting while there is no rule to put a player out: the status a turn checks of whoever acts.
    status: Status = Status.FIGHTING

    # Written out, the dataclass's own `__init__` would do: a player is made for every copy of the
    # state (`Piece.__init__` says why).
    def __init__(self, label: str, seat: str, side: str, stats: dict[str, int] | None = None,
                 piles: dict[str, int] | None = None, status: Status = Status.FIGHTING) -> None:
        self.label = label
        self.seat = seat
        self.side = side
        self.stats = {} if stats is None else stats
        self.piles = {} if piles is None else piles
        self.status = status

    def __reduce__(self) -> tuple[Any, ...]:
        return (Player, (self.label, self.seat, self.side, self.stats, self.piles, self.status))

    @property
    def fighting(self) -> bool:
        return self.status == Status.FIGHTING

    def foe_of(self, other: Player | Piece) -> bool:
        return other.side != self.side

    def clone(self) -> Player:
        return Player(self.label, self.seat, self.side, self.stats.copy(), self.piles.copy(), self.status)

    def copy_from(self, other: Player) -> None:
        """Become what `other.clone()` would be, in this player's own tables (`Piece.copy_from`)."""
        self.label = other.label
        self.seat = other.seat
        self.side = other.side
        _refill(self.stats, other.stats)
        _refill(self.piles, other.piles)
        self.status = other.status

    def __hash__(self) -> int:  # players are identities inside one game
        return hash(("player", self.label))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Player) and other.label == self.label

    def __repr__(self) -> str:
        return f"Player({self.label})"


@dataclass
class BoutState:
    grid: Grid
    pieces: dict[str, Piece]  # in seat order; clockwise order is the listing order
    # The objects in each square, in the order placed. Each square's objects are a tuple, never
    # changed in place (`place`, `remove` put a new one), so a copy of the state shares them.
    objects: dict[Square, tuple[str, ...]] = field(default_factory=dict)
    drawn: int = 0  # coins taken out of the reserve so far: the ledger's conserved total
    # The coins in each shared pile content declares (one on the table, not the reserve), by its id.
    piles: dict[str, int] = field(default_factory=dict)
    cycle: int = 0
    order: list[str] = field(default_factory=list)  # initiative order of the current cycle
    active: str | None = None
    ended: bool = False
    # How the game came to its end while its verdict is being given (`ending()` in scripts).
    ending: str | None = None
    outcome: Outcome | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    seen_objects: set[str] = field(default_factory=set)  # every object type placed so far (hazards in play)
    decks: dict[str, list[str]] = field(default_factory=dict)  # top card first
    discards: dict[str, list[str]] = field(default_factory=dict)
    # The players, in seat order: in a game with pieces, one per piece, of the same label.
    players: dict[str, Player] = field(default_factory=dict)
    # The zones each player (or side) has one of (`zone <id> { owner player }`): zone -> owner -> cards, top first.
    owned: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    # Written out, the dataclass's own `__init__` would do (a table left out is a new empty one): a
    # state is made for every copy, and the compiled engine then makes it with compiled code
    # (`Piece.__init__` says why).
    def __init__(self, grid: Grid, pieces: dict[str, Piece], objects: dict[Square, tuple[str, ...]] | None = None,
                 drawn: int = 0, piles: dict[str, int] | None = None, cycle: int = 0, order: list[str] | None = None,
                 active: str | None = None, ended: bool = False, ending: str | None = None,
                 outcome: Outcome | None = None, meta: dict[str, Any] | None = None,
                 seen_objects: set[str] | None = None, decks: dict[str, list[str]] | None = None,
                 discards: dict[str, list[str]] | None = None, players: dict[str, Player] | None = None,
                 owned: dict[str, dict[str, list[str]]] | None = None) -> None:
        self.grid = grid
        self.pieces = pieces
        self.objects = {} if objects is None else objects
        self.drawn = drawn
        self.piles = {} if piles is None else piles
        self.cycle = cycle
        self.order = [] if order is None else order
        self.active = active
        self.ended = ended
        self.ending = ending
        self.outcome = outcome
        self.meta = {} if meta is None else meta
        self.seen_objects = set() if seen_objects is None else seen_objects
        self.decks = {} if decks is None else decks
        self.discards = {} if discards is None else discards
        self.players = {} if players is None else players
        self.owned = {} if owned is None else owned
        # The labels of the pieces, and of the players, round the table clockwise from each label
        # (`clockwise_from`): seats never change, so each order is worked out once and shared by
        # every copy of the state.
        self._clockwise: tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]] = ({}, {})

    def clone(self) -> BoutState:
        """A copy sharing nothing mutable with this state: what one copy does (an agent's preview)
        never shows in the other. A piece a mark holds is the copy's piece of that label, not the
        original's. (Every preview copies the state: every field is passed by position, as
        `Piece.clone` does.)"""
        pieces = {label: piece.clone() for label, piece in self.pieces.items()}
        players = {label: player.clone() for label, player in self.players.items()}
        for piece in pieces.values():
            if piece.marks:
                piece.marks = _rebound_values(piece.marks, pieces, players)
        # Most of these are small or empty: each comprehension is a call of its own, so an empty
        # table is copied without one.
        decks, discards, owned = self.decks, self.discards, self.owned
        copy = BoutState(
            self.grid, pieces, self.objects.copy(), self.drawn, self.piles.copy(), self.cycle, self.order.copy(),
            self.active, self.ended, self.ending, self.outcome, _rebound_values(self.meta, pieces, players) if self.meta else {},
            set(self.seen_objects), {name: cards.copy() for name, cards in decks.items()} if decks else {},
            {name: cards.copy() for name, cards in discards.items()} if discards else {}, players,
            {zone: {owner: cards.copy() for owner, cards in held.items()} for zone, held in owned.items()} if owned else {},
        )
        copy._clockwise = self._clockwise
        return copy

    def copy_from(self, original: BoutState) -> None:
        """Become what `original.clone()` would be, in place: a preview's copy started over for the
        next preview (`WhatIf.start_over`) is written into the pieces, players and tables it
        already has, where a new copy made them all and freed the old ones (each preview did
        both). Each table ends with the entries of the original's copy, in the same order, and
        shares nothing mutable with the original; pieces and players are taken over label by
        label while the same labels sit in the same order (always, once a bout is set up), else
        copied anew. What the last preview returned (this very state) is overwritten: it is read
        before the next preview starts."""
        players = self.players
        if _same_keys(players, original.players):
            for label, player in original.players.items():
                players[label].copy_from(player)
        else:
            players = self.players = {label: player.clone() for label, player in original.players.items()}
        pieces = self.pieces
        if _same_keys(pieces, original.pieces):
            # The pieces a mark is rebound to are these very ones, written into or not yet.
            for label, piece in original.pieces.items():
                mine = pieces[label]
                mine.copy_from(piece)
                _rebind_marks(mine, piece.marks, pieces, players)
        else:
            pieces = self.pieces = {label: piece.clone() for label, piece in original.pieces.items()}
            for label, piece in original.pieces.items():
                _rebind_marks(pieces[label], piece.marks, pieces, players)
        self.grid = original.grid
        objects = original.objects
        if objects or self.objects:
            self.objects.clear()
            self.objects.update(objects)
        self.drawn = original.drawn
        _refill(self.piles, original.piles)
        self.cycle = original.cycle
        self.order = original.order.copy()
        self.active = original.active
        self.ended = original.ended
        self.ending = original.ending
        self.outcome = original.outcome
        meta = original.meta
        if meta or self.meta:
            self.meta = _rebound_values(meta, pieces, players) if meta else {}
        _refill_set(self.seen_objects, original.seen_objects)
        decks, discards, owned = original.decks, original.discards, original.owned
        if _same_keys(self.decks, decks):  # (the decks are dealt once): each list filled afresh in place
            dealt = self.decks
            for name, cards in decks.items():
                dealt[name][:] = cards
        else:
            self.decks = {name: cards.copy() for name, cards in decks.items()} if decks else {}
        if discards or self.discards:
            self.discards = {name: cards.copy() for name, cards in discards.items()} if discards else {}
        if owned or self.owned:
            self.owned = {zone: {owner: cards.copy() for owner, cards in held.items()}
                          for zone, held in owned.items()} if owned else {}
        self._clockwise = original._clockwise

    def player_of(self, actor: Player | Piece) -> Player:
        """The player an actor stands for: a player itself, a piece its player (of its label)."""
        if isinstance(actor, Player):
            return actor
        return self.players[actor.label]

    def actor(self, label: str) -> Player | Piece:
        """Who acts under a label: its piece in a game with pieces, else the player."""
        return self.pieces.get(label) or self.players[label]

    def actors(self) -> list[Player | Piece]:
        """Who acts, in seat order: the pieces, or in a game without pieces, the players."""
        return list(self.pieces.values()) if self.pieces else list(self.players.values())

    @property
    def active_piece(self) -> Piece | None:
        return self.pieces.get(self.active) if self.active else None

    def piece_at(self, square: Square) -> Piece | None:
        # Squares compared by their numbers (what `Square.__eq__` compares): read directly, where
        # `==` goes through the class's comparison slot for each piece.
        col, row = square.col, square.row
        for piece in self.pieces.values():
            at = piece.square
            if at.col == col and at.row == row and piece.on_board:
                return piece
        return None

    def clockwise_from(self, label: str) -> list[Piece]:
        """Every piece round the table clockwise (north, east, south, west seen from above),
        starting with `label`; pieces sharing a seat keep their listing order (pg.9, pg.15)."""
        pieces = self.pieces
        return [pieces[other] for other in _clockwise_labels(label, pieces, self._clockwise[0])]

    def actors_clockwise_from(self, label: str) -> list[Player | Piece]:
        """Who acts round the table clockwise from `label`: the pieces (`clockwise_from`), or in a
        game without pieces, the players."""
        if self.pieces:
            return list(self.clockwise_from(label))
        players = self.players
        return [players[other] for other in _clockwise_labels(label, players, self._clockwise[1])]

    def objects_at(self, square: Square) -> tuple[str, ...]:
        objects = self.objects
        if not objects:  # an empty board answers without hashing the square
            return ()
        return objects.get(square, ())

    def place(self, object_type: str, square: Square) -> None:
        self.objects[square] = self.objects.get(square, ()) + (object_type,)
        self.seen_objects.add(object_type)

    def remove(self, object_type: str, square: Square) -> bool:
        """Take one `object_type` (the first placed) off `square`; False when there is none."""
        here = self.objects.get(square, ())
        if object_type not in here:
            return False
        at = here.index(object_type)
        if len(here) == 1:
            del self.objects[square]
        else:
            self.objects[square] = here[:at] + here[at + 1:]
        return True

    def coins_in_play(self) -> int:
        """Every coin out of the reserve: piles, conditions and counters. Equals `drawn` always."""
        # Added up by plain loops: proved after every action, where `sum` over a generator per
        # table made a list of each first.
        total = 0
        for coins in self.piles.values():
            total += coins
        for player in self.players.values():
            for coins in player.piles.values():
                total += coins
        for piece in self.pieces.values():
            total += piece.overall
            for coins in piece.locations.values():
                total += coins
            total += piece.counter_coins()
        return total


def _clockwise_labels(label: str, seated: Mapping[str, Player | Piece],
                      remembered: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The labels of `seated` clockwise from `label`, remembered: the table is seated once (while
    it is, the count of those seated tells a remembered order out of date)."""
    order = remembered.get(label)
    if order is None or len(order) != len(seated):
        order = remembered[label] = _seated_clockwise(label, seated)
    return order


def _seated_clockwise(label: str, seated: Mapping[str, Player | Piece]) -> tuple[str, ...]:
    """The labels of `seated` clockwise from `label` (`_clockwise_labels`), worked out: apart, so
    that the remembered answer is read without making the sort key's closure."""
    ring = {seat: index for index, seat in enumerate(SEATS_CLOCKWISE)}
    labels = sorted(seated, key=lambda x: ring.get(seated[x].seat, len(ring)))
    start = labels.index(label)
    return tuple(labels[start:] + labels[:start])


def _refill(mine: dict[str, int], theirs: dict[str, int]) -> None:
    """`mine` made to hold what `theirs.copy()` would, in the same order (`Piece.copy_from`);
    tables empty on both sides (most are) cost a test each."""
    if mine or theirs:
        mine.clear()
        mine.update(theirs)


def _refill_set(mine: set[Any], theirs: set[Any]) -> None:
    """`mine` made to hold what `set(theirs)` would: cleared, a set is as a new one is, and filling
    it from `theirs` lays it out as `set(theirs)` does, so it is iterated in the same order."""
    if mine or theirs:
        mine.clear()
        mine.update(theirs)


def _rebind_marks(piece: Piece, marks: dict[str, Any], pieces: dict[str, Piece], players: dict[str, Player]) -> None:
    """The marks of a copy's `piece`: the original's `marks`, the pieces and players they hold
    replaced by the copy's own (`BoutState.clone`)."""
    if marks:
        piece.marks = _rebound_values(marks, pieces, players)
    elif piece.marks:
        piece.marks = {}


def _same_keys(mine: dict[str, Any], theirs: dict[str, Any]) -> bool:
    """Whether two tables (of pieces, of players, of counters) have the same keys in the same
    order: walked side by side, nothing made."""
    if len(mine) != len(theirs):
        return False
    for key, other in zip(mine, theirs):
        if key != other:
            return False
    return True


# Who acts in a turn: its piece in a game with pieces, else the player itself.
Actor = Union[Piece, Player]


def _rebound_values(table: dict[Any, Any], pieces: dict[str, Piece], players: dict[str, Player]) -> dict[Any, Any]:
    """A table of marks or of the state's `meta` copied for a cloned state (`_rebound` each value):
    most values are plain words and numbers, taken as they are without a call."""
    return {key: value if isinstance(value, (str, int)) else _rebound(value, pieces, players)
            for key, value in table.items()}


def _rebound(value: Any, pieces: dict[str, Piece], players: dict[str, Player]) -> Any:
    """`value` copied for a cloned state: containers copied, pieces and players replaced by the
    clone's own. A tuple of plain words and numbers is shared: it can never change."""
    if isinstance(value, (str, int)):  # most marks: nothing to copy or rebind
        return value
    if isinstance(value, Piece):
        return pieces.get(value.label, value)
    if isinstance(value, Player):
        return players.get(value.label, value)
    if isinstance(value, list):
        return [item if isinstance(item, (str, int)) else _rebound(item, pieces, players) for item in value]
    if isinstance(value, tuple):
        for item in value:
            if not isinstance(item, (str, int)):
                return tuple(_rebound(item, pieces, players) for item in value)
        return value
    if isinstance(value, dict):
        return _rebound_values(value, pieces, players)
    if isinstance(value, (set, frozenset)):
        return type(value)(_rebound(item, pieces, players) for item in value)
    return value
