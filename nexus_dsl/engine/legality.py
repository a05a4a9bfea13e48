"""Legality: which commands, abilities and cards may be given now, with which arguments, and what
they cost — every one of them a question, asked without changing the bout.

The engine knows the *shape* of a command — arguments, costs, requirements, a roll, outcome
blocks — and nothing about any particular command. Legality is decided here, in one place, for
agents, the CLI, scenarios and the editor alike. Besides a command's own `requires` clauses,
every `requires` clause of a loaded `rule` applies to every command (e.g. "a piece that is down
must stand up first").
"""

from __future__ import annotations

import itertools
from typing import Any, Final, Iterator, Protocol, Sequence

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from ..syntax.printer import print_expr
from .actions import COMMAND, CONTROL, Action
from .board import Direction
from .command_ask import CommandAsk
from .interpreter import Interpreter, Limits
from .legality_plans import (CombinationKeys, CommandEntry, CommandQuestions, CommandSlot, CommandSlots, CostPlan, LegalityPlan, NumberedCheck,
                             PlannedCheck, TargetMembership, UseChecks, UseVerdicts, actions_of, always_asked, controls_of,
                             cost_plans_of, is_plain, lasting_combinations_of, legality_plan, offered_of, plans_of, questions_of, reads_only_the_command,
                             role_ownership_of)
from .scope import Env, fault
from .state import Actor, BoutState, Piece, Player
from .text_facts import argument_bindings, arguments_of, role_named, targets_opponent
from .use_reads import KeptUses, UseMemo, self_reads_of


class UseScopes:
    """The scopes the uses of one declaration by one piece are asked in (`legal_uses`), made when
    something is first asked in them: what `action_env` binds for every use (the window's names,
    `self`, and the command: a window may bind the command being resolved), and each use's target
    and arguments."""

    __slots__ = ("legality", "piece", "declaration", "scope", "names", "source", "bound", "pieces", "varied")

    def __init__(self, legality: Legality, piece: Actor, declaration: A.Declaration, scope: Env,
                 names: dict[str, Any]):
        self.legality = legality
        self.piece = piece
        self.declaration = declaration
        self.scope = scope
        self.names = names
        self.source = piece if isinstance(piece, Piece) else None
        self.bound: dict[str, Any] | None = None
        self.pieces: dict[str, Piece] | None = None
        # The scope of the uses that bind values, made for the first and bound anew for each other:
        # they bind the same names, and a requirement asked is done with its scope when it answers.
        self.varied: Env | None = None

    def env(self, binds: tuple[tuple[str, bool], ...], values: tuple[Any, ...]) -> Env:
        """The scope of the use of these values (`binds`: the names they are bound to)."""
        bound = self.bound
        if bound is None:
            bound = self.bound = dict(self.names)
            bound["self"] = self.piece
            bound.setdefault("command", self.declaration)
        if not binds:  # the one use: its scope over what every use binds
            return Env.owning(bound, self.scope, self.source)
        env = self.varied
        if env is None:
            env = self.varied = Env.owning(bound.copy(), self.scope, self.source)
        names = env.names
        for place in range(len(binds)):  # (as many values as names)
            name, is_target = binds[place]
            names[name] = self.piece_of(values[place]) if is_target else values[place]
        return env

    def piece_of(self, label: str) -> Piece:
        """A target, by its label."""
        pieces = self.pieces
        if pieces is None:
            pieces = self.pieces = self.legality.state.pieces
        return pieces[label]


class ActionPlan:
    """What `action_env` binds of a declaration's action, read from its text once: whether it
    targets an opponent, and each argument's name in the script and as actions give it."""

    __slots__ = ("declaration", "targets", "bindings")

    def __init__(self, declaration: A.Declaration):
        self.declaration = declaration
        self.targets: bool = targets_opponent(declaration)
        self.bindings: tuple[tuple[str, str], ...] = argument_bindings(declaration)


#: The combinations of a use with no target and no argument: the one use (never changed).
_ONE_USE: list[tuple[Any, ...]] = [()]


#: A part of a question not yet worked out this decision (`TargetMembership`).
_UNASKED: Final = object()

#: The keys a decision's shared answers are kept under that no declaration or resource has.
_TARGETS = " targets"  # (a word no domain's key is: those are tuples, and hashing this one is free)
_MP_MULTIPLIER = " mp multiplier"
# The targets of a command that targets no one (never changed).
_NO_TARGET: Final[list[Any]] = [None]


def _domain_key(arg_type: A.ArgType) -> Any:
    """The key an argument's domain is shared under within one decision: the same for every
    declaration that asks, so not a range worked out with the declaration's own names (None)."""
    if isinstance(arg_type, A.SpanType):
        return None
    if isinstance(arg_type, A.NamedType):
        return ("named", arg_type.name)
    if isinstance(arg_type, A.ZoneCardType):
        return ("zone", arg_type.zone)
    return ("node", id(arg_type))


def _rule_requirements(ruleset: Ruleset) -> list[tuple[A.Declaration, A.Requires]]:
    """Every rule's `requires` clauses, rule by rule in load order: they apply to every command."""
    return [(rule, requirement) for rule in ruleset.declarations("rule") for requirement in rule.clauses_of(A.Requires)]


def declaration_envs_of(ruleset: Ruleset, max_number: int) -> dict[int, Env]:
    """The declarations' scopes of params for a number limit (`Legality.declaration_env`), kept
    with the ruleset: its declarations live as long as it does, so their ids stay theirs."""
    by_limit: dict[int, dict[int, Env]] = ruleset.derived("declaration_envs")
    envs = by_limit.get(max_number)
    if envs is None:
        envs = by_limit[max_number] = {}
    return envs


class LegalityHost(Protocol):
    """What legality needs of the bout: its state and rules, the limits, and the interpreter that
    asks costs and requirements."""

    state: BoutState
    ruleset: Ruleset
    limits: Limits
    interpreter: Interpreter


class Legality:
    """The bout's questions about what may be done: owned abilities, declarations' scopes, argument
    domains, legal commands, costs and requirements."""

    interpreter: Interpreter  # kept at hand by `wire` (built after legality)

    def __init__(self, host: LegalityHost):
        self.host = host
        self.state: BoutState = host.state  # handed anew by the bout whenever it replaces its state
        # What never changes during a bout, read once here rather than through the host at every
        # question (docs/native.md).
        self.ruleset: Ruleset = host.ruleset
        self.limits: Limits = host.limits
        self.max_number: int = host.limits.max_number
        self.max_options: int = host.limits.max_options
        self.hand_kinds: tuple[str, ...] = host.ruleset.words.hand_kinds
        # Every `requires` clause of a rule applies to every command: read from the content alone,
        # so worked out once per ruleset and shared by every bout played with it.
        self.global_requirements: list[tuple[A.Declaration, A.Requires]] = host.ruleset.derived(
            "global_requirements", lambda: _rule_requirements(host.ruleset))
        # Each declaration's scope of params, by its id(): params are constants (the checker holds
        # them to literals and arithmetic on them, and no `set` changes one), so a scope depends on
        # the content and the number limit alone: kept with the ruleset, shared by every bout.
        self._declaration_envs: dict[int, Env] = declaration_envs_of(host.ruleset, host.limits.max_number)
        # What `action_env` binds of each declaration, by its id(): read from its text alone, so
        # shared with the previews.
        self._action_plans: dict[int, ActionPlan] = {}
        # The keys of the verdicts over each command's lasting combinations, by its id()
        # (`CombinationKeys`): shared with the previews, never changed once made.
        self._combination_keys: dict[int, CombinationKeys] = {}
        # Per command, what legality needs of it: worked out from the content alone, so kept with the
        # ruleset and shared by every bout played with it (and by their previews), per number limit.
        self._legality_plans: dict[tuple[int, int], LegalityPlan] = plans_of(host.ruleset)
        self._role_ownership = role_ownership_of(host.ruleset)
        self._cost_plans = cost_plans_of(host.ruleset)
        self._questions_by_limit = questions_of(host.ruleset)
        self._command_questions: CommandQuestions | None = None
        # The argument domains that are the same all bout (`_lasts`), by their type's id(): shared
        # with the previews, and never changed by those who read them.
        self._lasting_domains: dict[int, list[Any]] = {}
        # The combinations of a command's arguments (the target aside) when every domain lasts all
        # bout, by the command's id(); and the actions of those combinations, by piece, command and
        # target (`_command_combinations`). Shared with the previews, and never changed once made.
        # Those whose every domain is the content's are found in the ruleset's (`_content_combinations`),
        # and so the actions of their combinations are kept with it (and the others' are told apart
        # from them by their combinations' identity).
        self._lasting_combinations: dict[int, tuple[tuple[str, ...], list[tuple[Any, ...]]]] = {}
        self._offered: dict[tuple[str, str, Any], tuple[list[tuple[Any, ...]], list[Action]]] = offered_of(host.ruleset)
        # Every action offered: a command by (kind, piece, command, target, the other arguments'
        # values), any other by (kind, piece, declaration, its arguments' values). An action is
        # plain data, made once and offered again: kept with the ruleset, and so shared by every
        # bout played with it and by the previews.
        self._actions: dict[tuple[Any, ...], Action] = actions_of(host.ruleset)
        # The combinations of the arguments of an ability, a card or a control that targets no one
        # when every domain lasts all bout, with the arguments' names, by the declaration's id()
        # (`legal_uses`): shared with the previews, and never changed once made (and those whose
        # every domain is the content's found in the ruleset's, `_content_combinations`).
        self._lasting_uses: dict[int, tuple[A.Declaration, list[tuple[Any, ...]], list[str]]] = {}
        # The verdicts of the use requirements that read only the values of a use's arguments
        # (`UseRequirement.by_value`), by their text and those values: kept all bout (the number
        # limit a verdict may depend on is the bout's), shared with the previews.
        self._value_verdicts: dict[tuple[Any, Any], bool] = {}
        # The controls and what legality asks of their uses (`controls_of`), once asked.
        self._controls: list[tuple[A.Declaration, UseChecks]] | None = None
        # What this bout keeps of each command between decisions (`CommandSlots`): its own, never
        # shared with a preview's copy, which makes its own as it needs them.
        self._slots: CommandSlots | None = None
        # What this bout keeps of the uses of each ability, card and control from one decision with
        # no window open to the next (`UseMemo`), by what legality asks of them: its own, never
        # shared with a preview's copy.
        self._memos: dict[UseChecks, UseMemo] = {}

    def wire(self) -> None:
        """Keep the interpreter at hand (`Bout._wire`: it is built after legality)."""
        self.interpreter = self.host.interpreter

    def copy_for(self, host: LegalityHost) -> Legality:
        """The legality of a preview's copy of the bout: its caches copied as they are."""
        legality = Legality(host)
        legality._action_plans = self._action_plans
        legality._combination_keys = self._combination_keys
        legality._actions = self._actions
        legality._lasting_domains = self._lasting_domains
        legality._lasting_combinations = self._lasting_combinations
        legality._offered = self._offered
        legality._command_questions = self._command_questions
        legality._lasting_uses = self._lasting_uses
        legality._value_verdicts = self._value_verdicts
        legality._controls = self._controls
        return legality

    # ---------------------------------------------------------------- who has what
    def owns_ability(self, piece: Actor, declaration: A.Declaration) -> bool:
        """Trait abilities (and rules) naming no role (by the game's role word) are everyone's; the
        others belong to pieces of that role (or whose role lists them among its `abilities` or as
        its `talent`). A card of a kind played from a hand is its holder's. A player acting without
        pieces owns only what is everyone's."""
        if declaration.kind in self.hand_kinds:
            return isinstance(piece, Piece) and declaration.id in piece.hand
        if isinstance(piece, Player):
            return self._owned_by_role(None, declaration)
        key = (piece.role, id(declaration))
        owned = self._role_ownership.get(key)
        if owned is None:
            owned = self._role_ownership[key] = self._owned_by_role(piece.role, declaration)
        return owned

    def _owned_by_role(self, role_name: str | None, declaration: A.Declaration) -> bool:
        """Whether a piece of this role (None: a player acting without pieces) owns a declaration
        that is no card in a hand."""
        ruleset = self.ruleset
        role_word = ruleset.game.role_word
        if role_word is None:
            return True
        names_role, owner = role_named(declaration, role_word)
        if not names_role:
            return True
        if role_name is None:
            return False
        if owner is not None and owner == role_name:
            return True
        role = ruleset.role_of(role_name)
        return bool(role and (declaration.id in role.get("abilities", ()) or declaration.id == role.get("talent")))

    # ---------------------------------------------------------------- environments
    def declaration_env(self, declaration: A.Declaration) -> Env:
        cached = self._declaration_envs.get(id(declaration))
        if cached is None:
            params = {p.name: self.interpreter.evaluate(p.value, Env({})) for p in declaration.clauses_of(A.Param)}
            cached = Env(params, declaration=declaration)
            self._declaration_envs[id(declaration)] = cached
        return cached

    def action_env(self, piece: Actor, declaration: A.Declaration, action: Action,
                   extra: dict[str, Any] | None = None) -> Env:
        plan = self._action_plans.get(id(declaration))
        if plan is None or plan.declaration is not declaration:
            plan = self._action_plans[id(declaration)] = ActionPlan(declaration)
        names: dict[str, Any] = dict(extra) if extra else {}
        names["self"] = piece
        names.setdefault("command", declaration)  # a window may bind the command being resolved
        if plan.targets:
            names["target"] = self.state.pieces[action.arg("target")]
        for name, player_name in plan.bindings:
            names[name] = action.arg(player_name)
        return Env.owning(names, self.declaration_env(declaration), source=piece if isinstance(piece, Piece) else None)

    # ---------------------------------------------------------------- legality
    def arg_domains(self, piece: Actor, declaration: A.Declaration,
                    seen: dict[Any, list[Any]] | None = None) -> list[tuple[str, list[Any]]]:
        """Each argument's name (as players use it) and the values it may take, the target first.
        `seen` keeps, for one decision, the domains that do not depend on the declaration (the same
        list for every command that asks; never changed by those who read it)."""
        domains: list[tuple[str, list[Any]]] = []
        if targets_opponent(declaration):
            domains.append(("target", self._targets(piece, seen)))
        lasting = self._lasting_domains
        for name, arg_type in arguments_of(declaration):
            domain = lasting.get(id(arg_type))
            if domain is None:
                key = _domain_key(arg_type)
                domain = seen.get(key) if seen is not None and key is not None else None
                if domain is None:
                    domain = self._domain(arg_type, piece, declaration)
                    if self._lasts(arg_type):
                        lasting[id(arg_type)] = domain
                    elif seen is not None and key is not None:
                        seen[key] = domain
            domains.append((name, domain))
        return domains

    def _targets(self, piece: Actor, seen: dict[Any, list[Any]] | None) -> list[str]:
        """The pieces `piece` may target: its foes on the board, by label (kept in `seen`)."""
        targets = seen.get(_TARGETS) if seen is not None else None
        if targets is None:
            targets = [h.label for h in self.state.pieces.values() if piece.foe_of(h) and h.on_board]
            if seen is not None:
                seen[_TARGETS] = targets
        return targets

    def _lasts(self, arg_type: A.ArgType) -> bool:
        """Whether an argument's domain is the same all bout: a list of words, a range written as
        numbers, or a type whose values are the content's (or the board's squares: the board never
        changes); not the pieces on the board, the cards in a zone or a range worked out."""
        if isinstance(arg_type, (A.ChoiceType, A.RangeType)):
            return True
        return isinstance(arg_type, A.NamedType) and \
            self.ruleset.words.type_names.get(arg_type.name, arg_type.name) != "piece"

    def _domain(self, arg_type: A.ArgType, piece: Actor, declaration: A.Declaration) -> list[Any]:
        if isinstance(arg_type, A.ChoiceType):
            return list(arg_type.options)
        if isinstance(arg_type, (A.RangeType, A.SpanType)):
            low, high = (arg_type.low, arg_type.high) if isinstance(arg_type, A.RangeType) else\
                self._span_ends(arg_type, piece, declaration)
            if high - low >= self.max_options:  # refused before it is listed
                raise self._too_many_options(arg_type, high - low + 1, declaration)
            return list(range(low, high + 1))
        if isinstance(arg_type, A.ZoneCardType):
            return self._cards_seen(arg_type.zone, piece)
        name = self.ruleset.words.type_names.get(arg_type.name, arg_type.name)
        if name in ("location", "trait"):  # the stats content declares in that group
            return list(self.ruleset.words.group(name))
        if name == "resource":
            return ["AP", "MP"]
        if name == "direction":
            return [direction.name for direction in Direction]  # the compass, N first, clockwise
        if name == "piece":
            return [h.label for h in self.state.pieces.values() if h != piece and h.on_board]
        if name == "square":
            return list(self.state.grid.squares())
        return []

    def _span_ends(self, span: A.SpanType, actor: Actor, declaration: A.Declaration) -> tuple[int, int]:
        """The ends of a range worked out when it is offered: a question, asked with `self`."""
        interpreter = self.interpreter
        env = Env({"self": actor, "command": declaration}, self.declaration_env(declaration))
        with interpreter.asking():
            return (interpreter.amount(interpreter.evaluate(span.low, env), span.low, env, "a range's low end", True),
                    interpreter.amount(interpreter.evaluate(span.high, env), span.high, env, "a range's high end", True))

    def _cards_seen(self, zone: str, actor: Actor) -> list[str]:
        """The cards of a zone the actor's player may choose from: the table's zone, or its own of a
        zone each player (or side) has one of; none of a zone it may not see."""
        state = self.state
        declared = self.ruleset.words.zones[zone]
        player = state.player_of(actor)
        owner = declared.owner_of(player.label, player.side)
        if not declared.seen_by(owner, player.label, player.side):
            return []
        held = state.decks.get(zone, ()) if owner is None else state.owned.get(zone, {}).get(owner, ())
        return list(dict.fromkeys(held))

    def _too_many_options(self, node: A.Node, count: int, declaration: A.Declaration) -> Exception:
        return fault(node, Env({}, declaration=declaration), "too_many_options", f"its arguments make {count} combinations to check, more than "
                                                    f"the limit of {self.max_options}")

    def _checked_domains(self, piece: Actor, declaration: A.Declaration,
                         seen: dict[Any, list[Any]] | None = None) -> list[tuple[str, list[Any]]]:
        """The declaration's argument domains, refused when their combinations are too many to check."""
        domains = self.arg_domains(piece, declaration, seen)
        combinations = 1
        for _, domain in domains:
            combinations *= len(domain)
        self._check_count(declaration, combinations)
        return domains

    def _check_count(self, declaration: A.Declaration, combinations: int) -> None:
        """Refuse a declaration whose argument combinations are too many to check."""
        if combinations > self.max_options:
            args = declaration.clauses_of(A.Arg)
            raise self._too_many_options(args[0] if args else declaration, combinations, declaration)

    def _command_combinations(self, piece: Actor, declaration: A.Declaration, targeted: bool,
                              seen: dict[Any, list[Any]]) -> tuple[list[Any], tuple[str, ...], list[tuple[Any, ...]]]:
        """A command's targets ([None] when it has none), and the names and the combinations of
        values of its other arguments, its domains checked as `_checked_domains` checks them. When
        every one of those domains lasts all bout (`_lasts`), their combinations are worked out
        once per bout (once per ruleset when every one is the content's, `_content_combinations`)."""
        lasting = self._lasting_combinations.get(id(declaration))
        if lasting is None:
            kept = self._content_combinations(declaration)
            if kept is not None:
                lasting = self._lasting_combinations[id(declaration)] = (kept[1], kept[2])
        if lasting is not None:
            names, combinations = lasting
            targets: list[Any] = self._targets(piece, seen) if targeted else [None]  # (`targets_opponent`)
            count = len(targets) * len(combinations) if targeted else len(combinations)
            if count > self.max_options:
                self._check_count(declaration, count)  # the refusal
            return targets, names, combinations
        domains = self._checked_domains(piece, declaration, seen)
        found: list[Any] = [None]
        if domains and domains[0][0] == "target":
            found = domains.pop(0)[1]
        names = tuple(name for name, _ in domains)
        combinations = list(itertools.product(*(domain for _, domain in domains)))
        if all(self._lasts(arg_type) for _, arg_type in arguments_of(declaration)):
            self._lasting_combinations[id(declaration)] = (names, combinations)
            self._keep_combinations(declaration, names, combinations)
        return found, names, combinations

    def _content_combinations(self, declaration: A.Declaration) -> tuple[A.Declaration, Any, list[tuple[Any, ...]]] | None:
        """The combinations of a declaration's arguments (the target aside) whose every domain is the
        content's, as a bout of the ruleset with the same limit on options found them (with the
        arguments' names), or None. The same content and the same limit give the same combinations
        and the same refusals, so every bout of the ruleset shares them."""
        kept = lasting_combinations_of(self.ruleset).get((id(declaration), self.max_options))
        return kept if kept is not None and kept[0] is declaration else None

    def _keep_combinations(self, declaration: A.Declaration, names: Any, combinations: list[tuple[Any, ...]]) -> None:
        """Keep with the ruleset the combinations just worked out of a declaration whose every
        argument's domain is the content's (`_content_combinations`)."""
        if all(self._of_content(arg_type) for _, arg_type in arguments_of(declaration)):
            lasting_combinations_of(self.ruleset)[(id(declaration), self.max_options)] = (
                declaration, names, combinations)

    def _of_content(self, arg_type: A.ArgType) -> bool:
        """Whether an argument's domain is the content's alone, the same in every bout of the ruleset:
        a domain that lasts all bout (`_lasts`) and is not the board's squares (a bout's board)."""
        return self._lasts(arg_type) and not (
            isinstance(arg_type, A.NamedType)
            and self.ruleset.words.type_names.get(arg_type.name, arg_type.name) == "square")

    def _actions_of(self, label: str, declaration: A.Declaration, name: str, target: Any, names: tuple[str, ...],
                    combinations: list[tuple[Any, ...]]) -> list[Action]:
        """The command's action of each combination, given by `label` against `target`: an action is
        plain data, the same combination the same action all bout (kept for combinations that last).
        `name`: the command's id."""
        key = (label, name, target)
        offered = self._offered.get(key)
        if offered is not None and offered[0] is combinations:
            return offered[1]
        made: list[Action] = []
        actions = self._actions
        for values in combinations:
            known = (COMMAND, label, name, target, values)
            action = actions.get(known)
            if action is None:
                args = dict(zip(names, values))
                if target is not None:
                    args = {"target": target, **args}
                action = actions[known] = Action.make(COMMAND, label, name, **args)
            made.append(action)
        if self._lasting_combinations.get(id(declaration), (None, None))[1] is combinations:
            self._offered[key] = (combinations, made)
        return made

    def enumerate_actions(self, kind: str, piece: Actor, declaration: A.Declaration,
                          problem: Any) -> Iterator[Action]:
        """Every argument combination of a declaration for which `problem(action)` finds nothing."""
        for action in self.combinations(kind, piece, declaration):
            if problem(action) is None:
                yield action

    def combinations(self, kind: str, piece: Actor, declaration: A.Declaration) -> list[Action]:
        """The action of every argument combination of a declaration (its domains checked first)."""
        domains = self._checked_domains(piece, declaration)
        names = [n for n, _ in domains]
        actions = self._actions
        combinations = []
        for values in itertools.product(*(d for _, d in domains)):
            known = (kind, piece.label, declaration.id, values)
            action = actions.get(known)
            if action is None:
                action = actions[known] = Action.make(kind, piece.label, declaration.id, **dict(zip(names, values)))
            combinations.append(action)
        return combinations

    def legal_uses(self, kind: str, piece: Actor, declaration: A.Declaration, checks: UseChecks,
                   names: dict[str, Any], asked: UseVerdicts | None = None,
                   seen: dict[Any, list[Any]] | None = None) -> list[Action]:
        """Every use of an ability, a card or a control (`kind`) whose costs are met and whose own
        requirements hold, `names` those of the window open: the verdicts of asking each combination
        its costs, then its requirements in order (`ability_problem`, `control_problem`), reached
        faster. Asking is pure, so a requirement that reads nothing the uses vary in is asked once,
        where it was first asked, and one that reads no name of its declaration's own
        (`UseRequirement`) once for all the uses alike of one decision (`asked`, given only where no
        window is open; `seen`: the piece's shared argument domains, `arg_domains`); costs written as numbers are read as they are; a requirement that
        fails for every use, before anything a use varies in is asked, ends the search. A use's
        scope is made only when something is asked in it, and its action only once it is legal.
        With no window open (uses asked with `asked`, and controls), the uses of a declaration whose
        requirements read nothing of the piece but what `use_reads` tells are kept from one decision
        to the next with the values they read (`_kept_uses`)."""
        values: tuple[Any, ...] | None = None  # what the requirements read of the piece, when kept
        memo: UseMemo | None = None
        # (no window is open where `asked` is given, nor for a control: `legal_controls`)
        if (asked is not None or kind == CONTROL) and isinstance(piece, Piece):
            memo = self._memos.get(checks)
            if memo is None:
                memo = self._memos[checks] = UseMemo(
                    None if checks.eager_action or checks.targets else self_reads_of(self.ruleset, declaration))
            reads = memo.reads
            if reads is not None:
                interpreter = self.interpreter
                values = reads.values_of(interpreter.attributes, interpreter.host, piece)
                if values is not None:
                    kept = memo.by_piece.get(piece.label)
                    if kept is not None and kept.values == values and (kept.traits is None or kept.traits == piece.traits):
                        return self._kept_uses(piece, checks, kept, names)
        arg_names: list[str] = []
        if checks.varies:
            combinations = self._use_combinations(piece, declaration, checks, arg_names, seen, self.max_options)
            if not combinations:
                return []
        else:  # no target and no argument: the one use, with no domain to check
            if self.max_options < 1:  # (a limit below one refuses even one use)
                self._checked_domains(piece, declaration, seen)
            combinations = _ONE_USE
        written = checks.written if checks.largest_cost <= self.max_number else None
        if written is not None and not checks.target_ap and self._short_of_written(
                piece, written, names.get("target") if checks.ap_against_target else None):
            return []
        mine: dict[Any, bool] | None = None  # the piece's own shared verdicts, this decision
        everyone: dict[Any, bool] | None = None  # the shared verdicts no piece's own, this decision
        if asked is not None:
            mine, everyone = asked.of(piece.label), asked.everyone
            if written is not None and checks.leading_constant:
                first = checks.requirements[0].shared
                if first is not None and mine.get(first) is False:
                    return []  # already found false for the piece this decision: every use fails there
        uses = self._asked_uses(kind, piece, declaration, checks, names, combinations, arg_names, written, mine,
                                everyone)
        if values is not None and memo is not None and written is not None and isinstance(piece, Piece):
            memo.by_piece[piece.label] = KeptUses(values, dict(piece.traits) if memo.reads is not None and memo.reads.traits
                                                  else None, uses.copy())
        return uses

    def _asked_uses(self, kind: str, piece: Actor, declaration: A.Declaration, checks: UseChecks,
                    names: dict[str, Any], combinations: list[tuple[Any, ...]], arg_names: list[str],
                    written: tuple[tuple[int, str], ...] | None, mine: dict[Any, bool] | None,
                    everyone: dict[Any, bool] | None) -> list[Action]:
        """`legal_uses` once its costs are met: each use's requirements asked (`_legal_of`)."""
        scopes = UseScopes(self, piece, declaration, self.declaration_env(declaration), names)
        with self.interpreter.asking():
            return self._legal_of(kind, piece, declaration, checks, scopes, combinations, arg_names, written,
                                  mine, everyone)

    def _kept_uses(self, piece: Piece, checks: UseChecks, kept: KeptUses, names: dict[str, Any]) -> list[Action]:
        """The uses kept from an earlier decision, the piece's requirements reading what they read then:
        their combinations (which last all bout) and verdicts are those found then, and their costs,
        written as numbers, are met afresh (nothing a cost reads is kept)."""
        written = checks.written  # (kept only where it is read as written: within the number limit)
        if written is not None and not checks.target_ap and self._short_of_written(
                piece, written, names.get("target") if checks.ap_against_target else None):
            return []
        return kept.uses.copy()

    def _legal_of(self, kind: str, piece: Actor, declaration: A.Declaration, checks: UseChecks, scopes: UseScopes,
                  combinations: list[tuple[Any, ...]], arg_names: list[str], written: tuple[tuple[int, str], ...] | None,
                  mine: dict[Any, bool] | None, everyone: dict[Any, bool] | None) -> list[Action]:
        """The legal uses among `combinations` (`legal_uses`, asking): `mine` and `everyone` keep the
        decision's shared verdicts (None: nothing shared)."""
        legal: list[Action] = []
        interpreter = self.interpreter  # (its method called directly: faster than a bound one)
        requirements = checks.requirements
        leading = checks.leading_constant if written is not None else 0  # (nothing before them could fault)
        verdicts: list[bool | None] = [None] * len(requirements)  # those that read nothing the uses vary in
        varies, binds = checks.varies, checks.binds
        held: dict[str, int] = {}  # what the uses look up of the piece: its resources, its square's MP multiplier
        env: Env | None = None
        for values in combinations:
            if varies:
                env = None  # each use its own scope, made when first asked in
            if checks.eager_action:  # (its arguments' names refuse to make an action: as soon as it is listed)
                self._use_action(kind, piece.label, checks, values, arg_names)
            if written is None:  # costs the script works out, asked for each use as always
                if env is None:
                    env = scopes.env(binds, values)
                if self._cannot_pay(piece, declaration, env,
                                    env.names.get("target") if checks.ap_against_target else None, held):
                    continue
            elif checks.target_ap and self._short_of_written(piece, written, scopes.piece_of(values[0])):
                continue  # (the target's: `binds` starts with it)
            index = 0
            for requirement in requirements:
                shared = requirement.shared if mine is not None else None
                if requirement.constant:
                    verdict = verdicts[index]
                    if verdict is None:
                        known = mine.get(shared) if mine is not None and shared is not None else None
                        if known is None:
                            if env is None:
                                env = scopes.env(binds, values)
                            known = bool(requirement.closure.run(interpreter, env))
                            if mine is not None and shared is not None:
                                mine[shared] = known
                        verdict = verdicts[index] = known
                    if not verdict and index < leading:
                        return legal  # every use fails here, and nothing before it could fault
                elif shared is not None:  # asked once for the uses alike of this decision
                    read = requirement.read(values)
                    table: dict[Any, bool] | None
                    if requirement.by_value:  # asked once for those values all bout
                        table = self._value_verdicts
                    else:
                        table = mine if requirement.by_piece else everyone
                        assert table is not None
                    key = (shared, read)
                    verdict = table.get(key)
                    if verdict is None:
                        if env is None:
                            env = scopes.env(binds, values)
                        verdict = table[key] = bool(requirement.closure.run(interpreter, env))
                else:
                    if env is None:
                        env = scopes.env(binds, values)
                    verdict = bool(requirement.closure.run(interpreter, env))
                if not verdict:
                    break
                index += 1
            else:
                legal.append(self._use_action(kind, piece.label, checks, values, arg_names))
        return legal

    def _use_action(self, kind: str, label: str, checks: UseChecks, values: tuple[Any, ...],
                    arg_names: list[str]) -> Action:
        """The action of a use: plain data, the same combination the same action all bout (kept with
        what legality asks of the uses, by who uses it and its values: `UseChecks.actions`)."""
        by_values = checks.actions.get(label)
        if by_values is None:
            by_values = checks.actions[label] = {}
        action = by_values.get(values)
        if action is None or action.kind != kind:
            action = by_values[values] = self._offered_use(kind, label, checks.name, values, arg_names)
        return action

    def _offered_use(self, kind: str, label: str, use_id: str, values: tuple[Any, ...], arg_names: list[str]) -> Action:
        """The action of a use, among every action offered (`_actions`)."""
        known = (kind, label, use_id, values)
        action = self._actions.get(known)
        if action is None:
            action = self._actions[known] = Action.make(kind, label, use_id, **dict(zip(arg_names, values)))
        return action

    def _use_combinations(self, piece: Actor, declaration: A.Declaration, checks: UseChecks, arg_names: list[str],
                          seen: dict[Any, list[Any]] | None, max_options: int) -> list[tuple[Any, ...]]:
        """The combinations of the values of a use's target and arguments, their domains checked as
        `_checked_domains` checks them; `arg_names` is given their names (as players use them). When
        the use targets no one and every domain lasts all bout (`_lasts`), they are worked out once
        per bout (once per ruleset when every domain is the content's, `_content_combinations`); when
        it varies in its target alone, they are its targets. (`max_options`: the
        bout's limit, which `_check_count` refuses beyond.)"""
        if checks.target_only:
            targets = self._targets(piece, seen)
            if len(targets) > max_options:
                self._check_count(declaration, len(targets))  # the refusal
            arg_names.append("target")
            return [(target,) for target in targets]
        lasting = self._lasting_uses.get(id(declaration))
        if lasting is None and not checks.targets:
            kept = self._content_combinations(declaration)
            if kept is not None:
                lasting = self._lasting_uses[id(declaration)] = (declaration, kept[2], list(kept[1]))
        if lasting is not None and lasting[0] is declaration:
            if len(lasting[1]) > max_options:
                self._check_count(declaration, len(lasting[1]))  # the refusal
            arg_names.extend(lasting[2])
            return lasting[1]
        domains = self._checked_domains(piece, declaration, seen)
        combinations = list(itertools.product(*(domain for _, domain in domains)))
        arg_names.extend(name for name, _ in domains)
        if not checks.targets and all(self._lasts(arg_type) for _, arg_type in arguments_of(declaration)):
            self._lasting_uses[id(declaration)] = (declaration, combinations, list(arg_names))
            self._keep_combinations(declaration, tuple(arg_names), combinations)
        return combinations

    def _short_of_written(self, piece: Actor, written: tuple[tuple[int, str], ...], target: Any) -> bool:
        """Whether `piece` lacks any of these costs written as numbers (none in MP), as `cost_problem`
        counts: AP granted against the target counts towards an AP cost."""
        for amount, resource in written:
            if self._with_bonus(piece, resource, target, self.resource_amount(piece, resource)) < amount:
                return True
        return False

    @staticmethod
    def _with_bonus(piece: Actor, resource: str, target: Any, have: int) -> int:
        """What `piece` has of `resource` to pay a cost with: AP granted against the target counts
        towards an AP cost (every cost comparison reads it this way: `cost_problem`)."""
        if resource == "AP" and target is not None and isinstance(piece, Piece):
            return have + piece.bonus_ap.get(target.label, 0)
        return have

    def legal_commands(self, piece: Actor) -> list[Action]:
        """Every command `piece` may give now with every argument combination that is legal. The
        same verdicts as `command_problem`, reached faster: a requirement is asked once per
        command when it reads no argument, once per target when it reads only the target, and
        once per combination only when it reads the other arguments; what several commands ask
        alike (a shared requirement, a resource, costs written alike, an argument's domain) is
        asked once. Asking is pure (no dice, nothing changed), so a verdict holds for the whole
        decision, and the whole decision is one question (`asking`). The scopes the questions are
        asked in are made once per bout and bound anew at each (`CommandSlots`)."""
        ask = self.command_ask(piece)
        legal: list[Action] = []
        with self.interpreter.asking():
            for index in range(len(ask.offered)):  # every command asked once: nothing kept for asking again
                self._entry_actions(ask, index, legal)
        return legal

    def command_ask(self, piece: Actor) -> CommandAsk:
        """A decision's questions about the commands `piece` may give, none asked yet: each command's
        legal actions are worked out when asked for (`ask_commands`), the verdicts several share
        kept for the others."""
        questions = self._questions()
        kept = self._slots
        if kept is None or kept.questions is not questions:
            kept = self._slots = CommandSlots(questions)
        bonus_ap = isinstance(piece, Piece) and bool(piece.bonus_ap)
        ask = CommandAsk(questions, kept, piece, bonus_ap)
        if bonus_ap:  # AP granted against a target: no quick filter, each target's costs are asked
            answers = ask.answers
            for at in questions.filters:
                answers[at] = True
        return ask

    def ask_commands(self, ask: CommandAsk, indexes: Sequence[int]) -> None:
        """Work out the legal actions of the commands at `indexes` among the commands
        (`CommandQuestions.entries`), each once per decision, kept in `ask.offered` in their order."""
        with self.interpreter.asking():
            for index in indexes:
                self._ask_entry(ask, index)

    def _ask_entry(self, ask: CommandAsk, index: int) -> list[Action]:
        """`ask_commands`, inside `asking`, kept in `ask` once worked out (a fault keeps nothing)."""
        legal = ask.offered[index]
        if legal is None:
            legal = []
            self._entry_actions(ask, index, legal)
            ask.offered[index] = legal  # (a fault keeps nothing)
        return legal

    def _entry_actions(self, ask: CommandAsk, index: int, legal: list[Action]) -> None:
        """The legal actions of one command, added to `legal`, its questions asked as
        `legal_commands` asks them, the verdicts of the decision kept in `ask` for the other commands."""
        questions, kept, piece = ask.questions, ask.kept, ask.piece
        entry = questions.entries[index]
        slot = kept.slots[index]
        answers, held = ask.answers, ask.held
        pieces, label = self.state.pieces, ask.label
        interpreter = self.interpreter
        bonus_ap = ask.bonus_ap
        declaration, plan = entry.declaration, entry.plan
        at = entry.filter_at
        if entry.fixed_first and answers[at] is None and self._refused_before_filter(
                entry, slot, answers, ask.fixed_verdicts, kept, piece, held, interpreter):
            return
        if at >= 0:  # the quick filter, `_cannot_afford`, asked once for the costs written alike
            affordable = answers[at]
            if affordable is None:
                affordable = answers[at] = not self._cannot_afford(piece, declaration, plan, held, slot)
            if not affordable:
                return
        scope = slot.scope
        if scope is None:
            scope = slot.scope = self.declaration_env(declaration)
        if entry.fixed_at >= 0 and not self._fixed_hold(entry, slot, answers, ask.fixed_verdicts, kept, piece,
                                                        interpreter):
            return
        lasting = slot.lasting
        if lasting is not None:  # as `_command_combinations` finds them, without looking them up
            names, combinations = lasting
            if entry.targets:
                foes = ask.foes
                if foes is None:
                    foes = ask.foes = self._targets(piece, ask.seen)
                targets: list[Any] = foes
                count = len(targets) * len(combinations)
            else:
                targets = _NO_TARGET
                count = len(combinations)
            if count > self.max_options:
                self._check_count(declaration, count)  # the refusal
        else:
            targets, names, combinations = self._command_combinations(piece, declaration, entry.targets, ask.seen)
            slot.lasting = self._lasting_combinations.get(id(declaration))
        by_label = slot.offered.get(label)
        if by_label is None:
            by_label = slot.offered[label] = {}
        # Costs written as numbers vary only with the target they are given against (AP
        # granted against it): asked once per target, before any combination.
        written = plan.written_costs if bonus_ap and not plan.costs_vary else None
        # Asking is pure, so a verdict holds for every combination that agrees on the
        # arguments it reads (`verdict_at`, their places among the arguments): asked once,
        # in the order the combinations come, so a script fault is met where it always was.
        # A command with no such question has one verdict: legal.
        positions = plan.verdict_at
        source = ask.source
        for target in targets:
            target_piece = pieces[target] if target is not None else None
            if target_piece is not None and entry.per_target:
                by_target = ask.by_target
                target_verdicts = by_target.get(target)
                if target_verdicts is None:
                    target_verdicts = by_target[target] = [None] * questions.target_count
                parts = ask.parts
                if parts is None:
                    parts = ask.parts = [_UNASKED] * questions.target_count
                if not self._passes(entry.per_target, target_verdicts, kept.target_rules, piece, declaration,
                                    target_piece, slot, interpreter, parts):
                    continue
            costs_vary = plan.costs_vary or bonus_ap
            if written is not None:
                short = self._short_against(piece, written, target_piece, held)
                if short is not None:
                    if short:
                        continue
                    costs_vary = False
            offered = by_label.get(target) if lasting is not None else None
            if offered is None:
                offered = self._actions_of(label, declaration, entry.name, target, names, combinations)
                if slot.lasting is not None:  # the same combinations all bout: the same actions
                    by_label[target] = offered
            if not (costs_vary or plan.varying):
                legal += offered
                continue
            if lasting is not None:  # the keys of the combinations worked out once per bout
                keyed = slot.keyed
                if keyed is None or keyed.combinations is not combinations:
                    keyed = slot.keyed = self._keys_of(declaration, combinations, positions)
                self._keyed_verdicts(legal, keyed, offered, slot, source, piece, declaration, target_piece,
                                     plan, costs_vary, held)
                continue
            verdicts: dict[Any, bool] = {}
            for values, action in zip(combinations, offered):
                key = (values[positions[0]] if len(positions) == 1 else
                       tuple([values[at] for at in positions]) if positions else ())
                verdict = verdicts.get(key)
                if verdict is None:
                    env = self._combination_env(slot, source, piece, declaration, target_piece,
                                                plan.arg_names, values)
                    verdict = verdicts[key] = self._arguments_hold(
                        piece, declaration, env, plan, costs_vary, held, slot, key)
                if verdict:
                    legal.append(action)

    def _refused_before_filter(self, entry: CommandEntry, slot: CommandSlot, answers: list[bool | None],
                               fixed_verdicts: list[bool | None], kept: CommandSlots, piece: Actor,
                               held: dict[str, int], interpreter: Interpreter) -> bool:
        """Whether a command whose quick filter asks the script (`CommandEntry.fixed_first`) fails its
        requirements that read no argument, asked before the filter: the filter's answer matters only
        when they hold (a fault of the filter lets the command through, `_cannot_afford`), so it is
        not asked when they fail. A fault of the requirements counts only where the filter, which they
        always followed, lets the command through; and the command's scope is made first, as a piece
        the filter lets through always made it before them (a fault of its params is met there)."""
        declaration = entry.declaration
        if slot.scope is None:
            slot.scope = self.declaration_env(declaration)
        try:
            return not self._fixed_hold(entry, slot, answers, fixed_verdicts, kept, piece, interpreter)
        except ScriptRuntimeError:
            if self._cannot_afford(piece, declaration, entry.plan, held, slot):
                answers[entry.filter_at] = False
                return True  # never asked: the filter refuses the command first
            raise

    def _fixed_hold(self, entry: CommandEntry, slot: CommandSlot, answers: list[bool | None],
                    fixed_verdicts: list[bool | None], kept: CommandSlots, piece: Actor,
                    interpreter: Interpreter) -> bool:
        """Whether a command's requirements that read no argument hold, as a whole: asked once per
        decision for the commands alike in them (`CommandEntry.fixed_at`), kept in `fixed_verdicts`."""
        group = entry.fixed_at
        holds = fixed_verdicts[group]
        if holds is None:
            holds = fixed_verdicts[group] = self._passes(entry.fixed, answers, kept.rules, piece, entry.declaration,
                                                         None, slot, interpreter, None)
        return holds

    def _keys_of(self, declaration: A.Declaration, combinations: list[tuple[Any, ...]],
                 positions: tuple[int, ...]) -> CombinationKeys:
        """The keys of a command's lasting combinations (`CombinationKeys`), worked out once per bout
        and shared with the previews."""
        kept = self._combination_keys.get(id(declaration))
        if kept is None or kept.combinations is not combinations:
            kept = self._combination_keys[id(declaration)] = CombinationKeys(combinations, positions)
        return kept

    def _keyed_verdicts(self, legal: list[Action], keyed: CombinationKeys, offered: list[Action], slot: CommandSlot,
                        source: Piece | None, piece: Actor, declaration: A.Declaration, target_piece: Piece | None,
                        plan: LegalityPlan, costs_vary: bool, held: dict[str, int]) -> None:
        """The legal actions among the lasting combinations (`legal_commands`), added to `legal` in
        their order: a verdict asked once per key, at the first combination that gives it, as the
        table of verdicts by key asks it."""
        combinations, places, keys = keyed.combinations, keyed.places, keyed.keys
        verdicts: list[bool | None] = [None] * len(keys)
        arg_names = plan.arg_names
        costs_alone = costs_vary and plan.costs_alone  # (`LegalityPlan.costs_alone`)
        for at in range(len(places)):
            place = places[at]
            verdict = verdicts[place]
            if verdict is None:
                amounts = slot.amounts.get(keys[place]) if costs_alone else None
                if amounts is not None:  # the costs alone, their amounts kept: nothing to ask
                    verdict = verdicts[place] = not self._short_of_amounts(piece, amounts, plan.cost_resources,
                                                                           target_piece, held)
                else:
                    env = self._combination_env(slot, source, piece, declaration, target_piece, arg_names,
                                                combinations[at])
                    verdict = verdicts[place] = self._arguments_hold(
                        piece, declaration, env, plan, costs_vary, held, slot, keys[place])
            if verdict:
                legal.append(offered[at])

    @staticmethod
    def _combination_env(slot: CommandSlot, source: Piece | None, piece: Actor, declaration: A.Declaration,
                         target_piece: Piece | None, arg_names: tuple[str, ...], values: tuple[Any, ...]) -> Env:
        """The command's scope with a combination bound, as `action_env` binds it (`self`, the
        command, the target, then each argument), acting as `source`: the slot's, bound anew."""
        env = slot.combination
        scope = slot.scope
        assert scope is not None
        if env is None:
            names: dict[str, Any] = {"self": piece, "command": declaration}
            env = slot.combination = Env.owning(names, scope, source)
            slot.combination_for = piece
        else:
            names = env.names
            if slot.combination_for is not piece or slot.arguments_rebind:
                names["self"] = piece
                names["command"] = declaration
                env.rebind(names, scope, source)
                slot.combination_for = piece
        if target_piece is not None:
            names["target"] = target_piece
        elif "target" in names:
            del names["target"]  # (unbound, unless an argument is so named)
        for place in range(len(arg_names)):
            names[arg_names[place]] = values[place]
        return env

    @staticmethod
    def _own_env(slot: CommandSlot, piece: Actor, command: A.Declaration, target_piece: Piece | None) -> Env:
        """The scope a command's own requirement is asked in: `self`, the command, and the target
        when there is one, over the command's scope (the slot's, bound anew)."""
        assert slot.scope is not None
        if target_piece is None:
            env = slot.own
            if env is None:
                env = slot.own = Env.owning({"self": piece, "command": command}, slot.scope)
            elif slot.own_for is not piece:
                env.names["self"] = piece
            slot.own_for = piece
            return env
        env = slot.own_targeted
        if env is None:
            env = slot.own_targeted = Env.owning({"self": piece, "command": command, "target": target_piece}, slot.scope)
        else:
            names = env.names
            if slot.own_targeted_for is not piece:
                names["self"] = piece
            names["target"] = target_piece
        slot.own_targeted_for = piece
        return env

    def legal_controls(self, piece: Actor) -> list[Action]:
        """Every control `piece` may use now (the commands offered as controls), with every argument
        combination whose costs are met and whose own requirements hold: a control is no command
        given, so no rule's requirement on commands applies to it."""
        legal: list[Action] = []
        seen: dict[Any, list[Any]] = {}  # the argument domains controls share, this decision
        controls = self._controls
        if controls is None:
            controls = self._controls = controls_of(self.ruleset)
        for declaration, checks in controls:  # the verdicts of `control_problem`
            legal += self.legal_uses(CONTROL, piece, declaration, checks, {}, None, seen)
        return legal

    def control_problem(self, piece: Actor, declaration: A.Declaration, action: Action) -> str | None:
        """Why this control cannot be used now, or None when it can."""
        env = self.action_env(piece, declaration, action)
        return self.cost_problem(piece, declaration, env, None) or self.requirement_problem(declaration, env, rules=False)

    def _questions(self) -> CommandQuestions:
        """Every command's numbered questions (`CommandQuestions`), worked out once per ruleset and
        number limit."""
        questions = self._command_questions
        if questions is None:
            max_number = self.max_number
            questions = self._questions_by_limit.get(max_number)
            if questions is None:
                questions = self._questions_by_limit[max_number] = CommandQuestions(
                    [(declaration, self._legality_plan(declaration))
                     for declaration in self.ruleset.declarations("command")])
            self._command_questions = questions
        return questions

    def _legality_plan(self, declaration: A.Declaration) -> LegalityPlan:
        key = (id(declaration), self.max_number)
        plan = self._legality_plans.get(key)
        if plan is None:
            plan = self._legality_plans[key] = legality_plan(
                declaration, self.global_requirements, self.max_number, self._binds_everyone,
                self._answered_in_advance, self._faults_anyway)
        return plan

    def _faults_anyway(self, declaration: A.Declaration, amount: A.Expr) -> bool:
        """Whether asking a cost's amount with no argument bound faults whatever the bout: a part of
        it that is worked out whenever it is, reads no piece and calls no function (so no argument
        either: unbound, it stands for a word), faults on its own."""
        interpreter = self.interpreter
        try:
            env = Env({}, self.declaration_env(declaration))
        except ScriptRuntimeError:
            return False  # its params fault: left to the filter, which meets the fault where it always did
        parts = [amount]
        while parts:
            part = parts.pop()
            if not reads_only_the_command(part):
                parts.extend(always_asked(part))
                continue
            try:
                with interpreter.asking():
                    interpreter.evaluate(part, env)
            except ScriptRuntimeError:
                return True
        return False

    def _answered_in_advance(self, rule: A.Declaration, command: A.Declaration, operand: A.Expr) -> bool | None:
        """A part of a rule's requirement answered for `command` once, when its plan is made: one that
        reads only the command and plain values (no piece, no function, nothing of the board), asked
        without a fault. None when it must be asked at every decision."""
        if not reads_only_the_command(operand):
            return None
        interpreter = self.interpreter
        env = Env.owning({"command": command}, self.declaration_env(rule))
        try:
            with interpreter.asking():
                if not all(is_plain(interpreter.evaluate(name, env)) for name in A.subtree(operand)
                           if isinstance(name, A.Name) and name.id != "command"):
                    return None
                return bool(interpreter.evaluate(operand, env))
        except ScriptRuntimeError:
            return None  # asked at every decision, where it faults as it always did

    def _passes(self, checks: tuple[NumberedCheck, ...], verdicts: list[bool | None], rule_envs: list[Env | None],
                piece: Actor, command: A.Declaration, target_piece: Piece | None, slot: CommandSlot,
                interpreter: Interpreter, parts: list[Any] | None) -> bool:
        """Whether every requirement holds for the command (and target), asked inside `asking`.
        `verdicts` keeps, by their numbers, the answers to this decision's questions (for one
        target): whether one of a requirement's operands holds; `rule_envs` the scopes a rule's
        requirement is asked in, by the same numbers; the command's own scope is bound only when
        one of its own requirements is asked. `parts` (asked per target: else None) keeps, by the
        same numbers, the parts of the questions asked for every target alike (`TargetMembership`)."""
        env = None
        for at, check in checks:
            verdict = verdicts[at]
            if verdict is None:
                rule = check.rule
                if rule is not None:
                    verdict = self._rule_verdict(check, rule, rule_envs, at, piece, target_piece, command, interpreter)
                else:
                    if env is None:
                        env = self._own_env(slot, piece, command, target_piece)
                    # (a command's own requirement is planned as its one operand, `planned_check`)
                    hoisted = check.hoisted
                    if hoisted is None or parts is None:
                        verdict = bool(check.closures[0].run(interpreter, env))
                    else:
                        verdict = bool(self._target_in_part(hoisted, parts, at, interpreter, env))
                verdicts[at] = verdict
            if not (verdict or check.holds_anyway):
                return False
        return True

    @staticmethod
    def _target_in_part(hoisted: TargetMembership, parts: list[Any], at: int, interpreter: Interpreter,
                        env: Env) -> Any:
        """`target in <part>` for the target `env` binds, the part worked out the first time the
        question is asked this decision (in its scope then, where it always was first worked out, so
        a fault is met where it always was) and kept under its number."""
        part = parts[at]
        if part is _UNASKED:
            part = parts[at] = hoisted.part.run(interpreter, env)
        hoisted.held.value = part
        return hoisted.membership.run(interpreter, env)

    def _rule_verdict(self, check: PlannedCheck, rule: A.Declaration, rule_envs: list[Env | None], at: int,
                      piece: Actor, target_piece: Piece | None, command: A.Declaration,
                      interpreter: Interpreter) -> bool:
        """`_rule_operands_hold`, in the rule's scope kept under the question's number and bound anew."""
        if not check.binds_everyone and not self.owns_ability(piece, rule):
            return True  # a talent binds only its role's pieces
        env = rule_envs[at]
        if env is None:
            env = rule_envs[at] = Env.owning({"self": piece, "target": target_piece, "command": command},
                                             self.declaration_env(rule))
        else:
            names = env.names
            if names["self"] is not piece:
                names["self"] = piece
            if target_piece is not None:
                names["target"] = target_piece
            names["command"] = command
        for closure in check.closures:
            if closure.run(interpreter, env):
                return True
        return False

    def _holds(self, check: PlannedCheck, env: Env) -> bool:
        """Whether one planned requirement holds (asked inside `asking`; `env`: the command's scope)."""
        if check.rule is not None:
            names = env.names
            return self._rule_holds(check, names["self"], names.get("target"), names["command"])
        interpreter = self.interpreter
        for closure in check.closures:
            if closure.run(interpreter, env):
                return True
        return check.holds_anyway

    def _rule_holds(self, check: PlannedCheck, piece: Actor, target: Piece | None, command: A.Declaration) -> bool:
        """Whether a rule's planned requirement holds for a command given by `piece` (asked inside
        `asking`), in the rule's own scope."""
        return self._rule_operands_hold(check, piece, target, command) or check.holds_anyway

    def _rule_operands_hold(self, check: PlannedCheck, piece: Actor, target: Piece | None,
                            command: A.Declaration) -> bool:
        """Whether one of what is left to ask of a rule's requirement holds (or the rule does not
        bind the piece), asked in order until one does."""
        assert check.rule is not None
        if not check.binds_everyone and not self.owns_ability(piece, check.rule):
            return True  # a talent binds only its role's pieces
        check_env = Env.owning({"self": piece, "target": target, "command": command}, self.declaration_env(check.rule))
        interpreter = self.interpreter
        for closure in check.closures:
            if closure.run(interpreter, check_env):
                return True
        return False

    def _binds_everyone(self, rule: A.Declaration) -> bool:
        """Whether a rule's requirement binds every piece: it is no card held in a hand and names no role."""
        ruleset = self.ruleset
        role_word = ruleset.game.role_word
        return rule.kind not in self.hand_kinds and (role_word is None or not role_named(rule, role_word)[0])

    def _arguments_hold(self, piece: Actor, declaration: A.Declaration, env: Env, plan: LegalityPlan,
                        costs_vary: bool, held: dict[str, int], slot: CommandSlot, key: Any) -> bool:
        """Whether a combination's costs (when they vary) are met and the requirements that read its
        arguments hold (asked inside `asking`; `env`: the command's scope with the combination bound,
        as `action_env` binds it; `held`: what the decision has looked up of the piece; `key`: the
        values the costs and those requirements read, under which the slot keeps the amounts of
        costs that read only the arguments)."""
        if costs_vary:
            target = env.names.get("target")
            if plan.amounts_by_arguments:
                items = self._kept_cost_items(piece, declaration, env, held, slot.amounts, key)
            else:
                items = self.cost_items(piece, declaration, env, held)
            if self._short_of_items(piece, items, target, held):
                return False
        for check in plan.varying:
            if not self._holds(check, env):
                return False
        return True

    def _cannot_afford(self, piece: Actor, declaration: A.Declaration, plan: LegalityPlan,
                       held: dict[str, int], slot: CommandSlot) -> bool:
        """A quick filter before arguments are enumerated; costs that depend on arguments, or on
        AP reserved against a target, are left to the full check. `held` keeps the resources the
        piece holds for one decision; the filter's scope (`self` over the command's) is the slot's."""
        if isinstance(piece, Piece) and piece.bonus_ap or plan.filter_faults:
            return False
        try:
            if plan.written_costs is not None:  # no script to ask: the amounts as written
                return self._short_of(piece, plan.written_costs, held)
            env = slot.filter
            if env is None:
                env = slot.filter = Env.owning({"self": piece}, self.declaration_env(declaration))
            else:
                env.names["self"] = piece
            return self._cannot_pay(piece, declaration, env, None, held)
        except ScriptRuntimeError:
            return False

    def _short_against(self, piece: Actor, written: tuple[tuple[int, str], ...], target_piece: Piece | None,
                       held: dict[str, int]) -> bool | None:
        """Whether `piece` lacks any of a command's costs written as numbers, given against
        `target_piece` (AP granted against it counts towards an AP cost), as `_cannot_pay` finds for
        every combination; None when an MP cost is multiplied by what the piece's square holds (left
        to `_cannot_pay`, which may find the product beyond the number limit)."""
        for _, resource in written:
            if resource == "MP":
                multiplier = held.get(_MP_MULTIPLIER)
                if multiplier is None:
                    multiplier = held[_MP_MULTIPLIER] = self.mp_multiplier(piece)
                if multiplier != 1:
                    return None
        return self._short_of_items(piece, written, target_piece, held)

    def _short_of(self, piece: Actor, costs: tuple[tuple[int, str], ...], held: dict[str, int]) -> bool:
        """Whether `piece` lacks any of these written costs (an MP cost multiplied as `cost_items` does)."""
        for amount, resource in costs:
            if resource == "MP":
                amount = self._mp_cost(piece, amount, held, None, None)
            have = held.get(resource)
            if have is None:
                have = held[resource] = self.resource_amount(piece, resource)
            if have < amount:
                return True
        return False

    def cost_items(self, piece: Actor, declaration: A.Declaration, env: Env,
                   held: dict[str, int] | None = None, worked: list[int] | None = None) -> list[tuple[int, str]]:
        """Each cost as (amount, resource): a whole number from 0 to the number limit, or the
        script stops (a cost worked out below 0 would pay the piece for its command). A cost is a
        question, asked before the command is offered and again when it is paid: the same answer
        both times, and no dice rolled for it. `held` keeps what one decision has looked up of the
        piece (the MP multiplier of its square); `worked`, when given, is given each amount before an
        MP cost is multiplied."""
        items = []
        if held is None:
            held = {}  # the MP multiplier, looked up only for an MP cost: most are AP or reserves
        interpreter = self.interpreter
        max_number = self.max_number
        for cost in self._costs_of(declaration):
            amount = cost.written
            if amount is None or amount > max_number:
                with interpreter.asking():
                    value = cost.closure.run(interpreter, env)
                amount = interpreter.amount(value, cost.node, env, cost.what)
            if worked is not None:  # the amounts before an MP cost is multiplied, for the caller
                worked.append(amount)
            if cost.mp:
                # e.g. guts double MP costs inside their square (object data)
                amount = self._mp_cost(piece, amount, held, cost.node, env)
            items.append((amount, cost.resource))
        return items

    def _kept_cost_items(self, piece: Actor, declaration: A.Declaration, env: Env, held: dict[str, int],
                         amounts: dict[Any, list[int]], key: Any) -> list[tuple[int, str]]:
        """`cost_items` of a combination whose costs read nothing but its arguments
        (`LegalityPlan.amounts_by_arguments`): the amounts worked out for the values under `key` are
        kept (`amounts`), and only an MP cost is multiplied anew (the piece's square). A fault is met
        where `cost_items` meets it: nothing is kept until every amount is worked out."""
        known = amounts.get(key)
        if known is None:
            worked: list[int] = []
            items = self.cost_items(piece, declaration, env, held, worked)
            amounts[key] = worked
            return items
        items = []
        for cost, amount in zip(self._costs_of(declaration), known):
            if cost.mp:
                amount = self._mp_cost(piece, amount, held, cost.node, env)
            items.append((amount, cost.resource))
        return items

    def _costs_of(self, declaration: A.Declaration) -> tuple[CostPlan, ...]:
        """The declaration's costs as `cost_items` asks them, read from its text once per ruleset."""
        known = self._cost_plans.get(id(declaration))
        if known is not None and known[0] is declaration:
            return known[1]
        costs = tuple(CostPlan(item) for cost in declaration.clauses_of(A.Cost) for item in cost.items)
        self._cost_plans[id(declaration)] = (declaration, costs)
        return costs

    def cost_problem(self, piece: Actor, declaration: A.Declaration, env: Env,
                     target: Piece | None) -> str | None:
        for amount, resource in self.cost_items(piece, declaration, env):
            have = self._with_bonus(piece, resource, target, self.resource_amount(piece, resource))
            if have < amount:
                return f"{declaration.name} costs {amount} {resource}; {piece.label} has {have}"
        return None

    def _cannot_pay(self, piece: Actor, declaration: A.Declaration, env: Env, target: Piece | None,
                    held: dict[str, int]) -> bool:
        """Whether `cost_problem` finds one (every cost worked out first, as it works them out),
        `held` keeping what one decision looks up of the piece: its resources and its square's MP
        multiplier."""
        return self._short_of_items(piece, self.cost_items(piece, declaration, env, held), target, held)

    def _short_of_amounts(self, piece: Actor, amounts: list[int], resources: tuple[str, ...], target: Piece | None,
                          held: dict[str, int]) -> bool:
        """`_short_of_items` of costs in no MP, as their amounts and resources (in the same order)."""
        for place in range(len(resources)):
            resource = resources[place]
            have = held.get(resource)
            if have is None:
                have = held[resource] = self.resource_amount(piece, resource)
            if self._with_bonus(piece, resource, target, have) < amounts[place]:
                return True
        return False

    def _short_of_items(self, piece: Actor, items: Sequence[tuple[int, str]], target: Any, held: dict[str, int]) -> bool:
        """Whether `piece` lacks any of these costs worked out (`cost_items`), as `cost_problem`
        counts (AP granted against the target counts towards an AP cost)."""
        for amount, resource in items:
            have = held.get(resource)
            if have is None:
                have = held[resource] = self.resource_amount(piece, resource)
            if self._with_bonus(piece, resource, target, have) < amount:
                return True
        return False

    def command_problem(self, piece: Actor, declaration: A.Declaration, action: Action) -> str | None:
        """Why this command cannot be given now, or None when it can."""
        env = self.action_env(piece, declaration, action)
        target = env.names.get("target")
        problem = self.cost_problem(piece, declaration, env, target)
        if problem:
            return problem
        return self.requirement_problem(declaration, env, rules=True)

    def requirement_problem(self, declaration: A.Declaration, env: Env, rules: bool) -> str | None:
        interpreter = self.interpreter
        with interpreter.asking():
            for requirement in declaration.clauses_of(A.Requires):
                if not interpreter.evaluate(requirement.condition, env):
                    return requirement.message or f"{declaration.name} requires {print_expr(requirement.condition)}"
            if rules:
                names = {"self": env.names["self"], "target": env.names.get("target"), "command": declaration}
                for rule, requirement in self.global_requirements:
                    if not self.owns_ability(env.names["self"], rule):  # a talent binds only its role's pieces
                        continue
                    rule_env = Env(names, self.declaration_env(rule))
                    if not interpreter.evaluate(requirement.condition, rule_env):
                        return requirement.message or f"{rule.name}: {print_expr(requirement.condition)}"
        return None

    def resource_amount(self, piece: Actor, resource: str) -> int:
        owned = self.state.player_of(piece).piles
        if resource in owned:  # coins in a pile its player holds (`cost 1 <pile>`)
            return owned[resource]
        if isinstance(piece, Player):  # a player pays in the stats it holds
            return piece.stats.get(resource, 0)
        if resource in ("AP", "MP"):
            return piece.ap if resource == "AP" else piece.mp
        if resource in piece.traits:
            return piece.traits[resource]
        if resource == "overall":
            return piece.overall
        return 0

    def _mp_cost(self, piece: Actor, amount: int, held: dict[str, int], node: A.Node | None, env: Env | None) -> int:
        """An MP cost multiplied by what the piece's square holds (`held` keeps the multiplier for
        the caller), bounded like any worked-out number."""
        multiplier = held.get(_MP_MULTIPLIER)
        if multiplier is None:
            multiplier = held[_MP_MULTIPLIER] = self.mp_multiplier(piece)
        if multiplier == 1:  # the amount as it is: a cost is already a number within the limit
            return amount
        return self.interpreter.bounded(amount * multiplier, node, env, "the MP cost")

    def mp_multiplier(self, piece: Actor) -> int:
        factor = 1
        if isinstance(piece, Player):  # a player stands on no square
            return factor
        objects = self.state.objects_at(piece.square)
        if not objects:  # (most squares: nothing else to read)
            return factor
        flags, most = self.ruleset.object_flags, self.max_number + 1
        for obj in objects:
            # Bounded at every step: a square stacked with many multiplying objects stays a number.
            factor = min(factor * int(flags(obj).get("mp_multiplier", 1)), most)
        return factor
