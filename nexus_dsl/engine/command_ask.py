"""What one decision has asked about the commands one piece may give (`Legality.command_ask`).

`Legality.legal_commands` asks every command in load order; an agent that looks at only some of
them (the heuristic agent judges attacks before moves, and moves only when no attack is legal)
asks for those alone (`Legality.ask_commands`). Asking is pure (no dice, nothing changed), so a
command's legal actions are the same whatever was asked before it; the verdicts the commands share
(a cost filter, a requirement, a target's verdicts, an argument's domain) are kept here for the
rest of the decision, as `legal_commands` keeps them while it goes through the list.
"""

from __future__ import annotations

from typing import Any

from .actions import Action
from .legality_plans import CommandQuestions, CommandSlots
from .state import Actor, Piece


class CommandAsk:
    """One decision's questions about the commands of `piece`: the answers to its numbered
    questions (`CommandQuestions`, None until asked), the verdicts of the requirements asked per
    target, the argument domains and resources looked up, and each command's legal actions once
    worked out (`offered`, by its place among `questions.entries`)."""

    __slots__ = ("questions", "kept", "piece", "label", "source", "bonus_ap", "answers", "fixed_verdicts",
                 "by_target", "seen", "held", "foes", "parts", "offered")

    def __init__(self, questions: CommandQuestions, kept: CommandSlots, piece: Actor, bonus_ap: bool) -> None:
        self.questions = questions
        self.kept = kept  # the bout's scopes of each command's questions, bound anew at each
        self.piece = piece
        self.label = piece.label
        self.source: Piece | None = piece if isinstance(piece, Piece) else None  # who acts, on the board
        self.bonus_ap = bonus_ap  # AP granted against a target: no quick cost filter
        # A cost filter's verdict is whether the piece can afford the costs.
        self.answers: list[bool | None] = [None] * questions.count
        self.fixed_verdicts: list[bool | None] = [None] * questions.fixed_count  # by `CommandEntry.fixed_at`
        self.by_target: dict[str, list[bool | None]] = {}  # the answers to the questions asked per target
        self.seen: dict[Any, list[Any]] = {}  # the argument domains commands share
        self.held: dict[str, int] = {}  # the resources the piece holds
        self.foes: list[Any] | None = None  # the pieces it may target (`Legality._targets`), once asked
        self.parts: list[Any] | None = None  # the parts worked out once for every target (`TargetMembership`)
        self.offered: list[list[Action] | None] = [None] * len(questions.entries)
