"""What `nexus print` prints: the card faces and barges chosen from the loaded packs, as pages.

Faces are chosen by id (`--cards`) and by kind (`--kinds`), both at once if asked (ids first, in
the order given, then each kind's faces; a face chosen twice is printed once). Asking for nothing
prints the faces players handle: every kind drawn as a card (`PLAYING_KINDS`), lanistas and
motivations; not the game's structure (its rules, events, windows, stats, states...), which
`--kinds` still prints by name. Barges (the game's board layouts) are printed one a page, all of
them or those named. A name that is not in the packs stops the print with a suggestion, before
anything is drawn.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Sequence

from ..cards import CardFace, all_faces, card_types
from ..cards.faces import data_face, script_face
from ..errors import did_you_mean
from ..model.ruleset import DataItem, Ruleset, ScriptItem
from .barge_page import barge_page
from .card_svg import A4, PageSize, drawn_as, sheet_pages

__all__ = ["ALL_BARGES", "PLAYING_KINDS", "PrintChoiceError", "Printout", "choose"]

# The built-in kinds a declaration is drawn as when it is a card players hold or play; a kind a
# pack declares counts by the kind it is like (the base game's turning_point is a drawn_card).
PLAYING_KINDS = ("command", "trait_ability", "hazard", "drawn_card", "hand_card", "weapon", "card")
PLAYING_DATA = ("lanistas", "motivations")
ALL_BARGES = "all"


class PrintChoiceError(ValueError):
    """An option names something the loaded packs do not hold, or chooses nothing."""


def _unknown(what: str, value: str, known: Sequence[str]) -> PrintChoiceError:
    hint = did_you_mean(value, known)
    return PrintChoiceError(f"unknown {what} `{value}`" + (f" ({hint})" if hint else ""))


@dataclass(frozen=True)
class Printout:
    """The faces and barges chosen, in print order."""

    faces: tuple[CardFace, ...]
    barges: tuple[DataItem, ...]

    def pages(self, ruleset: Ruleset, size: PageSize = A4) -> list[ET.Element]:
        """The sheets of faces, nine a page with crop marks, then one page a barge."""
        return (sheet_pages([drawn_as(ruleset, face) for face in self.faces], size)
                + [barge_page(barge, ruleset, size) for barge in self.barges])


def _face(item: ScriptItem | DataItem, ruleset: Ruleset) -> CardFace:
    if isinstance(item, ScriptItem):
        return script_face(item, dict(ruleset.settings), ruleset)
    return data_face(item, ruleset)


def _by_id(ruleset: Ruleset, ids: Sequence[str]) -> list[CardFace]:
    known = {ident for items in ruleset.scripts.values() for ident in items} | {
        ident for items in ruleset.data.values() for ident in items}
    for ident in ids:
        if ident not in known:
            raise _unknown("card", ident, sorted(known))
    return [_face(item, ruleset) for ident in ids for item in ruleset.find(ident)]


def _kind_matches(face: CardFace, kind: str, ruleset: Ruleset) -> bool:
    """`kind` as `nexus cards --type` takes it (a data type with or without its `s`), or the
    built-in kind a declared kind is drawn as."""
    return kind in (face.kind, face.kind.rstrip("s"), ruleset.words.base_kind(face.kind))


def _by_kind(ruleset: Ruleset, faces: Sequence[CardFace], kinds: Sequence[str]) -> list[CardFace]:
    known = card_types(ruleset)
    for kind in kinds:
        if kind not in known:
            raise _unknown("kind", kind, known)
    return [face for kind in kinds for face in faces if _kind_matches(face, kind, ruleset)]


def _playing(ruleset: Ruleset, faces: Sequence[CardFace]) -> list[CardFace]:
    return [face for face in faces
            if face.kind in PLAYING_DATA or ruleset.words.base_kind(face.kind) in PLAYING_KINDS]


def _barges(ruleset: Ruleset, ids: Sequence[str]) -> list[DataItem]:
    layouts = ruleset.game.layouts
    if not layouts:
        raise PrintChoiceError(f"the game of the packs {', '.join(ruleset.pack_ids)} has no board layouts to print")
    items = ruleset.data.get(layouts, {})
    if list(ids) == [ALL_BARGES]:
        return list(items.values())
    for ident in ids:
        if ident not in items:
            raise _unknown(ruleset.game.layout_word, ident, sorted(items))
    return [items[ident] for ident in ids]


def choose(ruleset: Ruleset, cards: Sequence[str] = (), kinds: Sequence[str] = (),
           barges: Sequence[str] | None = None) -> Printout:
    """The faces and barges the options name (`barges`: None for none, [ALL_BARGES] for every one);
    with no cards, kinds nor barges named, the faces players handle. Raises PrintChoiceError for
    a name the packs do not hold, or a choice that finds nothing to print."""
    every = all_faces(ruleset)
    if cards or kinds:
        chosen = _by_id(ruleset, cards) + _by_kind(ruleset, every, kinds)
    else:
        chosen = [] if barges is not None else _playing(ruleset, every)
    unique = list({(face.kind, face.id): face for face in chosen}.values())
    printout = Printout(tuple(unique), tuple(_barges(ruleset, barges) if barges is not None else ()))
    if not printout.faces and not printout.barges:
        raise PrintChoiceError(f"nothing to print: the packs {', '.join(ruleset.pack_ids)} hold none of "
                               f"{', '.join(kinds) or 'the cards chosen'}")
    return printout
