"""The engine side of the vocabulary: one Python function per script function and primitive.

`bind(bout)` returns the two dispatch tables the interpreter uses. A test checks that they match
`nexus_dsl.vocabulary` exactly, so the checker never accepts a word the engine cannot run.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .actions import CHOICE, Action, Decision
from .board import Direction, Grid, Square
from .conditions import Conditions
from .cycle import Cycle
from .decks import Decks
from .events import Events
from .holds import Holds
from .interpreter import Env, Interpreter, Limits, Run, describe_value
from .ledger import Ledger
from .list_functions import dice_pool, list_functions
from .movement import Movement
from .resolution import Resolution
from .rolls import Rolls
from .setup import declared_number, weapon_word
from .state import BoutState, Helot, Status
from .timing import Timing

# The random body location d6 (pg.26): 1 left_upper, 2 chest, 3 right_upper, 4 left_lower,
# 5 midsection, 6 right_lower. A rule param `random_location_table` may replace it.
DEFAULT_LOCATION_TABLE = ("left_upper", "chest", "right_upper", "left_lower", "midsection", "right_lower")


def _squares(*squares: Square | None) -> frozenset[Square]:
    return frozenset(s for s in squares if s is not None)


def square_value(value: Any) -> Square | None:
    """The one square a value stands for: a square, a helot's square, or a one-square area such as
    `square_at(...)` or `front_center(...)`; None for anything else (an empty or larger area...)."""
    if isinstance(value, Square):
        return value
    if isinstance(value, Helot):
        return value.square
    if isinstance(value, frozenset) and len(value) == 1:
        return next(iter(value))
    return None


class ScriptApiHost(Protocol):
    """What the script functions and effects need of the bout: its state and rules, the limits, the
    dice (`roll`), the log, the interpreter (numbers kept within the limit), and the mechanisms the
    effects set off."""

    state: BoutState
    ruleset: Ruleset
    limits: Limits
    interpreter: Interpreter
    ledger: Ledger
    events: Events
    conditions: Conditions
    movement: Movement
    holds: Holds
    rolling: Rolls
    resolution: Resolution
    timing: Timing
    decks: Decks
    cycle: Cycle

    def emit(self, event_type: str, **data: Any) -> None: ...

    def roll(self, purpose: str, sides: int = 6) -> int: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


def bind(bout: ScriptApiHost) -> tuple[dict[str, Callable[..., Any]], dict[str, Callable[..., Any]]]:
    grid: Grid = bout.state.grid
    flags = bout.ruleset.object_flags
    limits = bout.limits

    def _square(value: Any) -> Square:
        square = square_value(value)
        if square is None:
            raise bout.runtime_error("wrong_type", f"one square is needed here, got {describe_value(value)}")
        return square

    def _on_board(value: Any) -> Square:
        square = _square(value)
        if not grid.contains(square):
            raise bout.runtime_error("bad_value", f"square [{square.col}, {square.row}] is beyond the arena wall")
        return square

    def _compass(direction: str) -> Direction:
        if direction not in Direction.__members__:
            raise bout.runtime_error("wrong_type", f"a compass direction (N, NE, ... NW) is needed, got `{direction}`")
        return Direction[direction]

    def _actor(env: Env, helot: Any, effect: str) -> Helot:
        """The helot an effect is for: the one named, else the acting one (`self`)."""
        chosen = helot if helot is not None else acting(env)
        if not isinstance(chosen, Helot):
            raise bout.runtime_error("wrong_type", f"`{effect}` needs a helot: there is no acting helot here, "
                                                   f"name one")
        return chosen

    # ---------------------------------------------------------------- functions
    def front_center(env: Env, helot: Helot) -> frozenset[Square]:
        return _squares(grid.front_center(helot.square, helot.facing))

    def front_arc(env: Env, helot: Helot) -> frozenset[Square]:
        return frozenset(grid.front_arc(helot.square, helot.facing))

    def behind(env: Env, helot: Helot) -> frozenset[Square]:
        return _squares(grid.behind(helot.square, helot.facing))

    def adjacent(env: Env, helot: Helot) -> frozenset[Square]:
        return frozenset(grid.neighbours(helot.square))

    def step(env: Env, helot: Helot, direction: str) -> frozenset[Square]:
        return _squares(bout.movement.square_towards(helot, direction))

    def can_enter(env: Env, helot: Helot, direction: str) -> bool:
        return not bout.movement.blocked(bout.movement.square_towards(helot, direction), ignore=helot)

    def random_location(env: Env) -> str:
        table = bout.ruleset.settings.get("random_location_table", DEFAULT_LOCATION_TABLE)
        return str(table[bout.roll("location", len(table)) - 1])

    def die(env: Env, purpose: str, sides: int = 6) -> int:
        return bout.roll(purpose, sides)

    # Helots affected together are met from the triggering player clockwise (pg.15).
    def opponents(env: Env, helot: Helot) -> tuple[Helot, ...]:
        return tuple(h for h in bout.events.helots_in_turn() if helot.foe_of(h) and h.on_board and h.status != Status.DEAD)

    def friends(env: Env, helot: Helot) -> tuple[Helot, ...]:
        return tuple(h for h in bout.events.helots_in_turn()
                     if h != helot and not helot.foe_of(h) and h.on_board and h.status != Status.DEAD)

    def helots(env: Env) -> tuple[Helot, ...]:
        return tuple(bout.events.helots_in_turn())

    def distance(env: Env, a: Helot, b: Helot) -> int:
        return grid.chebyshev(a.square, b.square)

    def has_mark(env: Env, helot: Helot, name: str) -> bool:
        return name in helot.marks

    def objects_at(env: Env, where: Any) -> tuple[str, ...]:
        if isinstance(where, frozenset):  # an area: the objects on any of its squares (none off the board)
            return tuple(obj for square in sorted(where) for obj in bout.state.objects_at(square))
        return tuple(bout.state.objects_at(_square(where)))

    def check(env: Env, target: int) -> bool:
        return bout.roll("check") >= target

    def compass(env: Env) -> str:
        return Direction.from_compass_face(bout.roll("compass", 8)).name

    def random_square(env: Env) -> Square:
        col = bout.roll("grid_col", grid.size)
        row = bout.roll("grid_row", grid.size)
        return Square(col, row)

    def square_at(env: Env, where: Any, direction: str) -> frozenset[Square]:
        if isinstance(where, frozenset) and not where:
            return frozenset()  # one step from nowhere (e.g. from beyond the wall) is nowhere
        return _squares(grid.step(_square(where), _compass(direction)))

    def helot_on(env: Env, where: Any) -> Helot | None:
        if isinstance(where, frozenset) and not where:
            return None
        return bout.state.helot_at(_square(where))

    def squares_of(env: Env, object_type: str) -> tuple[Square, ...]:
        found = [sq for sq, objects in bout.state.objects.items() if object_type in objects]
        # West column first, south to north within a column (the fire movement order, pg.41).
        return tuple(sorted(found, key=lambda sq: (sq.col, -sq.row)))

    def area(env: Env, where: Any, radius: int) -> frozenset[Square]:
        return frozenset(grid.area(_square(where), radius))

    def area_of(env: Env, object_type: str, radius: int) -> frozenset[Square]:
        around: set[Square] = set()
        for sq in squares_of(env, object_type):
            around.update(grid.area(sq, radius))
        return frozenset(around)

    def in_sight(env: Env, helot: Helot, other: Helot) -> bool:
        if not grid.in_line_of_sight_cone(helot.square, helot.facing, other.square):
            return False
        return not any(flags(obj).get("cover", False)
                       for sq in grid.line_squares(helot.square, other.square) for obj in bout.state.objects_at(sq))

    def forward_distance(env: Env, helot: Helot, other: Helot) -> int:
        return grid.forward_distance(helot.square, helot.facing, other.square)

    def helots_clockwise(env: Env, helot: Helot) -> tuple[Helot, ...]:
        return tuple(h for h in bout.state.clockwise_from(helot.label) if h.on_board)

    def mark_value(env: Env, helot: Helot, name: str) -> Any:
        return helot.marks.get(name)

    def opposite(env: Env, direction: str) -> str:
        return _compass(direction).opposite.name

    def blocks(env: Env, object_type: str) -> bool:
        return bool(flags(object_type).get("blocks", False))

    def destructible(env: Env, object_type: str) -> bool:
        return bool(flags(object_type).get("destructible", False))

    def free(env: Env, where: Any) -> bool:
        if isinstance(where, frozenset) and len(where) != 1:
            return False  # no single square to stand on
        return not bout.movement.blocked(_square(where))

    def square_of(env: Env, helot: Helot) -> Square:
        return helot.square

    def beyond(env: Env, helot: Helot, other: Helot) -> frozenset[Square]:
        return _squares(grid.beyond(helot.square, other.square))

    def has_flag(env: Env, object_type: str, flag: str) -> bool:
        return bool(flags(object_type).get(str(flag), False))

    def objects_with(env: Env, where: Any, flag: str) -> tuple[str, ...]:
        return tuple(obj for obj in objects_at(env, where) if flags(obj).get(str(flag), False))

    def active(env: Env) -> Helot | None:
        return bout.state.active_helot

    def trait_reserve(env: Env, helot: Helot, trait: str) -> int:
        return helot.traits.get(trait, 0)

    def location_condition(env: Env, helot: Helot, location: str) -> int:
        return helot.locations[location]

    def pick(env: Env, condition: Any, if_true: Any, if_false: Any) -> Any:
        return if_true if condition else if_false

    def heading(env: Env, helot: Helot, direction: str) -> str:
        return bout.movement.absolute_direction(helot, direction).name

    def next_in_initiative(env: Env, helot: Helot) -> Helot | None:
        order = list(bout.state.order) or list(bout.state.helots)
        if helot.label not in order:
            return None
        start = order.index(helot.label)
        for label in order[start + 1:] + order[:start]:
            other = bout.state.helots[label]
            if other.status == Status.FIGHTING and other.on_board:
                return other
        return None

    def squares_toward(env: Env, where: Any, direction: str, count: int) -> tuple[Square, ...]:
        line: list[Square] = []
        if isinstance(where, frozenset) and len(where) != 1:
            return ()
        current: Square | None = _square(where)
        way = _compass(direction)
        for _ in range(min(count, grid.size)):
            current = grid.step(current, way) if current is not None else None
            if current is None or not grid.contains(current):
                break
            line.append(current)
        return tuple(line)

    def wounded_locations(env: Env, helot: Helot) -> tuple[str, ...]:
        starts = bout.ruleset.words.starts
        return tuple(loc for loc in helot.locations if helot.locations[loc] < starts[loc])

    def indestructible_at(env: Env, where: Any) -> bool:
        if isinstance(where, frozenset) and len(where) != 1:
            return True  # an empty area: beyond the wall
        square = _square(where)
        if not grid.contains(square):
            return True
        return any(not flags(obj).get("destructible", False) for obj in bout.state.objects_at(square))

    def crowd_coins(env: Env) -> int:
        return bout.state.crowd

    def weapons_left(env: Env, weapon_type: str) -> tuple[str, ...]:
        # The weapon pile (pg.3): the cards of that type, in load order, that no helot holds.
        held = {h.weapon for h in bout.state.helots.values() if h.weapon is not None}
        return tuple(w.id for w in bout.ruleset.declarations("weapon")
                     if weapon_word(w, "type") == str(weapon_type) and w.id not in held)

    def random_weapon(env: Env, weapon_type: str) -> str | None:
        # A weapon card drawn at random from the pile. With one card left there is nothing to
        # roll; with none, none.
        cards = weapons_left(env, weapon_type)
        if len(cards) < 2:
            return cards[0] if cards else None
        return cards[bout.roll("weapon_card", len(cards)) - 1]

    def count(env: Env, items: Any) -> int:
        if not isinstance(items, (tuple, frozenset)):
            raise bout.runtime_error("wrong_type", f"`count` counts a list or a set of squares, got {describe_value(items)}")
        return len(items)

    functions: dict[str, Callable[..., Any]] = {
        "random_weapon": random_weapon, "weapons_left": weapons_left, "crowd_coins": crowd_coins,
        "next_in_initiative": next_in_initiative, "squares_toward": squares_toward,
        "wounded_locations": wounded_locations, "indestructible_at": indestructible_at,
        "front_center": front_center, "front_arc": front_arc, "behind": behind, "adjacent": adjacent,
        "step": step, "can_enter": can_enter, "random_location": random_location, "die": die,
        "opponents": opponents, "friends": friends, "helots": helots, "distance": distance, "has_mark": has_mark,
        "objects_at": objects_at, "check": check, "compass": compass, "random_square": random_square,
        "square_at": square_at, "helot_on": helot_on, "squares_of": squares_of, "area": area, "area_of": area_of,
        "in_sight": in_sight, "forward_distance": forward_distance, "helots_clockwise": helots_clockwise,
        "mark_value": mark_value, "opposite": opposite, "blocks": blocks, "destructible": destructible,
        "free": free, "square_of": square_of, "beyond": beyond, "has_flag": has_flag, "objects_with": objects_with,
        "active": active,
        "trait_reserve": trait_reserve, "location_condition": location_condition,
        "min": lambda env, a, b: min(a, b), "max": lambda env, a, b: max(a, b),
        "abs": lambda env, a: abs(a), "count": count,
        "pick": pick, "heading": heading,
        **list_functions(limits), "dice_pool": dice_pool(limits, bout.roll),
    }

    # ---------------------------------------------------------------- primitives
    def acting(env: Env) -> Helot | None:
        return env.lookup("self")[1]

    # Every number argument arrives checked against its vocabulary type and range (the interpreter):
    # damage, healing and transfers move "up to" an amount, and one worked out below 0 arrives as 0.
    def damage(env: Env, node: A.Action, victim: Helot, by: int, at: str | None = None, to: Any = None) -> Run:
        yield from bout.conditions.deal_damage(victim, by, location=at, to=to, source=env.source, reason=_reason(env))

    def heal(env: Env, node: A.Action, helot: Helot, by: int, **preps: Any) -> None:
        source = bout.ledger.as_pile(preps["from"])
        location = preps.get("at")
        dest = ("location", helot.label, location) if location else ("overall", helot.label)
        bout.ledger.transfer_coins(by, source, dest, _reason(env))

    def transfer(env: Env, node: A.Action, amount: int, **preps: Any) -> None:
        bout.ledger.transfer_coins(amount, bout.ledger.as_pile(preps["from"]), bout.ledger.as_pile(preps["to"]), _reason(env))

    def add_state(env: Env, node: A.Action, helot: Helot, state: str) -> Run:
        yield from bout.conditions.add_state(helot, state, by=env.source)

    def remove_state(env: Env, node: A.Action, helot: Helot, state: str) -> Run:
        yield from bout.conditions.remove_state(helot, state)

    def move(env: Env, node: A.Action, helot: Helot, direction: str) -> Run:
        yield from bout.movement.move_helot(helot, direction, mover=env.source)

    def rotate_(env: Env, node: A.Action, helot: Helot, side: str) -> Run:
        yield from bout.movement.rotate_helot(helot, side, mover=env.source)

    def face(env: Env, node: A.Action, helot: Helot, direction: str) -> Run:
        yield from bout.movement.face_helot(helot, bout.movement.absolute_direction(helot, direction))

    def relocate(env: Env, node: A.Action, helot: Helot, to: Any) -> Run:
        yield from bout.movement.place_helot(helot, _on_board(to), mover=env.source if env.source != helot else None)

    def place(env: Env, node: A.Action, object_type: str, at: Any) -> None:
        square = _on_board(at)
        if sum(len(objects) for objects in bout.state.objects.values()) >= limits.max_board_objects:
            raise bout.runtime_error("budget_exceeded", f"the board already holds {limits.max_board_objects} objects, "
                                                        "the most a bout allows")
        bout.state.place(object_type, square)
        bout.emit("object", placed=object_type, at=square.as_list())

    def remove(env: Env, node: A.Action, object_type: str, at: Any) -> None:
        square = _square(at)
        if bout.state.remove(object_type, square):
            bout.emit("object", removed=object_type, at=square.as_list())

    def move_condition(env: Env, node: A.Action, helot: Helot, by: int, to: str) -> None:
        room = bout.ruleset.words.starts[to] - helot.locations[to]
        amount = max(0, min(by, room, helot.overall - 1))
        bout.ledger.transfer_coins(amount, ("overall", helot.label), ("location", helot.label, to), _reason(env))

    def destroy(env: Env, node: A.Action, object_type: str, at: Any) -> Run:
        square = _square(at)
        if bout.state.remove(object_type, square):
            bout.emit("object", destroyed=object_type, at=square.as_list())
            yield from bout.events.fire("object_destroyed", self=env.source, object=object_type, at=square, square=square)

    def grant(env: Env, node: A.Action, amount: int, resource: str, to: Helot | None = None,
              against: Helot | None = None) -> None:
        points = amount  # 0 or more (its range): `forfeit` takes points away
        helot = _actor(env, to, "grant")
        if against is not None and resource == "AP":
            total = bout.interpreter.bounded(helot.bonus_ap.get(against.label, 0) + points, None, None,
                                             f"{helot.label}'s AP against {against.label}")
            helot.bonus_ap[against.label] = total
        else:
            total = bout.interpreter.bounded(getattr(helot, resource.lower()) + points, None, None,
                                             f"{helot.label}'s {resource}")
            setattr(helot, resource.lower(), total)
        bout.emit("points", helot=helot.label, resource=resource, change=points,
                  against=against.label if against is not None else None)

    def forfeit(env: Env, node: A.Action, resource: str, **preps: Any) -> None:
        helot = _actor(env, preps.get("from"), "forfeit")
        lost = getattr(helot, resource.lower())
        setattr(helot, resource.lower(), 0)
        bout.emit("points", helot=helot.label, resource=resource, change=-lost)

    def _opposed_side(side: str, effect: str) -> str:
        if side not in ("attack", "defense"):
            raise bout.runtime_error("bad_value", f"`{effect}` acts on the attack or the defense, not `{side}`")
        return side

    def modify_sds(env: Env, node: A.Action, side: str, by: int) -> None:
        roll = bout.rolling.current_roll(node)
        side = _opposed_side(side, "modify_sds")
        roll.sds[side] = bout.interpreter.bounded(roll.sds[side] + by, None, None, f"the {side} SDS")

    def fix_roll(env: Env, node: A.Action, side: str, to: int) -> None:
        bout.rolling.current_roll(node).fixed[_opposed_side(side, "fix_roll")] = to

    def add_damage(env: Env, node: A.Action, amount: int) -> None:
        roll = bout.rolling.current_roll(node)
        roll.damage_bonus = bout.interpreter.bounded(roll.damage_bonus + amount, None, None, "the damage bonus")

    def mark(env: Env, node: A.Action, helot: Helot, name: str, **preps: Any) -> None:
        value = preps.get("with", True)
        problem = mark_value_problem(value, limits)
        if problem is not None:
            raise bout.runtime_error(*problem)
        helot.marks[name] = value

    def unmark(env: Env, node: A.Action, helot: Helot, name: str) -> None:
        helot.marks.pop(name, None)

    def log(env: Env, node: A.Action, text: str) -> None:
        bout.emit("note", text=str(text))

    def perform(env: Env, node: A.Action, command: str) -> Run:
        declaration = bout.ruleset.declaration("command", command)
        if declaration is None:
            raise bout.runtime_error("unknown_name", f"there is no command `{command}` to perform")
        yield from bout.resolution.perform(env, declaration)

    def choose(env: Env, node: A.Action, helot: Helot, **preps: Any) -> Run:
        offered = preps["from"]
        choices = tuple(sorted(offered)) if isinstance(offered, frozenset) else tuple(offered)
        if len(choices) > limits.max_collection:
            raise bout.runtime_error("budget_exceeded", f"`choose` from {len(choices)} options "
                                                        f"(limit {limits.max_collection})")
        target = node.prep("into")
        assert isinstance(target, A.Name)
        if not choices:
            env.assign(target.id, None)
            return
        if len(choices) == 1:
            env.assign(target.id, choices[0])
            return
        options = tuple(Action.make(CHOICE, helot.label, target.id, pick=_plain(c)) for c in choices)
        action = yield Decision(helot.label, f"choose:{target.id}", options)
        picked = action.arg("pick")
        env.assign(target.id, next(c for c in choices if _plain(c) == picked))

    def equip(env: Env, node: A.Action, helot: Helot, **preps: Any) -> Run:
        weapon = bout.ruleset.declaration("weapon", str(preps["with"]))
        if weapon is None:
            raise bout.runtime_error("unknown_name", f"there is no weapon `{preps['with']}`")
        if helot.weapon is not None:
            yield from lose_weapon(helot)
        helot.weapon = weapon.id
        helot.ammo = declared_number(weapon, "ammo") or 0
        helot.durability = declared_number(weapon, "durability") or 0
        bout.emit("weapon", helot=helot.label, equipped=weapon.id)
        yield from bout.conditions.add_state(helot, "armed")

    def lose_weapon(helot: Helot) -> Run:
        lost = helot.weapon
        helot.weapon = None
        helot.ammo = helot.durability = 0
        bout.emit("weapon", helot=helot.label, lost=lost)
        yield from bout.conditions.remove_state(helot, "armed")
        yield from bout.events.fire("weapon_lost", self=helot, weapon=lost)

    def discard_weapon(env: Env, node: A.Action, helot: Helot) -> Run:
        if helot.weapon is not None:
            yield from lose_weapon(helot)

    def holster(env: Env, node: A.Action, helot: Helot) -> Run:
        yield from bout.conditions.remove_state(helot, "armed")

    def unholster(env: Env, node: A.Action, helot: Helot) -> Run:
        if helot.weapon is not None:
            yield from bout.conditions.add_state(helot, "armed")

    def spend_ammo(env: Env, node: A.Action, helot: Helot) -> Run:
        helot.ammo = max(0, helot.ammo - 1)
        if helot.ammo == 0 and helot.weapon is not None:
            yield from lose_weapon(helot)

    def wear_weapon(env: Env, node: A.Action, helot: Helot) -> Run:
        helot.durability = max(0, helot.durability - 1)
        if helot.durability == 0 and helot.weapon is not None:
            yield from lose_weapon(helot)

    def hold(env: Env, node: A.Action, helot: Helot, by: Helot) -> Run:
        yield from bout.holds.take_hold(by, helot)

    def release(env: Env, node: A.Action, helot: Helot) -> Run:
        yield from bout.holds.release_hold(helot)

    def signal(env: Env, node: A.Action, event: str) -> Run:
        # The acting helot is `self`; any other name the event declares is bound, as `none`.
        names = dict.fromkeys(bout.ruleset.words.events.get(event, {}))
        names["self"] = acting(env)
        yield from bout.events.fire(event, **names)

    def mark_counter(env: Env, node: A.Action, helot: Helot, number: int) -> None:
        if number in helot.tp_counter:
            return
        if len(helot.tp_counter) >= limits.max_collection:
            raise bout.runtime_error("budget_exceeded", f"{helot.label}'s Turning Point Counter already holds "
                                                        f"{limits.max_collection} numbers")
        bout.ledger.mark_counter_coin(helot, number, f"turning point {number}")

    def collect_counter(env: Env, node: A.Action, helot: Helot, to: Any) -> None:
        bout.ledger.collect_counter_coins(helot, bout.ledger.as_pile(to), _reason(env))

    def set_tpdm(env: Env, node: A.Action, helot: Helot, to: bool) -> None:
        helot.tpdm = bool(to)
        bout.emit("tpdm", helot=helot.label, holds=helot.tpdm)

    def draw(env: Env, node: A.Action, deck: str, **preps: Any) -> Run:
        yield from bout.decks.draw_card(deck, _actor(env, preps.get("for"), "draw"))

    def offer_negation(env: Env, node: A.Action, helot: Helot) -> Run:
        yield from bout.decks.offer_negation(env, helot)

    def prevent(env: Env, node: A.Action) -> None:
        bout.timing.current_window(node).prevented = True

    def reroll(env: Env, node: A.Action, side: str) -> None:
        bout.rolling.current_roll(node).rerolls.add(side)

    def roll_check(env: Env, node: A.Action, helot: Helot, by: int, into: A.Name) -> Run:
        passed = yield from bout.rolling.check_roll(helot, by, _reason(env))
        env.assign(into.id, passed)

    def reduce_damage(env: Env, node: A.Action, by: int) -> None:
        frames = bout.conditions.damage_frames
        if not frames:
            raise bout.runtime_error("no_damage", "`reduce_damage` is for `when damage_incoming` listeners")
        frames[-1].amount -= by

    def ignore_overall(env: Env, node: A.Action) -> None:
        bout.timing.current_window(node).prevented = True

    def add_trait(env: Env, node: A.Action, helot: Helot, trait: str, by: int) -> None:
        cap = bout.ruleset.settings.get("trait_cap", 5)
        helot.traits[trait] = max(0, min(cap, helot.traits.get(trait, 0) + by))
        bout.emit("trait", helot=helot.label, trait=trait, value=helot.traits[trait])

    def win(env: Env, node: A.Action, helot: Helot) -> None:
        bout.cycle.decide(helot)

    def declare_draw(env: Env, node: A.Action) -> None:
        bout.cycle.decide(None)

    def set_stat(env: Env, node: A.Action, helot: Helot, stat: str, to: int) -> None:
        low, high = bout.ruleset.words.bounds[stat]
        helot.stats[stat] = min(max(to, low), high)
        bout.emit("stat", helot=helot.label, stat=stat, value=helot.stats[stat])

    def add_stat(env: Env, node: A.Action, helot: Helot, stat: str, by: int) -> None:
        set_stat(env, node, helot, stat, helot.stats[stat] + by)

    def stat_value(env: Env, helot: Helot, stat: str) -> int:
        return helot.stats[stat]

    def stat_level(env: Env, helot: Helot, stat: str) -> str | None:
        levels = bout.ruleset.words.levels.get(stat, ())
        index = helot.stats[stat] - bout.ruleset.words.bounds[stat][0]
        return levels[index] if 0 <= index < len(levels) else None

    def take_off_board(env: Env, node: A.Action, helot: Helot) -> None:
        if helot.on_board:
            helot.on_board = False
            bout.emit("off_board", helot=helot.label, at=helot.square.as_list())

    primitives: dict[str, Callable[..., Any]] = {
        "damage": damage, "heal": heal, "transfer": transfer, "add_state": add_state,
        "remove_state": remove_state, "move": move, "rotate": rotate_, "face": face, "relocate": relocate,
        "place": place, "remove": remove, "grant": grant, "forfeit": forfeit, "modify_sds": modify_sds,
        "fix_roll": fix_roll, "add_damage": add_damage, "mark": mark, "unmark": unmark, "log": log,
        "perform": perform, "choose": choose, "equip": equip, "discard_weapon": discard_weapon,
        "holster": holster, "unholster": unholster, "spend_ammo": spend_ammo,
        "wear_weapon": wear_weapon, "hold": hold, "release": release, "signal": signal,
        "mark_counter": mark_counter, "collect_counter": collect_counter, "set_tpdm": set_tpdm, "draw": draw,
        "offer_negation": offer_negation, "prevent": prevent, "reroll": reroll, "ignore_overall": ignore_overall, "reduce_damage": reduce_damage,
        "roll_check": roll_check,
        "add_trait": add_trait, "add_stat": add_stat, "set_stat": set_stat, "win": win, "declare_draw": declare_draw, "take_off_board": take_off_board, "destroy": destroy, "move_condition": move_condition,
    }
    functions.update({"stat_value": stat_value, "stat_level": stat_level})
    return functions, primitives


def mark_value_problem(value: Any, limits: Limits) -> tuple[str, str] | None:
    """Why a value cannot be held by a mark, or None: marks outlive the script that sets them, so
    what they hold stays small — a number within the limit, text, a helot, a square, or a list of
    at most `max_collection` such values in all, nested at most `max_mark_depth` deep."""
    budget = [limits.max_collection]

    def problem(item: Any, depth: int) -> tuple[str, str] | None:
        if isinstance(item, bool) or item is None or isinstance(item, (str, Helot, Square)):
            return None
        if isinstance(item, int):
            if abs(item) > limits.max_number:
                return ("number_too_large", f"a mark cannot hold {item}: beyond the limit of ±{limits.max_number}")
            return None
        if isinstance(item, (tuple, frozenset)):
            budget[0] -= len(item)
            if budget[0] < 0 or depth > limits.max_mark_depth:
                return ("budget_exceeded", f"a mark holds at most {limits.max_collection} values, "
                                           f"nested at most {limits.max_mark_depth} deep")
            for member in item:
                found = problem(member, depth + 1)
                if found is not None:
                    return found
            return None
        return ("wrong_type", f"a mark cannot hold {describe_value(item)}")

    return problem(value, 0)


def _plain(value: Any) -> Any:
    """A choice as plain data for an Action (helots by label, squares as lists)."""
    if isinstance(value, Helot):
        return value.label
    if isinstance(value, Square):
        return (value.col, value.row)
    return value


def _reason(env: Env) -> str:
    declaration = env.declaration
    return declaration.id if declaration is not None else "script"
