"""Decks: drawing a card from a zone, and the cards being played from one (which their reader may
escape by paying their costs)."""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .actions import CONTROL, PASS, Action, Decision
from .dice import Dice
from .events import Events
from .interpreter import Interpreter, Run
from .scope import Env
from .legality import Legality
from .resolution import Resolution
from .state import BoutState, Piece


class DecksHost(Protocol):
    """What drawing needs of the bout: its state (the decks, hands and discards) and rules (the
    zones), the dice (a deck made again is shuffled), the interpreter (a card's costs), the log,
    events (who drew), legality (a card's scope) and resolution (a played card's body)."""

    state: BoutState
    ruleset: Ruleset
    dice: Dice
    interpreter: Interpreter
    events: Events
    legality: Legality
    resolution: Resolution

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Decks:
    """The cards drawn during a bout, with the stack of those being played."""

    def __init__(self, host: DecksHost):
        self.host = host
        self.state: BoutState = host.state  # handed anew by the bout whenever it replaces its state
        self.cards: list[A.Declaration] = []  # the cards being played, drawn from a zone whose cards are played

    def reset(self) -> None:
        """No card being played any more (a script fault stopped the bout, a preview's copy starts over)."""
        self.cards = []

    def draw_card(self, deck: str, piece: Piece) -> Run:
        """Draw the top card of a zone: as its `drawn` says, played at once for `piece` (then
        discarded), or kept in the hand. An empty deck is made again from its discards, shuffled."""
        cards = self.state.decks.setdefault(deck, [])
        if not cards:
            cards.extend(self.state.discards.pop(deck, []))
            self.host.dice.shuffle("shuffle", cards, True)  # its dice on the draw's line
        if not cards:
            self.host.emit_line("draw", {"deck": deck, "actor": piece.label, "card": None})
            return
        card = cards.pop(0)
        self.host.emit_line("draw", {"deck": deck, "actor": piece.label, "card": card})
        zone = self.host.ruleset.words.zones[deck]
        if zone.drawn == "kept":
            piece.hand.append(card)
            return
        declaration = self.host.ruleset.declaration(zone.holds or "", card)
        assert declaration is not None
        # Damage done by a card's narrative is dealt by no piece: its coins go where the game sends such damage (pg.12).
        env = Env({"self": piece, "command": declaration}, self.host.legality.declaration_env(declaration), source=None)
        self.cards.append(declaration)
        self.host.events.triggers.append(piece.label)
        try:
            yield from self.host.resolution.run_declaration_body(piece, declaration, env)
        finally:
            self.cards.pop()
            self.host.events.triggers.pop()
        self.state.discards.setdefault(deck, []).append(card)


    def offer_negation(self, env: Env, piece: Piece) -> Run:
        """A card being played may be escaped by paying the trait reserves its `cost` names: the
        piece's player is asked only if it can pay them all."""
        if not self.cards:
            raise self.host.runtime_error("no_card", "`offer_negation` is for a card being played")
        card = self.cards[-1]
        with self.host.interpreter.asking():
            costs = [(self.host.interpreter.amount(self.host.interpreter.evaluate(i.amount, env), i.amount, env,
                                                   f"the {i.resource} cost"), i.resource)
                     for c in card.clauses_of(A.Cost) for i in c.items]
        traits = self.host.ruleset.words.group("trait")
        if not costs or any(piece.traits.get(r, 0) < n for n, r in costs if r in traits):
            return
        answer = yield Decision(piece.label, "negate_card", (
            Action.make(CONTROL, piece.label, "negate", card=card.id), Action.make(PASS, piece.label)))
        if answer.kind == CONTROL:
            for amount, resource in costs:
                if resource in traits:
                    piece.traits[resource] -= amount
            piece.marks["negated"] = card.id
            self.host.emit_line("negated", {"actor": piece.label, "card": card.id})
