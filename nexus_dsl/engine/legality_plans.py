"""What legality works out once per ruleset and keeps with it: the plans of the commands'
requirements and costs (which requirement reads which arguments, what a rule's requirement
answers in advance for a command), the numbered questions of a decision, what each ability, card
or control asks of its uses, and the slots in which a bout keeps what it has worked out of each
command between decisions (`engine/legality.py` asks them).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Callable

from ..model.game import offered_as_control
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from ..syntax.printer import print_expr
from .actions import Action
from .compiled import Closure, Interpreter, Membership, closure_of
from .scope import Env
from .state import Actor
from .text_facts import player_arg_name, targets_opponent

Check = tuple[A.Declaration | None, A.Requires]  # (the rule it comes from, or None for the command's own)


@dataclass(frozen=True)
class PlannedCheck:
    """One requirement as legality asks it of one command, worked out once.

    A rule's requirement applies to every command, and much of it often reads nothing but the
    command (`"attack" not in command.tags or ...`): those parts are answered once, when the plan
    is made, and what is left is asked at every decision, shared by every command that is left with
    the same question (`shared`). Asking is pure, so a verdict asked once holds for the whole
    decision; a part answered in advance is one that could never fault, so a fault is still met where
    it always was."""

    rule: A.Declaration | None  # the rule it comes from, or None for the command's own
    requirement: A.Requires
    # Whether it binds every piece (a command's own requirement, or a rule naming no role and no
    # card), so that no one asks who owns it.
    binds_everyone: bool
    # What is left to ask, in the order written: the requirement holds when one of them is true...
    operands: tuple[A.Expr, ...]
    # ... or when a part answered in advance was true (the ones before it are still asked, as
    # they always were).
    holds_anyway: bool
    # The question's key when other commands ask the same question (a rule's parts that no longer
    # read the command, or a command's own requirement written alike and reading nothing the
    # command binds): whether one of `operands` holds is asked once per decision and target for
    # all of them (whatever each one's `holds_anyway`); None otherwise.
    shared: tuple[Any, ...] | None
    # `operands`' compiled closures, in the same order: asked by their `run`, as
    # `Interpreter.evaluate` asks them, without looking each up on its node.
    closures: tuple[Closure, ...]
    # A command's own `target in <part>` whose part reads no target: the part worked out once per
    # decision for every target (`TargetMembership`); None for any other requirement.
    hoisted: TargetMembership | None = None

    @property
    def always_holds(self) -> bool:
        return self.holds_anyway and not self.operands


def planned_check(rule: A.Declaration | None, requirement: A.Requires, binds_everyone: bool,
                  command: A.Declaration, answered_in_advance: Callable[[A.Expr], bool | None]) -> PlannedCheck:
    """A requirement planned for one command: a rule's `or`-ed parts that read only the command and
    plain values answered in advance (`answered_in_advance` gives the answer, or None when a part
    must be asked at every decision)."""
    if rule is None:  # a command's own requirement: asked as written, shared by the commands that
        # ask it in the same words, unless it reads the command or a name the command binds itself
        condition = requirement.condition
        own_names = {"command"} | {param.name for param in command.clauses_of(A.Param)}
        shared_text = None if A.names_used(condition) & own_names else ("as written", print_expr(condition))
        return PlannedCheck(None, requirement, True, (condition,), False, shared_text, (closure_of(condition),),
                            TargetMembership.of(condition))
    left: list[A.Expr] = []
    holds_anyway = False
    for operand in or_operands(requirement.condition):
        answer = answered_in_advance(operand)
        if answer is None:
            left.append(operand)
        elif answer:
            holds_anyway = True
            break  # `or` asks nothing after a true part
    operands = tuple(left)
    shared = None
    if not any("command" in A.names_used(operand) for operand in operands):
        shared = (id(rule), id(requirement), *(id(operand) for operand in operands))
    return PlannedCheck(rule, requirement, binds_everyone, operands, holds_anyway, shared,
                        tuple(closure_of(operand) for operand in operands))


class HeldValue(Closure):
    """A part of an expression worked out before its expression is asked: the value it was
    handed, as the part's own closure would give it."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value: Any = None

    def run(self, interpreter: Interpreter, env: Env) -> Any:
        return self.value


class TargetMembership:
    """A requirement `target in <part>` (or `not in`) whose part does not name the target
    (`front_center(self)`). Asking is pure, and nothing the part reads changes from one target to
    another (no script function reads the target but from its arguments), so the part is worked out
    once per decision, where the requirement is first asked, in that question's scope; each target
    is then looked up in it by the requirement's own `in` (`membership`: the same test and the same
    faults), its part the value held."""

    __slots__ = ("part", "held", "membership")

    def __init__(self, condition: A.Compare):
        self.part = closure_of(condition.right)
        self.held = HeldValue()
        self.membership = Membership(condition, closure_of(condition.left), self.held)

    @staticmethod
    def of(condition: A.Expr) -> TargetMembership | None:
        """The membership of a condition so written, or None."""
        if (isinstance(condition, A.Compare) and condition.op in ("in", "not in")
                and isinstance(condition.left, A.Name) and condition.left.id == "target"
                and "target" not in A.names_used(condition.right)):
            return TargetMembership(condition)
        return None


def or_operands(condition: A.Expr) -> list[A.Expr]:
    """The parts of an `or` chain, left to right (`a or b or c` is `(a or b) or c`)."""
    if isinstance(condition, A.Binary) and condition.op == "or":
        return or_operands(condition.left) + or_operands(condition.right)
    return [condition]


def reads_only_the_command(operand: A.Expr) -> bool:
    """Whether a part of a requirement reads nothing that changes during a bout: no function (a
    function may read the board), no piece, only `command` and names of plain values."""
    return not any(isinstance(node, A.Call) or isinstance(node, A.Name) and node.id in ("self", "target")
                   for node in A.subtree(operand))


def is_plain(value: Any) -> bool:
    """A value that never changes: a number, a word, a truth value, none, or a list of them."""
    if isinstance(value, (tuple, frozenset)):
        return all(is_plain(item) for item in value)
    return value is None or isinstance(value, (bool, int, str))


@dataclass(frozen=True)
class LegalityPlan:
    """What legality needs of one command, worked out once from its declaration: its requirements
    split by what they read (no argument, only the target, or an `arg`), whether its costs read an
    argument, and the facts of its text legality asks at every decision."""

    fixed: tuple[PlannedCheck, ...]
    per_target: tuple[PlannedCheck, ...]
    varying: tuple[PlannedCheck, ...]
    costs_vary: bool
    # The places among the arguments (the target aside, in the order declared) of those the varying
    # checks and the costs read: combinations that agree on these get the same verdict, so it is
    # asked once for them.
    verdict_at: tuple[int, ...]
    arg_names: tuple[str, ...]  # the arguments' names in the script, in the order declared
    control: bool  # offered among the turn's controls, never among its commands
    # Every cost as (amount, resource) when each amount is a number written in the script (within
    # the number limit): read as it is, with no script asked; None when one is worked out.
    written_costs: tuple[tuple[int, str], ...] | None
    # Whether asking the costs with no argument bound (the quick filter, `_cannot_afford`) faults
    # whatever the bout: then the filter lets the command through at once, as its fault would.
    filter_faults: bool
    # Whether the costs vary and every amount reads nothing but the arguments (no piece, no
    # function, no parameter: `3 + extra`): a combination's amounts then depend on its values alone,
    # and are worked out once per bout for the values the costs read (`CommandSlot.amounts`).
    amounts_by_arguments: bool
    # Each cost's resource, in order; and whether a combination's verdict is its costs alone, read
    # from the amounts kept for its values (`amounts_by_arguments`, no requirement reads its
    # arguments, no MP cost, which the square multiplies, and no argument named `target`, which
    # AP granted against a target would read): nothing then is asked of the script once they are
    # kept, so the verdict is whether the piece holds those amounts.
    cost_resources: tuple[str, ...]
    costs_alone: bool


def legality_plan(declaration: A.Declaration, rule_requirements: list[tuple[A.Declaration, A.Requires]],
                  max_number: int, binds_everyone: Callable[[A.Declaration], bool],
                  answered_in_advance: Callable[[A.Declaration, A.Declaration, A.Expr], bool | None],
                  faults_anyway: Callable[[A.Declaration, A.Expr], bool]) -> LegalityPlan:
    arguments = {"target"} | {arg.name for arg in declaration.clauses_of(A.Arg)}
    checks: list[Check] = [(None, r) for r in declaration.clauses_of(A.Requires)] + list(rule_requirements)
    reads = [(check, A.names_used(check[1].condition) & arguments) for check in checks]

    def planned(rule: A.Declaration | None, requirement: A.Requires) -> PlannedCheck:
        return planned_check(rule, requirement, rule is None or binds_everyone(rule), declaration,
                             lambda operand: answered_in_advance(rule, declaration, operand) if rule else None)

    def kept(selected: list[Check]) -> tuple[PlannedCheck, ...]:
        return tuple(check for check in (planned(*pair) for pair in selected) if not check.always_holds)

    fixed = kept([check for check, used in reads if not used])
    per_target = kept([check for check, used in reads if used == {"target"}])
    varying_checks = [check for check, used in reads if used - {"target"}]
    varying = kept(varying_checks)
    items = [item for cost in declaration.clauses_of(A.Cost) for item in cost.items]
    costs_vary = any(A.names_used(item.amount) & arguments for item in items)
    read = set().union(*(A.names_used(item.amount) for item in items), *(A.names_used(r.condition) for _, r in varying_checks))
    declared = declaration.clauses_of(A.Arg)
    verdict_at = tuple(place for place, arg in enumerate(declared) if arg.name in read)
    written = all(isinstance(item.amount, A.Num) and 0 <= item.amount.value <= max_number for item in items)
    filter_faults = not written and any(faults_anyway(declaration, item.amount) for item in items)
    arg_names = tuple(arg.name for arg in declared)
    by_arguments = costs_vary and all(reads_only_arguments(item.amount, arg_names) for item in items)
    resources = tuple(item.resource for item in items)
    costs_alone = by_arguments and not varying and "MP" not in resources and "target" not in arg_names
    return LegalityPlan(fixed, per_target, varying, costs_vary, verdict_at, arg_names, offered_as_control(declaration),
                        tuple((item.amount.value, item.resource) for item in items  # type: ignore[attr-defined]
                              ) if written else None, filter_faults, by_arguments, resources, costs_alone)


#: The nodes of an amount worked out from the values it names alone, by arithmetic and comparison.
_ARITHMETIC_NODES = (A.Num, A.Str, A.Bool, A.NoneLit, A.Name, A.Neg, A.Not, A.Binary, A.Compare)
_ARITHMETIC_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def reads_only_arguments(amount: A.Expr, arg_names: tuple[str, ...]) -> bool:
    """Whether an amount reads nothing but the command's arguments (not its target), with numbers,
    words and arithmetic: the same values always give the same amount (or the same fault)."""
    for node in A.subtree(amount):
        if not isinstance(node, _ARITHMETIC_NODES):
            return False
        if isinstance(node, A.Name) and node.id not in arg_names:
            return False
        if isinstance(node, A.Compare) and node.op not in _ARITHMETIC_COMPARISONS:
            return False
    return True


NumberedCheck = tuple[int, PlannedCheck]  # a requirement with its place among a decision's verdicts


class CommandEntry:
    """One command as `legal_commands` asks it at every decision: its plan, and the place among the
    decision's verdicts (`CommandQuestions`) of its quick cost filter (-1: none is asked) and of
    each requirement that reads no argument (`fixed`) or only the target (`per_target`, kept per
    target); the place among the decision's verdicts of the whole of its `fixed` requirements
    (`fixed_at`: commands that ask the same numbered requirements in the same order, alike in what
    each one answers in advance, get the same verdict from them); and the facts of its text each
    decision reads (whether it targets, its id). `fixed_first`: its quick filter asks the script
    (costs not written as numbers) and it has `fixed` requirements, which are then asked first
    (`Legality._refused_before_filter`)."""

    __slots__ = ("declaration", "plan", "filter_at", "fixed", "per_target", "targets", "name", "fixed_at",
                 "fixed_first")

    def __init__(self, declaration: A.Declaration, plan: LegalityPlan, filter_at: int,
                 fixed: tuple[NumberedCheck, ...], per_target: tuple[NumberedCheck, ...]):
        self.declaration = declaration
        self.plan = plan
        self.filter_at = filter_at
        self.fixed = fixed
        self.per_target = per_target
        self.targets = targets_opponent(declaration)  # whether it binds a target (its first domain)
        self.name = declaration.id
        self.fixed_at = -1  # (numbered by `CommandQuestions`)
        self.fixed_first = filter_at >= 0 and plan.written_costs is None and bool(fixed)


class CommandQuestions:
    """The commands given as commands (the controls aside), in load order, with every question a
    decision asks of them numbered: the questions several commands ask alike (costs written alike,
    a requirement they share, `PlannedCheck.shared`) under one number, so that the verdict asked
    for one holds for all at that decision. Worked out once per ruleset and number limit."""

    __slots__ = ("entries", "names", "places", "count", "target_count", "filters", "fixed_count")

    def __init__(self, plans: list[tuple[A.Declaration, LegalityPlan]]):
        numbers: dict[Any, int] = {}  # the decision-wide questions: cost filters and fixed requirements
        target_numbers: dict[Any, int] = {}  # the requirements asked per target

        def numbered(known: dict[Any, int], key: Any) -> int:
            return known.setdefault(key, len(known))

        def checks(known: dict[Any, int], declaration: A.Declaration,
                   planned: tuple[PlannedCheck, ...]) -> tuple[NumberedCheck, ...]:
            # A requirement no other command shares is a question of its own.
            return tuple((numbered(known, check.shared if check.shared is not None else
                                   ("own", id(declaration), id(check))), check) for check in planned)

        entries: list[CommandEntry] = []
        filters: set[int] = set()
        for declaration, plan in plans:
            if plan.control:
                continue
            filter_at = -1
            if plan.written_costs is not None:
                filter_at = numbered(numbers, ("written", plan.written_costs))
            elif not plan.filter_faults:
                filter_at = numbered(numbers, ("costs", id(declaration)))
            if filter_at >= 0:
                filters.add(filter_at)
            entries.append(CommandEntry(declaration, plan, filter_at, checks(numbers, declaration, plan.fixed),
                                        checks(target_numbers, declaration, plan.per_target)))
        # The verdicts of the commands' `fixed` requirements as a whole: asking them again in the
        # same order, with the same answers in advance, asks nothing new and fails (or holds) where
        # they did, so commands alike share one verdict.
        groups: dict[Any, int] = {}
        for entry in entries:
            if entry.fixed:
                entry.fixed_at = numbered(groups, tuple([(at, check.holds_anyway) for at, check in entry.fixed]))
        self.fixed_count = len(groups)
        self.entries = tuple(entries)
        self.names = tuple([entry.name for entry in entries])  # each command's id, in their order
        self.places = {name: place for place, name in enumerate(self.names)}  # each command's place, by its id
        self.count = len(numbers)
        self.target_count = len(target_numbers)
        self.filters = tuple(sorted(filters))


class CommandSlot:
    """What one bout keeps of one command (`CommandEntry`) between its decisions: the command's
    scope, the scopes its questions are asked in, and the amounts of its costs that read nothing but
    its arguments. A scope is made once and its names bound anew at each question: an expression
    asked is done with its scope when it answers (nothing it makes keeps the scope), and no question
    is asked while another one of the same command is under way."""

    __slots__ = ("scope", "own", "own_targeted", "combination", "own_for", "own_targeted_for", "combination_for",
                 "arguments_rebind", "filter", "amounts", "lasting", "offered", "keyed")

    def __init__(self, arg_names: tuple[str, ...]) -> None:
        self.scope: Env | None = None  # `Legality.declaration_env` of the command, once asked
        self.own: Env | None = None  # its own requirements' scope with no target bound
        self.own_targeted: Env | None = None  # ... and with a target bound
        self.combination: Env | None = None  # a combination's scope, as `action_env` binds it
        # The piece each of those scopes has bound as `self` (who acts), so that it is bound anew
        # only for another piece; unless an argument shares the name of `self` or the command,
        # which a combination then binds over them (`arguments_rebind`).
        self.own_for: Actor | None = None
        self.own_targeted_for: Actor | None = None
        self.combination_for: Actor | None = None
        self.arguments_rebind = "self" in arg_names or "command" in arg_names
        self.filter: Env | None = None  # the quick cost filter's scope (`_cannot_afford`)
        # The names and combinations of its arguments (the target aside) when they last all bout
        # (`Legality._lasting_combinations`), once found.
        self.lasting: tuple[tuple[str, ...], list[tuple[Any, ...]]] | None = None
        # The actions of those combinations, by the label of the piece that gives them and by target.
        self.offered: dict[str, dict[Any, list[Action]]] = {}
        # The amounts of its costs before an MP cost is multiplied, by the verdict's key of the
        # combination (`LegalityPlan.amounts_by_arguments`): the same values, the same amounts.
        self.amounts: dict[Any, list[int]] = {}
        # The verdicts' keys of the lasting combinations (`combination_keys`), once worked out.
        self.keyed: CombinationKeys | None = None


class CombinationKeys:
    """The keys of a command's verdicts over combinations that last all bout: the values of the
    arguments its questions read (`LegalityPlan.verdict_at`), each distinct key once in the order
    the combinations first give it (`keys`), and each combination's place among them (`places`), so
    that a decision keeps its verdicts in a list by place rather than in a table by key."""

    __slots__ = ("combinations", "places", "keys")

    def __init__(self, combinations: list[tuple[Any, ...]], positions: tuple[int, ...]) -> None:
        self.combinations = combinations
        self.places: list[int] = []
        self.keys: list[Any] = []
        found: dict[Any, int] = {}  # (keys told apart as a table of verdicts by key tells them apart)
        for values in combinations:
            key = (values[positions[0]] if len(positions) == 1 else
                   tuple([values[at] for at in positions]) if positions else ())
            place = found.get(key)
            if place is None:
                place = found[key] = len(self.keys)
                self.keys.append(key)
            self.places.append(place)


class CommandSlots:
    """A bout's `CommandSlot`s, one per command entry in the order of `CommandQuestions.entries`, and
    the scopes a rule's requirement is asked in for a command, by the question's number (decision
    wide, `rules`; per target, `target_rules`): made as they are first needed, bound anew at each
    question. Each bout (and each preview's copy) has its own. `legal_last`: the place of the command
    found legal last when a decision was asked whether any is (`on_demand.CommandOptions.any_command`),
    asked first the next time: usually legal again, so one command answers."""

    __slots__ = ("questions", "slots", "rules", "target_rules", "legal_last")

    def __init__(self, questions: CommandQuestions):
        self.questions = questions
        self.slots = [CommandSlot(entry.plan.arg_names) for entry in questions.entries]
        self.rules: list[Env | None] = [None] * questions.count
        self.target_rules: list[Env | None] = [None] * questions.target_count
        self.legal_last = 0


def questions_of(ruleset: Ruleset) -> dict[int, CommandQuestions]:
    """The numbered questions of a ruleset's commands, by number limit, kept with it."""
    return ruleset.derived("command_questions")


def always_asked(expr: A.Expr) -> tuple[A.Expr, ...]:
    """The parts of an expression worked out whenever it is (as `compiled.py` evaluates them): all
    but the second part of an `and` or an `or`, and the state an `is` names."""
    if isinstance(expr, A.Binary):
        return (expr.left,) if expr.op in ("and", "or") else (expr.left, expr.right)
    if isinstance(expr, A.Compare):
        return (expr.left,) if expr.op in ("is", "is not") else (expr.left, expr.right)
    if isinstance(expr, (A.Neg, A.Not)):
        return (expr.operand,)
    if isinstance(expr, A.Attr):
        return (expr.obj,)
    if isinstance(expr, A.Index):
        return (expr.obj, expr.index)
    if isinstance(expr, A.Call):
        return expr.args
    if isinstance(expr, A.ListLit):
        return expr.items
    return ()


#: The nodes of an expression that reads nothing but the values it names: no function called (a
#: function may read the board), no scale level (read from the piece that acts).
_VALUE_NODES = (A.Num, A.Str, A.Bool, A.NoneLit, A.Name, A.ListLit, A.Attr, A.Index, A.Neg, A.Not, A.Binary,
                A.Compare)


class UseRequirement:
    """One requirement of an ability, a card or a control as `legal_uses` asks it: whether it reads
    nothing a use varies in (`constant`: one verdict for all of a piece's uses), and, when it reads
    none of the names that differ from one declaration to another (its own params, a window's names,
    the command), the key its verdict is kept under for one decision (`shared`: its text and the
    names it reads of those a use binds, whose values `read_at` finds among a use's values), and
    whether that verdict is the asking piece's own (`by_piece`: it reads `self`, or calls a function,
    which may read who acts). A shared requirement that reads no piece at all, only the values of
    the arguments a use binds and words of the content (`by_value`: `kind != some_word`), has one verdict
    for those values all bout."""

    __slots__ = ("condition", "closure", "constant", "shared", "read_at", "read_one", "by_piece", "by_value")

    def __init__(self, condition: A.Expr, binds: tuple[tuple[str, bool], ...], own: frozenset[str]):
        names = A.names_used(condition)
        self.condition = condition
        self.closure = closure_of(condition)  # asked by its `run`, as `Interpreter.evaluate` asks it
        self.read_at = tuple(place for place, (name, _) in enumerate(binds) if name in names)
        # The one place it reads, when it reads one (its verdicts are then kept by that value alone).
        self.read_one = self.read_at[0] if len(self.read_at) == 1 else -1
        self.constant = not self.read_at
        # The names it reads (identifiers: no comma, no line break) and its text, as one string, the
        # same object for every requirement alike (a key hashed once and found by identity).
        self.shared: str | None = None if names & own else sys.intern(
            ",".join(binds[place][0] for place in self.read_at) + "\n" + print_expr(condition))
        self.by_piece = "self" in names or any(isinstance(node, A.Call) for node in A.subtree(condition))
        self.by_value = (self.shared is not None and not self.constant and not names & {"self", "target"}
                         and all(isinstance(node, _VALUE_NODES) for node in A.subtree(condition)))

    def read(self, values: tuple[Any, ...]) -> Any:
        """The values of a use's arguments it reads: the one, or a tuple of them in order."""
        at = self.read_one
        return values[at] if at >= 0 else tuple([values[place] for place in self.read_at])


class UseChecks:
    """What legality needs of one ability or card to tell which of its uses are legal, worked out once
    from its declaration: whether its uses vary (a target, arguments), its costs when each is a
    number written in the script, and each requirement with whether it reads anything a use varies
    in (a requirement that does not has one verdict for all of them)."""

    __slots__ = ("varies", "targets", "target_only", "eager_action", "actions", "name", "binds", "written", "largest_cost", "ap_against_target",
                 "target_ap", "requirements", "leading_constant")

    def __init__(self, declaration: A.Declaration, window_names: frozenset[str], ap_against_target: bool = True):
        targets = targets_opponent(declaration)
        args = declaration.clauses_of(A.Arg)
        self.varies = targets or bool(args)
        self.targets = targets
        self.target_only = targets and not args  # its uses vary in their target alone
        # An argument named as `Action.make`'s own parameters refuses every action of it: made at once.
        self.eager_action = any(player_arg_name(arg.name) in ("kind", "piece", "name") for arg in args)
        # The actions of its uses offered so far, by who uses it and the values of its target and
        # arguments: plain data, shared by every bout of the ruleset.
        self.actions: dict[str, dict[tuple[Any, ...], Action]] = {}
        self.name = declaration.id
        # The names a use binds, in the order of its domains (`arg_domains`): the target (a piece,
        # by its label), then each argument.
        self.binds: tuple[tuple[str, bool], ...] = (
            (("target", True),) if targets else ()) + tuple((arg.name, False) for arg in args)
        items = [item for cost in declaration.clauses_of(A.Cost) for item in cost.items]
        # Costs read as written, with no script asked: numbers 0 or more (up to the bout's number
        # limit, `largest_cost`) in anything but MP (which the square multiplies, and may bound).
        written = all(isinstance(item.amount, A.Num) and item.amount.value >= 0 and item.resource != "MP"
                      for item in items)
        self.written: tuple[tuple[int, str], ...] | None = tuple(
            (item.amount.value, sys.intern(item.resource)) for item in items) if written else None  # type: ignore[attr-defined]
        self.largest_cost = max((amount for amount, _ in self.written or ()), default=0)
        # AP granted against a target counts towards an AP cost (an ability's or a card's, not a
        # control's): such a cost is met per target.
        self.ap_against_target = ap_against_target
        self.target_ap = ap_against_target and targets and any(item.resource == "AP" for item in items)
        # Names that differ from one declaration to another: what reads none of them reads only
        # `self`, what a use binds, and the content, so every use alike with no window open gets
        # the same verdict from it (`UseRequirement.shared`).
        own = window_names | {param.name for param in declaration.clauses_of(A.Param)} | {"command"}
        self.requirements = tuple(UseRequirement(requirement.condition, self.binds, own)
                                  for requirement in declaration.clauses_of(A.Requires))
        # How many requirements, from the first, read nothing a use varies in.
        self.leading_constant = next((index for index, requirement in enumerate(self.requirements)
                                      if not requirement.constant), len(self.requirements))


class UseVerdicts:
    """The verdicts of the requirements the uses alike of one decision ask (`legal_uses`): each
    piece's own (by its label; a requirement that reads nothing a use varies in under its key,
    one that does under its key and the values it reads), and those no piece's own."""

    __slots__ = ("by_piece", "everyone")

    def __init__(self) -> None:
        self.by_piece: dict[str, dict[Any, bool]] = {}
        self.everyone: dict[Any, bool] = {}

    def of(self, label: str) -> dict[Any, bool]:
        """The verdicts of the piece of that label."""
        mine = self.by_piece.get(label)
        if mine is None:
            mine = self.by_piece[label] = {}
        return mine


def controls_of(ruleset: Ruleset) -> list[tuple[A.Declaration, UseChecks]]:
    """The commands offered as controls, in load order, each with what legality asks of its uses (a
    control's costs and own requirements, as an ability's; AP granted against a target never
    counts towards its cost): worked out once per ruleset."""
    return ruleset.derived("control_checks", lambda: [
        (declaration, UseChecks(declaration, frozenset(), ap_against_target=False))
        for declaration in ruleset.declarations("command") if offered_as_control(declaration)])


def plans_of(ruleset: Ruleset) -> dict[tuple[int, int], LegalityPlan]:
    """The legality plans of a ruleset's commands, kept with it (its declarations live as long as
    it does, so their ids stay theirs)."""
    return ruleset.derived("legality_plans")


class CostPlan:
    """One cost of a declaration as `cost_items` asks it, read once from its text: the node of its
    amount, the amount as written when it is a number 0 or more (read as it is, with no script
    asked, within the number limit), its resource, and what a fault calls it."""

    __slots__ = ("node", "closure", "written", "resource", "mp", "what")

    def __init__(self, item: A.CostItem):
        node = item.amount
        self.node = node
        self.closure = closure_of(node)  # asked by its `run`, as `Interpreter.evaluate` asks it
        self.written: Any = node.value if isinstance(node, A.Num) and 0 <= node.value else None
        self.resource = item.resource
        self.mp = item.resource == "MP"
        self.what = f"the {item.resource} cost"


def cost_plans_of(ruleset: Ruleset) -> dict[int, tuple[A.Declaration, tuple[CostPlan, ...]]]:
    """Each declaration's costs as `cost_items` asks them, by its id() (with the declaration, so a
    declaration made and dropped outside the ruleset never lends its id to another), kept with
    the ruleset."""
    return ruleset.derived("cost_plans")


def lasting_combinations_of(ruleset: Ruleset) -> dict[tuple[int, int], tuple[A.Declaration, Any, list[tuple[Any, ...]]]]:
    """The combinations of the arguments (the target aside) of each declaration whose every domain
    is the content's, with the arguments' names, by the declaration's id() (with the declaration)
    and the limit on options they were checked against (`Legality._content_combinations`)."""
    return ruleset.derived("lasting_combinations")


def offered_of(ruleset: Ruleset) -> dict[tuple[str, str, Any], tuple[list[tuple[Any, ...]], list[Action]]]:
    """The actions of a command's combinations that last, by the label of the piece giving it, the
    command's id and the target, with the combinations they were made for (`Legality._actions_of`):
    plain data, kept with the ruleset."""
    return ruleset.derived("offered_lists")


def actions_of(ruleset: Ruleset) -> dict[tuple[Any, ...], Action]:
    """Every action legality has offered in a bout of a ruleset, by what it is made of
    (`Legality._actions`): plain data, the same whichever bout offers it."""
    return ruleset.derived("offered_actions")


def role_ownership_of(ruleset: Ruleset) -> dict[tuple[str | None, int], bool]:
    """Whether a piece of a role owns a declaration that is no card in a hand, by (role, the
    declaration's id()): it depends on the content alone, so it is kept with the ruleset."""
    return ruleset.derived("role_ownership")
