"""What a playtest says beside a choice so that no one chooses blind: the cards of a deal to keep
(how many, each by its face, in an order that stays put between picks), what a round control is
and costs (from the declaration the control is named after), and the warnings that ask before a
costly mistake (an attack at poor odds among them: its levels from the engine, `Bout.roll_levels`,
its chance exact, `odds.py`). Everything is read from the bout and the content, never decided here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
import re
from typing import Any, Mapping, Sequence

from ..cards import CardFace, script_face
from ..engine.actions import ABILITY, CARD, CHOICE, COMMAND, END_ROUND, Action
from ..engine.cycle import KEEP_DECISION
from ..errors import NexusError
from ..model.ruleset import ScriptItem
from .odds import matchup_odds, pool_text
from .playtest import RESOURCE_WORDS, OptionButton, PlaySession

__all__ = ["POOR_ODDS", "KeepPrompt", "attack_odds_warning", "control_help", "keep_prompt", "warnings_before"]

KEEP_CHOICE = "keep_card"
# A cost paid from the piece's own condition (what it loses to damage and dies of) asks first from
# this amount on: the smaller ones (a Wild Attack's 1) are everyday play, and the other reserves
# (traits, cred) are spent to be used.
ASK_FROM = 2
ASK_RESOURCES = ("overall",)
# An action whose opposed roll succeeds less often than this asks first, with its chance.
POOR_ODDS = Fraction(35, 100)


@dataclass(frozen=True)
class KeepPrompt:
    """A deal to keep cards from: `remaining` more to keep of `total`; `offered` the cards that may
    be kept now (by their faces, sorted by name so a pick never moves the others), `kept` those
    already kept."""

    zone: str
    total: int
    remaining: int
    offered: tuple[tuple[CardFace, OptionButton], ...]
    kept: tuple[CardFace, ...]


def keep_prompt(session: PlaySession, viewer: str) -> KeepPrompt | None:
    """The viewer's deal to keep cards from, when the pending decision is one; else None."""
    pending = session.pending_decision()
    if pending is None or pending.actor != viewer or not pending.kind.startswith(KEEP_DECISION):
        return None
    zone = pending.kind[len(KEEP_DECISION):]
    piece = session.bout.state.pieces[viewer]
    buttons = [b for b in session.buttons(viewer) if b.action.kind == CHOICE and b.action.name == KEEP_CHOICE]
    # How many the engine asks for: its own count (the setup's `keep`, else the profile's field).
    total = min(session.bout.cycle.keep_count(piece, zone), len(piece.hand) + len(buttons))
    offered = sorted(((card_face(session, str(b.action.arg("card"))), b) for b in buttons),
                     key=lambda pair: (pair[0].name, pair[0].id))
    kept = tuple(card_face(session, card) for card in piece.hand)
    return KeepPrompt(zone, total, max(total - len(kept), 0), tuple(offered), kept)


def card_face(session: PlaySession, ident: str) -> CardFace:
    """A card's face as the card browser shows it (its name, its text, its rules from the script)."""
    for item in session.ruleset.find(ident):
        if isinstance(item, ScriptItem):
            return script_face(item, dict(session.ruleset.settings), session.ruleset)
    return CardFace(ident, "card", ident.replace("_", " "), None)


def control_help(session: PlaySession, action: Action) -> str | None:
    """One line on what a round control is, from the declaration whose id it is named after (a
    `block_X` control after `X`), the rule params its text names given as their values, and what
    its actor holds of it: "Deception: Dictate an opponent's ... (blue holds 2)"."""
    name = action.name or ""
    for ident in dict.fromkeys((name, name.split("_", 1)[-1])):
        declaration = session.ruleset.declaration("stat", ident)
        if declaration is None:
            continue
        text = _with_params(_text_of(declaration), session.ruleset.settings)
        held = _held(session, action.actor, ident)
        line = f"{declaration.name}: {text}" if text else declaration.name
        return line + (f" ({action.actor} holds {held})" if held is not None else "")
    return None


def _text_of(declaration: Any) -> str | None:
    prop = declaration.property("text")
    value = prop.values[0] if prop and prop.values else None
    return getattr(value, "value", None) if isinstance(getattr(value, "value", None), str) else None


def _with_params(text: str | None, settings: Mapping[str, Any]) -> str | None:
    """A declaration's text with the rule params it names by id given as their values."""
    if text is None:
        return None
    return re.sub(r"[a-z][a-z0-9_]*", lambda word: str(settings.get(word.group(), word.group()))
                  if "_" in word.group() and isinstance(settings.get(word.group()), int) else word.group(), text)


def _held(session: PlaySession, label: str, stat: str) -> int | None:
    bout = session.bout
    piece = bout.state.pieces.get(label)
    if piece is None:
        return None
    try:
        value = bout.piece_attribute(piece, stat)
    except (NexusError, KeyError, AttributeError):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def warnings_before(session: PlaySession, viewer: str, option: OptionButton,
                    playable: Sequence[OptionButton] = ()) -> list[str]:
    """What to ask before `option` is taken (nothing: take it at once). Ending the round with
    points unspent or with cards that could be played now; an opposed roll at poor odds (see
    `attack_odds_warning`); a cost paid from the piece's condition (see `ASK_FROM`), with what it
    would leave."""
    found: list[str] = []
    action = option.action
    if action.kind == END_ROUND:
        unspent = session.unspent_points(viewer)
        if unspent:
            found.append("ending the round now leaves " + " and ".join(f"{n} {p}" for p, n in unspent.items())
                         + " unspent")
        cards = list(dict.fromkeys(b.label for b in playable if b.action.kind == CARD))
        if cards:
            found.append(f"{viewer} could still play {', '.join(cards)} now")
    odds = attack_odds_warning(session, action)
    if odds is not None:
        found.append(odds)
    for amount, resource in option.cost:
        if resource not in ASK_RESOURCES or amount < ASK_FROM:
            continue
        held = _held(session, viewer, resource)
        left = f" ({held} now, {held - amount} after)" if held is not None else ""
        found.append(f"{option.label} costs {amount} {RESOURCE_WORDS.get(resource, resource)}{left}")
    return found


def attack_odds_warning(session: PlaySession, action: Action) -> str | None:
    """"Wild Attack hits about 27% of the time (your 3d6 keeping the lowest two against blue's 2d6)"
    when the opposed roll `action` would make succeeds less often than `POOR_ODDS`: the levels as
    the engine works them out before any die is rolled (`Bout.roll_levels`, the rules that slide
    them included), the chance exact (`odds.matchup_odds`). Nothing for an action that makes no
    opposed roll, whose levels hang on chance, or with a side fixed at a total or beyond the
    scale's three SDS."""
    if action.kind not in (COMMAND, ABILITY, CARD):
        return None
    levels = session.bout.roll_levels(action)
    if levels is None or levels.fixed:
        return None
    try:
        chance = matchup_odds(levels.attack, levels.defense).success
    except ValueError:  # a house rule's scale wider than the odds are worked out for
        return None
    if chance >= POOR_ODDS:
        return None
    declaration = session.declaration(action)
    name = declaration.name if declaration is not None and declaration.name else "This attack"
    return (f"{name} hits about {round(chance * 100)}% of the time (your {pool_text(levels.attack)} "
            f"against {levels.defender}'s {pool_text(levels.defense)})")
