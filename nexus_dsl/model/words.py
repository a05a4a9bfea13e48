"""The words of a game, as its content declares them: states, stats and their groups, piles (and the
counters each piece holds), events and timing windows, and its names of a hold.

Both the checker (which names a script may use) and the engine (which values a bout holds) read
them from the declarations, in load order, through the helpers here; `GameWords` gathers them once
per Ruleset (`Ruleset.words`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Mapping

from ..limits import MAX_NUMBER
from ..syntax import ast_nodes as A
from .game import game_of
from ..vocabulary import LIKE_KINDS, STAT_GROUPS  # STAT_GROUPS: held by the engine in its own way; every other stat is plain


def stat_group(declaration: A.Declaration) -> str | None:
    """The group a stat declares itself in (`group trait`): the type its id is a word of."""
    group = declaration.property("group")
    if group is None or len(group.values) != 1 or not isinstance(group.values[0], A.Name):
        return None
    return group.values[0].id


def _word(declaration: A.Declaration, name: str) -> str | None:
    prop = declaration.property(name)
    value = prop.values[0] if prop is not None and len(prop.values) == 1 else None
    return value.id if isinstance(value, A.Name) else None


def _words(declaration: A.Declaration, name: str) -> tuple[str, ...]:
    prop = declaration.property(name)
    return tuple(value.id for value in prop.values if isinstance(value, A.Name)) if prop is not None else ()


def stat_amount(declaration: A.Declaration, name: str, default: int) -> int | str:
    """A stat's `start`, `low` or `high`: a number written out, or the name of the rule param
    holding it (`default` without one). The checker holds these properties to the two forms."""
    prop = declaration.property(name)
    if prop is None or len(prop.values) != 1:
        return default
    value = prop.values[0]
    if isinstance(value, A.Name):
        return value.id
    if isinstance(value, A.Neg) and isinstance(value.operand, A.Num):  # a score that may fall below 0
        return -value.operand.value
    return value.value if isinstance(value, A.Num) else default


def stat_levels(declaration: A.Declaration) -> tuple[str, ...]:
    """The names of a stat's values from `low` up (`levels "calm", "angry"`)."""
    levels = declaration.property("levels")
    return tuple(v.value for v in levels.values if isinstance(v, A.Str)) if levels is not None else ()


def bound_names(declaration: A.Declaration, type_names: Mapping[str, str]) -> dict[str, str]:
    """The names an event or a window binds (its `arg` clauses), with their types (a type written
    by the game's own name of it, `type_names`, as the type it names)."""
    return {arg.name: type_names.get(arg.type.name, arg.type.name)
            for arg in declaration.clauses_of(A.Arg) if isinstance(arg.type, A.NamedType)}


@dataclass(frozen=True)
class Zone:
    """An ordered pile of cards: the kind of declaration whose cards fill it at the start (`holds`),
    what becomes of a card drawn from it (`played` at once for the drawer, or `kept` in its hand),
    who has one (`owner`: `player` or `side` for one each, None for one shared by the table) and who
    may see its cards (`visible`: `all`, `owner` or `none`; the others see how many it holds).
    A shared zone whose drawn cards are kept makes the kind it holds a kind of card played from a
    hand; `keep` names the field of a player's profile saying how many cards of the deal
    (`deal_and_keep`) each player keeps."""

    holds: str | None
    drawn: str
    owner: str | None = None
    visible: str = "all"
    keep: str | None = None

    @property
    def fills_hands(self) -> bool:
        """Whether the zone is shared, filled with cards at the start, and its drawn cards kept in
        the drawer's hand."""
        return self.owner is None and self.holds is not None and self.drawn == "kept"

    def owner_of(self, label: str, side: str) -> str | None:
        """Whose zone of this kind a player (its label and side) has: its label or its side, as the
        zone is each player's or each side's; None for a zone of the table."""
        if self.owner is None:
            return None
        return label if self.owner == "player" else side

    def seen_by(self, owner: str | None, label: str | None, side: str | None) -> bool:
        """Whether a player (its label and side; None for one at no seat) sees the cards of the zone
        of `owner` (None: the table's): a face-down zone by no one, a zone of the table otherwise by
        all, an owned zone `visible all` by all and `visible owner` by its owner alone."""
        if self.visible == "none":
            return False
        if self.visible == "all" or self.owner is None:
            return True
        return label is not None and side is not None and owner == self.owner_of(label, side)


def zone_of(declaration: A.Declaration) -> Zone:
    def word(name: str) -> str | None:
        prop = declaration.property(name)
        value = prop.values[0] if prop is not None and prop.values else None
        if isinstance(value, A.NoneLit):
            return "none"  # `visible none`
        return value.id if isinstance(value, A.Name) else None

    # A shared zone that cards fill at the start is a deck, face down, unless it says otherwise.
    default_visibility = "none" if word("holds") else ("owner" if word("owner") else "all")
    return Zone(holds=word("holds"), drawn=word("drawn") or "kept", owner=word("owner"),
                visible=word("visible") or default_visibility, keep=_text(declaration, "keep"))


@dataclass(frozen=True)
class Hold:
    """A game's names of a hold, one piece holding another (`hold`, `release`): the state a piece
    held is in (None: it is in none), and the names a piece is read by for the one it holds and for
    the one holding it (`holding` and `held_by` unless the game names them otherwise). A state
    declares them (the base game's `state grappled { holding grappling; held_by grappler }`); the
    snapshot's keys and the log's field naming the holder of a broken hold are these names too."""

    state: str | None = None
    holding: str = "holding"
    held_by: str = "held_by"

    @property
    def attributes(self) -> dict[str, str]:
        """Each name a script reads of a piece's hold, with the piece's field it reads."""
        return {self.holding: "holding", self.held_by: "held_by"}


HOLD_PROPERTIES = ("holding", "held_by")


def declares_hold(state: A.Declaration) -> bool:
    """Whether a state is the one a piece held is in: it names the hold's attributes."""
    return any(state.property(name) is not None for name in HOLD_PROPERTIES)


def hold_of(states: Iterable[A.Declaration]) -> Hold:
    """The hold the first state declaring one names (the checker refuses a second); without one,
    a hold that sets no state and is read by the language's own names."""
    for state in states:
        if declares_hold(state):
            return Hold(state.id, _word(state, "holding") or "holding", _word(state, "held_by") or "held_by")
    return Hold()


@dataclass(frozen=True, eq=False)  # compared by identity: the engine keys what it compiles per Ruleset on it
class GameWords:
    """The declared words of a loaded Ruleset, each kind in load order."""

    states: tuple[str, ...]
    stats: tuple[str, ...]
    groups: Mapping[str, tuple[str, ...]]  # stat group -> its stats
    starts: Mapping[str, int]  # stat -> the value it starts at (a rule param's, resolved)
    # The stats outside the engine's groups (the `stat` type), with their bounds and level names.
    plain: tuple[str, ...]
    # The plain stats each player holds rather than each piece (`owner player`).
    player_stats: tuple[str, ...]
    bounds: Mapping[str, tuple[int, int]]
    levels: Mapping[str, tuple[str, ...]]
    # The piles a script names as a pile: the shared ones (one on the table) and the reserve.
    piles: tuple[str, ...]
    zones: Mapping[str, Zone]  # in load order
    events: Mapping[str, Mapping[str, str]]  # event -> the names it binds
    windows: Mapping[str, Mapping[str, str]]  # window -> the names it binds
    # The game's own names of the language's types (a game's `piece_word` for `piece`), each with the type it names.
    type_names: Mapping[str, str] = field(default_factory=dict)
    # The stats whose changes are not lines of the log of their own (`logged false`).
    unlogged: frozenset[str] = frozenset()
    # The stats that start at a field of the player's profile (`profile "deception"`): stat -> field.
    profiled: Mapping[str, str] = field(default_factory=dict)
    # The game's names of a hold, and every state that declares one (the checker allows one).
    hold: Hold = field(default_factory=Hold)
    hold_states: tuple[str, ...] = ()
    # The counters: piles each piece holds, a coin on each number marked (`pile <id> { numbered true }`),
    # each with what the log says a coin marked on it is for (its `reason`, else its id), before the number.
    counters: Mapping[str, str] = field(default_factory=dict)
    # Each state an end state brings with it (`state prone { implied_by incapacitated }`): state ->
    # the end states implying it.
    implied_by: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The piles each player holds one of (`owner player`), read on a piece or a player by their ids;
    # the first stands for its player where a pile is wanted and a piece or a player is given.
    owned_piles: tuple[str, ...] = ()
    # The reserve coins come out of and go back to, never running out (`reserve true`): every coin in
    # play is one it gave out. None: the game names none, and the engine's own stands for it.
    reserve: str | None = None
    # The coins each pile holds at the start, taken from the reserve (`start`), a rule param's
    # resolved: for a pile each player holds, each one's; for a shared pile `per player`, each
    # player's share of it.
    pile_starts: Mapping[str, int] = field(default_factory=dict)
    per_player: frozenset[str] = frozenset()
    # Where coins go or come from when a script names no pile (`default_for`): purpose -> pile. A
    # shared pile (or the reserve) for `damage` (what no piece's player takes), `payment` (what is paid)
    # and `mark` (a counter's coin); a pile each player holds for `damage` (the dealer's player's).
    shared_defaults: Mapping[str, str] = field(default_factory=dict)
    owned_defaults: Mapping[str, str] = field(default_factory=dict)
    # The kinds of declaration content names (`kind`), each with the built-in kind it is like
    # (None for one whose `like` names no kind a declared kind may be like: the checker says why).
    kinds: Mapping[str, str | None] = field(default_factory=dict)

    def group(self, name: str) -> tuple[str, ...]:
        return self.groups.get(name, ())

    def base_kind(self, kind: str) -> str | None:
        return base_kind(kind, self.kinds)

    @property
    def kinds_in_view(self) -> tuple[str, ...]:
        return kinds_in_view(self.kinds)

    # ---- cards: what the zones make of the kinds of declaration they hold (read once, often after)
    @cached_property
    def hand_kinds(self) -> tuple[str, ...]:
        """The kinds of card played from a hand: those a shared zone holds whose drawn cards are kept."""
        return tuple(dict.fromkeys(zone.holds for zone in self.zones.values() if zone.fills_hands and zone.holds))

    @cached_property
    def played_kinds(self) -> tuple[str, ...]:
        """The kinds of card played at once when drawn (a zone's `drawn played`)."""
        return tuple(dict.fromkeys(zone.holds for zone in self.zones.values() if zone.drawn == "played" and zone.holds))

    @cached_property
    def hand(self) -> str | None:
        """The name a piece's hand goes by (in the snapshot): the first zone that fills hands."""
        return next((name for name, zone in self.zones.items() if zone.fills_hands), None)

    def zone_holding(self, kind: str) -> str | None:
        """The first shared zone filled with the cards of `kind`: where such a card comes from, and
        where it is discarded to."""
        return next((name for name, zone in self.zones.items() if zone.owner is None and zone.holds == kind), None)


def base_kind(kind: str, kinds: Mapping[str, str | None]) -> str | None:
    """The built-in kind a declaration of `kind` is checked, validated and played as, given the
    kinds declared in view (`kinds`: each with the kind it is like): itself for a built-in kind, the
    kind it is like for a declared one; None for a kind not in view or declared like none."""
    return kind if kind in A.DECLARATION_KINDS else kinds.get(kind)


def kinds_in_view(kinds: Mapping[str, str | None]) -> tuple[str, ...]:
    """Every kind a declaration may be written as: the built-in ones, then those declared (`kinds`)."""
    return (*A.DECLARATION_KINDS, *(kind for kind in kinds if kind not in A.DECLARATION_KINDS))


def game_words(declarations: Mapping[str, Iterable[A.Declaration]], settings: Mapping[str, Any]) -> GameWords:
    """The words `declarations` (kind -> declarations in load order) declare; a `start` that names
    a rule param takes its value from `settings` (0 when it holds no whole number)."""
    stats = list(declarations.get("stat", ()))
    states = list(declarations.get("state", ()))
    type_names = game_of(list(declarations.get("game", ()))).type_names
    groups: dict[str, list[str]] = {}
    starts: dict[str, int] = {}
    bounds: dict[str, tuple[int, int]] = {}

    def amount(stat: A.Declaration, name: str, default: int) -> int:
        written = stat_amount(stat, name, default)
        value = settings.get(written, default) if isinstance(written, str) else written
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    coin_piles = [d for d in declarations.get("pile", ()) if not _flag(d, "numbered")]
    for stat in stats:
        group = stat_group(stat)
        if group is not None:
            groups.setdefault(group, []).append(stat.id)
        low, high = amount(stat, "low", 0), amount(stat, "high", MAX_NUMBER)
        bounds[stat.id] = (low, max(low, high))
        starts[stat.id] = amount(stat, "start", 0)
        if group not in STAT_GROUPS:
            starts[stat.id] = min(max(starts[stat.id], low), max(low, high))
    return GameWords(
        states=tuple(d.id for d in states),
        stats=tuple(s.id for s in stats),
        groups={name: tuple(ids) for name, ids in groups.items()},
        starts=starts,
        plain=tuple(s.id for s in stats if stat_group(s) not in STAT_GROUPS),
        player_stats=tuple(s.id for s in stats if stat_group(s) not in STAT_GROUPS and _word(s, "owner") == "player"),
        bounds=bounds,
        levels={s.id: stat_levels(s) for s in stats if stat_levels(s)},
        piles=tuple(d.id for d in coin_piles if _word(d, "owner") is None),
        zones={d.id: zone_of(d) for d in declarations.get("zone", ())},
        events={d.id: bound_names(d, type_names) for d in declarations.get("event", ())},
        windows={d.id: bound_names(d, type_names) for d in declarations.get("window", ())},
        type_names=type_names,
        unlogged=frozenset(s.id for s in stats if _flag(s, "logged") is False),
        profiled={s.id: field_name for s in stats if (field_name := _text(s, "profile")) is not None},
        hold=hold_of(states),
        hold_states=tuple(d.id for d in states if declares_hold(d)),
        counters={d.id: _text(d, "reason") or d.id for d in declarations.get("pile", ()) if _flag(d, "numbered")},
        implied_by={d.id: _words(d, "implied_by") for d in states if _words(d, "implied_by")},
        owned_piles=tuple(d.id for d in coin_piles if _word(d, "owner") is not None),
        reserve=next((d.id for d in coin_piles if _flag(d, "reserve")), None),
        pile_starts={d.id: amount(d, "start", 0) for d in coin_piles},
        per_player=frozenset(d.id for d in coin_piles if _word(d, "per") is not None),
        shared_defaults=_defaults(d for d in coin_piles if _word(d, "owner") is None),
        owned_defaults=_defaults(d for d in coin_piles if _word(d, "owner") is not None),
        kinds={d.id: like if (like := _word(d, "like")) in LIKE_KINDS else None for d in declarations.get("kind", ())},
    )


def default_purposes(declaration: A.Declaration) -> tuple[str, ...]:
    """What a pile is the default for (`default_for damage, payment`)."""
    prop = declaration.property("default_for")
    return tuple(v.id for v in prop.values if isinstance(v, A.Name)) if prop is not None else ()


def _defaults(piles: Iterable[A.Declaration]) -> dict[str, str]:
    """Purpose -> the first of `piles` that is its default (the checker refuses a second)."""
    defaults: dict[str, str] = {}
    for pile in piles:
        for purpose in default_purposes(pile):
            defaults.setdefault(purpose, pile.id)
    return defaults


def _flag(declaration: A.Declaration, name: str) -> bool | None:
    """A property's true or false; None without it."""
    prop = declaration.property(name)
    value = prop.values[0] if prop is not None and len(prop.values) == 1 else None
    return value.value if isinstance(value, A.Bool) else None


def _text(declaration: A.Declaration, name: str) -> str | None:
    """A property's text (or a word standing for it); None without it."""
    prop = declaration.property(name)
    value = prop.values[0] if prop is not None and len(prop.values) == 1 else None
    if isinstance(value, A.Str):
        return value.value
    return value.id if isinstance(value, A.Name) else None
