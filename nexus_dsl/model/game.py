"""How a game is played as a whole, as its `game` declaration says: the procedure that sets it up,
the procedure the game loop runs round after round, what a player's standing is counted in, and the procedure that gives the
verdict when the game ends with no one having won.

A Ruleset holds at most one `game` (the loader refuses a second id; a house rule overrides it by
id). A game without a round has nothing to play: it runs to its round limit, and ends in a draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..syntax import ast_nodes as A


@dataclass(frozen=True)
class Game:
    id: str | None = None
    # The procedure (of no args) run once before the first round.
    setup: str | None = None
    # The procedure (of no args) the game loop runs again and again until the game ends.
    round: str | None = None
    # The number a piece holds that its player's standing is counted in (an attribute or a stat):
    # a side's score is its pieces' together.
    score: str | None = None
    # The procedure (of no args) that decides who wins when the game ends with no one having won.
    verdict: str | None = None


def game_of(declarations: list[A.Declaration]) -> Game:
    """The game the last of `declarations` (the `game` declarations, in load order) declares."""
    if not declarations:
        return Game()
    declaration = declarations[-1]
    return Game(id=declaration.id, setup=_word(declaration, "setup"), round=_word(declaration, "round"), score=_word(declaration, "score"),
                verdict=_word(declaration, "verdict"))


def _word(declaration: A.Declaration, name: str) -> str | None:
    prop = declaration.property(name)
    value = prop.values[0] if prop is not None and len(prop.values) == 1 else None
    return value.id if isinstance(value, A.Name) else None
