"""What a script sets going: a note in the log, a command performed, a choice asked, an event signalled or recorded
in the log, a timing window opened, a card drawn or negated."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...model.ruleset import Ruleset
from ...syntax import ast_nodes as A
from ..actions import CHOICE, Action, Decision
from ..board import Square
from ..decks import Decks
from ..events import Events
from ..interpreter import Env, Limits, Run
from ..list_functions import ordered
from ..resolution import Resolution
from ..timing import Timing
from ..state import Piece
from .values import Faults, acting, actor, plain


class Host(Faults, Protocol):
    """What the words of flow need of the bout."""

    ruleset: Ruleset
    limits: Limits
    events: Events
    resolution: Resolution
    decks: Decks
    timing: Timing

    def emit(self, event_type: str, /, **data: Any) -> None: ...


def log(host: Host, env: Env, node: A.Action, text: str) -> None:
    host.emit("note", text=str(text))


def perform(host: Host, env: Env, node: A.Action, command: str) -> Run:
    declaration = host.ruleset.declaration("command", command)
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


def _bound_here(env: Env, declared: Any) -> dict[str, Any]:
    """The names an event or a window declares, each bound to the value of that name where the script
    raises or opens it (`let survivor = ...` then `signal bout_ends`), or to none; `self` (when it
    declares it) to the acting piece."""
    names = {name: env.lookup(name)[1] for name in declared}
    if "self" in names:
        names["self"] = acting(env)
    return names


def signal(host: Host, env: Env, node: A.Action, event: str) -> Run:
    names = _bound_here(env, host.ruleset.words.events.get(event, {}))
    names["self"] = acting(env)  # the acting piece triggers the event, whether it declares `self` or not
    yield from host.events.fire(event, **names)


def record(host: Host, env: Env, node: A.Action, event: str) -> None:
    # A line of the log, of the event's type, with each name it declares as `signal` binds it.
    names = _bound_here(env, host.ruleset.words.events.get(event, {}))
    host.emit(event, **{name: _logged(value) for name, value in names.items()})


def _logged(value: Any) -> Any:
    """A script value as the log writes it: a piece by its label, a square as [col, row], a list as
    a list (a set of squares in board order), a declaration by its id."""
    if isinstance(value, Square):
        return value.as_list()
    if isinstance(value, (tuple, frozenset)):
        return [_logged(item) for item in ordered(value)]
    if isinstance(value, A.Declaration):
        return value.id
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


FUNCTIONS: dict[str, Callable[..., Any]] = {}
EFFECTS: dict[str, Callable[..., Any]] = {"log": log, "perform": perform, "choose": choose, "signal": signal, "record": record,
                                          "open_window": open_window, "draw": draw, "offer_negation": offer_negation}
