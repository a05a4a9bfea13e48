"""Commands: how their costs, roll and effects play out (which are legal: `engine/legality.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generator

from ..errors import ScriptRuntimeError
from ..syntax import ast_nodes as A
from .actions import Action
from .interpreter import Dynamic, Env, Run, fault_at
from .ledger import CROWD
from .state import Helot

if TYPE_CHECKING:
    from .bout import Bout


@dataclass
class RollContext:
    """The roll being resolved: scripts slide its SDS, fix a side, re-roll, or add damage bonuses."""

    attacker: Helot
    defender: Helot | None
    command: A.Declaration | None = None
    sds: dict[str, int] = field(default_factory=lambda: {"attack": 0, "defense": 0})
    fixed: dict[str, int] = field(default_factory=dict)
    rerolls: set[str] = field(default_factory=set)
    damage_bonus: int = 0
    margin: int = 0
    attack_total: int = 0
    defense_total: int = 0
    roll_total: int = 0
    success: bool = False


class Commands:
    """Mixin of `Bout`: command costs and resolution."""

    # ---------------------------------------------------------------- execution
    def pay_costs(self: Bout, helot: Helot, declaration: A.Declaration, env: Env) -> Run:
        target = env.names.get("target")
        for amount, resource in self.legality.cost_items(helot, declaration, env):
            if resource == "AP":
                reserved = helot.bonus_ap.get(target.label, 0) if isinstance(target, Helot) else 0
                from_bonus = min(reserved, amount)
                if from_bonus:
                    helot.bonus_ap[target.label] -= from_bonus
                helot.ap -= amount - from_bonus
            elif resource == "MP":
                helot.mp -= amount
            elif resource in helot.traits:
                helot.traits[resource] -= amount
            elif resource == "cred":
                self.ledger.transfer_coins(amount, ("cred", helot.label), CROWD, f"{declaration.id} cost")
            elif resource == "overall":
                # Condition paid as a cost goes to the crowd (pg.12).
                yield from self.conditions.deal_damage(helot, amount, to="crowd", reason=f"{declaration.id} cost")

    def run_command(self: Bout, helot: Helot, declaration: A.Declaration, action: Action) -> Run:
        env = self.legality.action_env(helot, declaration, action)
        self.emit("command", helot=helot.label, command=declaration.id,
                  args={k: (v.as_list() if hasattr(v, "as_list") else v) for k, v in action.args})
        helot.cred_gained = 0
        self.events.triggers.append(helot.label)
        try:
            yield from self.pay_costs(helot, declaration, env)
            yield from self.events.fire("command_used", self=helot, command=declaration)
            yield from self.run_declaration_body(helot, declaration, env)
        finally:
            self.events.triggers.pop()

    def perform(self: Bout, env: Env, declaration: A.Declaration) -> Run:
        """Resolve another command's body for the same helot and target, without cost or requirement.
        A command performed inside another nests like an event, within the same depth limit."""
        helot = env.lookup("self")[1]
        if not isinstance(helot, Helot):
            raise self.runtime_error("wrong_type", f"`perform {declaration.id}` needs an acting helot (`self`)")
        events = self.events
        if events.trigger_depth >= self.limits.max_trigger_depth:
            raise self.runtime_error("budget_exceeded", f"commands and events nested more than "
                                                        f"{self.limits.max_trigger_depth} deep: this statement performs "
                                                        f"`{declaration.id}` inside {events.describe_nesting()}")
        names = {"self": helot, "command": declaration, "target": env.lookup("target")[1]}
        inner = Env(names, self.legality.declaration_env(declaration), source=helot)
        events.trigger_depth += 1
        events.nesting.append(f"perform {declaration.id}")
        try:
            yield from self.run_declaration_body(helot, declaration, inner)
        finally:
            events.trigger_depth -= 1
            events.nesting.pop()

    def run_declaration_body(self: Bout, helot: Helot, declaration: A.Declaration, env: Env) -> Run:
        """`effect` blocks, then the roll, then the matching `on success` / `on failure` blocks."""
        for effect in declaration.clauses_of(A.Effect):
            yield from self.interpreter.execute(effect.body, env)
        rolls = declaration.clauses_of(A.Roll)
        if not rolls:
            return
        target = env.lookup("target")[1]
        context = RollContext(attacker=helot, defender=target if isinstance(target, Helot) else None,
                              command=declaration)
        self.rolls.append(context)
        try:
            try:
                success = yield from self.resolve_roll(rolls[0], context, env)
            except ScriptRuntimeError as error:  # e.g. an opposed roll without a target: at the roll clause
                raise fault_at(error, rolls[0], env) from None
            outcome = "success" if success else "failure"
            outcome_env = env.child({
                "margin": Dynamic(lambda: context.margin),
                "attack_total": Dynamic(lambda: context.attack_total),
                "defense_total": Dynamic(lambda: context.defense_total),
                "damage_bonus": Dynamic(lambda: context.damage_bonus),
                "roll_total": Dynamic(lambda: context.roll_total),
            })
            for on in declaration.clauses_of(A.On):
                if on.outcome == outcome:
                    yield from self.interpreter.execute(on.body, outcome_env)
        finally:
            self.rolls.pop()

    def current_roll(self: Bout, node: A.Node) -> RollContext:
        if not self.rolls:
            raise self.runtime_error("no_roll", f"`{getattr(node, 'verb', 'this effect')}` needs a roll in progress")
        return self.rolls[-1]

    def resolve_roll(self: Bout, roll: A.Roll, context: RollContext, env: Env) -> Generator[Any, Any, bool]:
        spec = roll.spec
        if isinstance(spec, A.AutomaticRoll):
            context.success = True
            return True
        if isinstance(spec, A.ThresholdRoll):
            success = yield from self.check_roll(context.attacker, spec.target, _decl_id(env))
            context.success = success
            return success
        assert isinstance(spec, A.OpposedRoll)
        attacker, defender = context.attacker, context.defender
        if defender is None:
            raise self.runtime_error("no_target", "an opposed roll needs a target")
        command = context.command
        level = self.interpreter.evaluate(spec.level, env)
        context.sds["attack"] = self.interpreter.amount(level, spec.level, env, "the attack's SDS", negative=True)
        yield from self.timing.open_window("before_rolls", attacker, attacker=attacker, defender=defender, command=command)
        yield from self.events.fire("attack_roll", attacker=attacker, defender=defender, self=attacker, command=command)
        totals: dict[str, int] = {}
        for side, helot in (("attack", attacker), ("defense", defender)):
            totals[side] = yield from self._roll_side(side, helot, context)
        # Perseverance and the like: a side may be rolled again after both are seen.
        yield from self.timing.open_window("after_rolls", attacker, attacker=attacker, defender=defender, command=command)
        for side, helot in (("attack", attacker), ("defense", defender)):
            if side in context.rerolls:
                totals[side] = yield from self._roll_side(side, helot, context)
        context.rerolls.clear()
        context.attack_total, context.defense_total = totals["attack"], totals["defense"]
        context.margin = totals["attack"] - totals["defense"]
        success = context.margin > 0  # ties go to the defender (pg.27)
        context.success = success
        self.emit("attack", attacker=attacker.label, defender=defender.label, command=_decl_id(env),
                  attack=totals["attack"], defense=totals["defense"], success=success)
        if success:
            yield from self.events.fire("attack_succeeds", attacker=attacker, defender=defender, self=attacker,
                                 margin=context.margin, command=command)
            yield from self.timing.open_window("after_attack_succeeds", attacker, attacker=attacker, defender=defender,
                                        margin=context.margin, command=command)
        else:
            yield from self.events.fire("attack_fails", attacker=attacker, defender=defender, self=attacker, command=command,
                                 attack_total=context.attack_total, defense_total=context.defense_total)
        return success

    def _roll_side(self: Bout, side: str, helot: Helot, context: RollContext) -> Generator[Any, Any, int]:
        if side in context.fixed:
            total = context.fixed[side]
            self.emit("roll", helot=helot.label, side=side, fixed=total, total=total)
            return total
        result = self.dice.sds_roll(side, context.sds[side], self.ruleset.settings.get("sds_cap", 3))
        self.emit("roll", helot=helot.label, side=side, level=result.level, pool=list(result.dice),
                  kept=list(result.kept), total=result.total)
        yield from self.events.fire("dice_rolled", roller=helot, side=side, doubles=result.is_double, total=result.total)
        return result.total

    def check_roll(self: Bout, helot: Helot, target: int, reason: str | None) -> Generator[Any, Any, bool]:
        """A single d6 check (the 4+ rolls of advanced movement, prone checks...): success on `target` or more."""
        value = self.roll("check")
        context = RollContext(attacker=helot, defender=None)
        self.rolls.append(context)
        try:
            yield from self.timing.open_window("after_check", helot, roller=helot)
            if "check" in context.rerolls:
                value = self.roll("check")
        finally:
            self.rolls.pop()
        success = value >= target
        self.emit("check", helot=helot.label, command=reason, needed=target, rolled=value, success=success)
        if self.rolls and self.rolls[-1].attacker == helot:
            self.rolls[-1].roll_total = value
        return success


def _decl_id(env: Env) -> str | None:
    return env.declaration.id if env.declaration is not None else None
