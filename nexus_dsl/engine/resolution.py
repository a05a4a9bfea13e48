"""Resolution: paying a command's, ability's or card's costs and running its body — `effect` blocks,
the roll, the outcome blocks — and commands performed inside others."""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .actions import Action
from .board import Square
from .causes import Tracer
from .conditions import Conditions
from .events import Events
from .interpreter import BlockPlan, Interpreter, Limits, Run, block_plan
from .scope import Dynamic, Env, fault_at
from .ledger import Ledger
from .legality import Legality
from .rolls import RollContext, RollPlan, Rolls, roll_plan
from .state import Actor, Piece, Player
from .text_facts import engine_fact


def declared(ruleset: Ruleset, kind: str, ident: str) -> A.Declaration | None:
    """`ruleset.declaration(kind, ident)`, read from its tables: the ruleset is never compiled, and the
    cycle asks it for every command given (an interpreted call each time)."""
    scripts = ruleset.scripts
    if kind in scripts:
        items = scripts[kind]
        if ident in items:
            return items[ident].declaration
    return None


@engine_fact
def body_clauses(declaration: A.Declaration) -> tuple[list[A.Effect], list[A.Roll], list[A.On]]:
    """A declaration's `effect` blocks, its roll clauses and its outcome blocks, each in order:
    asked of every command, ability and card resolved (three interpreted calls, answered once)."""
    return declaration.clauses_of(A.Effect), declaration.clauses_of(A.Roll), declaration.clauses_of(A.On)


class BodyPlan:
    """A declaration's body as it runs, read from its syntax tree once (`Resolution.body_plan`): the
    plans of its `effect` blocks, the plan of its (first) roll clause, and the plans of its outcome
    blocks for a success and for a failure, each in order. Run by `run`, whose frame, read as state
    while the body waits (`fingerprint.py`), holds no plan: the plans are its `self`'s."""

    __slots__ = ("declaration", "effects", "roll", "on_success", "on_failure")

    def __init__(self, declaration: A.Declaration):
        effects, rolls, outcomes = body_clauses(declaration)
        self.declaration = declaration  # kept alive while its plan is kept by its id
        self.effects: tuple[BlockPlan, ...] = tuple(block_plan(effect.body) for effect in effects)
        self.roll: RollPlan | None = roll_plan(rolls[0]) if rolls else None
        self.on_success: tuple[BlockPlan, ...] = tuple(block_plan(on.body) for on in outcomes if on.outcome == "success")
        self.on_failure: tuple[BlockPlan, ...] = tuple(block_plan(on.body) for on in outcomes if on.outcome == "failure")

    def run(self, resolution: Resolution, piece: Actor, env: Env) -> Run:
        """`effect` blocks, then the roll, then the matching `on success` / `on failure` blocks."""
        interpreter = resolution.interpreter
        for index in range(len(self.effects)):
            rest = interpreter.run_plan(self.effects[index], env)
            if rest is not None:
                yield from rest
        if self.roll is None:
            return
        if not isinstance(piece, Piece):
            raise resolution.host.runtime_error("not_allowed", f"`{self.declaration.id}` rolls, and a roll is a "
                                                               f"piece's: {piece.label} is a player")
        target = env.lookup("target")[1]
        context = RollContext(attacker=piece, defender=target if isinstance(target, Piece) else None,
                              command=self.declaration)
        rolling = resolution.rolling
        rolling.rolls.append(context)
        try:
            try:
                success = yield from rolling.resolve_planned(self.roll, context, env)
            except ScriptRuntimeError as error:  # e.g. an opposed roll without a target: at the roll clause
                raise fault_at(error, self.roll.node, env) from None
            count = len(self.on_success) if success else len(self.on_failure)
            if not count:
                return
            outcome_env = env.child({
                "margin": Dynamic(lambda: context.margin),
                "attack_total": Dynamic(lambda: context.attack_total),
                "defense_total": Dynamic(lambda: context.defense_total),
                "damage_bonus": Dynamic(lambda: context.damage_bonus),
                "roll_total": Dynamic(lambda: context.roll_total),
            })
            for index in range(count):
                rest = interpreter.run_plan(self.on_success[index] if success else self.on_failure[index], outcome_env)
                if rest is not None:
                    yield from rest
        finally:
            rolling.rolls.pop()


class ResolutionHost(Protocol):
    """What resolution needs of the bout: the trigger depth limit, the interpreter that runs the
    bodies, the log, and the mechanisms a cost or a body goes through."""

    limits: Limits
    ruleset: Ruleset
    interpreter: Interpreter
    ledger: Ledger
    conditions: Conditions
    events: Events
    legality: Legality
    rolling: Rolls
    tracer: Tracer | None  # the causes under way, in a bout played to be explained (`causes.py`)

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Resolution:
    """How what is given or used plays out, once it is known to be legal."""

    # Kept at hand (`wire`), read natively rather than through the host Protocol on every command.
    interpreter: Interpreter
    ledger: Ledger
    conditions: Conditions
    events: Events
    legality: Legality
    rolling: Rolls

    def __init__(self, host: ResolutionHost):
        self.host = host
        ruleset = host.ruleset
        # The piles a player owns: words of the rules, fixed for the bout.
        self.owned_piles: frozenset[str] = frozenset(ruleset.words.owned_piles)
        # Each declaration's body plan by the declaration's id, shared by every bout of the ruleset.
        self.plans: dict[int, BodyPlan] = ruleset.derived("body_plans", dict)

    def wire(self) -> None:
        """Keep the mechanisms a command goes through at hand (`Bout._wire`: some are built after resolution)."""
        host = self.host
        self.interpreter = host.interpreter
        self.ledger = host.ledger
        self.conditions = host.conditions
        self.events = host.events
        self.legality = host.legality
        self.rolling = host.rolling

    def body_plan(self, declaration: A.Declaration) -> BodyPlan:
        plan = self.plans.get(id(declaration))
        if plan is None:
            plan = self.plans[id(declaration)] = BodyPlan(declaration)
        return plan

    def pay_costs(self, piece: Actor, declaration: A.Declaration, env: Env) -> Run:
        target = env.names.get("target")
        ledger = self.ledger
        owned_piles = self.owned_piles
        for amount, resource in self.legality.cost_items(piece, declaration, env):
            if resource in owned_piles:
                # Coins paid go to the pile the game names for a payment (`default_for payment`), else the reserve.
                ledger.transfer_coins(amount, ledger.owned_pile(piece, resource), ledger.default_pile("payment"),
                                      f"{declaration.id} cost")
                continue
            if isinstance(piece, Player):  # a player pays in the stats it holds
                if resource in piece.stats:
                    piece.stats[resource] -= amount
                continue
            if resource == "AP":
                reserved = piece.bonus_ap.get(target.label, 0) if isinstance(target, Piece) else 0
                from_bonus = min(reserved, amount)
                if from_bonus:
                    assert isinstance(target, Piece)  # AP is reserved only against a target
                    piece.bonus_ap[target.label] -= from_bonus
                piece.ap -= amount - from_bonus
            elif resource == "MP":
                piece.mp -= amount
            elif resource in piece.traits:
                piece.traits[resource] -= amount
            elif resource == "overall":
                # Condition paid as a cost goes where coins paid go (pg.12).
                yield from self.conditions.deal_damage(piece, amount, to=ledger.default_pile("payment"),
                                                            reason=f"{declaration.id} cost")

    def run_command(self, piece: Actor, declaration: A.Declaration, action: Action) -> Run:
        env = self.legality.action_env(piece, declaration, action)
        # A square is logged as its coordinates (`as_list`, which no other value an action holds has).
        args = {k: (v.as_list() if isinstance(v, Square) else v) for k, v in action.args}
        self.host.emit_line("command", {"actor": piece.label, "command": declaration.id, "args": args})
        if isinstance(piece, Piece):
            piece.gained = 0
        events = self.events
        events.triggers.append(piece.label)
        # Explained (`causes.py`): what the command's costs, rolls and body log is its doing.
        tracer = self.host.tracer
        cause = tracer.resolving(declaration, action.args) if tracer is not None else None
        try:
            yield from self.pay_costs(piece, declaration, env)
            yield from events.fire("command_used", self=piece, command=declaration)
            yield from self.run_declaration_body(piece, declaration, env)
        finally:
            events.triggers.pop()
            if tracer is not None and cause is not None:
                tracer.leave(cause)

    def run_control(self, piece: Actor, declaration: A.Declaration, action: Action) -> Run:
        """A control used (a command offered as one): its costs paid and its body run, with no line
        and no event of a command given; what it does, its own lines say (`record`)."""
        env = self.legality.action_env(piece, declaration, action)
        tracer = self.host.tracer
        cause = tracer.resolving(declaration, action.args) if tracer is not None else None
        try:
            yield from self.pay_costs(piece, declaration, env)
            yield from self.run_declaration_body(piece, declaration, env)
        finally:
            if tracer is not None and cause is not None:
                tracer.leave(cause)

    def perform(self, env: Env, declaration: A.Declaration) -> Run:
        """Resolve another command's body for the same piece and target, without cost or requirement.
        A command performed inside another nests like an event, within the same depth limit."""
        piece = env.lookup("self")[1]
        if not isinstance(piece, Piece):
            raise self.host.runtime_error("wrong_type", f"`perform {declaration.id}` needs an acting piece (`self`)")
        events, limit = self.events, self.host.limits.max_trigger_depth
        if events.trigger_depth >= limit:
            raise self.host.runtime_error("budget_exceeded", f"commands and events nested more than {limit} deep: "
                                                             f"this statement performs `{declaration.id}` inside "
                                                             f"{events.describe_nesting()}")
        names = {"self": piece, "command": declaration, "target": env.lookup("target")[1]}
        inner = Env(names, self.legality.declaration_env(declaration), source=piece)
        events.trigger_depth += 1
        events.nesting.append(f"perform {declaration.id}")
        try:
            yield from self.run_declaration_body(piece, declaration, inner)
        finally:
            events.trigger_depth -= 1
            events.nesting.pop()

    def run_declaration_body(self, piece: Actor, declaration: A.Declaration, env: Env) -> Run:
        """`effect` blocks, then the roll, then the matching `on success` / `on failure` blocks (`BodyPlan.run`)."""
        return self.body_plan(declaration).run(self, piece, env)
