"""How a game is played as a whole, as its `game` declaration says: the procedure that sets it up,
the procedure the game loop runs round after round, what a player's standing is counted in, and the procedure that gives the
verdict when the game ends with no one having won.

A Ruleset holds at most one `game` (the loader refuses a second id; a house rule overrides it by
id). A game without a round has nothing to play: it runs to its round limit, and ends in a draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..syntax import ast_nodes as A


@dataclass(frozen=True)
class Game:
    id: str | None = None
    # How many pieces each player controls: 0 for a game of players alone; None as the setup places.
    pieces: int | None = None
    # How many players it is played by (any number of them without the property).
    players: tuple[int, ...] = ()
    # The procedure (of no args) run once before the first round.
    setup: str | None = None
    # The procedure (of no args) the game loop runs again and again until the game ends.
    round: str | None = None
    # The `turn` its pieces take (`take_turns`).
    turn: str | None = None
    # The number a piece holds that its player's standing is counted in (an attribute or a stat):
    # a side's score is its pieces' together.
    score: str | None = None
    # The procedure (of no args) that decides who wins when the game ends with no one having won.
    verdict: str | None = None
    # The ways its hazards come into play, as its rules say (a hazard's `activation`, which tells
    # players and tools): a hazard's are among them; without any, any word.
    activations: tuple[str, ...] = ()
    # The game's own names of a piece and of a player (`piece_word helot`): a script may write
    # them as the types `piece` and `player`, and the log names who acts by them.
    piece_word: str = "piece"
    player_word: str = "player"
    # The groups its commands are in (the sections of its menu): a command's `group` is one of
    # them; without any, a group is any word.
    groups: tuple[str, ...] = ()
    # The YAML data kind holding its board layouts (`layouts barges`): each item places objects and
    # names the hazards in play; None for a game with none. `layout_word` is its name of one (the
    # purpose of the die picking one among more than eight, which the log writes).
    layouts: str | None = None
    layout_word: str = "layout"
    # How many squares each side of its square board has (`board_size 8`); None: the engine's 8.
    board_size: int | None = None
    # The kinds of YAML data a setup names for a player (its profile: `profiles`) and for a piece
    # (its role: `roles`). A stat's `profile` and a zone's `keep` are fields of the profile; a
    # role's `advantages` are added to its piece's stats, its `abilities` and `talent` are its
    # piece's, and a declaration naming one role (by the role's word) belongs to that role's pieces.
    profiles: str | None = None
    roles: str | None = None

    @cached_property
    def role_word(self) -> str | None:
        """What scripts read a piece's role by (`self.<word>`), and the property a trait ability or
        rule names the role it belongs to by: the name of an item of the game's `roles` data kind."""
        from .ruleset import DATA_TYPES  # the data kinds, each with the name of an item of it
        return DATA_TYPES.get(self.roles) if self.roles is not None else None

    @property
    def actor_word(self) -> str:
        """What the log calls who acts: a piece, or in a game of players alone, a player."""
        return self.player_word if self.pieces == 0 else self.piece_word

    @property
    def type_names(self) -> dict[str, str]:
        """The game's own names of the language's types, each with the type it names."""
        return {word: canonical for word, canonical in ((self.piece_word, "piece"), (self.player_word, "player"))
                if word != canonical}


def game_of(declarations: list[A.Declaration]) -> Game:
    """The game the last of `declarations` (the `game` declarations, in load order) declares."""
    if not declarations:
        return Game()
    declaration = declarations[-1]
    pieces = declaration.property("pieces")
    count = pieces.values[0] if pieces is not None and len(pieces.values) == 1 else None
    seats = declaration.property("players")
    players = tuple(value.value for value in seats.values if isinstance(value, A.Num)) if seats is not None else ()
    sections = declaration.property("groups")
    groups = tuple(value.id for value in sections.values if isinstance(value, A.Name)) if sections is not None else ()
    ways = declaration.property("activations")
    activations = tuple(value.id for value in ways.values if isinstance(value, A.Name)) if ways is not None else ()
    return Game(id=declaration.id, pieces=count.value if isinstance(count, A.Num) else None, players=players, setup=_word(declaration, "setup"), round=_word(declaration, "round"),
                turn=_word(declaration, "turn"), score=_word(declaration, "score"), activations=activations,
                verdict=_word(declaration, "verdict"), piece_word=_word(declaration, "piece_word") or "piece",
                player_word=_word(declaration, "player_word") or "player", groups=groups,
                layouts=_word(declaration, "layouts"), layout_word=_word(declaration, "layout_word") or "layout",
                board_size=_number(declaration, "board_size"),
                profiles=_word(declaration, "profiles"), roles=_word(declaration, "roles"))


# The kinds of action a turn may offer (`acts`), in the order the options are listed.
ACTS = ("command", "control", "ability", "card")


@dataclass(frozen=True)
class Turn:
    """A piece's turn, as its `turn` declaration shapes it: the events that mark it (raised with
    `self`), its opening (the declaration's `effect`, run after its start event), how many actions
    it lasts (None: until the player ends it) and whether the player may end it."""

    declaration: A.Declaration | None = None
    starts: str | None = None
    ends: str | None = None
    over: str | None = None
    # The procedure run when the turn has ended (after its `ends` event), given who took it.
    closing: str | None = None
    length: int | None = None
    passing: bool = True
    # What the player may choose from during the turn, by the kind of action: its commands,
    # its controls (tokens spent for points), its abilities and its cards; all of them unless the
    # declaration's `acts` says otherwise.
    acts: tuple[str, ...] = ACTS

    @property
    def opening(self) -> tuple[A.Effect, ...]:
        return tuple(self.declaration.clauses_of(A.Effect)) if self.declaration is not None else ()


def turn_of(declaration: A.Declaration | None) -> Turn:
    """The turn `declaration` shapes; a turn of no events, no opening and no length without one."""
    if declaration is None:
        return Turn()
    length = declaration.property("length")
    count = length.values[0] if length is not None and len(length.values) == 1 else None
    passing = declaration.property("passing")
    flag = passing.values[0] if passing is not None and len(passing.values) == 1 else None
    acts = declaration.property("acts")
    offered = tuple(v.id for v in acts.values if isinstance(v, A.Name)) if acts is not None else ACTS
    return Turn(declaration=declaration, starts=_word(declaration, "starts"), ends=_word(declaration, "ends"),
                over=_word(declaration, "over"), closing=_word(declaration, "closing"), length=count.value if isinstance(count, A.Num) else None,
                passing=flag.value if isinstance(flag, A.Bool) else True, acts=offered)


def _number(declaration: A.Declaration, name: str) -> int | None:
    prop = declaration.property(name)
    value = prop.values[0] if prop is not None and len(prop.values) == 1 else None
    return value.value if isinstance(value, A.Num) else None


def _word(declaration: A.Declaration, name: str) -> str | None:
    prop = declaration.property(name)
    value = prop.values[0] if prop is not None and len(prop.values) == 1 else None
    return value.id if isinstance(value, A.Name) else None


@A.fact_of_text
def offered_as_control(declaration: A.Declaration) -> bool:
    """Whether a command is offered among a turn's controls (`offered control`): used at any time in
    the turn, and no command given (the base game's Command token)."""
    prop = declaration.property("offered")
    return bool(prop and prop.values and isinstance(prop.values[0], A.Name) and prop.values[0].id == "control")
