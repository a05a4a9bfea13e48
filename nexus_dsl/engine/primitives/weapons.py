"""Weapon cards: the pile left, drawing one, equipping, wearing, spending and losing them."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...errors import ScriptRuntimeError
from ...model.ruleset import Ruleset
from ...syntax import ast_nodes as A
from ..conditions import Conditions
from ..events import Events
from ..interpreter import Run
from ..scope import Env
from ..setup import declared_number, weapon_word
from ..state import BoutState, Piece


class Host(Protocol):
    """What the words of weapons need of the bout."""

    state: BoutState
    ruleset: Ruleset
    events: Events
    conditions: Conditions

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def roll(self, purpose: str, sides: int = 6) -> int: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


def lose_weapon(host: Host, piece: Piece) -> Run:
    lost = piece.weapon
    piece.weapon = None
    piece.ammo = piece.durability = 0
    host.emit_line("weapon", {"actor": piece.label, "lost": lost})
    yield from host.conditions.remove_state(piece, "armed")
    yield from host.events.fire("weapon_lost", self=piece, weapon=lost)


def weapons_left(host: Host, env: Env, weapon_type: str) -> tuple[str, ...]:
    # The weapon pile (pg.3): the cards of that type, in load order, that no piece holds.
    held = {h.weapon for h in host.state.pieces.values() if h.weapon is not None}
    return tuple(w.id for w in host.ruleset.declarations("weapon")
                 if weapon_word(w, "type") == str(weapon_type) and w.id not in held)


def random_weapon(host: Host, env: Env, weapon_type: str) -> str | None:
    # A weapon card drawn at random from the pile. With one card left there is nothing to
    # roll; with none, none.
    cards = weapons_left(host, env, weapon_type)
    if len(cards) < 2:
        return cards[0] if cards else None
    return cards[host.roll("weapon_card", len(cards)) - 1]


def equip(host: Host, env: Env, node: A.Action, piece: Piece, **preps: Any) -> Run:
    weapon = host.ruleset.declaration("weapon", str(preps["with"]))
    if weapon is None:
        raise host.runtime_error("unknown_name", f"there is no weapon `{preps['with']}`")
    if piece.weapon is not None:
        yield from lose_weapon(host, piece)
    piece.weapon = weapon.id
    piece.ammo = declared_number(weapon, "ammo") or 0
    piece.durability = declared_number(weapon, "durability") or 0
    host.emit_line("weapon", {"actor": piece.label, "equipped": weapon.id})
    yield from host.conditions.add_state(piece, "armed")


def discard_weapon(host: Host, env: Env, node: A.Action, piece: Piece) -> Run:
    if piece.weapon is not None:
        yield from lose_weapon(host, piece)


def holster(host: Host, env: Env, node: A.Action, piece: Piece) -> Run:
    yield from host.conditions.remove_state(piece, "armed")


def unholster(host: Host, env: Env, node: A.Action, piece: Piece) -> Run:
    if piece.weapon is not None:
        yield from host.conditions.add_state(piece, "armed")


def spend_ammo(host: Host, env: Env, node: A.Action, piece: Piece) -> Run:
    piece.ammo = max(0, piece.ammo - 1)
    if piece.ammo == 0 and piece.weapon is not None:
        yield from lose_weapon(host, piece)


def wear_weapon(host: Host, env: Env, node: A.Action, piece: Piece) -> Run:
    piece.durability = max(0, piece.durability - 1)
    if piece.durability == 0 and piece.weapon is not None:
        yield from lose_weapon(host, piece)


FUNCTIONS: dict[str, Callable[..., Any]] = {"weapons_left": weapons_left, "random_weapon": random_weapon}
EFFECTS: dict[str, Callable[..., Any]] = {"equip": equip, "discard_weapon": discard_weapon, "holster": holster, "unholster": unholster, "spend_ammo": spend_ammo, "wear_weapon": wear_weapon}
