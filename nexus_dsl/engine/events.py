"""Events: `fire` runs every `when` listener of the content, in its order, and keeps what is under way.

Pieces affected together by one event are met from the triggering player clockwise (pg.15):
`pieces_in_turn` is that order, used by the script functions that list pieces and by the
listeners an event runs for each piece that owns them.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .interpreter import Interpreter, Limits, Run
from .scope import Env
from .legality import Legality
from .state import BoutState, Piece

Listeners = dict[str, tuple]  # event -> (declaration, its `when` clause), in the order they run


class EventsHost(Protocol):
    """What events need of the bout: its state and rules, the trigger depth limit, the interpreter
    that runs the listeners, and legality for the listeners' scopes and owners."""

    state: BoutState
    ruleset: Ruleset
    limits: Limits
    interpreter: Interpreter
    legality: Legality

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Events:
    """The listeners of a bout, and the events, performed commands and triggering players under way."""

    def __init__(self, host: EventsHost, listeners: Listeners | None = None,
                 hazard_objects: dict[str, frozenset[str]] | None = None):
        self.host = host
        self.trigger_depth = 0
        self.nesting: list[str] = []  # the events and performed commands under way, outermost first
        self.triggers: list[str] = []  # whose command, ability or card is resolving (pg.15's triggering player)
        self._hazard_objects: dict[str, frozenset[str]] = {}
        if listeners is not None and hazard_objects is not None:
            # the listeners never change during a bout: a preview's copy shares them
            self.listeners, self._hazard_objects = listeners, hazard_objects
        else:
            self.listeners = self._order_listeners()

    def copy_for(self, host: EventsHost) -> Events:
        """The events of a preview's copy of the bout: the same listeners; what is under way copied."""
        events = Events(host, self.listeners, self._hazard_objects)
        events.trigger_depth = self.trigger_depth
        events.triggers, events.nesting = list(self.triggers), list(self.nesting)
        return events

    def reset(self) -> None:
        """Nothing under way any more (a script fault stopped the bout)."""
        self.triggers, self.nesting, self.trigger_depth = [], [], 0

    def fire(self, event: str, /, **names: Any) -> Run:
        """Run every `when <event>` listener: rules, abilities, weapons and cards in load order, then
        the board layout's hazards in their activation order, left to right (pg.15, pg.40)."""
        listeners = self.listeners.get(event, ())
        if not listeners:
            return
        limit = self.host.limits.max_trigger_depth
        if self.trigger_depth >= limit:
            raise self.host.runtime_error("budget_exceeded", f"events nested more than {limit} deep: "
                                                             f"this statement raised `{event}` inside {self.describe_nesting()}")
        self.trigger_depth += 1
        self.nesting.append(event)
        legality, interpreter = self.host.legality, self.host.interpreter
        try:
            for declaration, when in listeners:
                if declaration.kind == "hazard" and not self.hazard_active(declaration):
                    continue
                for owner in self.listeners_for(declaration):
                    bound = dict(names)
                    if owner is not None:
                        bound["self"] = owner  # in an owned declaration `self` is always its owner
                    env = Env(bound, legality.declaration_env(declaration), source=owner)
                    if when.condition is not None and not interpreter.evaluate(when.condition, env):
                        continue
                    yield from interpreter.execute(when.body, env)
        finally:
            self.trigger_depth -= 1
            self.nesting.pop()

    def describe_nesting(self) -> str:
        """The events (and performed commands) under way, outermost first, for a depth error."""
        return " > ".join(f"`{name}`" for name in self.nesting)

    def _order_listeners(self) -> Listeners:
        """Rules, abilities, weapons and cards listen in load order; then the hazards: the board
        layout's in their activation order (left to right), then the others in load order. A hazard
        listens once the layout names it or one of its `object`s has stood on the board (`hazard_active`)."""
        listed = list(self.host.state.meta.get("hazards", []))
        hazard_order = listed + [d.id for d in self.host.ruleset.declarations("hazard") if d.id not in listed]
        self._hazard_objects = {}
        for hazard in self.host.ruleset.declarations("hazard"):
            prop = hazard.property("object")
            objects = {v.id for v in prop.values if isinstance(v, A.Name)} if prop else set()
            self._hazard_objects[hazard.id] = frozenset(objects | {hazard.id})
        ordered: Listeners = {}
        for event, listeners in self.host.ruleset.triggers.items():
            first = [pair for pair in listeners if pair[0].kind != "hazard"]
            hazards = sorted((pair for pair in listeners if pair[0].kind == "hazard" and pair[0].id in hazard_order),
                             key=lambda pair: hazard_order.index(pair[0].id))
            ordered[event] = tuple(first + hazards)
        return ordered

    def hazard_active(self, hazard: A.Declaration) -> bool:
        """A hazard plays once the board layout names it or one of its objects has stood on the board
        (an object a script placed, or one destroyed this very moment)."""
        if hazard.id in self.host.state.meta.get("hazards", ()):
            return True
        return not self._hazard_objects.get(hazard.id, frozenset()).isdisjoint(self.host.state.seen_objects)

    def listeners_for(self, declaration: Any) -> list[Piece | None]:
        """Who a `when` clause listens for: rules, states, hazards and the cards played when drawn for
        the whole bout; abilities, weapons and the cards played from a hand for each piece that owns
        them, from the triggering player clockwise (pg.15). A rule naming a role (by the game's role
        word: a role's talent) listens for each piece of that role."""
        kind = declaration.kind
        role_word = self.host.ruleset.game.role_word
        if kind in ("hazard", "state") or kind in self.host.ruleset.words.played_kinds \
                or kind == "rule" and (role_word is None or declaration.property(role_word) is None):
            return [None]
        if not self.host.state.pieces:  # abilities, weapons and cards belong to pieces
            return []
        return [h for h in self.pieces_in_turn() if self.owns(h, declaration)]

    def triggering_piece(self) -> str:
        """The player whose doing is being resolved: the piece giving the command, using the ability
        or card, or drawing the card under way; otherwise the active player; before any round, the
        first in initiative order (or the first seated)."""
        if self.triggers:
            return self.triggers[-1]
        state = self.host.state
        if state.active is not None:
            return state.active
        if state.order:
            return state.order[0]
        return next(iter(state.pieces))

    def pieces_in_turn(self) -> list[Piece]:
        """Every piece from the triggering player clockwise round the table (pg.15); none in a game
        without pieces."""
        if not self.host.state.pieces:
            return []
        return self.host.state.clockwise_from(self.triggering_piece())

    def owns(self, piece: Piece, declaration: Any) -> bool:
        if declaration.kind == "weapon":
            return piece.weapon == declaration.id
        return self.host.legality.owns_ability(piece, declaration)
