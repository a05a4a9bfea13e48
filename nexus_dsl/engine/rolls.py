"""Rolls: the opposed roll on the dice scale (a ladder of dice pools each side slides up or down),
threshold checks, and the stack of rolls being resolved (what the scripts' roll effects act on)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Generator, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .compiled import Closure, closure_of
from .dice import SCALE_CAP, Dice
from .events import Events
from .interpreter import Interpreter
from .scope import Env
from .state import Piece
from .timing import Timing

# A roll clause's kind, told by an int rather than by the class of its syntax node at every roll.
AUTOMATIC: Final = 0
THRESHOLD: Final = 1
OPPOSED: Final = 2
OTHER: Final = 3


class RollPlan:
    """A roll clause as it runs, read from its syntax node once (`roll_plan`): its kind, the number
    a threshold check needs, and the closure of an opposed roll's attack level."""

    __slots__ = ("node", "kind", "target", "level", "closure")

    def __init__(self, node: A.Roll):
        spec = node.spec
        self.node = node  # where a fault of the roll is placed
        self.target = 0
        self.level: A.Expr | None = None
        self.closure: Closure | None = None
        if isinstance(spec, A.AutomaticRoll):
            self.kind = AUTOMATIC
        elif isinstance(spec, A.ThresholdRoll):
            self.kind = THRESHOLD
            self.target = spec.target
        elif isinstance(spec, A.OpposedRoll):
            self.kind = OPPOSED
            self.level = spec.level
            self.closure = closure_of(spec.level)
        else:
            self.kind = OTHER


def roll_plan(roll: A.Roll) -> RollPlan:
    return RollPlan(roll)


@dataclass(frozen=True)
class RollLevels:
    """The levels on the dice scale an opposed roll is about to be rolled at, each clamped as the
    scale clamps it, with the sides fixed at a total instead (`fix_roll`), by side."""

    attacker: str
    defender: str
    attack: int
    defense: int
    fixed: tuple[tuple[str, int], ...] = ()


class RollReached(Exception):
    """Raised by a bout's copy that works out a roll's levels (`Bout.roll_levels`) when its opposed
    roll is about to roll its first die: what it carries is the answer, and nothing is rolled."""

    def __init__(self, levels: RollLevels) -> None:
        super().__init__(levels)
        self.levels = levels


@dataclass
class RollContext:
    """The roll being resolved: scripts slide a side up or down its dice scale (`levels`), fix a side,
    re-roll, or add damage bonuses."""

    attacker: Piece
    defender: Piece | None
    command: A.Declaration | None = None
    levels: dict[str, int] = field(default_factory=lambda: {"attack": 0, "defense": 0})
    fixed: dict[str, int] = field(default_factory=dict)
    rerolls: set[str] = field(default_factory=set)
    damage_bonus: int = 0
    margin: int = 0
    attack_total: int = 0
    defense_total: int = 0
    roll_total: int = 0
    success: bool = False

    # Written out, the dataclass's own `__init__` would do (tables left out are new ones, the
    # levels at 0): a roll context is made for every roll and check, and the compiled engine then
    # makes it with compiled code (`board.Square` says more).
    def __init__(self, attacker: Piece, defender: Piece | None, command: A.Declaration | None = None,
                 levels: dict[str, int] | None = None, fixed: dict[str, int] | None = None,
                 rerolls: set[str] | None = None, damage_bonus: int = 0, margin: int = 0, attack_total: int = 0,
                 defense_total: int = 0, roll_total: int = 0, success: bool = False) -> None:
        self.attacker = attacker
        self.defender = defender
        self.command = command
        self.levels = {"attack": 0, "defense": 0} if levels is None else levels
        self.fixed = {} if fixed is None else fixed
        self.rerolls = set() if rerolls is None else rerolls
        self.damage_bonus = damage_bonus
        self.margin = margin
        self.attack_total = attack_total
        self.defense_total = defense_total
        self.roll_total = roll_total
        self.success = success

    def __reduce__(self) -> tuple[Any, ...]:
        return (RollContext, (self.attacker, self.defender, self.command, self.levels, self.fixed, self.rerolls,
                              self.damage_bonus, self.margin, self.attack_total, self.defense_total, self.roll_total,
                              self.success))


class RollsHost(Protocol):
    """What rolls need of the bout: its rules (how far the scale slides), the dice, the interpreter
    (a roll's level), the log, events to fire and the windows a roll opens."""

    ruleset: Ruleset
    dice: Dice
    interpreter: Interpreter
    events: Events
    timing: Timing

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def roll(self, purpose: str, sides: int = 6) -> int: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Rolls:
    """The rolls of a bout, with the stack of those being resolved."""

    # Kept at hand (`wire`), read natively rather than through the host Protocol on every roll.
    interpreter: Interpreter
    events: Events
    timing: Timing

    def __init__(self, host: RollsHost):
        self.host = host
        self.rolls: list[RollContext] = []  # the rolls being resolved, innermost last
        # Set on a bout's copy asked for a roll's levels: stop the opposed roll before its dice.
        self.halt_before_dice = False
        # How far a side slides up the dice scale: a rule param, fixed for the bout.
        settings = host.ruleset.settings
        self.scale_cap: int = settings["scale_cap"] if "scale_cap" in settings else SCALE_CAP

    def wire(self) -> None:
        """Keep the interpreter, events and timing at hand (`Bout._wire`: the interpreter is built last)."""
        self.interpreter = self.host.interpreter
        self.events = self.host.events
        self.timing = self.host.timing

    def reset(self) -> None:
        """No roll being resolved any more (a script fault stopped the bout, a preview's copy starts over)."""
        self.rolls = []

    def current_roll(self, node: A.Node) -> RollContext:
        if not self.rolls:
            raise self.host.runtime_error("no_roll", f"`{getattr(node, 'verb', 'this effect')}` needs a roll in progress")
        return self.rolls[-1]

    def resolve_roll(self, roll: A.Roll, context: RollContext, env: Env) -> Generator[Any, Any, bool]:
        return self.resolve_planned(roll_plan(roll), context, env)

    def resolve_planned(self, plan: RollPlan, context: RollContext, env: Env) -> Generator[Any, Any, bool]:
        """`resolve_roll` of the roll clause `plan` was made for."""
        kind = plan.kind
        if kind == AUTOMATIC:
            context.success = True
            return True
        if kind == THRESHOLD:
            success = yield from self.check_roll(context.attacker, plan.target, _decl_id(env))
            context.success = success
            return success
        assert kind == OPPOSED
        attacker, defender = context.attacker, context.defender
        if defender is None:
            raise self.host.runtime_error("no_target", "an opposed roll needs a target")
        command = context.command
        interpreter, events, timing = self.interpreter, self.events, self.timing
        closure = plan.closure
        assert closure is not None
        level = closure.run(interpreter, env)
        context.levels["attack"] = interpreter.amount(level, plan.level, env, "the attack's level", negative=True)
        yield from timing.open_window("before_rolls", attacker, attacker=attacker, defender=defender, command=command)
        yield from events.fire("attack_roll", attacker=attacker, defender=defender, self=attacker, command=command)
        if self.halt_before_dice:
            raise RollReached(self.levels_of(context, defender))
        attack_total = yield from self._roll_side("attack", attacker, context)
        defense_total = yield from self._roll_side("defense", defender, context)
        # Perseverance and the like: a side may be rolled again after both are seen.
        yield from timing.open_window("after_rolls", attacker, attacker=attacker, defender=defender, command=command)
        rerolls = context.rerolls
        if "attack" in rerolls:
            attack_total = yield from self._roll_side("attack", attacker, context)
        if "defense" in rerolls:
            defense_total = yield from self._roll_side("defense", defender, context)
        rerolls.clear()
        context.attack_total, context.defense_total = attack_total, defense_total
        margin = context.margin = attack_total - defense_total
        success = margin > 0  # ties go to the defender (pg.27)
        context.success = success
        self.host.emit_line("attack", {"attacker": attacker.label, "defender": defender.label,
                                       "command": _decl_id(env), "attack": attack_total, "defense": defense_total,
                                       "success": success})
        if success:
            yield from events.fire("attack_succeeds", attacker=attacker, defender=defender, self=attacker,
                                   margin=context.margin, command=command)
            yield from timing.open_window("after_attack_succeeds", attacker, attacker=attacker, defender=defender,
                                          margin=context.margin, command=command)
        else:
            yield from events.fire("attack_fails", attacker=attacker, defender=defender, self=attacker, command=command,
                                   attack_total=context.attack_total, defense_total=context.defense_total)
        return success

    def levels_of(self, context: RollContext, defender: Piece) -> RollLevels:
        """The levels `context`'s sides would be rolled at now, as `_roll_side` rolls them."""
        cap = self.scale_cap
        levels, fixed = context.levels, context.fixed
        return RollLevels(context.attacker.label, defender.label, max(-cap, min(cap, levels["attack"])),
                          max(-cap, min(cap, levels["defense"])),
                          tuple((side, fixed[side]) for side in ("attack", "defense") if side in fixed))

    def _roll_side(self, side: str, piece: Piece, context: RollContext) -> Generator[Any, Any, int]:
        fixed = context.fixed
        if side in fixed:
            total = fixed[side]
            self.host.emit_line("roll", {"actor": piece.label, "side": side, "fixed": total, "total": total})
            return total
        result = self.host.dice.scale_roll(side, context.levels[side], self.scale_cap)
        self.host.emit_line("roll", {"actor": piece.label, "side": side, "level": result.level,
                                     "pool": list(result.dice), "kept": list(result.kept), "total": result.total})
        yield from self.events.fire("dice_rolled", roller=piece, side=side, doubles=result.is_double, total=result.total)
        return result.total

    def check_roll(self, piece: Piece, target: int, reason: str | None) -> Generator[Any, Any, bool]:
        """A single d6 check (a 4+ to pull off a move, to keep one's footing...): success on `target` or more."""
        value = self.host.roll("check")
        context = RollContext(attacker=piece, defender=None)
        self.rolls.append(context)
        try:
            yield from self.timing.open_window("after_check", piece, roller=piece)
            if "check" in context.rerolls:
                value = self.host.roll("check")
        finally:
            self.rolls.pop()
        success = value >= target
        self.host.emit_line("check", {"actor": piece.label, "command": reason, "needed": target, "rolled": value,
                                      "success": success})
        if self.rolls and self.rolls[-1].attacker == piece:
            self.rolls[-1].roll_total = value
        return success


def _decl_id(env: Env) -> str | None:
    return env.declaration.id if env.declaration is not None else None
