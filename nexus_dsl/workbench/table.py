"""The table of a game played without a board (`game { pieces 0 }`, e.g. NEXUS Pirates): its zones
as one player sees them, or as the designer sees everything, in place of the board's picture.

`table_zones(snapshot, ruleset, viewer)` lists every zone the way a player at the table reads it:
the face-up shared zones first (the Nexus row, top card first), then each side's zones, each
player's, and last the shared zones face down (the Deck, as a count). A zone the viewer may not
see (another player's Hand, a face-down Score Zone) holds only its count; the viewer's visibility is
the engine's own (`views` in the snapshot, `engine.snapshot.player_view`), never worked out here.
`seen_events` hides from a log what the viewer may not see. `table_html` draws those zones as rows of small cards (`cards.card_label`).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..cards import card_label
from ..engine.bout import Bout, Event
from ..engine.causes import Cause
from ..engine.state import OwnedZone
from ..model.ruleset import Ruleset

#: The viewer who sees every card, hidden ones too: the designer stepping through a test run.
EVERYTHING = None


def has_board(ruleset: Ruleset) -> bool:
    """Whether the game is played with pieces on a board (NEXUS Arena) or by players alone."""
    return ruleset.game.pieces != 0


@dataclass(frozen=True)
class ZoneShown:
    """One zone as the viewer sees it: its cards (top first), or only how many it holds."""

    zone: str  # the zone's id
    title: str  # the zone's name, with its owner: "Hand of red"
    owner: str | None  # the player or side it belongs to; None for a shared zone
    cards: tuple[str, ...] | None  # None: hidden from the viewer
    count: int

    @property
    def hidden(self) -> bool:
        return self.cards is None

    def text(self, ruleset: Ruleset) -> str:
        """`The Nexus (5, top first): 7 skulls 1, Ship, ...`; a hidden zone: `Hand of blue: 4 cards, hidden`."""
        if self.cards is None:
            return f"{self.title}: {_cards(self.count)}, hidden"
        shown = ", ".join(label_of(ruleset, card) for card in self.cards) or "empty"
        order = ", top first" if len(self.cards) > 1 else ""
        return f"{self.title} ({self.count}{order}): {shown}"


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


def label_of(ruleset: Ruleset, card: str) -> str:
    """A card as it lies on the table, in a few words (`7 skulls 1`, `Ship`)."""
    return card_label(ruleset.declaration("card", card), card)


def viewed_zones(snapshot: Mapping[str, Any], viewer: str | None) -> Mapping[str, Any]:
    """The zones of a snapshot (`Bout.snapshot()`) as `viewer` sees them (its `views` entry), or
    every card of every zone for `EVERYTHING`."""
    if viewer is EVERYTHING:
        return snapshot.get("zones", {})
    return snapshot.get("views", {}).get(viewer, {}).get("zones", {})


def _place(ruleset: Ruleset, zone: str) -> int:
    """Where a zone comes on the table: face-up shared zones, sides', players', face-down shared."""
    words = ruleset.words.zones[zone]
    if words.owner is None:
        return 0 if words.visible != "none" else 3
    return 1 if words.owner == "side" else 2


def table_zones(snapshot: Mapping[str, Any], ruleset: Ruleset, viewer: str | None = EVERYTHING) -> list[ZoneShown]:
    """Every zone of the snapshot as `viewer` sees it (see the module's doc for the order)."""
    zones = viewed_zones(snapshot, viewer)
    declared = [zone for zone in ruleset.words.zones if zone in zones]
    shown: list[ZoneShown] = []
    for zone in sorted(declared, key=lambda z: _place(ruleset, z)):
        name = zone_name(ruleset, zone)
        held = zones[zone]
        if isinstance(held, Mapping):
            shown += [_shown(zone, f"{name} of {owner}", owner, cards) for owner, cards in held.items()]
        else:
            shown.append(_shown(zone, name, None, held))
    return shown


def _shown(zone: str, title: str, owner: str | None, held: Any) -> ZoneShown:
    if isinstance(held, int):
        return ZoneShown(zone, title, owner, None, held)
    return ZoneShown(zone, title, owner, tuple(held), len(held))


def zone_name(ruleset: Ruleset, zone: str) -> str:
    """A zone's name as its declaration gives it (`The Nexus`), else its id in words."""
    declaration = ruleset.declaration("zone", zone)
    return declaration.name if declaration is not None and declaration.name else zone.replace("_", " ")


#: How the log tells a card the viewer may not see.
HIDDEN_CARD = "a card"


def seen_events(events: Sequence[Event], bout: Bout, viewer: str | None) -> list[Event]:
    """The events as `viewer` may know them (None: someone who is no player): a card moved between
    zones the viewer sees neither of (from the Deck into another player's hand) is `HIDDEN_CARD`,
    so a log narrated from them never tells what the table hides; an explained bout's causes are
    kept, the card hidden in their values too (so the line's explanation does not tell it)."""
    players = bout.state.players
    side = players[viewer].side if viewer in players else None
    return [_masked(event, bout.ruleset, viewer, side) for event in events]


def _masked(event: Event, ruleset: Ruleset, viewer: str | None, side: str | None) -> Event:
    if event.type != "card_moved":
        return event
    data = event.data
    if any(_zone_seen(str(data.get(end, "")), ruleset, viewer, side) for end in ("origin", "destination")):
        return event
    hidden = event.with_data({**data, "card": HIDDEN_CARD})
    if event.cause is not None and data.get("card"):  # an explained bout's causes name the card in their values too
        card = re.compile(rf"`?\b{re.escape(str(data['card']))}\b`?")
        hidden.cause = tuple(Cause(cause.declaration, cause.node, tuple(card.sub(HIDDEN_CARD, value) for value in cause.values))
                             for cause in event.cause)
    return hidden


def _zone_seen(where: str, ruleset: Ruleset, viewer: str | None, side: str | None) -> bool:
    """Whether the viewer sees the cards of a zone as an event names it (`nexus`, `hand of red`)."""
    zone, owner = OwnedZone.named(where)
    words = ruleset.words.zones.get(zone)
    return words is not None and words.seen_by(owner, viewer, side)


def player_rows(ruleset: Ruleset, players: Mapping[str, Mapping[str, Any]],
                seats: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """One row per player of a snapshot's `players`: its seat (or who plays it, given `seats`),
    its side, and each stat it holds under the stat's name (`Score`)."""
    names = {d.id: d.name or d.id for d in ruleset.declarations("stat")}
    return [{"player": label, "seat": (seats or {}).get(label, player.get("seat")), "side": player.get("side"),
             **{names.get(stat, stat): value for stat, value in (player.get("stats") or {}).items()}}
            for label, player in players.items()]


# ---------------------------------------------------------------- drawn as HTML
_ROW = "display:flex;flex-wrap:wrap;gap:0.3em;align-items:center;margin:0.15em 0 0.6em 0"
_CARD = ("font-family:Georgia,serif;border:1px solid #5b4636;border-radius:5px;background:#f7f0e1;color:#2b2118;"
         "padding:0.15em 0.45em;min-width:2.2em;text-align:center")
_BACK = ("font-family:system-ui,sans-serif;border:1px dashed #7a5c3e;border-radius:5px;background:#e8dcc4;"
         "color:#5b4636;padding:0.15em 0.6em")
_TITLE = "font-family:system-ui,sans-serif;font-weight:bold;font-size:0.9em;margin:0.2em 0 0 0"


def table_html(shown: list[ZoneShown], ruleset: Ruleset) -> str:
    """The zones as rows of cards, each row titled; a hidden zone is one face-down stack with its count."""
    esc = html.escape
    parts = ['<div class="nexus-table">']
    for zone in shown:
        if zone.cards is None:
            cards = f'<span class="nexus-hidden" style="{_BACK}">{esc(_cards(zone.count))}, hidden</span>'
        elif zone.cards:
            cards = "".join(f'<span class="nexus-table-card" title="{esc(card)}" style="{_CARD}">'
                            f'{esc(label_of(ruleset, card))}</span>' for card in zone.cards)
        else:
            cards = '<span style="color:#8c7a66">empty</span>'
        order = " — top first" if zone.cards is not None and len(zone.cards) > 1 else ""
        parts.append(f'<p style="{_TITLE}">{esc(zone.title)} ({zone.count}{order})</p>'
                     f'<div style="{_ROW}">{cards}</div>')
    parts.append("</div>")
    return "\n".join(parts)


__all__ = ["EVERYTHING", "HIDDEN_CARD", "ZoneShown", "has_board", "label_of", "player_rows", "seen_events", "table_html", "table_zones",
           "viewed_zones", "zone_name"]
