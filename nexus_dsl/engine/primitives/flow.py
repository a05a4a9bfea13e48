"""What a script sets going: a note in the log, a command performed, a choice asked, an event signalled or recorded
in the log, a timing window opened, a card drawn or negated."""

from __future__ import annotations

from typing import Any, Callable, Final, Protocol

from ...model.ruleset import Ruleset
from ...syntax import ast_nodes as A
from ..actions import ABILITY, CARD, CHOICE, CONTROL, PASS, Action, Decision
from ..board import Square
from ..decks import Decks
from ..events import Events
from ..interpreter import Limits, Run
from ..scope import UNBOUND, Dynamic, Env, describe_value
from ..list_functions import ordered
from ..resolution import Resolution, declared
from ..timing import Timing
from ..options import PASSING, Option
from ..state import Actor, Piece
from .values import Faults, acting, actor, plain


# The syntax tree's declaration class, held here: compiled code reads a module's attribute by name.
_DECLARATION: Final = A.Declaration


class Host(Faults, Protocol):
    """What the words of flow need of the bout."""

    ruleset: Ruleset
    limits: Limits
    events: Events
    resolution: Resolution
    decks: Decks
    timing: Timing
    round_actions: int

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def settle(self) -> Run: ...


def log(host: Host, env: Env, node: A.Action, text: str) -> None:
    host.emit_line("note", {"text": str(text)})


def perform(host: Host, env: Env, node: A.Action, command: str) -> Run:
    declaration = declared(host.ruleset, "command", command)
    if declaration is None:
        raise host.runtime_error("unknown_name", f"there is no command `{command}` to perform")
    yield from host.resolution.perform(env, declaration)


def choose(host: Host, env: Env, node: A.Action, piece: Piece, **preps: Any) -> Run:
    offered = preps["from"]
    choices = tuple(sorted(offered)) if isinstance(offered, frozenset) else tuple(offered)
    if len(choices) > host.limits.max_collection:
        raise host.runtime_error("budget_exceeded", f"`choose` from {len(choices)} options "
                                                    f"(limit {host.limits.max_collection})")
    target = node.prep("into")
    assert isinstance(target, A.Name)
    if not choices:
        env.assign(target.id, None)
        return
    if len(choices) == 1:
        env.assign(target.id, choices[0])
        return
    options = tuple(Action.make(CHOICE, piece.label, target.id, pick=plain(c)) for c in choices)
    action = yield Decision(piece.label, f"choose:{target.id}", options)
    picked = action.arg("pick")
    env.assign(target.id, next(c for c in choices if plain(c) == picked))


def ask(host: Host, env: Env, node: A.Action, who: Actor, kind: str, **preps: Any) -> Run:
    """A decision named `kind` put to `who`'s player: one of the options (`option(...)` values) is
    bound to the `into` name. `with true` also offers what the player may use at any time (its
    abilities and cards): one used resolves, and the question is put again."""
    offered = tuple(preps["from"])
    if len(offered) > host.limits.max_collection:
        raise host.runtime_error("budget_exceeded", f"`ask` with {len(offered)} options (limit {host.limits.max_collection})")
    wrong = next((o for o in offered if not isinstance(o, Option)), None)
    if wrong is not None:
        raise host.runtime_error("wrong_type", f"`ask` offers options made by `option(...)`, not {describe_value(wrong)}")
    target = node.prep("into")
    assert isinstance(target, A.Name)
    if not offered:
        env.assign(target.id, None)
        return
    actions = tuple(_action_of(option, who.label) for option in offered)
    anytime = preps.get("with") is True
    extra = tuple(host.timing.instant_options(who)) if anytime and isinstance(who, Piece) else ()
    while True:
        action = yield Decision(who.label, str(kind), actions + extra)
        if action.kind not in (ABILITY, CARD):
            break
        host.round_actions += 1
        yield from host.timing.use_ability(action, None)
        yield from host.settle()
        within = host.round_actions < host.limits.max_actions_per_round
        extra = tuple(host.timing.instant_options(who)) if within and isinstance(who, Piece) else ()
    env.assign(target.id, offered[actions.index(action)])


# The actions of options whose values are all text, by the player's label and the option's name
# and values: an action is plain data that never changes, and an `ask` puts the same options again
# and again (a turn's split, every turn). Kept up to a bound: a script may make options of any text.
_TEXT_ACTIONS: dict[tuple[str, str, tuple[tuple[str, Any], ...]], Action] = {}
_TEXT_ACTIONS_KEPT: Final = 4096


def _action_of(option: Option, label: str) -> Action:
    """The action a player picks an option by: passing, or a control of the option's name and values."""
    if option.name == PASSING:
        return Action.make(PASS, label)
    values = option.values
    for at in range(len(values)):
        if type(values[at][1]) is not str:
            return _control_of(option, label)
    key = (label, option.name, values)
    known = _TEXT_ACTIONS.get(key)
    if known is None:
        known = _control_of(option, label)
        if len(_TEXT_ACTIONS) < _TEXT_ACTIONS_KEPT:
            _TEXT_ACTIONS[key] = known
    return known


def _control_of(option: Option, label: str) -> Action:
    """The control of an option's name and values (`_action_of`), made anew."""
    args = {key: plain(value) for key, value in option.values}
    if _made_at_once(args):  # `Action.make`'s answer without its call by keywords
        return Action(CONTROL, label, option.name, _in_order(args))
    return Action.make(CONTROL, label, option.name, **args)


def _in_order(args: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """`tuple(sorted(args.items()))`, as `Action.make` orders them, without asking the dict's items
    view (compiled code walks a dict itself; the view is asked generically)."""
    items: list[tuple[str, Any]] = []
    for key, value in args.items():
        items.append((key, value))
    items.sort()  # the names are unique text: only they are compared
    return tuple(items)


def _made_at_once(args: dict[str, Any]) -> bool:
    """Whether `Action.make` would take these arguments as they are: each named by text other than
    its own parameters' names, none a list (which it makes a tuple)."""
    for key, value in args.items():
        if not isinstance(key, str) or key in ("kind", "piece", "name") or isinstance(value, list):
            return False
    return True


def _bound_here(env: Env, declared: Any) -> dict[str, Any]:
    """The names an event or a window declares, each bound to the value of that name where the script
    raises or opens it (`let survivor = ...` then `signal bout_ends`), or to none; `self` (when it
    declares it) to the acting piece."""
    names: dict[str, Any] = {}
    for name in declared:
        names[name] = _value_here(env, name)
    if "self" in names:
        names["self"] = acting(env)
    return names


def _value_here(env: Env, name: str) -> Any:
    """`env.lookup(name)[1]`: the value of the innermost scope binding the name (read, if it is read
    when used), else none; with no pair made for it."""
    scope: Env | None = env
    while scope is not None:
        value = scope.names.get(name, UNBOUND)
        if value is not UNBOUND:
            return value.read() if type(value) is Dynamic else value
        scope = scope.parent
    return None


def signal(host: Host, env: Env, node: A.Action, event: str) -> Run:
    events = host.events
    names = _bound_here(env, events.event_names.get(event, {}))
    names["self"] = acting(env)  # the acting piece triggers the event, whether it declares `self` or not
    yield from events.fire_with(event, names)


def record(host: Host, env: Env, node: A.Action, event: str, **preps: Any) -> None:
    # A line of the log, of the event's type, with each name it declares as `signal` binds it; its
    # `self` is who acts (`for`, else the acting piece), written as the game names who acts.
    names = _bound_here(env, host.events.event_names.get(event, {}))
    if "self" in names and preps.get("for") is not None:
        names["self"] = preps["for"]
    answer = preps.get("with")
    if answer is not None and not isinstance(answer, Option):
        raise host.runtime_error("wrong_type", f"`record ... with` reports an option (`ask`'s answer), not {describe_value(answer)}")
    line = {("actor" if name == "self" else name): _logged(value) for name, value in names.items()}
    if answer is not None:
        for key, value in answer.values:
            line[key] = _logged(value)
    host.emit_line(event, line)


def _logged(value: Any) -> Any:
    """A script value as the log writes it: a piece by its label, a square as [col, row], a list as
    a list (a set of squares in board order), a declaration by its id."""
    if isinstance(value, Square):
        return value.as_list()
    if isinstance(value, (tuple, frozenset)):
        return [_logged(item) for item in ordered(value)]
    if isinstance(value, _DECLARATION):
        return value.id
    if isinstance(value, Option):  # a record: its values by name
        return {key: _logged(item) for key, item in value.values}
    return plain(value)


def open_window(host: Host, env: Env, node: A.Action, window: str, **preps: Any) -> Run:
    # As `signal`: the acting piece is the window's subject, each other name it binds the value of
    # that name where it is opened.
    names = _bound_here(env, host.ruleset.words.windows.get(window, {}))
    names.pop("self", None)  # a use in the window is made by its own user
    frame = yield from host.timing.open_window(window, acting(env), **names)
    target = node.prep("into")
    if isinstance(target, A.Name):
        env.assign(target.id, frame.prevented)


def draw(host: Host, env: Env, node: A.Action, deck: str, **preps: Any) -> Run:
    yield from host.decks.draw_card(deck, actor(host, env, preps.get("for"), "draw"))


def offer_negation(host: Host, env: Env, node: A.Action, piece: Piece) -> Run:
    yield from host.decks.offer_negation(env, piece)


def option(host: Host, env: Env, name: str, *pairs: Any) -> Option:
    """An option of a decision: its name, then up to two names each followed by its value."""
    if len(pairs) % 2:
        raise host.runtime_error("wrong_type", f"`option(\"{name}\", ...)` gives a value without its name")
    values: list[tuple[str, Any]] = []
    for index in range(0, len(pairs), 2):  # each name with its value, the first name not text refused
        key = pairs[index]
        if not isinstance(key, str):
            raise host.runtime_error("wrong_type", f"an option's values are named by text, not {describe_value(key)}")
        values.append((key, pairs[index + 1]))
    return Option(str(name), tuple(values))


def option_with(host: Host, env: Env, record: Any, key: str, value: Any) -> Option:
    """The option with its value of that name given (in its place if it has one, else last)."""
    record = _an_option(host, record, "option_with")
    values = dict(record.values)
    if key not in values and len(values) >= host.limits.max_collection:
        raise host.runtime_error("budget_exceeded", f"an option of more than {host.limits.max_collection} values")
    values[key] = value
    return Option(record.name, tuple(values.items()))


def option_name(host: Host, env: Env, picked: Any) -> str:
    return _an_option(host, picked, "option_name").name


def option_value(host: Host, env: Env, picked: Any, key: str) -> Any:
    return _an_option(host, picked, "option_value").value(key)


def _an_option(host: Host, value: Any, function: str) -> Option:
    if not isinstance(value, Option):
        raise host.runtime_error("wrong_type", f"`{function}` reads an option (`ask`'s answer), not {describe_value(value)}")
    return value


FUNCTIONS: dict[str, Callable[..., Any]] = {"option": option, "option_name": option_name, "option_value": option_value,
                                            "option_with": option_with}
EFFECTS: dict[str, Callable[..., Any]] = {"log": log, "perform": perform, "choose": choose, "ask": ask, "signal": signal, "record": record,
                                          "open_window": open_window, "draw": draw, "offer_negation": offer_negation}
