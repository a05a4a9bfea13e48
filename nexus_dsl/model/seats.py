"""Where the players sit on the base game's board: facts that both the barge checks (content) and
the standard setup (engine) read, as plain cells and compass ids, so neither imports the other."""

from __future__ import annotations

# The base game's board is 8x8 squares; columns and rows count from 1 (the schema holds every
# square of a barge to it).
BOARD_SIZE = 8

Cell = tuple[int, int]  # (col, row)

# Seat -> (entry cell, facing): "closest leftmost square, facing away from the player" (pg.9).
SEAT_ENTRY_CELLS: dict[str, tuple[Cell, str]] = {
    "south": ((1, 8), "N"),
    "north": ((8, 1), "S"),
    "west": ((1, 1), "E"),
    "east": ((8, 8), "W"),
}
# The order players take seats in: two across the board first, then east and west (pg.9).
SEAT_ORDER = ("south", "north", "west", "east")
