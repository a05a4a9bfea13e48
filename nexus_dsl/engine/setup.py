"""How a bout begins: who sits where, which piece stands on which square, what is on the board.

`BoutSetup` is plain data. The standard setup follows the rulebook (pg.9): two players sit north and
south, more on the east and west; each piece enters at its player's closest leftmost square
facing away from the player. Scenarios build a `BoutSetup` of their own to start mid-bout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..errors import Diagnostic, NexusError, did_you_mean
from ..model.seats import SEAT_ENTRY_CELLS, SEAT_ORDER
from ..model.words import Hold
from ..syntax import ast_nodes as A
from .board import Direction, Grid, Square

# Seat -> (entry square, facing) (pg.9), and the order players take seats in (`model/seats.py`).
SEAT_ENTRY: dict[str, tuple[Square, Direction]] = {
    seat: (Square(*cell), Direction[facing]) for seat, (cell, facing) in SEAT_ENTRY_CELLS.items()
}
# `BoutSetup.layout` naming no layout but this: one of the game's board layouts picked at random
# (the base game's rulebook, pg.38), see `pick_random_layout`.
RANDOM_LAYOUT = "random"
# `PieceSetup.role` or `.profile` naming no item but this: one drawn with the dice from those no other
# piece of the setup names or has drawn (`draw_at_random`), as players pick their cards from the box.
RANDOM_ITEM = "random"
# How the base box's scripts record what a setup may give a piece directly: a drawn weapon is the
# `armed` state (rules/states.nexus); the body location a drawn shield protects is the value of the
# `shield_location` mark (weapons/weapon_rules.nexus). The state of a piece held is the game's
# (its hold, `model/words.py`).
DRAWN_WEAPON_STATE = "armed"
PROTECTED_LOCATION_MARK = "shield_location"
# A piece's status: fighting, or out of the fight (pg.13). Not states: damage sets them.
STATUSES = ("fighting", "incapacitated", "dead")


class SetupError(NexusError):
    """A setup no bout can start from. It names the piece and the setup key at fault, so a
    scenario can point at the line that set it."""

    def __init__(self, message: str, piece: str | None = None, key: str | None = None,
                 code: str = "setup/impossible"):
        self.actor = piece
        self.key = key
        self.reason = message  # what is wrong, without naming the piece
        super().__init__(Diagnostic(code, f"`{piece}`: {message}" if piece else message, "<setup>"))


@dataclass
class PieceSetup:
    label: str
    seat: str
    at: Square | None = None
    facing: Direction | None = None
    role: str | None = None  # an item of the game's `roles` data: its advantages, abilities and talent
    profile: str | None = None  # its player's profile, an item of the game's `profiles` data
    overall: int | None = None
    locations: dict[str, int] = field(default_factory=dict)
    states: list[str] = field(default_factory=list)
    traits: dict[str, int] | None = None
    side: str | None = None  # the piece's side; else its seat's group (the `sides` rule param), else its own
    stats: dict[str, int] = field(default_factory=dict)  # the plain stats content declares, by id
    piles: dict[str, int] = field(default_factory=dict)  # its player's piles (`owner player`) the setup fills, by id
    ap: int = 0
    mp: int = 0
    weapon: str | None = None
    counters: dict[str, list[int]] = field(default_factory=dict)  # numbers already marked, by counter
    hand: list[str] | None = None  # a hand set outright: the piece keeps nothing of its share
    # Cards the piece holds after the deal whatever the shuffle ("what if red held this card?"):
    # taken out of the deck before it is dealt, added to the hand after the keeping.
    dealt: list[str] = field(default_factory=list)
    keep: int | None = None  # how many cards of its share the piece keeps; None: as its profile says
    marks: dict[str, object] = field(default_factory=dict)
    ratio: int = 3  # the ratio die of a piece whose round follows a scenario's mid-round start
    # With `weapon`: None leaves the card's own values (drawn, full durability and ammo).
    weapon_drawn: bool | None = None  # False: the weapon is stored, the piece is not Armed
    durability: int | None = None  # durability left on a melee weapon or shield
    ammo: int | None = None  # ammunition left on a ranged or thrown weapon
    protects: str | None = None  # the body location a drawn shield protects
    status: str = "fighting"  # or out of the fight already: `incapacitated`, `dead`
    holding: str | None = None  # the label of the piece this one holds

    def __post_init__(self) -> None:
        # A hand set outright (even an empty one) is the whole hand: nothing of the deal is kept.
        if self.hand is not None and self.keep is None:
            self.keep = 0


@dataclass
class PlayerSetup:
    """A player at the table of a game whose players control no pieces (`game { pieces 0 }`)."""

    label: str
    seat: str
    side: str | None = None  # its side; else its seat's group (the `sides` rule param), else its own
    stats: dict[str, int] = field(default_factory=dict)  # the stats each player holds (`owner player`)


@dataclass
class BoutSetup:
    pieces: list[PieceSetup]
    # The board layout the bout is played on: an item of the game's layouts data kind (`game { layouts
    # <kind> }`), RANDOM_LAYOUT for one picked with the dice, None for an empty board.
    layout: str | None = None
    objects: list[tuple[str, Square]] = field(default_factory=list)
    piles: dict[str, int] = field(default_factory=dict)  # shared piles the setup fills, by id (else each its `start`)
    decks: dict[str, list[str]] = field(default_factory=dict)
    # Cards a scenario places, top first: a shared zone's list, or each owner's list of a zone every
    # player or side has (`{hand: {ahab: [...]}}`). A zone cards fill at the start keeps the others
    # below the ones listed, shuffled; the cards placed elsewhere leave it.
    zones: dict[str, list[str] | dict[str, list[str]]] = field(default_factory=dict)
    phase: str = "cycle"  # "cycle": start at a new Command Cycle; "command": mid-round
    active: str | None = None
    max_cycles: int = 200  # a safety net for agents that never close in; a bout ending here is a draw
    extra: dict[str, Any] = field(default_factory=dict)
    # The players of a game whose players control no pieces; without them, such a game seats a
    # player where the setup places a piece (its label, seat and side).
    players: list[PlayerSetup] = field(default_factory=list)

    def seated(self) -> list[PlayerSetup]:
        """The players of a game without pieces, as the setup seats them."""
        if self.players:
            return list(self.players)
        return [PlayerSetup(spec.label, spec.seat, spec.side, dict(spec.stats)) for spec in self.pieces]


def standard_setup(players: int = 2, roles: list[str | None] | None = None,
                   profiles: list[str | None] | None = None, layout: str | None = None,
                   labels: list[str] | None = None) -> BoutSetup:
    """Each player's piece at its seat's entry square; `roles` and `profiles` (in seat order) name
    each piece's role and each player's profile, or none."""
    if not 2 <= players <= 4:
        raise ValueError("a bout has 2 to 4 players")
    labels = labels or ["red", "blue", "green", "yellow"][:players]
    roles = roles or [None] * players
    profiles = profiles or [None] * players
    pieces = []
    for index in range(players):
        seat = SEAT_ORDER[index]
        square, facing = SEAT_ENTRY[seat]
        pieces.append(PieceSetup(label=labels[index], seat=seat, at=square, facing=facing,
                                 role=roles[index], profile=profiles[index]))
    return BoutSetup(pieces=pieces, layout=layout)


def pick_random_layout(layout_ids: list[str], roll: Callable[[str, int], int], word: str = "layout") -> str:
    """A board layout picked at random (the base game's pg.38: "use a d8 to select one at random").

    `layout_ids` are the loaded layouts in pack order; `roll(purpose, sides)` rolls one die. Up to
    eight layouts: a d8 (purpose `d8`), rolled again while it shows more than there are layouts, so
    the base box's eight are one face each. More than eight (packs adding layouts): one die with a
    face per layout, the d8 rule grown to the larger collection, rolled for the purpose `word`: the
    game's name of a layout (`game { layout_word ... }`), which the log writes.
    """
    if not layout_ids:
        raise ValueError("the loaded packs hold no layout to pick from")
    sides = max(8, len(layout_ids))
    purpose = "d8" if sides == 8 else word
    while True:
        face = roll(purpose, sides)
        if face <= len(layout_ids):
            return layout_ids[face - 1]


def draw_at_random(named: Sequence[str | None], labels: Sequence[str], known: Sequence[str],
                   roll: Callable[[str, int], int], word: str) -> list[str | None]:
    """Each RANDOM_ITEM of `named` (the roles or profiles of the pieces `labels`, in seat order) replaced by an item
    of `known` (in pack order) drawn with one die of as many faces as there are items left to draw
    from, rolled for the purpose `word` (the game's name of one, which the log writes): the items no
    piece names outright and none drawn before it, so no two pieces hold the same card, as when
    players each take one from the box. An item left alone is taken without a roll."""
    if RANDOM_ITEM in known:  # the packs hold an item of that id: it is named, not drawn
        return list(named)
    taken = {item for item in named if item is not None and item != RANDOM_ITEM}
    drawn: list[str | None] = []
    for item, label in zip(named, labels):
        if item != RANDOM_ITEM:
            drawn.append(item)
            continue
        left = [candidate for candidate in known if candidate not in taken]
        if not left:
            raise SetupError(f"no {word} left to draw at random: the loaded packs hold {len(known)}, "
                             "every one named or drawn already", label, word, f"setup/unknown_{word}")
        chosen = left[roll(word, len(left)) - 1] if len(left) > 1 else left[0]
        taken.add(chosen)
        drawn.append(chosen)
    return drawn


# ---------------------------------------------------------------- a piece set up mid-bout
@dataclass(frozen=True)
class WeaponInHand:
    """A held weapon as a setup leaves it: drawn or stored, with what is left of its card's numbers."""

    drawn: bool
    durability: int  # 0 when the card has no durability
    ammo: int  # 0 when the card has no ammo
    protects: str | None


def declared_number(weapon: A.Declaration, name: str) -> int | None:
    """A weapon card's number (`damage`, `durability`, `ammo`, `block`...): None when the card does
    not declare it, so the number does not apply to that weapon (0 when it is no number written
    out, which the checker refuses)."""
    prop = weapon.property(name)
    if prop is None:
        return None
    value = prop.values[0] if prop.values else None
    return value.value if isinstance(value, A.Num) else 0


def weapon_word(weapon: A.Declaration, name: str) -> str | None:
    """The word a weapon card gives a property (its `type`...), or None."""
    prop = weapon.property(name)
    value = prop.values[0] if prop and prop.values else None
    return value.id if isinstance(value, A.Name) else None


def weapon_in_hand(spec: PieceSetup, weapon: A.Declaration | None, locations: Sequence[str]) -> WeaponInHand | None:
    """The piece's weapon as its setup asks, or a `SetupError` for what the card cannot be:
    durability or ammo it does not have, more than it starts with, a location (one of the declared
    `locations`) protected by a weapon that protects none or is not drawn."""
    if weapon is None:
        for key in ("weapon_drawn", "durability", "ammo", "protects"):
            if getattr(spec, key) is not None:
                raise SetupError(f"`{key}` needs a `weapon`", spec.label, key)
        return None
    drawn = spec.weapon_drawn is not False
    return WeaponInHand(drawn=drawn, durability=_weapon_counter(spec, weapon, "durability"),
                        ammo=_weapon_counter(spec, weapon, "ammo"), protects=_protected(spec, weapon, drawn, locations))


def _weapon_counter(spec: PieceSetup, weapon: A.Declaration, name: str) -> int:
    """Durability or ammo left: the card's own unless the setup names what is left (at least 1:
    a weapon with none left is already gone)."""
    full = declared_number(weapon, name)
    wanted = getattr(spec, name)
    if wanted is None:
        return full or 0
    if full is None:
        raise SetupError(f"`{name}` does not apply to `{weapon.id}`: its card has no {name}", spec.label, name)
    if wanted < 1 or 0 < full < wanted:  # a card whose number is no literal (0 here) bounds nothing
        bound = f"1 to {full} (its card's {name})" if full > 0 else "at least 1"
        raise SetupError(f"`{name}` left on `{weapon.id}` is {bound}, not {wanted}", spec.label, name)
    return int(wanted)


def _protected(spec: PieceSetup, weapon: A.Declaration, drawn: bool, locations: Sequence[str]) -> str | None:
    if spec.protects is None:
        return None
    if (declared_number(weapon, "block") or 0) <= 0:
        raise SetupError(f"`protects` needs a shield that protects a location; `{weapon.id}` has no block value",
                         spec.label, "protects")
    if not drawn:
        raise SetupError("`protects` needs the shield drawn: a stored shield protects nothing", spec.label, "protects")
    if spec.protects not in locations:
        raise SetupError(f"`protects: {spec.protects}` is not a location of the loaded packs"
                         + _choices(str(spec.protects), locations), spec.label, "protects")
    return spec.protects


def holder_of(spec: PieceSetup, pieces: Sequence[PieceSetup], grid: Grid, hold: Hold) -> str | None:
    """The label of the piece holding `spec`, after checking that every hold `spec` takes part in
    could stand on the bout's board (a `SetupError` otherwise, worded in the game's names of a
    hold, `hold`)."""
    if spec.holding is not None:
        _check_hold(spec, pieces, grid, hold)
    holders = [h for h in pieces if h.holding == spec.label]
    if len(holders) > 1:
        raise SetupError(f"is held by {holders[0].label} and {holders[1].label}: only one may hold it",
                         spec.label)
    return holders[0].label if holders else None


def _check_hold(holder: PieceSetup, pieces: Sequence[PieceSetup], grid: Grid, hold: Hold) -> None:
    """A hold keeps the one held in its holder's front-centre square, and a piece that holds or is
    held is held by no third."""
    by_label = {h.label: h for h in pieces}
    held = by_label.get(str(holder.holding))
    if held is None:
        raise SetupError(f"`{hold.holding}: {holder.holding}` names no one of the setup", holder.label, "holding")
    if held.label == holder.label:
        raise SetupError(f"cannot be {hold.holding} itself", holder.label, "holding")
    if held.holding is not None:
        raise SetupError(f"cannot hold {held.label}, which holds {held.holding} itself: "
                         "a holder is held by no one", holder.label, "holding")
    if any(h.holding == holder.label for h in pieces):
        raise SetupError(f"cannot hold {held.label} while held itself: one held holds no one",
                         holder.label, "holding")
    placed = holder.at is not None and holder.facing is not None
    front = grid.front_center(holder.at, holder.facing) if placed else None  # type: ignore[arg-type]
    if front is None or held.at != front:
        square = f"[{front.col}, {front.row}]" if front is not None else "(off the board)"
        raise SetupError(f"is {hold.holding} {held.label}, so {held.label} must stand in its front-centre "
                         f"square {square}, not at {_shown(held.at)}", holder.label, "holding")


def _shown(square: Square | None) -> str:
    return f"[{square.col}, {square.row}]" if square is not None else "no square"


def declared_only(values: Mapping[str, int], declared: Mapping[str, int], what: str, label: str, key: str
                  ) -> Mapping[str, int]:
    """`values` (a setup's `locations` or `traits`), or a `SetupError` naming the first key that is
    not a stat the loaded packs declare in that group."""
    for name in values:
        if name not in declared:
            raise SetupError(f"`{name}` is not a {what} of the loaded packs" + _choices(name, declared), label, key)
    return values


def _choices(word: str, declared: Iterable[str]) -> str:
    """`; did you mean `<name>`? (<name>, <name>, ...)`: the closest declared names, then all of them."""
    hint = did_you_mean(word, declared)
    return (f"; {hint}" if hint else "") + f" ({', '.join(declared) or 'none declared'})"


def starting_states(spec: PieceSetup, weapon: WeaponInHand | None, held_state: str | None,
                    declared: Sequence[str]) -> set[str]:
    """The setup's states, with Armed for a drawn weapon and, for a piece held, the state of a piece
    held (`held_state`: None where the piece is not held, or the game's hold has no state); Armed
    without a drawn weapon is refused (a drawn weapon is what Armed means), and so is a state the
    loaded packs do not declare (`declared`)."""
    states = set(spec.states)
    unknown = [state for state in spec.states if state not in declared and state not in STATUSES]
    if unknown:
        raise SetupError(f"`states` lists {unknown[0]}, which no loaded pack declares "
                         f"(states: {', '.join(declared) or 'none'})", spec.label, "states")
    drawn = weapon is not None and weapon.drawn
    if DRAWN_WEAPON_STATE in states and not drawn:
        raise SetupError(f"`states` lists {DRAWN_WEAPON_STATE}, but it holds no drawn weapon: "
                         "give it a drawn `weapon` instead", spec.label, "states")
    ended = sorted(states & set(STATUSES))
    if ended:
        raise SetupError(f"`{ended[0]}` is a status, not a state: set `status: {ended[0]}`", spec.label, "states")
    if drawn:
        states.add(DRAWN_WEAPON_STATE)
    if held_state is not None:
        states.add(held_state)
    return states
