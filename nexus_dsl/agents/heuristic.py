"""A heuristic lanista that plays the whole command set sensibly and fast.

It reads commands through their content-declared shape — `group`, `tags`, costs, targets — and
weighs movement by where each legal move would leave its helot: read off the board for the base
game's plain steps and turns when nothing they set off can change the score (`plain_moves`),
previewed otherwise. It knows the base
box's trait abilities by id only to decide *when* they are worth their reserves. Anything else —
motivation abilities, influence cards, an expansion's content — it judges by previewing it: played
when the state it leaves is worth clearly more than the reserves or the card it costs (see
`standing`). In a timing window it uses what the window offers, since windows are made for the
moment. Everything it may do comes from the engine's legal options. An option whose preview
faults (content whose scripts fail at run time) is judged as bad: never chosen for its preview.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..engine.actions import ABILITY, CARD, COMMAND, CONTROL, PASS, Action, Decision
from ..engine.board import REL_EIGHTHS, Direction, Grid, Square, rotate
from ..engine.state import BoutState, Piece, Status
from ..engine.text_facts import player_arg_name
from ..engine.timing import usable_declaration
from ..errors import ScriptRuntimeError
from ..syntax import ast_nodes as A
from ..syntax.parser import parse
from .command_choices import CommandChoices, CommandNames

if TYPE_CHECKING:
    from ..engine.bout import Bout, Previews

# What a state is worth to the helot in it (negative: it hurts) when weighing an unfamiliar ability.
STATE_WORTH: Final = {"prone": -5, "grappled": -4, "bleeding": -4, "flaming": -6, "armed": 6}
# The least gain in `standing` that justifies spending a card or trait reserves on an effect.
WORTH_PLAYING: Final = 1.0
# What an effect that only leaves an instruction for later (a new mark) is taken to be worth: the
# preview cannot see the future, and a designer made the card to be worth playing.
LATER_EFFECT: Final = 3.5
# Known abilities: the agent decides when these are worth it by its own rules (below).
KNOWN_ABILITIES: Final = {"im_still_standing", "unshackled", "win_them_over", "turn_crowd", "elusive", "tunnel_vision",
                   "made_you_look", "jack_of_all_traits", "perseverance"}
# The known abilities the agent uses only against a foe close by (`_useful_ability`).
NEAR_FOE_ABILITIES: Final = frozenset({"elusive", "tunnel_vision", "made_you_look"})

# A piece's statuses the agent tells apart, held by the module: read by compiled code without a lookup.
FIGHTING: Final = Status.FIGHTING
DEAD: Final = Status.DEAD

# Objects worth keeping out of: squares that hurt (the hazards' objects) and slippery footing.
PAINFUL: Final = {"fire": 8, "floor_spikes": 12, "floor_saw": 12}
SLIPPERY: Final = {"blood": 2, "guts": 1}


@dataclass(frozen=True)
class Shape:
    """What the agent reads of a command's declaration: its group, its tags and its AP cost (an
    option that is no command has none of these), and whether it attacks (`attacking`)."""

    group: str | None
    tags: frozenset[str]
    ap_cost: int
    attacking: bool = False


NO_SHAPE: Final = Shape(None, frozenset(), 0)
NO_PLAIN_MOVES: Final[frozenset[str]] = frozenset()
NO_NAMES: Final[frozenset[str]] = frozenset()
NO_COMMAND_NAMES: Final = CommandNames({}, NO_NAMES, NO_NAMES, NO_NAMES, NO_NAMES)


def attacking(group: str | None, tags: frozenset[str]) -> bool:
    """Whether the agent counts a command of this group and these tags among its attacks: one
    tagged to attack or to aim, and of the grapple group only when tagged to attack."""
    return ("attack" in tags or "aim" in tags) and (group != "grapple" or "attack" in tags)


def command_shape(declaration: A.Declaration) -> Shape:
    prop = declaration.property("group")
    value = prop.values[0] if prop and prop.values else None
    group = value.id if isinstance(value, A.Name) else None
    prop = declaration.property("tags")
    tags = frozenset(v.id for v in prop.values if isinstance(v, A.Name)) if prop else frozenset()
    ap_cost = 0
    for cost in declaration.clauses_of(A.Cost):
        for item in cost.items:
            if item.resource == "AP":
                ap_cost += item.amount.value if isinstance(item.amount, A.Num) else 3
    return Shape(group, tags, ap_cost, attacking(group, tags))


def nearest_foe(state: BoutState, me: Piece) -> Piece | None:
    """The nearest foe on the board and not dead, the fighting ones first (any other only when none
    is fighting), the first label of equals: the least (distance, label), found in one pass over
    the pieces without a list or a key made for each."""
    return _nearest_foe_from(state, me.label, me.square)


def _nearest_foe_from(state: BoutState, label: str, mine: Square) -> Piece | None:
    """`nearest_foe` of the piece `label` standing on `mine` (where a plain step would take it)."""
    grid = state.grid
    fighting: Piece | None = None  # the nearest fighting foe so far, and its distance
    fighting_distance = 0
    other: Piece | None = None  # the nearest of the others (incapacitated), read only without a fighting one
    other_distance = 0
    for helot in state.pieces.values():
        if helot.label == label or not helot.on_board:
            continue
        status = helot.status
        if status == DEAD:
            continue
        distance = grid.chebyshev(mine, helot.square)
        if status == FIGHTING:
            if fighting is None or distance < fighting_distance or (distance == fighting_distance
                                                                      and helot.label < fighting.label):
                fighting, fighting_distance = helot, distance
        elif fighting is None:
            if other is None or distance < other_distance or (distance == other_distance and helot.label < other.label):
                other, other_distance = helot, distance
    return fighting if fighting is not None else other


ObjectFlags = Callable[[str], Mapping[str, Any]]
# Breaking through a destructible blocker (a crate) costs about this many steps' worth of time.
BREAK_THROUGH: Final = 4


def _entry_cost(state: BoutState, square: Square, flags: ObjectFlags) -> float:
    """What stepping into a square costs a helot walking to its opponent: blockers stop it (a
    crate can be broken through, at a price), a hazard's or a slippery square costs a little."""
    return _objects_cost(state.objects_at(square), flags)


def _objects_cost(found: tuple[str, ...], flags: ObjectFlags) -> float:
    """`_entry_cost` of a square holding the objects `found`: theirs alone."""
    cost = 1.0
    for obj in found:
        data = flags(obj)
        if data.get("blocks"):
            return BREAK_THROUGH if data.get("destructible") else float("inf")
        cost += (PAINFUL.get(obj, 0) + SLIPPERY.get(obj, 0)) / 10
    return cost


def distances_to(state: BoutState, goal: Square, flags: ObjectFlags) -> dict[Square, float]:
    """Steps from every square to `goal` around what blocks, so a helot behind a pillar walks round
    it instead of waiting: the step from v to u costs entering u, and entering the goal itself
    costs one step. (The goal is on the board.) The agent reads them by square number (`steps_to`)."""
    squares, _ = _board_links(state.grid)
    return {squares[index]: steps for index, steps in enumerate(steps_to(state, goal, flags)) if steps != INFINITE}


def steps_to(state: BoutState, goal: Square, flags: ObjectFlags) -> list[float]:
    """`distances_to` by square number (row by row from the north-west corner; INFINITE where the
    goal cannot be reached): read without hashing a square. A square's steps are the least, over
    its neighbours, of their steps plus the cost of entering them (the goal's are 0). Every cost is
    at least one step, so those least sums have one answer whatever order the squares are looked at
    in: the search goes outward first in, first out, and looks at a square again whenever its steps
    come down. It finds the very sums a search by a heap finds, to the last bit, with no heap of
    tuples (tests/agents/test_heuristic.py holds it to one)."""
    grid: Grid = state.grid
    size = grid.size
    _, links = _board_links(grid)
    # Only a square with objects on it costs more than a step.
    entry = [1.0] * len(links)
    for square in state.objects:
        if grid.contains(square):
            entry[(square.row - 1) * size + square.col - 1] = _entry_cost(state, square, flags)
    return _search(links, entry, (goal.row - 1) * size + goal.col - 1)


def _search(links: tuple[tuple[int, ...], ...], entry: list[float], start: int) -> list[float]:
    """`steps_to` by the squares' links and the cost of entering each (the goal's own, `start`,
    counted as one step; `entry` is changed so)."""
    count = len(links)
    entry[start] = 1.0
    best = [INFINITE] * count
    best[start] = 0.0
    waiting = [start]
    queued = [False] * count
    queued[start] = True
    head = 0
    while head < len(waiting):
        index = waiting[head]
        head += 1
        queued[index] = False
        total = best[index] + entry[index]
        if total == INFINITE:
            continue
        for near in links[index]:
            if total < best[near]:
                best[near] = total
                if not queued[near]:
                    queued[near] = True
                    waiting.append(near)
    return best


INFINITE: Final = float("inf")
# Each board size's squares (row by row) and, by a square's number, its neighbours' numbers in the
# grid's order: the path search walks these instead of hashing squares.
_LINKS: Final[dict[int, tuple[tuple[Square, ...], tuple[tuple[int, ...], ...]]]] = {}


def _board_links(grid: Grid) -> tuple[tuple[Square, ...], tuple[tuple[int, ...], ...]]:
    found = _LINKS.get(grid.size)
    if found is None:
        size = grid.size
        squares = tuple(grid.squares())
        links = tuple(tuple((near.row - 1) * size + near.col - 1 for near in grid.neighbours(square))
                      for square in squares)
        found = _LINKS[size] = (squares, links)
    return found


def position_score(state: BoutState, me: Piece, distances: Mapping[Square, float] | None = None) -> float:
    """Higher is better: near the closest opponent (by the way round obstacles when `distances`
    to it are given, see `distances_to`), facing it, ideally from behind, off hazards."""
    return _position_score(state, me, distances, None)


def _position_score(state: BoutState, me: Piece, distances: Mapping[Square, float] | None,
                    steps: list[float] | None) -> float:
    """`position_score`, the way round obstacles given by square (`distances`) or by square number
    (`steps`, see `steps_to`): a square off the board or walled off from the foe counts as far as
    it gets either way."""
    return _score_at(state, me.label, me.square, me.facing, distances, steps)


def _score_at(state: BoutState, label: str, mine: Square, facing: Direction,
              distances: Mapping[Square, float] | None, steps: list[float] | None) -> float:
    """`_position_score` of the piece `label` standing on `mine` and facing `facing`, the rest of
    `state` as it is: what a plain step or turn would leave it (`_plain_move_score`)."""
    grid: Grid = state.grid
    foe = _nearest_foe_from(state, label, mine)
    score = 0.0
    for obj in state.objects_at(mine):
        score -= PAINFUL.get(obj, 0) + SLIPPERY.get(obj, 0)
    if foe is None:
        return score
    theirs = foe.square
    if steps is not None:
        far = _steps_at(steps, grid.size, mine)
        score -= 10.0 * (far if far != INFINITE else grid.chebyshev(mine, theirs) + 8.0)
    elif distances is None:
        score -= 10.0 * grid.chebyshev(mine, theirs)
    else:  # walled off entirely: as far as it gets
        score -= 10.0 * distances.get(mine, grid.chebyshev(mine, theirs) + 8.0)
    ahead, arc, _ = FACING_OFFSETS_BY_VALUE[facing._value_]
    offset = (theirs.col - mine.col, theirs.row - mine.row)
    if offset == ahead:
        score += 12
        if (-offset[0], -offset[1]) == FACING_OFFSETS_BY_VALUE[foe.facing._value_][2]:
            score += 4
    elif offset in arc:
        score += 6
    return score


def _steps_at(steps: list[float], size: int, square: Square) -> float:
    """The steps `steps_to` found for `square`: INFINITE off the board, as where none were found."""
    col, row = square.col, square.row
    if 1 <= col <= size and 1 <= row <= size:
        return steps[(row - 1) * size + col - 1]
    return INFINITE


def _facing_offsets() -> dict[Direction, tuple[tuple[int, int], frozenset[tuple[int, int]], tuple[int, int]]]:
    """For each facing, where the square straight ahead, the front arc and the square behind lie
    from a piece, as (columns, rows) offsets: read off the grid once, and exact for two pieces on
    the board, whose squares the grid's own answers would hold."""
    grid, centre = Grid(5), Square(3, 3)

    def offset(square: Square | None) -> tuple[int, int]:
        assert square is not None  # two squares from the centre of the grid are on it
        return square.col - centre.col, square.row - centre.row

    return {facing: (offset(grid.front_center(centre, facing)),
                     frozenset(offset(square) for square in grid.front_arc(centre, facing)),
                     offset(grid.behind(centre, facing)))
            for facing in Direction}


FACING_OFFSETS: Final = _facing_offsets()
# The same, by a facing's number (`Direction._value_`): a compass direction is an Enum, whose hash
# in a table's lookup is a call of interpreted Python.
FACING_OFFSETS_BY_VALUE: Final = tuple(FACING_OFFSETS[facing] for facing in sorted(Direction, key=lambda d: d._value_))


# The plain steps and turns of the base game (content/base/commands/movement.nexus), known by their
# effects as written there: a step of the helot itself, or a turn with its rotation marks. Such a
# command is judged from the board without a preview (`plain_move_score`) when nothing it sets off
# can change what the score reads (the mover's square and facing, the objects under it, the other
# pieces): the base game's listeners to a step or a turn (`QUIET_LISTENERS`, read in
# content/base/rules and hazards) leave those alone while no fire burns, the square entered (or
# turned in) holds no object they act on and none that blocks (`_quiet_footing`), the mover holds
# no one and is held by no one, and it is not being
# pulled into a hazard. A window the step opens (`before_move`) is passed in a preview, as every
# window is. Content declaring these commands otherwise, or listening to them otherwise, is previewed.
PLAIN_MOVES_SOURCE: Final = """
command move_forward "" { effect { move self direction } }
command move_backward "" { effect { move self backward } }
command move_left "" { effect { move self left } }
command move_right "" { effect { move self right } }
command rotate "" {
    effect {
        if has_mark(self, "turned_left") or has_mark(self, "turned_right") {
            mark self "rotations_spent"
        }
        if direction == left {
            mark self "turned_left"
        } else {
            mark self "turned_right"
        }
        rotate self direction
    }
}
"""
# Each plain step's direction, relative to the facing (None: the command's `direction` argument).
PLAIN_STEPS: Final[dict[str, str | None]] = {"move_forward": None, "move_backward": "backward", "move_left": "left",
                                             "move_right": "right"}
PLAIN_TURN: Final = "rotate"
# The events a plain step or turn raises, and the base game's listeners to them: (kind, id, event).
# Each one either leaves the score's reads alone or acts only where `plain_move_score` previews:
# marks of a run, of rotations, of gloating, of a pull (`pulled_toward` on the mover is previewed);
# blood placed where the mover was (not where it is); a slide on blood, a fire's or a hazard's harm
# (previewed: an object in the square, a fire on the board); a drag's pull (a step of one's own is
# no drag).
PLAIN_MOVE_EVENTS: Final = frozenset({"piece_moved", "piece_rotated", "command_used"})
# The pack whose listeners those are: a pack layered on it that declares one of them anew (a house
# rule of the same id) may make it act otherwise, so its steps and turns are previewed.
QUIET_PACK: Final = "base"
QUIET_LISTENERS: Final = frozenset({
    ("rule", "crowd_favourite", "command_used"), ("rule", "gloating_window", "command_used"),
    ("rule", "running_strike", "piece_moved"), ("rule", "running_strike", "command_used"),
    ("rule", "slippery_blood", "piece_moved"), ("rule", "slippery_blood", "piece_rotated"),
    ("rule", "rotation_limit", "piece_moved"), ("rule", "blood_tiles", "piece_moved"),
    ("hazard", "brazier", "piece_moved"), ("hazard", "brazier", "piece_rotated"),
    ("hazard", "floor_saw", "piece_moved"), ("hazard", "floor_spikes", "piece_moved"),
    ("hazard", "pulled_into_hazard", "piece_moved"), ("hazard", "pulled_into_hazard", "command_used"),
})


def plain_moves(ruleset: Any) -> frozenset[str]:
    """The commands of `ruleset` judged as plain steps and turns (`PLAIN_MOVES_SOURCE`): none unless
    every listener to their events is a quiet one as the base pack declares it, else those whose
    effect is the plain one."""
    for kind, items in ruleset.scripts.items():
        for ident, item in items.items():
            for when in item.declaration.clauses_of(A.When):
                if when.event in PLAIN_MOVE_EVENTS and ((kind, ident, when.event) not in QUIET_LISTENERS
                                                        or item.origin.pack != QUIET_PACK):
                    return frozenset()
    plain = set()
    for expected in parse(PLAIN_MOVES_SOURCE, "<plain moves>").declarations:
        declaration = ruleset.declaration("command", expected.id)
        if declaration is not None and _plain_declaration(declaration, expected):
            plain.add(expected.id)
    return frozenset(plain)


# What a plain step or turn may declare besides its effect: nothing of it sets anything off.
PLAIN_CLAUSES: Final = (A.Property, A.Arg, A.Cost, A.Requires, A.Effect)
# The points a plain step or turn may cost: paid without a line, an event or a roll.
PLAIN_COSTS: Final = frozenset({"AP", "MP"})


def _plain_declaration(declaration: A.Declaration, expected: A.Declaration) -> bool:
    """Whether `declaration` is the plain step or turn `expected` declares: the same effect, and
    besides it only properties, arguments, requirements and a cost in points (no roll, no
    listener, no window, no cost in condition)."""
    for clause in declaration.clauses:
        if not isinstance(clause, PLAIN_CLAUSES):
            return False
        if isinstance(clause, A.Cost) and any(item.resource not in PLAIN_COSTS for item in clause.items):
            return False
    return declaration.clauses_of(A.Effect) == expected.clauses_of(A.Effect)


def calm_board(state: BoutState) -> bool:
    """No fire on the board: a step or a turn near one hurts (`QUIET_LISTENERS`)."""
    for found in state.objects.values():
        if "fire" in found:
            return False
    return True


# The objects the quiet listeners act on when a helot steps into or turns in their square: blood
# slides it, a saw or spikes hurt it, a fire burns it (and a fire anywhere makes the board unquiet,
# `calm_board`). Any other object there (guts, say) sets nothing off that the score reads: the score
# reads what lies there itself (`_score_at`).
LISTENED_FOOTING: Final = frozenset({"blood", "fire", "floor_saw", "floor_spikes"})


def _quiet_footing(found: tuple[str, ...], flags: ObjectFlags | None) -> bool:
    """Whether a step into (or a turn in) a square holding `found` is plain: nothing there that a
    quiet listener acts on or that blocks the step (`flags`, the objects' flags: without them, only
    an empty square is)."""
    if not found:
        return True
    if flags is None:
        return False
    for obj in found:
        if obj in LISTENED_FOOTING or flags(obj).get("blocks"):
            return False
    return True


def plain_move_score(state: BoutState, me: Piece, option: Action, steps: list[float] | None,
                     flags: ObjectFlags | None = None) -> float | None:
    """What `_position_score` of the state a plain step or turn (`plain_moves`) of `me` leaves would
    be, read off the board (a calm one, `calm_board`), or None where it is not known for certain
    without a preview (see `PLAIN_MOVES_SOURCE`, `_quiet_footing`)."""
    if me.holding is not None or me.held_by is not None or "pulled_toward" in me.marks:
        return None
    name = option.name
    if name == PLAIN_TURN:
        side = option.arg("direction")
        if not _quiet_footing(state.objects_at(me.square), flags) or side not in ("left", "right"):
            return None
        return _score_at(state, me.label, me.square, rotate(me.facing, side), None, steps)
    direction = PLAIN_STEPS[name] if name in PLAIN_STEPS else None
    if direction is None:
        direction = option.arg("direction")
    eighths = REL_EIGHTHS.get(direction) if isinstance(direction, str) else None
    if eighths is None:
        return None
    grid: Grid = state.grid
    square = grid.step_turned(me.square, me.facing, eighths)
    if square is None or not grid.contains(square) or not _quiet_footing(state.objects_at(square), flags) \
            or state.piece_at(square) is not None:
        return None
    return _score_at(state, me.label, square, me.facing, None, steps)


# A use (an ability, or a card played from the hand) whose every effect raises one of its user's
# own trait reserves by a number it writes: `add_trait self <arg> by <number or param>`, declaring
# besides only properties, params, arguments, windows and requirements (no cost, roll, listener or
# outcome). Its preview changes nothing `standing` reads but the user's traits (each raise capped
# as the primitive caps it) and, for a card, the hand it leaves: `add_trait` sets no event off, and
# the window a card's play opens (`card_played`) is passed in a preview, as every window is. So its
# gain is worked out from the board (`trait_raise_gain`), and one the agent would decline is
# declined without a preview (`_worth_it`).
RAISE_CLAUSES: Final = (A.Property, A.Param, A.Arg, A.Window, A.Requires, A.Effect)
RAISE_VERB: Final = "add_trait"
# What `standing` counts of a trait point and of a card in the hand (the trait raises' gains read them too).
TRAIT_WORTH: Final = 0.3
CARD_WORTH: Final = 0.5
# A raise worked out to gain less than `WORTH_PLAYING` by this much is surely declined: far above
# the rounding of the sums `standing` adds.
SURE_MARGIN: Final = 0.01
# Each raise of a trait raise as (the argument naming the trait, as actions give it; the amount).
TraitRaises = tuple[tuple[str, int], ...]
NO_RAISES: Final[TraitRaises] = ()


def trait_raises(ruleset: Any, declaration: A.Declaration) -> TraitRaises:
    """The raises of a trait raise (see `RAISE_CLAUSES`) in order, or none: not such a use."""
    args: dict[str, str] = {}
    params: dict[str, A.Expr] = {}
    shadowing = {"self", "command", "target"}  # names the use's scope binds before its params
    for clause in declaration.clauses:
        if not isinstance(clause, RAISE_CLAUSES):
            return NO_RAISES
        if isinstance(clause, A.Arg):
            args[clause.name] = player_arg_name(clause.name)
            shadowing.add(clause.name)
        elif isinstance(clause, A.Param):
            params[clause.name] = clause.value
        elif isinstance(clause, A.Window):
            shadowing.update(ruleset.words.windows.get(clause.name, {}))
    if "self" in args:
        return NO_RAISES
    raises: list[tuple[str, int]] = []
    for effect in declaration.clauses_of(A.Effect):
        for statement in effect.body.statements:
            if not (isinstance(statement, A.Action) and statement.verb == RAISE_VERB and len(statement.args) == 2
                    and len(statement.preps) == 1 and statement.preps[0].prep == "by"):
                return NO_RAISES
            who, trait = statement.args
            if not (isinstance(who, A.Name) and who.id == "self" and isinstance(trait, A.Name) and trait.id in args):
                return NO_RAISES
            amount = statement.preps[0].value
            if isinstance(amount, A.Name) and amount.id in params and amount.id not in shadowing:
                amount = params[amount.id]
            if not (isinstance(amount, A.Num) and isinstance(amount.value, int)):
                return NO_RAISES
            raises.append((args[trait.id], amount.value))
    return tuple(raises)


def trait_raise_gain(ruleset: Any, me: Piece, option: Action, raises: TraitRaises) -> float | None:
    """What the trait raise `option` (`raises`, see `trait_raises`) of `me` changes `standing` by
    (up to rounding), or None where that is not known without a preview."""
    cap = ruleset.settings.get("trait_cap", 5)
    if option.actor != me.label or not isinstance(cap, int):
        return None
    traits = me.traits
    raised: dict[str, int] = {}
    for arg, amount in raises:
        trait = option.arg(arg)
        if not isinstance(trait, str):
            return None
        current = raised.get(trait)
        if current is None:
            current = traits.get(trait, 0)
        raised[trait] = max(0, min(cap, current + amount))
    change = 0
    for trait, value in raised.items():
        change += value - traits.get(trait, 0)
    return TRAIT_WORTH * change - (CARD_WORTH if option.kind == CARD else 0.0)


def cred_of(state: BoutState, helot: Piece) -> int:
    """The cred of a helot's lanista (the base game's `pile cred { owner player }`)."""
    return state.player_of(helot).piles.get("cred", 0)


def crowd_of(state: BoutState) -> int:
    """The coins in the base game's Crowd Coin Pile (`pile crowd`)."""
    return state.piles.get("crowd", 0)


def standing(state: BoutState, me: Piece) -> float:
    """How well `me` stands against the field, in cred-like units: cred, condition, states, the
    points and reserves in hand. Used to judge content the agent has no rule of its own for."""
    rival, found = 0.0, False  # the best worth of the others (none: 0)
    label = me.label
    for helot in state.pieces.values():
        if helot.label != label:
            value = _worth(state, helot)
            if not found or value > rival:
                rival, found = value, True
    return _worth(state, me) - rival + 0.05 * position_score(state, me)


def _worth(state: BoutState, helot: Piece) -> float:
    """What `standing` counts a helot worth (the same sums, in the same order)."""
    states = 0
    for name in helot.states:
        states += STATE_WORTH.get(name, 0)
    value = cred_of(state, helot) + 0.6 * helot.overall + states
    value += 1.5 * helot.ap + 0.8 * helot.mp + TRAIT_WORTH * sum(helot.traits.values()) + CARD_WORTH * len(helot.hand)
    if helot.status != FIGHTING:
        value -= 40
    return value


def score_lead(bout: Bout, state: BoutState, label: str) -> int:
    """How far the side of `label` leads the best of the other sides, by the score the game declares
    (a stat each player holds), in `state`; a game of players alone is judged by nothing else."""
    name = bout.ruleset.game.score
    totals: dict[str, int] = {}
    for player in state.players.values():
        totals[player.side] = totals.get(player.side, 0) + (player.stats.get(name, 0) if name else 0)
    mine = state.players[label].side
    rivals = [total for side, total in totals.items() if side != mine]
    return totals.get(mine, 0) - max(rivals, default=0)


def _previewed(previews: Previews, option: Action) -> BoutState | None:
    """The state `option` would leave, or None when its scripts fault (an option to avoid).
    The options of one decision are previewed on one copy of the bout (`Bout.previews`)."""
    try:
        return previews.preview(option)
    except ScriptRuntimeError:
        return None


def _new_marks(before: BoutState, after: BoutState) -> bool:
    """Whether any helot carries a mark it did not carry before: an instruction left for later."""
    return any(set(after.pieces[label].marks) - set(helot.marks) for label, helot in before.pieces.items())


class HeuristicAgent:
    name = "heuristic"
    # It asks for a command decision's options by name as it looks (`CommandChoices`), so its
    # decisions are worked out on demand (`engine/on_demand.py`).
    asks_on_demand = True

    def __init__(self) -> None:
        # Unfamiliar options judged not worth it, by moment: judged once per Command Round.
        self._declined: set[tuple] = set()
        # Walking distances (`steps_to`) by goal and board objects: the board changes far less often
        # than the agent decides, and the search is the costliest part of weighing a move.
        self._distances: dict[tuple, list[float]] = {}
        # What entering a square costs by the objects on it (`_objects_cost`), for the ruleset played.
        self._costs: dict[tuple[str, ...], float] = {}
        self._costs_of: object = None
        # The objects on the board at the last ask of `_steps_to` (a copy), its size, and their costs.
        self._board_objects: dict[Square, tuple[str, ...]] = {}
        self._board_size = 0
        self._board: tuple[Any, ...] = ()
        # Each command's shape by name, read once from the declarations of the ruleset played.
        self._shapes: dict[str, Shape] = {}
        self._shapes_of: object = None
        # Each use's raises (`trait_raises`) by (kind, name), read once from the ruleset played.
        self._raises: dict[tuple[str, str], TraitRaises] = {}
        self._raises_of: object = None
        # The names of the commands it looks for (`_command_names`), read once from the ruleset played.
        self._names: CommandNames = NO_COMMAND_NAMES
        self._names_of: object = None

    def _shape(self, bout: Bout, action: Action) -> Shape:
        if action.kind != COMMAND:
            return NO_SHAPE
        if self._shapes_of is not bout.ruleset:  # read from the ruleset alone: shared by every agent playing it
            self._shapes, self._shapes_of = bout.ruleset.derived("heuristic_command_shapes", dict), bout.ruleset
        name = action.name or ""
        shape = self._shapes.get(name)
        if shape is None:
            declaration = bout.ruleset.declaration("command", name)
            shape = self._shapes[name] = command_shape(declaration) if declaration is not None else NO_SHAPE
        return shape

    # ---------------------------------------------------------------- main decisions
    def choose(self, bout: Bout, decision: Decision) -> Action:
        kind = decision.kind
        if not bout.state.pieces:  # a game of players alone: nothing on a board to judge by
            return self._by_outcome(bout, decision)
        if kind == "allocate":
            return self._allocate(bout, decision)
        if kind == "command":
            return self._command(bout, decision)
        if kind == "deception":
            return self._deceive(bout, decision)
        if kind == "block_deception":
            return next(o for o in decision.options if o.kind == CONTROL)
        if kind.startswith("window:"):
            return self._window(bout, decision)
        passing = [o for o in decision.options if o.kind == PASS]
        if kind == "negate_card":
            return next(o for o in decision.options if o.kind == CONTROL)
        return passing[0] if passing else decision.options[0]

    def _by_outcome(self, bout: Bout, decision: Decision) -> Action:
        """The option that leaves the decider's side best placed by the game's own score (its lead
        over the best of the other sides), judged on a preview of each; the first of equals."""
        best, best_value = decision.options[0], None
        with bout.previews() as previews:
            for option in decision.options:
                after = _previewed(previews, option) if option.kind in ("command", ABILITY, CARD) else bout.state
                if after is None:
                    continue
                value = score_lead(bout, after, decision.actor)
                if best_value is None or value > best_value:
                    best, best_value = option, value
        return best

    def _allocate(self, bout: Bout, decision: Decision) -> Action:
        me = bout.state.pieces[decision.actor]
        foe = nearest_foe(bout.state, me)
        close = foe is not None and bout.state.grid.chebyshev(me.square, foe.square) <= 1
        big, small = ("ap", "mp") if me.ratio >= 3 else ("mp", "ap")
        want = big if close else small  # ratio_to the side that should get the larger share
        if close and max(me.ratio, 6 - me.ratio) < 4 and me.overall >= 25:
            button = [o for o in decision.options if o.name == "motivation_button" and o.arg("to") == "ap"]
            if button:
                return button[0]
        if not close:
            want = "mp" if me.ratio >= 3 else "ap"
        return next(o for o in decision.options if o.name == "allocate" and o.arg("ratio_to") == want)

    def _deceive(self, bout: Bout, decision: Decision) -> Action:
        me = bout.state.pieces[decision.actor]
        deceptions = [o for o in decision.options if o.kind == CONTROL]
        if not deceptions:
            return decision.options[-1]
        target = bout.state.pieces[deceptions[0].arg("target")]
        if bout.state.grid.chebyshev(me.square, target.square) > 2:
            return next(o for o in decision.options if o.kind == PASS)
        # Leave the opponent as few AP as possible: the ratio goes to AP only when it is small.
        side = "ap" if target.ratio < 3 else "mp"
        return next(o for o in deceptions if o.arg("ratio_to") == side)

    def _command(self, bout: Bout, decision: Decision) -> Action:
        state = bout.state
        me = state.pieces[decision.actor]
        # The commands are asked for by what the agent looks for, in the order it looks, and only as
        # far as it looks (`CommandChoices`): each list as picking it out of the whole list gives.
        choices = CommandChoices(decision)
        names = self._command_names(bout)
        others = choices.others
        own_abilities = [o for o in others if o.kind == ABILITY or o.kind == CARD]

        ability = self._useful_ability(bout, me, own_abilities, own_round=True)
        if ability is not None:
            return ability
        if "prone" in me.states:
            while_prone = choices.named(names.while_prone)
            if while_prone:
                return while_prone[0]
        if "grappled" in me.states:
            escapes = choices.named(names.escapes)
            if escapes:
                return escapes[0]
        if "flaming" in me.states or ("bleeding" in me.states and me.overall < 35):
            defense = choices.named(names.groups.get("defense", NO_NAMES))
            if defense:
                return defense[0]
        if me.gained >= 3 and crowd_of(state) >= me.gained:
            gloat = choices.named(names.groups.get("fame", NO_NAMES))
            if gloat:
                return gloat[0]
        attacks = choices.named(names.attacks)
        if attacks:
            return self._best_attack(bout, me, attacks)
        tokens = [o for o in others if o.kind == CONTROL and o.arg("to") == "ap"]
        foe = nearest_foe(state, me)
        if tokens and foe is not None and me.ap == 1 and state.grid.front_center(me.square, me.facing) == foe.square:
            return tokens[0]
        if me.weapon is None and foe is not None and state.grid.chebyshev(me.square, foe.square) > 2:
            crates = choices.named(names.crates)
            if crates:
                return crates[0]
        moves = choices.named(names.groups.get("movement", NO_NAMES))
        steps = self._steps_to(bout, state, foe.square) if foe is not None else None
        current = _position_score(state, me, None, steps)
        best, best_score = None, current
        plain = self._plain_moves(bout) if moves and calm_board(state) else NO_PLAIN_MOVES
        flags = bout.ruleset.object_flags
        with bout.previews() as previews:
            for option in moves:
                known = plain_move_score(state, me, option, steps, flags) if option.name in plain else None
                if known is not None:
                    score = known
                else:
                    after = _previewed(previews, option)
                    if after is None:
                        continue
                    score = _position_score(after, after.pieces[me.label], None, steps)
                if score > best_score:
                    best, best_score = option, score
        if best is not None:
            return best
        # Nothing worth doing: end the round, or, in a turn the player may not end, its first option.
        return choices.ending()

    def _command_names(self, bout: Bout) -> CommandNames:
        """The names of the commands the agent looks for (`CommandNames`), read once per ruleset from
        its commands' shapes (`_shape`), in the order of the commands."""
        ruleset = bout.ruleset
        if self._names_of is not ruleset:  # read from the ruleset alone: shared by every agent playing it
            self._names_of = ruleset
            self._names = ruleset.derived("heuristic_command_names", lambda: self._names_from(bout))
        return self._names

    def _names_from(self, bout: Bout) -> CommandNames:
        groups: dict[str | None, set[str]] = {}
        attacks: set[str] = set()
        while_prone: set[str] = set()
        escapes: set[str] = set()
        crates: set[str] = set()
        for name in bout.commands:
            shape = self._shape(bout, Action(COMMAND, "", name))
            groups.setdefault(shape.group, set()).add(name)
            if shape.attacking and name != "grapple":
                attacks.add(name)
            if "while_prone" in shape.tags:
                while_prone.add(name)
            if "while_grappled" in shape.tags and shape.group == "advanced_movement":
                escapes.add(name)
            if shape.group == "objects" and "crate" in name:
                crates.add(name)
        return CommandNames({group: frozenset(found) for group, found in groups.items()}, frozenset(attacks),
                            frozenset(while_prone), frozenset(escapes), frozenset(crates))

    def _plain_moves(self, bout: Bout) -> frozenset[str]:
        """`plain_moves` of the ruleset played, worked out once for it (shared by every agent)."""
        ruleset = bout.ruleset
        return ruleset.derived("heuristic_plain_moves", lambda: plain_moves(ruleset))

    def _steps_to(self, bout: Bout, state: BoutState, goal: Square) -> list[float]:
        """`steps_to`, remembered for the same board, goal and costs of entering its squares (read
        only): the costs are read off the objects on the board, each square's objects worked out
        once for the ruleset (`_objects_cost`), and listed in the board's order, where a board with
        the same objects placed otherwise is only searched anew (to the same steps)."""
        ruleset = bout.ruleset
        if self._costs_of is not ruleset:  # read from the ruleset alone: shared by every agent playing it
            self._costs, self._costs_of = ruleset.derived("heuristic_objects_costs", dict), ruleset
            self._distances.clear()
            self._board_size = 0  # the board's costs worked out anew
        grid: Grid = state.grid
        size = grid.size
        objects = state.objects
        # The board's costs, worked out again only when its objects changed since the last ask.
        if size != self._board_size or objects != self._board_objects:
            self._board = self._board_costs(ruleset, grid, objects)
            self._board_objects, self._board_size = dict(objects), size
        board = self._board
        known = (size, (goal.row - 1) * size + goal.col - 1, board)
        distances = self._distances.get(known)
        if distances is None:
            if len(self._distances) > 256:
                self._distances.clear()
            _, links = _board_links(grid)
            entry = [1.0] * len(links)
            for position in range(0, len(board), 2):
                entry[board[position]] = board[position + 1]
            distances = self._distances[known] = _search(links, entry, known[1])
        return distances

    def _board_costs(self, ruleset: Any, grid: Grid, objects: dict[Square, tuple[str, ...]]) -> tuple[Any, ...]:
        """Each square on the board that costs more than a step to enter, by number, and its cost
        (`_objects_cost`), in the board's order: (number, cost, number, cost, ...)."""
        costs = self._costs
        size = grid.size
        board: list[Any] = []
        for square, found in objects.items():
            if grid.contains(square):
                cost = costs.get(found)
                if cost is None:
                    cost = costs[found] = _objects_cost(found, ruleset.object_flags)
                if cost != 1.0:
                    board.append((square.row - 1) * size + square.col - 1)
                    board.append(cost)
        return tuple(board)

    def _best_attack(self, bout: Bout, me: Piece, attacks: list[Action]) -> Action:
        """Spend AP well: finish an incapacitated or head-weak target with a focused blow to the head,
        a combo when AP allow, standard attacks otherwise, wild attacks as a last resort."""
        target = bout.state.pieces[attacks[0].arg("target")] if attacks[0].arg("target") else None
        finishing = target is not None and (target.status == Status.INCAPACITATED or target.locations.get("head", 10) <= 5)
        head = [a for a in attacks if a.arg("location") == "head" and a.arg("standard_attacks") is None]
        if head and (finishing or me.ap == 3):
            return head[0]
        combos = [a for a in attacks if a.arg("location") == "head" and a.arg("standard_attacks") is not None]
        if combos and me.ap >= 5:
            return max(combos, key=lambda a: a.arg("standard_attacks"))
        aims = [a for a in attacks if "aim" in self._shape(bout, a).tags and "wild" not in self._shape(bout, a).tags]
        if aims:
            return max(aims, key=lambda a: self._shape(bout, a).ap_cost if a.arg("location") in (None, "head") else 0)
        standard = [a for a in attacks if a.arg("location") is None and "wild" not in self._shape(bout, a).tags
                    and a.arg("standard_attacks") is None]
        if standard:
            return standard[0]
        if head:
            return head[0]
        wild = [a for a in attacks if "wild" in self._shape(bout, a).tags]
        if wild and me.overall > 5:
            return wild[0]
        return min(attacks, key=lambda a: self._shape(bout, a).ap_cost)

    # ---------------------------------------------------------------- abilities
    def _window(self, bout: Bout, decision: Decision) -> Action:
        """In a timing window, use what the window offers — it was made for the moment — except
        re-rolls (worth it only on a lost roll)."""
        for option in decision.options:
            if option.kind in (ABILITY, CARD) and option.name != "perseverance":
                return option
        return next(o for o in decision.options if o.kind == PASS)

    def interject(self, bout: Bout, decision: Decision, options: list[Action]) -> Action | None:
        me = bout.state.pieces[options[0].actor]
        return self._useful_ability(bout, me, options, own_round=False)

    def _useful_ability(self, bout: Bout, me: Piece, options: list[Action], own_round: bool) -> Action | None:
        if not options:
            return None
        state = bout.state
        # Where the nearest foe stands matters to a few abilities only: most decisions offer none.
        foe, adjacent = None, False
        if any(option.name in NEAR_FOE_ABILITIES for option in options):
            foe = nearest_foe(state, me)
            adjacent = foe is not None and state.grid.chebyshev(me.square, foe.square) <= 1
        for option in options:
            name = option.name
            if name == "im_still_standing" and "prone" in me.states:
                return option
            if name == "unshackled" and "grappled" in me.states:
                return option
            if name == "win_them_over" and crowd_of(state) >= 5:
                return option
            if name == "turn_crowd" and me.traits.get("SWAG", 0) >= 5:
                victim = state.pieces.get(option.arg("target"))
                if victim is not None and cred_of(state, victim) >= 3:
                    return option
            if name == "elusive" and adjacent and not own_round and "elusive" not in me.marks:
                return option
            if name == "tunnel_vision" and own_round and adjacent and me.ap >= 4 and "tunnel_vision" not in me.marks:
                return option
            if name == "made_you_look" and adjacent and foe is not None and not own_round \
                    and state.grid.front_center(foe.square, foe.facing) == me.square:
                return option
            if name == "jack_of_all_traits" and me.traits.get("CUNN", 0) >= 5:
                trait = option.arg("trait")
                if trait in ("PHYS", "SWAG") and me.traits.get(trait, 0) < 5:
                    return option
        unfamiliar = [o for o in options if o.kind == CARD or o.name not in KNOWN_ABILITIES]
        # Nothing unfamiliar (most decisions): no previews to take, nothing worth it.
        return self._worth_it(bout, me, unfamiliar) if unfamiliar else None

    def _worth_it(self, bout: Bout, me: Piece, options: list[Action]) -> Action | None:
        """The unfamiliar option whose previewed outcome improves `standing` the most, if by enough.
        Each is judged once per Command Round: a refusal stands until the next round."""
        state = bout.state
        moment = (state.cycle, state.active)
        now: float | None = None  # judged once an option is previewed: most were declined earlier this round
        best, best_gain = None, WORTH_PLAYING
        with bout.previews() as previews:
            for option in options:
                key = (moment, option.kind, option.name, option.args)
                if key in self._declined:
                    continue
                if self._surely_declined(bout, me, option):
                    self._declined.add(key)
                    continue
                after = _previewed(previews, option)
                if after is None:
                    self._declined.add(key)
                    continue
                if now is None:
                    now = standing(state, me)
                gain = standing(after, after.pieces[me.label]) - now
                if _new_marks(state, after):
                    gain += LATER_EFFECT
                if gain > best_gain:
                    best, best_gain = option, gain
                else:
                    self._declined.add(key)
        return best

    def _surely_declined(self, bout: Bout, me: Piece, option: Action) -> bool:
        """Whether `option` is a trait raise (`trait_raises`) whose gain, worked out from the board,
        falls short of `WORTH_PLAYING`: declined as its preview would have it (it leaves no mark)."""
        ruleset = bout.ruleset
        if self._raises_of is not ruleset:  # read from the ruleset alone: shared by every agent playing it
            self._raises, self._raises_of = ruleset.derived("heuristic_trait_raises", dict), ruleset
        known = (option.kind, option.name or "")
        raises = self._raises.get(known)
        if raises is None:
            declaration = usable_declaration(ruleset, known[0], known[1])
            raises = self._raises[known] = trait_raises(ruleset, declaration) if declaration is not None else NO_RAISES
        if not raises:
            return False
        gain = trait_raise_gain(ruleset, me, option, raises)
        return gain is not None and gain < WORTH_PLAYING - SURE_MARGIN
