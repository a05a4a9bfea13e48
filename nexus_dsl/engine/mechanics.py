"""Mechanisms the rule scripts build on: coin piles, damage, states, movement, events.

Every coin that moves goes through `transfer_coins`, which logs it with its source and destination
pile, so the ledger can prove after every event that no coin was created or lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import Diagnostic, ScriptRuntimeError
from .board import Direction, RelDir, Square, rotate
from .interpreter import Env, Run
from .state import Helot, Status

if TYPE_CHECKING:
    from .bout import Bout

Pile = tuple  # ("crowd",) ("box",) ("cred", label) ("overall", label) ("location", label, loc)
CROWD: Pile = ("crowd",)
BOX: Pile = ("box",)


def pile_name(pile: Pile) -> str:
    return ":".join(pile)


class DamageFrame:
    """A hit about to land, while `damage_incoming` listeners may reduce it."""

    __slots__ = ("amount",)

    def __init__(self, amount: int):
        self.amount = amount


class Mechanics:
    """Mixin of `Bout`: the physical operations of the game."""

    # ---------------------------------------------------------------- coins
    def _pile_amount(self: Bout, pile: Pile) -> int:
        kind = pile[0]
        if kind == "crowd":
            return self.state.crowd
        if kind == "box":
            return 10**9  # the box never runs out
        helot = self.state.helots[pile[1]]
        if kind == "cred":
            return helot.cred
        if kind == "overall":
            return helot.overall
        return helot.locations[pile[2]]

    def _pile_add(self: Bout, pile: Pile, amount: int) -> None:
        kind = pile[0]
        if kind == "crowd":
            self.state.crowd += amount
        elif kind == "box":
            self.state.box_drawn -= amount
        else:
            helot = self.state.helots[pile[1]]
            if kind == "cred":
                helot.cred += amount
            elif kind == "overall":
                helot.overall += amount
            else:
                helot.locations[pile[2]] += amount

    def transfer_coins(self: Bout, amount: int, source: Pile, dest: Pile, reason: str) -> int:
        """Move up to `amount` coins (as many as the source holds). Returns how many moved."""
        moved = max(0, min(amount, self._pile_amount(source)))
        if moved == 0 or source == dest:
            return 0
        self._pile_add(source, -moved)
        self._pile_add(dest, moved)
        self.emit("coins", amount=moved, source=pile_name(source), dest=pile_name(dest), reason=reason)
        return moved

    def as_pile(self: Bout, value: Any) -> Pile:
        if isinstance(value, Helot):
            return ("cred", value.label)
        if value == "crowd":
            return CROWD
        if value == "box":
            return BOX
        raise self.runtime_error("wrong_type", f"{value!r} is not a coin pile")

    # ---------------------------------------------------------------- damage
    def deal_damage(self: Bout, victim: Helot, amount: int, *, location: str | None = None,
                    to: Any = None, source: Helot | None = None, reason: str = "damage") -> Run:
        """Damage a helot. A location hit also hits overall condition unless that location was
        already depleted (pg.26). The coins go to `to`, else to the source helot's lanista, else
        to the crowd (damage from hazards, cards and the crowd itself, pg.12)."""
        amount = max(0, amount)
        if amount == 0 or victim.status == Status.DEAD:
            return
        # Rules may soften a hit before it lands (a shield on the struck location, armour...).
        incoming = DamageFrame(amount)
        self.damage_frames.append(incoming)
        try:
            yield from self.fire("damage_incoming", victim=victim, attacker=source, amount=amount, location=location)
        finally:
            self.damage_frames.pop()
        amount = max(0, incoming.amount)
        if amount == 0:
            self.emit("damage", victim=victim.label, amount=0, location=location, location_taken=0, overall_taken=0,
                      to=None)
            return
        frame = yield from self.open_window("before_damage", victim, victim=victim, amount=amount, attacker=source)
        spare_overall = frame.prevented  # `ignore_overall` (e.g. Merely a Flesh Wound) spares overall
        if to is not None:
            credit = self.as_pile(to)
        elif source is not None and source != victim:
            credit = ("cred", source.label)
        else:
            credit = CROWD
        location_taken = 0
        hits_overall = True
        was_depleted = False
        if location is not None:
            before = victim.locations[location]
            was_depleted = before == 0
            hits_overall = not was_depleted
            location_taken = self.transfer_coins(amount, ("location", victim.label, location), credit, reason)
        overall_taken = 0
        if hits_overall and not spare_overall:
            overall_taken = self.transfer_coins(amount, ("overall", victim.label), credit, reason)
        if credit[0] == "cred":
            self.state.helots[credit[1]].cred_gained += location_taken + overall_taken
        self.emit("damage", victim=victim.label, amount=amount, location=location,
                  location_taken=location_taken, overall_taken=overall_taken, to=pile_name(credit))
        yield from self.fire("damage_dealt", victim=victim, attacker=source, amount=amount, location=location)
        if location is not None and not was_depleted and victim.locations[location] == 0:
            yield from self.fire("location_depleted", victim=victim, attacker=source, location=location)
        yield from self.update_status(victim, source)

    def update_status(self: Bout, victim: Helot, source: Helot | None) -> Run:
        """Killed when a fatal location is empty; incapacitated when overall condition is (pg.13)."""
        if victim.status == Status.DEAD:
            return
        fatal = self.ruleset.settings.get("fatal_locations", ())
        if any(victim.locations.get(loc, 1) <= 0 for loc in fatal):
            was_incapacitated = victim.status == Status.INCAPACITATED
            victim.status = Status.DEAD
            self.emit("status", helot=victim.label, status="dead", attacker=source.label if source else None)
            yield from self.fire("helot_killed", victim=victim, attacker=source, was_incapacitated=was_incapacitated)
        elif victim.overall <= 0 and victim.status == Status.FIGHTING:
            victim.status = Status.INCAPACITATED
            self.emit("status", helot=victim.label, status="incapacitated", attacker=source.label if source else None)
            yield from self.fire("helot_incapacitated", victim=victim, attacker=source)

    # ---------------------------------------------------------------- states and movement
    def has_state(self: Bout, helot: Any, state: str) -> bool:
        if not isinstance(helot, Helot):
            return False
        if state in ("incapacitated", "dead"):
            return helot.status.value == state
        if state == "prone" and helot.status == Status.INCAPACITATED:
            return True  # an incapacitated helot is prone (pg.26)
        return state in helot.states

    def add_state(self: Bout, helot: Helot, state: str, by: Helot | None = None) -> Run:
        if state in ("incapacitated", "dead"):
            raise self.runtime_error("wrong_type", f"`{state}` is an end state, set by damage, not by `add_state`")
        if state not in helot.states and helot.status != Status.DEAD:
            helot.states.add(state)
            self.emit("state", helot=helot.label, added=state)
            yield from self.fire("state_added", self=helot, state=state, by=by, cause=by)

    def remove_state(self: Bout, helot: Helot, state: str) -> Run:
        if state in helot.states:
            helot.states.discard(state)
            self.emit("state", helot=helot.label, removed=state)
            yield from self.fire("state_removed", self=helot, state=state)

    def absolute_direction(self: Bout, helot: Helot, direction: str) -> Direction:
        if direction in Direction.__members__:
            return Direction[direction]
        return RelDir[direction].absolute(helot.facing)

    def square_towards(self: Bout, helot: Helot, direction: str) -> Square | None:
        return self.state.grid.step(helot.square, self.absolute_direction(helot, direction))

    def blocked(self: Bout, square: Square | None, ignore: Helot | None = None) -> bool:
        """Off the board (the wall), an object that blocks, or another helot."""
        if square is None or not self.state.grid.contains(square):
            return True
        if any(self.ruleset.object_flags(obj).get("blocks", False) for obj in self.state.objects_at(square)):
            return True
        other = self.state.helot_at(square)
        return other is not None and other != ignore

    def move_helot(self: Bout, helot: Helot, direction: str, mover: Helot | None = None,
                   into_hazards: bool = False) -> Run:
        """Step one square. A helot stepping on its own (not pushed or dragged) opens the
        `before_move` window, where an effect may `prevent` the step (e.g. Tripping)."""
        target = self.square_towards(helot, direction)
        if self.blocked(target, ignore=helot):
            self.emit("blocked", helot=helot.label, direction=direction)
            return
        assert target is not None
        if mover is None or mover == helot:
            frame = yield from self.open_window("before_move", helot, mover=helot)
            if frame.prevented:
                self.emit("move_prevented", helot=helot.label)
                return
        yield from self.place_helot(helot, target, direction=direction, mover=mover if mover != helot else None)

    def place_helot(self: Bout, helot: Helot, square: Square, direction: str | None = None,
                    mover: Helot | None = None) -> Run:
        origin = helot.square
        helot.square = square
        self.emit("move", helot=helot.label, source=origin.as_list(), dest=square.as_list(), facing=helot.facing.name)
        yield from self.fire("helot_moved", self=helot, origin=origin, direction=direction, mover=mover)

    def rotate_helot(self: Bout, helot: Helot, side: str, mover: Helot | None = None) -> Run:
        if side not in ("left", "right"):
            raise self.runtime_error("wrong_type", f"a helot rotates `left` or `right`, not `{side}`")
        helot.facing = rotate(helot.facing, side)
        self.emit("rotate", helot=helot.label, facing=helot.facing.name)
        yield from self.fire("helot_rotated", self=helot, mover=mover if mover != helot else None)

    # ---------------------------------------------------------------- events
    def fire(self: Bout, event: str, /, **names: Any) -> Run:
        """Run every `when <event>` listener: rules, abilities, weapons and cards in load order, then
        the barge's hazards in their activation order, left to right (pg.15, pg.40)."""
        listeners = self.listeners.get(event, ())
        if not listeners:
            return
        if self.trigger_depth >= self.limits.max_trigger_depth:
            raise self.runtime_error("budget_exceeded", f"events nested more than {self.limits.max_trigger_depth} deep at `{event}`")
        self.trigger_depth += 1
        try:
            for declaration, when in listeners:
                if declaration.kind == "hazard" and not self.hazard_active(declaration):
                    continue
                for owner in self.listeners_for(declaration):
                    bound = dict(names)
                    if owner is not None:
                        bound["self"] = owner  # in an owned declaration `self` is always its owner
                    env = Env(bound, self.declaration_env(declaration), source=owner)
                    if when.condition is not None and not self.interpreter.evaluate(when.condition, env):
                        continue
                    yield from self.interpreter.execute(when.body, env)
        finally:
            self.trigger_depth -= 1

    def listeners_for(self: Bout, declaration: Any) -> list[Helot | None]:
        """Who a `when` clause listens for: rules, hazards and Turning Point cards for the whole
        bout; abilities, weapons and influence cards for each helot that owns them. A rule with a
        `motivation` property (a motivation's talent) listens for each helot of that motivation."""
        if declaration.kind in ("hazard", "turning_point") or declaration.kind == "rule" and declaration.property("motivation") is None:
            return [None]
        return [h for h in self.state.helots.values() if self.owns(h, declaration)]

    def owns(self: Bout, helot: Helot, declaration: Any) -> bool:
        if declaration.kind == "weapon":
            return helot.weapon == declaration.id
        return self.owns_ability(helot, declaration)

    def runtime_error(self: Bout, code: str, message: str) -> ScriptRuntimeError:
        return ScriptRuntimeError(Diagnostic(f"runtime/{code}", message, "<engine>"))

