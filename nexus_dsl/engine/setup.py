"""How a bout begins: who sits where, which helot stands on which square, what is on the board.

`BoutSetup` is plain data. The standard setup follows the rulebook (pg.9): two players sit north and
south, more on the east and west; each helot enters at its player's closest leftmost square
facing away from the player. Scenarios build a `BoutSetup` of their own to start mid-bout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .board import Direction, Square

# Seat -> (entry square, facing): "closest leftmost square, facing away from the player" (pg.9).
SEAT_ENTRY: dict[str, tuple[Square, Direction]] = {
    "south": (Square(1, 8), Direction.N),
    "north": (Square(8, 1), Direction.S),
    "west": (Square(1, 1), Direction.E),
    "east": (Square(8, 8), Direction.W),
}
# The order players take seats in: two across the board first, then east and west (pg.9).
SEAT_ORDER = ("south", "north", "west", "east")
# `BoutSetup.barge` naming no barge but this: a schematic picked at random (pg.38), see `pick_random_barge`.
RANDOM_BARGE = "random"


@dataclass
class HelotSetup:
    label: str
    seat: str
    at: Square | None = None
    facing: Direction | None = None
    motivation: str | None = None
    lanista: str | None = None
    overall: int | None = None
    locations: dict[str, int] = field(default_factory=dict)
    states: list[str] = field(default_factory=list)
    traits: dict[str, int] | None = None
    cred: int = 0
    ap: int = 0
    mp: int = 0
    weapon: str | None = None
    tpdm: bool = False
    tp_counter: list[int] = field(default_factory=list)
    command_tokens: int | None = None
    influence: list[str] | None = None  # a hand set outright: the helot keeps nothing of its share
    # Influence cards the helot holds after the deal whatever the shuffle ("what if red held this
    # card?"): taken out of the deck before it is dealt, added to the hand after the keeping.
    dealt: list[str] = field(default_factory=list)
    keep: int | None = None  # how many cards of its share the helot keeps; None: its lanista's Influence (pg.8)
    deception: int | None = None
    marks: dict[str, object] = field(default_factory=dict)
    ratio: int = 3  # the ratio die of a helot whose round follows a scenario's mid-round start


@dataclass
class BoutSetup:
    helots: list[HelotSetup]
    barge: str | None = None
    objects: list[tuple[str, Square]] = field(default_factory=list)
    crowd: int | None = None
    decks: dict[str, list[str]] = field(default_factory=dict)
    phase: str = "cycle"  # "cycle": start at a new Command Cycle; "command": mid-round
    active: str | None = None
    max_cycles: int = 200  # a safety net for agents that never close in; a bout ending here is a draw
    extra: dict[str, Any] = field(default_factory=dict)


def standard_setup(players: int = 2, motivations: list[str | None] | None = None,
                   lanistas: list[str | None] | None = None, barge: str | None = None,
                   labels: list[str] | None = None) -> BoutSetup:
    if not 2 <= players <= 4:
        raise ValueError("a bout has 2 to 4 players")
    labels = labels or ["red", "blue", "green", "yellow"][:players]
    motivations = motivations or [None] * players
    lanistas = lanistas or [None] * players
    helots = []
    for index in range(players):
        seat = SEAT_ORDER[index]
        square, facing = SEAT_ENTRY[seat]
        helots.append(HelotSetup(label=labels[index], seat=seat, at=square, facing=facing,
                                 motivation=motivations[index], lanista=lanistas[index]))
    return BoutSetup(helots=helots, barge=barge)


def pick_random_barge(barge_ids: list[str], roll: Callable[[str, int], int]) -> str:
    """A barge schematic picked at random (pg.38: "use a d8 to select one at random").

    `barge_ids` are the loaded barges in pack order; `roll(purpose, sides)` rolls one die. Up to
    eight barges: a d8 (purpose `d8`), rolled again while it shows more than there are barges, so
    the base box's eight are one face each. More than eight (packs adding barges): one die with a
    face per barge (purpose `barge`), the d8 rule grown to the larger collection.
    """
    if not barge_ids:
        raise ValueError("the loaded packs hold no barge to pick from")
    sides = max(8, len(barge_ids))
    purpose = "d8" if sides == 8 else "barge"
    while True:
        face = roll(purpose, sides)
        if face <= len(barge_ids):
            return barge_ids[face - 1]
