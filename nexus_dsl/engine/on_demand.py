"""A command decision's options worked out as they are asked for.

At a command decision the options are the commands the piece may give (most of the work), then the
controls, abilities and cards, then ending the round. An agent that looks at only some commands
(the heuristic agent judges its abilities first, then attacks, and moves only when no attack is
legal: about a third of the commands' verdicts were never read) asks for those alone; any other
caller reads `Decision.options`, the whole list, the same and in the same order as if worked out at
once. Asking is pure (no dice, nothing changed), so a command's legal actions do not depend on what
was asked before them (`command_ask.py`).

Faults. Worked out whole, the list meets the first fault of its scripts in its order, and the bout
stops there. Worked out on demand, a command never asked for is never asked, so a fault in its
script goes unmet. The rule: a bout offers its options on demand only when its loop asks the agents
through `bout.next_action` (the engine's `play`, the batches, `nexus play`); the test run, the
playtest and any bout made without asking for it work every decision out whole, so their fault
reports are those of the whole list. When a question asked on demand faults, the whole list is
worked out again, in its order, from nothing kept, so that the fault reported is the one the whole
list meets first, and the bout stops as it would have when it reached the decision (`OptionsFaulted`,
`OPTIONS_FAULTED`, `Bout.apply`). A decision with nothing but commands to offer asks whether any is legal before it
is offered (`any_command`): a fault met there stops the bout at once, on the fault the whole list
meets first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Sequence

from ..errors import ScriptRuntimeError
from .actions import COMMAND, Action
from .command_ask import CommandAsk
from .state import Actor

if TYPE_CHECKING:
    from .interpreter import Interpreter
    from .legality import Legality


# What `bout.next_action` answers when a question asked on demand faulted: sent into the game, it
# has the cycle work the whole list out again where it always did, and meet the fault there
# (`Cycle._command_round`). No decision offers it.
OPTIONS_FAULTED: Final = Action("options_faulted", "")


class OptionsFaulted(Exception):
    """A question asked on demand faulted: the decision's options cannot be offered, and the bout
    stops when it is next applied to (`Bout.apply`), on the fault the whole list meets first."""


class CommandOptions:
    """The options of one command decision: the commands of `piece`, asked as needed (`CommandAsk`),
    then `rest` (controls, abilities and cards, ending the round), worked out at once. `start`: the
    interpreter's steps spent when the decision began to be worked out; `steps`: those spent since
    by its questions, which questions asked later go on from, as they would have then (a script's
    budget counts them)."""

    __slots__ = ("legality", "piece", "ask", "rest", "names", "start", "steps")

    def __init__(self, legality: Legality, piece: Actor, steps: int, ask: CommandAsk | None = None) -> None:
        self.legality = legality
        self.piece = piece
        self.ask: CommandAsk = ask if ask is not None else legality.command_ask(piece)
        self.rest: tuple[Action, ...] = ()  # (set once worked out: `Cycle._turn_decision`)
        self.names: tuple[str, ...] = self.ask.questions.names
        self.start = self.steps = steps

    def restricted(self, actor: str) -> CommandOptions:
        """The same options, asked from the same verdicts, with `rest` kept to those of `actor`
        (the commands are all the deciding piece's)."""
        own = CommandOptions(self.legality, self.piece, self.start, self.ask)
        own.steps = self.steps
        own.rest = tuple([option for option in self.rest if option.actor == actor])
        return own

    # ---------------------------------------------------------------- asking
    def commands(self, names: frozenset[str]) -> list[Action]:
        """The legal actions of the commands named, in the decision's order."""
        own = self.names
        offered = self.ask.offered
        unasked = [index for index in range(len(own)) if own[index] in names and offered[index] is None]
        if unasked:
            self._ask(unasked)
        legal: list[Action] = []
        for index in range(len(own)):
            if own[index] in names:
                asked = offered[index]
                assert asked is not None
                legal += asked
        return legal

    def first_commands(self, most: int) -> list[Action]:
        """The first `most` legal actions among the commands, in order (fewer when there are fewer)."""
        legal: list[Action] = []
        offered = self.ask.offered
        for index in range(len(offered)):
            asked = offered[index]
            if asked is None:
                self._ask((index,))
                asked = offered[index]
                assert asked is not None
            legal += asked
            if len(legal) >= most:
                return legal[:most]
        return legal

    def any_command(self) -> bool:
        """Whether any command has a legal action. Asking is pure, so the commands may be asked in
        any order: those already asked first, then the one found legal last time, then the rest."""
        ask = self.ask
        offered = ask.offered
        for asked in offered:
            if asked:
                return True
        kept = ask.kept
        last = kept.legal_last
        if offered[last] is None:
            self._ask((last,))
            if offered[last]:
                return True
        for index in range(len(offered)):
            if offered[index] is None:
                self._ask((index,))
                if offered[index]:
                    kept.legal_last = index
                    return True
        return False

    def first(self) -> Action | None:
        """The decision's first option, if any."""
        found = self.first_commands(1)
        if found:
            return found[0]
        return self.rest[0] if self.rest else None

    def whole(self) -> tuple[Action, ...]:
        offered = self.ask.offered
        if None in offered:
            self._ask(range(len(offered)))  # (those already asked are not asked again)
        legal: list[Action] = []
        for asked in offered:
            assert asked is not None
            legal += asked
        return tuple(legal) + self.rest

    def offers(self, action: Action) -> bool:
        if action.kind == COMMAND and action.actor == self.piece.label:
            place = self.ask.questions.places.get(action.name or "")
            if place is not None:
                asked = self.ask.offered[place]
                if asked is None:
                    self._ask((place,))
                    asked = self.ask.offered[place]
                return asked is not None and action in asked
        return action in self.rest

    def _ask(self, indexes: Sequence[int]) -> None:
        """Work out the legal actions of the commands at `indexes` (kept in the ask), asked now as they
        would have been when the decision was reached (the interpreter's steps as they were then);
        a fault raises `OptionsFaulted`."""
        interpreter: Interpreter = self.legality.interpreter
        now = interpreter.steps
        interpreter.steps = self.steps
        try:
            self.legality.ask_commands(self.ask, indexes)
        except ScriptRuntimeError as error:
            raise OptionsFaulted(error.diagnostics[0].message) from error
        finally:
            self.steps = interpreter.steps
            interpreter.steps = now
