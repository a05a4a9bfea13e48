"""Why each line of the log happened: the script statements under way when it was written.

A bout played to be explained (`Bout(..., explain=True)`) runs its effects through a traced table of
effects (`traced_effects`): each effect, while it runs (and while what it opens runs: a window, a
question, an event's listeners), stands on the bout's `Tracer` as a `Cause` — the declaration whose
script it is, the statement's position and the values it was given. Every line the bout logs then
keeps the causes under way, outermost first (`Event.cause`): the rule that drew a card, then the
card's own effect that moved the coins. A line written with no script under way (a round starting,
a command chosen) has none: the game's own sequence, or a player's decision, wrote it.

A bout played without explanation keeps no causes and runs the plain table: nothing is paid for
what is not asked, and its log is the same, line for line.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Generator, Mapping

from ..syntax import ast_nodes as A
from .scope import Env, describe_value

Effect = Callable[..., Any]
Run = Generator[Any, Any, Any]


class Cause:
    """One script statement under way: the declaration it belongs to, the effect statement (its
    verb and position) and the values the effect was given, as a script writer would name them.
    Or a command, ability or card being resolved: the declaration itself (its node is the
    declaration, its verb its kind, its values the arguments it was given)."""

    __slots__ = ("declaration", "node", "values")

    def __init__(self, declaration: A.Declaration | None, node: A.Action | A.Declaration, values: tuple[str, ...]):
        self.declaration = declaration
        self.node = node
        self.values = values

    @property
    def verb(self) -> str:
        node = self.node
        return node.verb if isinstance(node, A.Action) else node.kind

    def to_json(self) -> dict[str, Any]:
        """As the log writes it (`nexus play --explain --log`): the declaration by kind, id and name,
        the statement by file, line and column, the effect's verb and its values."""
        declaration = self.declaration
        pos = self.node.pos
        return {"kind": declaration.kind if declaration is not None else None,
                "id": declaration.id if declaration is not None else None,
                "name": declaration.name if declaration is not None else None,
                "file": pos.file, "line": pos.line, "column": pos.column,
                "effect": self.verb, "values": list(self.values)}


class Tracer:
    """The causes under way in one bout, outermost first."""

    __slots__ = ("stack",)

    def __init__(self) -> None:
        self.stack: list[Cause] = []

    def current(self) -> tuple[Cause, ...]:
        return tuple(self.stack)

    def resolving(self, declaration: A.Declaration, args: tuple[tuple[str, Any], ...]) -> Cause:
        """A command, ability or card being resolved, entered as the cause of what its costs, rolls
        and body log (the caller leaves it when done)."""
        cause = Cause(declaration, declaration, tuple(f"{name} {describe_value(value)}" for name, value in args))
        self.stack.append(cause)
        return cause

    def enter(self, cause: Cause) -> None:
        self.stack.append(cause)

    def leave(self, cause: Cause) -> None:
        """Take `cause` off. It is normally the last; should runs ever interleave (two suspended
        effects resumed out of order), the very cause is taken, so none is left behind."""
        stack = self.stack
        if stack and stack[-1] is cause:
            stack.pop()
            return
        for index in range(len(stack) - 1, -1, -1):
            if stack[index] is cause:
                del stack[index]
                return

    def follow(self, rest: Run, cause: Cause) -> Run:
        """What an effect still runs once called (a window it opens, a question it asks), with the
        effect under way throughout; a decision met inside leaves it on the stack, as the whole chain
        of runs waits there and resumes where it stopped."""
        self.enter(cause)
        try:
            return (yield from rest)
        finally:
            self.leave(cause)


def _traced(effect: Effect) -> Effect:
    """`effect` run as a cause on its bout's tracer (none on the bout: run as it is, as a preview's
    copy runs it)."""

    def run(host: Any, env: Env, node: A.Action, *args: Any, **preps: Any) -> Any:
        tracer: Tracer | None = host.tracer
        if tracer is None:
            return effect(host, env, node, *args, **preps)
        values = tuple(describe_value(value) for value in args) + tuple(
            f"{name} {describe_value(value)}" for name, value in preps.items())
        cause = Cause(env.declaration, node, values)
        tracer.enter(cause)
        try:
            result = effect(host, env, node, *args, **preps)
        finally:
            tracer.leave(cause)
        if result is None:
            return None
        return tracer.follow(result, cause)

    return run


def traced_effects(effects: Mapping[str, Effect]) -> Mapping[str, Effect]:
    """The table of effects whose every effect stands on its bout's tracer while it runs; read-only
    like the plain one. Made once for each set of limits, beside it (`primitives.traced_tables`)."""
    return MappingProxyType({name: _traced(effect) for name, effect in effects.items()})
