"""Commands: which are legal now, what they cost, and how their roll and effects play out.

The engine knows the *shape* of a command — arguments, costs, requirements, a roll, outcome
blocks — and nothing about any particular command. Legality is decided here, in one place, for
agents, the CLI, scenarios and the editor alike. Besides a command's own `requires` clauses,
every `requires` clause of a loaded `rule` applies to every command (e.g. "a prone helot must
stand up first").
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generator, Iterator

from ..errors import ScriptRuntimeError
from ..syntax import ast_nodes as A
from ..syntax.printer import print_expr
from .actions import COMMAND, Action
from .board import Direction
from .interpreter import Dynamic, Env, Run, fault, fault_at
from .ledger import CROWD
from .state import Helot

if TYPE_CHECKING:
    from .bout import Bout

Check = tuple[A.Declaration | None, A.Requires]  # (the rule it comes from, or None for the command's own)


@dataclass(frozen=True)
class LegalityPlan:
    """A command's requirements split by what they read: no argument, only the target, or an `arg`."""

    fixed: tuple[Check, ...]
    per_target: tuple[Check, ...]
    varying: tuple[Check, ...]
    costs_vary: bool


def legality_plan(declaration: A.Declaration, rule_requirements: list[tuple[A.Declaration, A.Requires]]) -> LegalityPlan:
    arguments = {"target"} | {arg.name for arg in declaration.clauses_of(A.Arg)}
    checks: list[Check] = [(None, r) for r in declaration.clauses_of(A.Requires)] + list(rule_requirements)
    reads = [(check, A.names_used(check[1].condition) & arguments) for check in checks]
    fixed = tuple(check for check, used in reads if not used)
    per_target = tuple(check for check, used in reads if used == {"target"})
    varying = tuple(check for check, used in reads if used - {"target"})
    costs_vary = any(A.names_used(item.amount) & arguments
                     for cost in declaration.clauses_of(A.Cost) for item in cost.items)
    return LegalityPlan(fixed, per_target, varying, costs_vary)


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


def targets_opponent(declaration: A.Declaration) -> bool:
    prop = declaration.property("targets")
    return bool(prop and prop.values and isinstance(prop.values[0], A.Name) and prop.values[0].id == "opponent")


def declaration_tags(declaration: A.Declaration) -> tuple[str, ...]:
    prop = declaration.property("tags")
    return tuple(v.id for v in prop.values if isinstance(v, A.Name)) if prop else ()


def player_arg_name(name: str) -> str:
    """The name players and actions use for a script argument. An argument whose name would be a
    keyword is written with a trailing underscore in scripts (`arg to_: square`) and is called
    without it everywhere else (the action's `to`)."""
    return name[:-1] if name.endswith("_") and len(name) > 1 else name


def declaration_group(declaration: A.Declaration) -> str | None:
    prop = declaration.property("group")
    value = prop.values[0] if prop and prop.values else None
    return value.id if isinstance(value, A.Name) else None


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

    def action_env(self: Bout, helot: Helot, declaration: A.Declaration, action: Action,
                   extra: dict[str, Any] | None = None) -> Env:
        names: dict[str, Any] = dict(extra or {})
        names["self"] = helot
        names.setdefault("command", declaration)  # a window may bind the command being resolved
        if targets_opponent(declaration):
            names["target"] = self.state.helots[action.arg("target")]
        for arg in declaration.clauses_of(A.Arg):
            names[arg.name] = action.arg(player_arg_name(arg.name))
        return Env(names, self.declaration_env(declaration), source=helot)

    # ---------------------------------------------------------------- legality
    def arg_domains(self: Bout, helot: Helot, declaration: A.Declaration) -> list[tuple[str, list[Any]]]:
        domains: list[tuple[str, list[Any]]] = []
        if targets_opponent(declaration):
            targets = [h.label for h in self.state.helots.values() if helot.foe_of(h) and h.on_board]
            domains.append(("target", targets))
        for arg in declaration.clauses_of(A.Arg):
            domains.append((player_arg_name(arg.name), self._domain(arg.type, helot, declaration)))
        return domains

    def _domain(self: Bout, arg_type: A.ArgType, helot: Helot, declaration: A.Declaration) -> list[Any]:
        if isinstance(arg_type, A.ChoiceType):
            return list(arg_type.options)
        if isinstance(arg_type, A.RangeType):
            if arg_type.high - arg_type.low >= self.limits.max_options:  # refused before it is listed
                raise self._too_many_options(arg_type, arg_type.high - arg_type.low + 1, declaration)
            return list(range(arg_type.low, arg_type.high + 1))
        name = arg_type.name
        if name in ("location", "trait"):  # the stats content declares in that group
            return list(self.ruleset.words.group(name))
        if name == "resource":
            return ["AP", "MP"]
        if name == "direction":
            return [direction.name for direction in Direction]  # the compass, N first, clockwise
        if name == "helot":
            return [h.label for h in self.state.helots.values() if h != helot and h.on_board]
        if name == "square":
            return list(self.state.grid.squares())
        return []

    def _too_many_options(self: Bout, node: A.Node, count: int, declaration: A.Declaration) -> Exception:
        return fault(node, Env({}, declaration=declaration), "too_many_options", f"its arguments make {count} combinations to check, more than "
                                                    f"the limit of {self.limits.max_options}")

    def _checked_domains(self: Bout, helot: Helot, declaration: A.Declaration) -> list[tuple[str, list[Any]]]:
        """The declaration's argument domains, refused when their combinations are too many to check."""
        domains = self.arg_domains(helot, declaration)
        combinations = 1
        for _, domain in domains:
            combinations *= len(domain)
        if combinations > self.limits.max_options:
            args = declaration.clauses_of(A.Arg)
            raise self._too_many_options(args[0] if args else declaration, combinations, declaration)
        return domains

    def enumerate_actions(self: Bout, kind: str, helot: Helot, declaration: A.Declaration,
                          problem: Any) -> Iterator[Action]:
        """Every argument combination of a declaration for which `problem(action)` finds nothing."""
        domains = self._checked_domains(helot, declaration)
        names = [n for n, _ in domains]
        for values in itertools.product(*(d for _, d in domains)):
            action = Action.make(kind, helot.label, declaration.id, **dict(zip(names, values)))
            if problem(action) is None:
                yield action

    def legal_commands(self: Bout, helot: Helot) -> list[Action]:
        """Every command `helot` may give now with every argument combination that is legal. The
        same verdicts as `command_problem`, reached faster: a requirement is asked once per
        command when it reads no argument, once per target when it reads only the target, and
        once per combination only when it reads the other arguments."""
        legal: list[Action] = []
        for declaration in self.ruleset.declarations("command"):
            if self._cannot_afford(helot, declaration):
                continue
            plan = self._legality_plan(declaration)
            env = Env({"self": helot, "command": declaration}, self.declaration_env(declaration))
            if not self._passes(plan.fixed, env):
                continue
            domains = self._checked_domains(helot, declaration)
            targets: list[Any] = [None]
            if domains and domains[0][0] == "target":
                targets = domains.pop(0)[1]
            names = [n for n, _ in domains]
            costs_vary = plan.costs_vary or bool(helot.bonus_ap)
            for target in targets:
                if target is not None:
                    env = Env({"self": helot, "command": declaration, "target": self.state.helots[target]},
                              self.declaration_env(declaration))
                    if not self._passes(plan.per_target, env):
                        continue
                for values in itertools.product(*(d for _, d in domains)):
                    args = dict(zip(names, values))
                    if target is not None:
                        args = {"target": target, **args}
                    action = Action.make(COMMAND, helot.label, declaration.id, **args)
                    if self._argument_problem(helot, declaration, action, plan, costs_vary) is None:
                        legal.append(action)
        return legal

    def _legality_plan(self: Bout, declaration: A.Declaration) -> LegalityPlan:
        plan = self._legality_plans.get(id(declaration))
        if plan is None:
            plan = self._legality_plans[id(declaration)] = legality_plan(declaration, self.global_requirements)
        return plan

    def _passes(self: Bout, checks: tuple[Check, ...], env: Env) -> bool:
        """Whether every requirement holds; a rule's requirement sees only self, target and command."""
        with self.interpreter.asking():
            for rule, requirement in checks:
                if rule is None:
                    check_env = env
                else:
                    if not self.owns_ability(env.names["self"], rule):  # a talent binds only its motivation
                        continue
                    names = {"self": env.names["self"], "target": env.names.get("target"), "command": env.names["command"]}
                    check_env = Env(names, self.declaration_env(rule))
                if not self.interpreter.evaluate(requirement.condition, check_env):
                    return False
        return True

    def _argument_problem(self: Bout, helot: Helot, declaration: A.Declaration, action: Action,
                          plan: LegalityPlan, costs_vary: bool) -> str | None:
        env = self.action_env(helot, declaration, action)
        if costs_vary:
            problem = self.cost_problem(helot, declaration, env, env.names.get("target"))
            if problem:
                return problem
        return None if self._passes(plan.varying, env) else "requirement"

    def _cannot_afford(self: Bout, helot: Helot, declaration: A.Declaration) -> bool:
        """A quick filter before arguments are enumerated; costs that depend on arguments, or on
        AP reserved against a target, are left to the full check."""
        if helot.bonus_ap:
            return False
        try:
            env = Env({"self": helot}, self.declaration_env(declaration))
            return self.cost_problem(helot, declaration, env, None) is not None
        except ScriptRuntimeError:
            return False

    def cost_items(self: Bout, helot: Helot, declaration: A.Declaration, env: Env) -> list[tuple[int, str]]:
        """Each cost as (amount, resource): a whole number from 0 to the number limit, or the
        script stops (a cost worked out below 0 would pay the helot for its command). A cost is a
        question, asked before the command is offered and again when it is paid: the same answer
        both times, and no dice rolled for it."""
        items = []
        multiplier = None  # looked up only for an MP cost: most costs are AP or reserves
        interpreter = self.interpreter
        for cost in declaration.clauses_of(A.Cost):
            for item in cost.items:
                node = item.amount
                if isinstance(node, A.Num) and 0 <= node.value <= self.limits.max_number:
                    amount = node.value
                else:
                    with interpreter.asking():
                        value = interpreter.evaluate(node, env)
                    amount = interpreter.amount(value, node, env, f"the {item.resource} cost")
                if item.resource == "MP":
                    if multiplier is None:
                        multiplier = self.mp_multiplier(helot)
                    # e.g. guts double MP costs inside their square (object data)
                    amount = interpreter.bounded(amount * multiplier, node, env, "the MP cost")
                items.append((amount, item.resource))
        return items

    def cost_problem(self: Bout, helot: Helot, declaration: A.Declaration, env: Env,
                     target: Helot | None) -> str | None:
        for amount, resource in self.cost_items(helot, declaration, env):
            have = self.resource_amount(helot, resource)
            if resource == "AP" and target is not None:
                have += helot.bonus_ap.get(target.label, 0)
            if have < amount:
                return f"{declaration.name} costs {amount} {resource}; {helot.label} has {have}"
        return None

    def command_problem(self: Bout, helot: Helot, declaration: A.Declaration, action: Action) -> str | None:
        """Why this command cannot be given now, or None when it can."""
        env = self.action_env(helot, declaration, action)
        target = env.names.get("target")
        problem = self.cost_problem(helot, declaration, env, target)
        if problem:
            return problem
        return self.requirement_problem(declaration, env, rules=True)

    def requirement_problem(self: Bout, declaration: A.Declaration, env: Env, rules: bool) -> str | None:
        with self.interpreter.asking():
            for requirement in declaration.clauses_of(A.Requires):
                if not self.interpreter.evaluate(requirement.condition, env):
                    return requirement.message or f"{declaration.name} requires {print_expr(requirement.condition)}"
            if rules:
                names = {"self": env.names["self"], "target": env.names.get("target"), "command": declaration}
                for rule, requirement in self.global_requirements:
                    if not self.owns_ability(env.names["self"], rule):  # a talent binds only its motivation
                        continue
                    rule_env = Env(names, self.declaration_env(rule))
                    if not self.interpreter.evaluate(requirement.condition, rule_env):
                        return requirement.message or f"{rule.name}: {print_expr(requirement.condition)}"
        return None

    def resource_amount(self: Bout, helot: Helot, resource: str) -> int:
        if resource in ("AP", "MP"):
            return helot.ap if resource == "AP" else helot.mp
        if resource in helot.traits:
            return helot.traits[resource]
        if resource == "overall":
            return helot.overall
        return helot.cred

    def mp_multiplier(self: Bout, helot: Helot) -> int:
        factor = 1
        for obj in self.state.objects_at(helot.square):
            # Bounded at every step: a square stacked with many multiplying objects stays a number.
            factor = min(factor * int(self.ruleset.object_flags(obj).get("mp_multiplier", 1)), self.limits.max_number + 1)
        return factor

    # ---------------------------------------------------------------- execution
    def pay_costs(self: Bout, helot: Helot, declaration: A.Declaration, env: Env) -> Run:
        target = env.names.get("target")
        for amount, resource in self.cost_items(helot, declaration, env):
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
                yield from self.deal_damage(helot, amount, to="crowd", reason=f"{declaration.id} cost")

    def run_command(self: Bout, helot: Helot, declaration: A.Declaration, action: Action) -> Run:
        env = self.action_env(helot, declaration, action)
        self.emit("command", helot=helot.label, command=declaration.id,
                  args={k: (v.as_list() if hasattr(v, "as_list") else v) for k, v in action.args})
        helot.cred_gained = 0
        self.triggers.append(helot.label)
        try:
            yield from self.pay_costs(helot, declaration, env)
            yield from self.fire("command_used", self=helot, command=declaration)
            yield from self.run_declaration_body(helot, declaration, env)
        finally:
            self.triggers.pop()

    def perform(self: Bout, env: Env, declaration: A.Declaration) -> Run:
        """Resolve another command's body for the same helot and target, without cost or requirement.
        A command performed inside another nests like an event, within the same depth limit."""
        helot = env.lookup("self")[1]
        if not isinstance(helot, Helot):
            raise self.runtime_error("wrong_type", f"`perform {declaration.id}` needs an acting helot (`self`)")
        if self.trigger_depth >= self.limits.max_trigger_depth:
            raise self.runtime_error("budget_exceeded", f"commands and events nested more than "
                                                        f"{self.limits.max_trigger_depth} deep: this statement performs "
                                                        f"`{declaration.id}` inside {self._nesting()}")
        names = {"self": helot, "command": declaration, "target": env.lookup("target")[1]}
        inner = Env(names, self.declaration_env(declaration), source=helot)
        self.trigger_depth += 1
        self.nesting.append(f"perform {declaration.id}")
        try:
            yield from self.run_declaration_body(helot, declaration, inner)
        finally:
            self.trigger_depth -= 1
            self.nesting.pop()

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
        yield from self.open_window("before_rolls", attacker, attacker=attacker, defender=defender, command=command)
        yield from self.fire("attack_roll", attacker=attacker, defender=defender, self=attacker, command=command)
        totals: dict[str, int] = {}
        for side, helot in (("attack", attacker), ("defense", defender)):
            totals[side] = yield from self._roll_side(side, helot, context)
        # Perseverance and the like: a side may be rolled again after both are seen.
        yield from self.open_window("after_rolls", attacker, attacker=attacker, defender=defender, command=command)
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
            yield from self.fire("attack_succeeds", attacker=attacker, defender=defender, self=attacker,
                                 margin=context.margin, command=command)
            yield from self.open_window("after_attack_succeeds", attacker, attacker=attacker, defender=defender,
                                        margin=context.margin, command=command)
        else:
            yield from self.fire("attack_fails", attacker=attacker, defender=defender, self=attacker, command=command,
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
        yield from self.fire("dice_rolled", roller=helot, side=side, doubles=result.is_double, total=result.total)
        return result.total

    def check_roll(self: Bout, helot: Helot, target: int, reason: str | None) -> Generator[Any, Any, bool]:
        """A single d6 check (the 4+ rolls of advanced movement, prone checks...): success on `target` or more."""
        value = self.roll("check")
        context = RollContext(attacker=helot, defender=None)
        self.rolls.append(context)
        try:
            yield from self.open_window("after_check", helot, roller=helot)
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
