"""Commands: which are legal now, what they cost, and how their roll and effects play out.

The engine knows the *shape* of a command — arguments, costs, requirements, a roll, outcome
blocks — and nothing about any particular command. Legality is decided here, in one place, for
agents, the CLI, scenarios and the editor alike.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import ScriptRuntimeError
from ..syntax import ast_nodes as A
from ..syntax.printer import print_expr
from ..vocabulary import LOCATIONS, TRAITS
from .actions import COMMAND, Action
from .interpreter import Dynamic, Env, Run
from .mechanics import CROWD
from .state import Helot, Status

if TYPE_CHECKING:
    from .bout import Bout


@dataclass
class RollContext:
    """The roll being resolved: scripts slide its SDS, fix a side, or add damage bonuses."""

    attacker: Helot
    defender: Helot | None
    sds: dict[str, int] = field(default_factory=lambda: {"attack": 0, "defense": 0})
    fixed: dict[str, int] = field(default_factory=dict)
    damage_bonus: int = 0
    margin: int = 0
    attack_total: int = 0
    defense_total: int = 0
    roll_total: int = 0


class Commands:
    """Mixin of `Bout`: command legality, costs and resolution."""

    # ---------------------------------------------------------------- environments
    def declaration_env(self: Bout, declaration: A.Declaration) -> Env:
        cached = self._declaration_envs.get(id(declaration))
        if cached is None:
            params = {p.name: self.interpreter.evaluate(p.value, Env({})) for p in declaration.clauses_of(A.Param)}
            cached = Env(params, declaration=declaration)
            self._declaration_envs[id(declaration)] = cached
        return cached

    def command_env(self: Bout, helot: Helot, declaration: A.Declaration, action: Action) -> Env:
        names: dict[str, Any] = {"self": helot}
        if _targets_opponent(declaration):
            names["target"] = self.state.helots[action.arg("target")]
        for arg in declaration.clauses_of(A.Arg):
            names[arg.name] = action.arg(arg.name)
        return Env(names, self.declaration_env(declaration), source=helot)

    # ---------------------------------------------------------------- legality
    def arg_domains(self: Bout, helot: Helot, declaration: A.Declaration) -> list[tuple[str, list[Any]]]:
        domains: list[tuple[str, list[Any]]] = []
        if _targets_opponent(declaration):
            targets = [h.label for h in self.state.helots.values() if h != helot and h.status != Status.DEAD]
            domains.append(("target", targets))
        for arg in declaration.clauses_of(A.Arg):
            domains.append((arg.name, self._domain(arg.type, helot)))
        return domains

    def _domain(self: Bout, arg_type: A.ArgType, helot: Helot) -> list[Any]:
        if isinstance(arg_type, A.ChoiceType):
            return list(arg_type.options)
        if isinstance(arg_type, A.RangeType):
            return list(range(arg_type.low, arg_type.high + 1))
        name = arg_type.name
        if name == "location":
            return list(LOCATIONS)
        if name == "trait":
            return list(TRAITS)
        if name == "resource":
            return ["AP", "MP"]
        if name == "helot":
            return [h.label for h in self.state.helots.values() if h != helot]
        if name == "square":
            return list(self.state.grid.squares())
        return []

    def legal_commands(self: Bout, helot: Helot) -> list[Action]:
        legal: list[Action] = []
        for declaration in self.ruleset.declarations("command"):
            if self._cannot_afford(helot, declaration):
                continue
            domains = self.arg_domains(helot, declaration)
            names = [n for n, _ in domains]
            for values in itertools.product(*(d for _, d in domains)):
                action = Action.make(COMMAND, helot.label, declaration.id, **dict(zip(names, values)))
                if self.command_problem(helot, declaration, action) is None:
                    legal.append(action)
        return legal

    def _cannot_afford(self: Bout, helot: Helot, declaration: A.Declaration) -> bool:
        """A quick filter before arguments are enumerated; costs that depend on arguments are
        left to the full check."""
        try:
            return self.cost_problem(helot, declaration, Env({"self": helot}, self.declaration_env(declaration))) is not None
        except ScriptRuntimeError:
            return False

    def cost_problem(self: Bout, helot: Helot, declaration: A.Declaration, env: Env | None) -> str | None:
        for cost in declaration.clauses_of(A.Cost):
            for item in cost.items:
                amount = self.interpreter.evaluate(item.amount, env or self.declaration_env(declaration))
                have = self.resource_amount(helot, item.resource)
                if have < amount:
                    return f"{declaration.name} costs {amount} {item.resource}; {helot.label} has {have}"
        return None

    def command_problem(self: Bout, helot: Helot, declaration: A.Declaration, action: Action) -> str | None:
        """Why this command cannot be given now, or None when it can."""
        env = self.command_env(helot, declaration, action)
        problem = self.cost_problem(helot, declaration, env)
        if problem:
            return problem
        self.interpreter.pure = True  # requirements are questions: they may not roll dice
        try:
            for requirement in declaration.clauses_of(A.Requires):
                if not self.interpreter.evaluate(requirement.condition, env):
                    return requirement.message or f"{declaration.name} requires {print_expr(requirement.condition)}"
        finally:
            self.interpreter.pure = False
        return None

    def resource_amount(self: Bout, helot: Helot, resource: str) -> int:
        if resource in ("AP", "MP"):
            return helot.ap if resource == "AP" else helot.mp
        if resource in TRAITS:
            return helot.traits.get(resource, 0)
        if resource == "overall":
            return helot.overall
        return helot.cred

    # ---------------------------------------------------------------- execution
    def pay_costs(self: Bout, helot: Helot, declaration: A.Declaration, env: Env) -> Run:
        for cost in declaration.clauses_of(A.Cost):
            for item in cost.items:
                amount = self.interpreter.evaluate(item.amount, env)
                if item.resource == "AP":
                    helot.ap -= amount
                elif item.resource == "MP":
                    helot.mp -= amount
                elif item.resource in TRAITS:
                    helot.traits[item.resource] -= amount
                elif item.resource == "cred":
                    self.transfer_coins(amount, ("cred", helot.label), CROWD, f"{declaration.id} cost")
                elif item.resource == "overall":
                    # Condition paid as a cost goes to the crowd (pg.12).
                    yield from self.deal_damage(helot, amount, to="crowd", reason=f"{declaration.id} cost")

    def run_command(self: Bout, helot: Helot, declaration: A.Declaration, action: Action) -> Run:
        env = self.command_env(helot, declaration, action)
        self.emit("command", helot=helot.label, command=declaration.id,
                  args={k: (v.as_list() if hasattr(v, "as_list") else v) for k, v in action.args})
        yield from self.pay_costs(helot, declaration, env)
        yield from self.fire("command_used", self=helot)
        yield from self.run_declaration_body(helot, declaration, env)

    def run_declaration_body(self: Bout, helot: Helot, declaration: A.Declaration, env: Env) -> Run:
        """`effect` blocks, then the roll, then the matching `on success` / `on failure` blocks."""
        for effect in declaration.clauses_of(A.Effect):
            yield from self.interpreter.execute(effect.body, env)
        rolls = declaration.clauses_of(A.Roll)
        if not rolls:
            return
        context = RollContext(attacker=helot, defender=env.lookup("target")[1])
        self.rolls.append(context)
        try:
            success = yield from self.resolve_roll(rolls[0], context, env)
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

    def resolve_roll(self: Bout, roll: A.Roll, context: RollContext, env: Env) -> Iterator[Any]:
        spec = roll.spec
        if isinstance(spec, A.AutomaticRoll):
            return True
        if isinstance(spec, A.ThresholdRoll):
            value = self.roll("check")
            context.roll_total = value
            success = value >= spec.target
            self.emit("check", helot=context.attacker.label, command=_decl_id(env), needed=spec.target,
                      rolled=value, success=success)
            return success
        assert isinstance(spec, A.OpposedRoll)
        attacker, defender = context.attacker, context.defender
        if defender is None:
            raise self.runtime_error("no_target", "an opposed roll needs a target")
        context.sds["attack"] = self.interpreter.evaluate(spec.level, env)
        yield from self.fire("attack_roll", attacker=attacker, defender=defender, self=attacker)
        cap = self.ruleset.settings.get("sds_cap", 3)
        totals = {}
        for side, helot in (("attack", attacker), ("defense", defender)):
            if side in context.fixed:
                totals[side] = context.fixed[side]
                self.emit("roll", helot=helot.label, side=side, fixed=context.fixed[side], total=context.fixed[side])
                continue
            result = self.dice.sds_roll(side, context.sds[side], cap)
            totals[side] = result.total
            self.emit("roll", helot=helot.label, side=side, level=result.level, pool=list(result.dice),
                      kept=list(result.kept), total=result.total)
            yield from self.fire("dice_rolled", roller=helot, side=side, doubles=result.is_double, total=result.total)
        context.attack_total, context.defense_total = totals["attack"], totals["defense"]
        context.margin = totals["attack"] - totals["defense"]
        success = context.margin > 0  # ties go to the defender (pg.27)
        self.emit("attack", attacker=attacker.label, defender=defender.label, command=_decl_id(env),
                  attack=totals["attack"], defense=totals["defense"], success=success)
        if success:
            yield from self.fire("attack_succeeds", attacker=attacker, defender=defender, self=attacker,
                                 margin=context.margin)
        else:
            yield from self.fire("attack_fails", attacker=attacker, defender=defender, self=attacker)
        return success


def _targets_opponent(declaration: A.Declaration) -> bool:
    prop = declaration.property("targets")
    return bool(prop and prop.values and isinstance(prop.values[0], A.Name) and prop.values[0].id == "opponent")


def _decl_id(env: Env) -> str | None:
    return env.declaration.id if env.declaration is not None else None
