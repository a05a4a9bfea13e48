"""The engine side of the vocabulary: one Python function per script function and primitive.

`bind(bout)` returns the two dispatch tables the interpreter uses. A test checks that they match
`nexus_dsl.vocabulary` exactly, so the checker never accepts a word the engine cannot run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..syntax import ast_nodes as A
from ..vocabulary import LOCATIONS
from .board import Square
from .interpreter import Env, Run
from .state import Helot, Status

if TYPE_CHECKING:
    from .bout import Bout

# The random body location d6 (pg.26): 1 left_upper, 2 chest, 3 right_upper, 4 left_lower,
# 5 midsection, 6 right_lower. A rule param `random_location_table` may replace it.
DEFAULT_LOCATION_TABLE = ("left_upper", "chest", "right_upper", "left_lower", "midsection", "right_lower")


def _squares(*squares: Square | None) -> frozenset[Square]:
    return frozenset(s for s in squares if s is not None)


def bind(bout: Bout) -> tuple[dict[str, Callable[..., Any]], dict[str, Callable[..., Any]]]:
    grid = bout.state.grid

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
        return _squares(bout.square_towards(helot, direction))

    def can_enter(env: Env, helot: Helot, direction: str) -> bool:
        return not bout.blocked(bout.square_towards(helot, direction), ignore=helot)

    def random_location(env: Env) -> str:
        table = bout.ruleset.settings.get("random_location_table", DEFAULT_LOCATION_TABLE)
        return str(table[bout.roll("location", len(table)) - 1])

    def die(env: Env, purpose: str, sides: int = 6) -> int:
        return bout.roll(purpose, sides)

    def opponents(env: Env, helot: Helot) -> tuple[Helot, ...]:
        return tuple(h for h in bout.state.helots.values() if h != helot and h.status != Status.DEAD)

    def helots(env: Env) -> tuple[Helot, ...]:
        return tuple(bout.state.helots.values())

    def distance(env: Env, a: Helot, b: Helot) -> int:
        return grid.chebyshev(a.square, b.square)

    def has_mark(env: Env, helot: Helot, name: str) -> bool:
        return name in helot.marks

    def objects_at(env: Env, square: Any) -> tuple[str, ...]:
        where = square.square if isinstance(square, Helot) else square
        return tuple(bout.state.objects_at(where))

    functions: dict[str, Callable[..., Any]] = {
        "front_center": front_center, "front_arc": front_arc, "behind": behind, "adjacent": adjacent,
        "step": step, "can_enter": can_enter, "random_location": random_location, "die": die,
        "opponents": opponents, "helots": helots, "distance": distance, "has_mark": has_mark,
        "objects_at": objects_at,
        "min": lambda env, a, b: min(a, b), "max": lambda env, a, b: max(a, b),
        "abs": lambda env, a: abs(a), "count": lambda env, items: len(items),
    }

    # ---------------------------------------------------------------- primitives
    def damage(env: Env, node: A.Action, victim: Helot, by: int, at: str | None = None, to: Any = None) -> Run:
        if at is not None and at not in LOCATIONS:
            raise bout.runtime_error("wrong_type", f"`{at}` is not a body location")
        yield from bout.deal_damage(victim, by, location=at, to=to, source=env.source, reason=_reason(env))

    def heal(env: Env, node: A.Action, helot: Helot, by: int, **preps: Any) -> None:
        source = bout.as_pile(preps["from"])
        location = preps.get("at")
        dest = ("location", helot.label, location) if location else ("overall", helot.label)
        bout.transfer_coins(by, source, dest, _reason(env))

    def transfer(env: Env, node: A.Action, amount: int, **preps: Any) -> None:
        bout.transfer_coins(amount, bout.as_pile(preps["from"]), bout.as_pile(preps["to"]), _reason(env))

    def add_state(env: Env, node: A.Action, helot: Helot, state: str) -> None:
        bout.add_state(helot, state)

    def remove_state(env: Env, node: A.Action, helot: Helot, state: str) -> None:
        bout.remove_state(helot, state)

    def move(env: Env, node: A.Action, helot: Helot, direction: str) -> Run:
        yield from bout.move_helot(helot, direction)

    def rotate_(env: Env, node: A.Action, helot: Helot, side: str) -> Run:
        yield from bout.rotate_helot(helot, side)

    def face(env: Env, node: A.Action, helot: Helot, direction: str) -> None:
        helot.facing = bout.absolute_direction(helot, direction)
        bout.emit("rotate", helot=helot.label, facing=helot.facing.name)

    def relocate(env: Env, node: A.Action, helot: Helot, to: Any) -> None:
        square = to.square if isinstance(to, Helot) else to
        origin = helot.square
        helot.square = square
        bout.emit("move", helot=helot.label, source=origin.as_list(), dest=square.as_list(), facing=helot.facing.name)

    def place(env: Env, node: A.Action, object_type: str, at: Any) -> None:
        square = at.square if isinstance(at, Helot) else at
        bout.state.place(object_type, square)
        bout.emit("object", placed=object_type, at=square.as_list())

    def remove(env: Env, node: A.Action, object_type: str, at: Any) -> None:
        square = at.square if isinstance(at, Helot) else at
        if bout.state.remove(object_type, square):
            bout.emit("object", removed=object_type, at=square.as_list())

    def grant(env: Env, node: A.Action, amount: int, resource: str, to: Helot | None = None) -> None:
        helot = to or env.lookup("self")[1]
        setattr(helot, resource.lower(), getattr(helot, resource.lower()) + amount)
        bout.emit("points", helot=helot.label, resource=resource, change=amount)

    def forfeit(env: Env, node: A.Action, resource: str, **preps: Any) -> None:
        helot = preps.get("from") or env.lookup("self")[1]
        lost = getattr(helot, resource.lower())
        setattr(helot, resource.lower(), 0)
        bout.emit("points", helot=helot.label, resource=resource, change=-lost)

    def modify_sds(env: Env, node: A.Action, side: str, by: int) -> None:
        bout.current_roll(node).sds[side] += by

    def fix_roll(env: Env, node: A.Action, side: str, to: int) -> None:
        bout.current_roll(node).fixed[side] = to

    def add_damage(env: Env, node: A.Action, amount: int) -> None:
        bout.current_roll(node).damage_bonus += amount

    def mark(env: Env, node: A.Action, helot: Helot, name: str) -> None:
        helot.marks.add(name)

    def unmark(env: Env, node: A.Action, helot: Helot, name: str) -> None:
        helot.marks.discard(name)

    def log(env: Env, node: A.Action, text: str) -> None:
        bout.emit("note", text=str(text))

    primitives: dict[str, Callable[..., Any]] = {
        "damage": damage, "heal": heal, "transfer": transfer, "add_state": add_state,
        "remove_state": remove_state, "move": move, "rotate": rotate_, "face": face, "relocate": relocate,
        "place": place, "remove": remove, "grant": grant, "forfeit": forfeit, "modify_sds": modify_sds,
        "fix_roll": fix_roll, "add_damage": add_damage, "mark": mark, "unmark": unmark, "log": log,
    }
    return functions, primitives


def _reason(env: Env) -> str:
    declaration = env.declaration
    return declaration.id if declaration is not None else "script"
