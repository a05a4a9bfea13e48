"""The legal actions of a decision arranged for acting on the drawn board: click a piece, then a
square or another piece, and the commands that apply there appear with their costs.

Nothing here decides what is legal: the options are the engine's enumeration of the pending
decision (`PlaySession.buttons`), only regrouped. An action is placed where it aims:

* at a piece, when one of its arguments names a piece on the board (`target`, most often);
* at a square, when one of its arguments is a square, or when it moves the piece that acts: the
  engine's own preview (`Bout.previews`, on a copy with dice of its own, so it foresees no roll)
  says where the piece would stand; a move that hinges on a roll the preview lost, or a turn on the
  spot, stays beside the board;
* beside the board otherwise: the round's controls (allocating points, a deception, ending the
  round), whatever they name, and what a piece does to itself (a turn, an ability on oneself).

Each action is then reached by exactly one path: piece -> target -> command -> the values of the
arguments still open (`Offer.steps`), chosen one after another (`Offer.values` offers only the
values some legal action still has after the choices so far).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from ..engine.actions import ABILITY, CARD, COMMAND, Action
from ..engine.board import Square
from ..errors import NexusError
from . import board_svg
from .board_svg import piece_target
from .playtest import OptionButton, OptionGroup, PlaySession

__all__ = ["BoardChoices", "Offer", "board_choices", "piece_target", "square_target"]

# What a piece does to the board; the round's controls (allocating, a Deception, ending the round,
# passing) are about the round, and stay beside the board whatever they name.
AIMED_KINDS = (COMMAND, ABILITY, CARD)


def square_target(square: Square) -> str:
    """The board's name for a square (what a click on it reports: `board_svg.square_target`)."""
    return board_svg.square_target(square.col, square.row)


@dataclass(frozen=True)
class Offer:
    """One command (or ability, or card) used by one piece on one target, with every legal action of
    it there; `steps` are the arguments whose values still differ between those actions, in the
    order the actions hold them, `aim` the argument that named the target (None for a move)."""

    command: str
    title: str
    options: tuple[OptionButton, ...]
    steps: tuple[str, ...]
    aim: str | None

    def matching(self, chosen: Mapping[str, Any]) -> tuple[OptionButton, ...]:
        """The options that agree with every value chosen so far."""
        return tuple(option for option in self.options
                     if all(option.action.arg(name) == value for name, value in chosen.items()))

    def values(self, step: str, chosen: Mapping[str, Any]) -> list[Any]:
        """The values of `step` some legal action still has after `chosen`, in the engine's order."""
        return list(dict.fromkeys(option.action.arg(step) for option in self.matching(chosen)))

    def next_step(self, chosen: Mapping[str, Any]) -> str | None:
        """The first argument not chosen yet, or None when `chosen` names one action."""
        return next((step for step in self.steps if step not in chosen), None)

    def chosen_action(self, chosen: Mapping[str, Any]) -> OptionButton | None:
        """The one action `chosen` names once every step is chosen."""
        matching = self.matching(chosen)
        return matching[0] if len(matching) == 1 and self.next_step(chosen) is None else None

    def cost_range(self) -> str:
        """What the offer costs: one cost, or the cheapest and dearest when the choices change it."""
        costs = list(dict.fromkeys(option.cost_text for option in self.options))
        if len(costs) == 1:
            return costs[0]
        return f"{costs[0]} to {costs[-1]}"


@dataclass(frozen=True)
class BoardChoices:
    """A viewer's options in the pending decision: `aimed[piece][target]` the offers a piece has at a
    target (`piece:LABEL` or `sq:COL,ROW`), `beside` the options that aim at nothing on the board."""

    aimed: Mapping[str, Mapping[str, tuple[Offer, ...]]]
    beside: tuple[OptionGroup, ...]

    def pieces(self) -> list[str]:
        """The pieces that can act on some target (what may be clicked first)."""
        return list(self.aimed)

    def targets(self, piece: str) -> list[str]:
        return list(self.aimed.get(piece, {}))

    def offers(self, piece: str, target: str) -> tuple[Offer, ...]:
        return tuple(self.aimed.get(piece, {}).get(target, ()))

    def offer(self, piece: str, target: str, command: str) -> Offer | None:
        return next((offer for offer in self.offers(piece, target) if offer.command == command), None)

    def paths(self) -> Iterator[tuple[str, str, str, tuple[tuple[str, Any], ...], OptionButton]]:
        """Every action reachable on the board, with its path: piece, target, command, and the
        values chosen for the offer's steps, walked as a page walks them (`Offer.values`)."""
        for piece, targets in self.aimed.items():
            for target, offers in targets.items():
                for offer in offers:
                    for chosen, option in _walk(offer, {}):
                        yield piece, target, offer.command, tuple(chosen.items()), option


def _walk(offer: Offer, chosen: dict[str, Any]) -> Iterator[tuple[dict[str, Any], OptionButton]]:
    step = offer.next_step(chosen)
    if step is None:
        for option in offer.matching(chosen):
            yield chosen, option
        return
    for value in offer.values(step, chosen):
        yield from _walk(offer, {**chosen, step: value})


def board_choices(session: PlaySession, viewer: str) -> BoardChoices:
    """The viewer's legal actions placed on the board (see the module's words)."""
    pieces = session.bout.state.pieces
    beside: dict[str, list[OptionButton]] = {}
    aimed: dict[tuple[str, str, str], tuple[str | None, list[OptionButton]]] = {}
    destinations = _destinations(session, [b for group in session.options(viewer) for b in group.buttons])
    for group in session.options(viewer):
        for button in group.buttons:
            action = button.action
            aim = _aim(action, pieces) if action.kind in AIMED_KINDS else None
            target = (piece_target(str(action.arg(aim))) if aim is not None and action.arg(aim) in pieces
                      else square_target(action.arg(aim)) if aim is not None
                      else destinations.get(action))  # only commands have destinations
            if target is None:
                beside.setdefault(group.title, []).append(button)
                continue
            key = (action.actor, target, f"{action.kind}:{action.name}")
            aimed.setdefault(key, (aim, []))[1].append(button)
    arranged: dict[str, dict[str, tuple[Offer, ...]]] = {}
    for (piece, target, command), (aim, buttons) in aimed.items():
        offers = arranged.setdefault(piece, {}).setdefault(target, ())
        arranged[piece][target] = (*offers, _offer(command, aim, buttons, session))
    return BoardChoices(arranged, tuple(OptionGroup(title, tuple(buttons)) for title, buttons in beside.items()))


def _aim(action: Action, pieces: Mapping[str, Any]) -> str | None:
    """The argument naming another piece on the board, else one holding a square; None if neither."""
    for name, value in action.args:
        if isinstance(value, str) and value in pieces and value != action.actor:
            return name
    return next((name for name, value in action.args if isinstance(value, Square)), None)


def _offer(command: str, aim: str | None, buttons: Sequence[OptionButton], session: PlaySession) -> Offer:
    names = [name for name, _ in buttons[0].action.args if name != aim]
    steps = tuple(name for name in names if len({repr(b.action.arg(name)) for b in buttons}) > 1)
    declaration = session.declaration(buttons[0].action)
    title = declaration.name if declaration is not None and declaration.name else \
        (buttons[0].action.name or command).replace("_", " ").capitalize()
    return Offer(command, title, tuple(buttons), steps, aim)


def _destinations(session: PlaySession, buttons: Sequence[OptionButton]) -> dict[Action, str]:
    """Where each untargeted command would move the piece using it, by the engine's preview; a
    command that leaves it where it stands (or whose scripts fault in the preview) has none."""
    bout, found = session.bout, {}
    pieces = bout.state.pieces
    moving = [b.action for b in buttons if b.action.kind == COMMAND and b.action.actor in pieces
              and _aim(b.action, pieces) is None]
    if not moving:
        return {}
    with bout.previews() as previews:
        for action in moving:
            before = pieces[action.actor].square
            try:
                after = previews.preview(action).pieces[action.actor].square
            except NexusError:
                continue
            if after is not None and after != before:
                found[action] = square_target(after)
    return found
