"""A piece's card, as the board shows it when the piece is clicked: its status, place and facing,
its traits, the condition of each location and its states, each by the name its declaration gives
(`stat WILL "Willpower"`, `state prone "Prone"`), with what it holds.

Built from a step's `HelotView` (`workbench.testrun`); names come from the loaded packs, so a game
of other pieces and stats reads in its own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..model.ruleset import Ruleset
from .testrun import HelotView

__all__ = ["PieceCard", "name_of", "piece_card"]


@dataclass(frozen=True)
class PieceCard:
    label: str
    status: str
    facts: tuple[tuple[str, str], ...]  # (what, value): place, overall condition, weapon, ...
    traits: tuple[tuple[str, int], ...]  # (name, value)
    locations: tuple[tuple[str, int], ...]  # (name, condition left)
    states: tuple[str, ...]  # names


def name_of(ruleset: Ruleset, ident: str) -> str:
    """What the packs call `ident`: its declaration's name, or its data item's `name`; else the id
    in words (`left_upper` -> `left upper`)."""
    for item in ruleset.find(ident):
        declaration = getattr(item, "declaration", None)
        if declaration is not None and declaration.name:
            return str(declaration.name)
        data = getattr(item, "data", None)
        if isinstance(data, Mapping) and data.get("name"):
            return str(data["name"])
    return ident.replace("_", " ")


def _named_list(ruleset: Ruleset, idents: tuple[str, ...]) -> str:
    return ", ".join(name_of(ruleset, ident) for ident in idents) or "none"


def piece_card(ruleset: Ruleset, piece: HelotView) -> PieceCard:
    facts = [("At", f"[{piece.at[0]}, {piece.at[1]}], facing {piece.facing}"),
             ("Overall condition", str(piece.overall)),
             ("Points", f"{piece.ap} AP, {piece.mp} MP"),
             ("Weapon", name_of(ruleset, piece.weapon) if piece.weapon else "none"),
             ("Cred", str(piece.cred))]
    if piece.motivation:
        facts.append(("Motivation", name_of(ruleset, piece.motivation)))
    if piece.lanista:
        facts.append(("Lanista", name_of(ruleset, piece.lanista)))
    facts.append(("Hand", _named_list(ruleset, piece.influence)))
    return PieceCard(
        label=piece.label, status=piece.status, facts=tuple(facts),
        traits=tuple((name_of(ruleset, trait), value) for trait, value in piece.traits.items()),
        locations=tuple((name_of(ruleset, location), value) for location, value in piece.locations.items()),
        states=tuple(name_of(ruleset, state) for state in piece.states),
    )
