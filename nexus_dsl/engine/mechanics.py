"""Mechanisms the rule scripts build on: coin piles, damage, states, movement, grapples, events.

Every coin that moves goes through the ledger (`_move_coins`: `transfer_coins`, and the Turning
Point Counter's `mark_counter_coin` and `collect_counter_coins`), which logs it with its source and
destination pile, so the ledger can prove after every event that no coin was created or lost.

Helots affected together by one event are met from the triggering player clockwise (pg.15):
`helots_in_turn` is that order, used by the script functions that list helots and by the
listeners an event runs for each helot that owns them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import Diagnostic, ScriptRuntimeError
from .board import Direction, RelDir, Square, rotate
from .interpreter import Env, Run
from .state import Helot, Status

if TYPE_CHECKING:
    from .bout import Bout

Pile = tuple  # ("crowd",) ("box",) ("pile", name) ("cred", label) ("overall", label) ("location", label, loc) ("tp_counter", label)
CROWD: Pile = ("crowd",)
BOX: Pile = ("box",)


def pile_name(pile: Pile) -> str:
    return ":".join(pile)


def counter_pile(helot: Helot) -> Pile:
    """A helot's Turning Point Counter: one coin on each number marked (pg.15)."""
    return ("tp_counter", helot.label)


class DamageFrame:
    """A hit about to land, while `damage_incoming` listeners may reduce it."""

    __slots__ = ("amount",)

    def __init__(self, amount: int):
        self.amount = amount


class Mechanics:
    """Mixin of `Bout`: the physical operations of the game."""

    # ---------------------------------------------------------------- coins: the ledger
    def _pile_amount(self: Bout, pile: Pile) -> int:
        kind = pile[0]
        if kind == "crowd":
            return self.state.crowd
        if kind == "box":
            return 10**18  # the box never runs out (more than any amount a script may name)
        if kind == "pile":
            return self.state.piles[pile[1]]
        helot = self.state.helots[pile[1]]
        if kind == "cred":
            return helot.cred
        if kind == "overall":
            return helot.overall
        if kind == "tp_counter":
            return len(helot.tp_counter)
        return helot.locations[pile[2]]

    def _pile_add(self: Bout, pile: Pile, amount: int, slot: int | None = None) -> None:
        """Change one pile. Only the ledger (`_move_coins`) calls this: a coin taken from one pile
        is always put on another in the same step. A counter takes a coin on the number `slot`
        and gives up its coins lowest number first."""
        kind = pile[0]
        if kind == "crowd":
            self.state.crowd += amount
        elif kind == "box":
            self.state.box_drawn -= amount
        elif kind == "pile":
            self.state.piles[pile[1]] += amount
        else:
            helot = self.state.helots[pile[1]]
            if kind == "cred":
                helot.cred += amount
            elif kind == "overall":
                helot.overall += amount
            elif kind == "tp_counter":
                if amount > 0:
                    assert amount == 1 and slot is not None and slot not in helot.tp_counter
                    helot.tp_counter.add(slot)
                else:
                    for number in sorted(helot.tp_counter)[:-amount]:
                        helot.tp_counter.discard(number)
            else:
                helot.locations[pile[2]] += amount

    def _move_coins(self: Bout, moved: int, source: Pile, dest: Pile, reason: str, slot: int | None = None) -> None:
        """The ledger: `moved` coins (already known to be in `source`) go to `dest`, logged."""
        limit = self.limits.max_number
        if dest[0] != "box" and self._pile_amount(dest) + moved > limit:
            raise self.runtime_error("number_too_large", f"the pile `{pile_name(dest)}` would hold "
                                                         f"{self._pile_amount(dest) + moved} coins, beyond the limit of {limit}")
        self._pile_add(source, -moved)
        self._pile_add(dest, moved, slot)
        self.emit("coins", amount=moved, source=pile_name(source), dest=pile_name(dest), reason=reason)

    def transfer_coins(self: Bout, amount: int, source: Pile, dest: Pile, reason: str) -> int:
        """Move up to `amount` coins (as many as the source holds). Returns how many moved."""
        moved = max(0, min(amount, self._pile_amount(source)))
        if moved == 0 or source == dest:
            return 0
        if dest[0] == "tp_counter":
            raise self.runtime_error("bad_value", "coins reach a Turning Point Counter only by `mark_counter`")
        self._move_coins(moved, source, dest, reason)
        return moved

    def mark_counter_coin(self: Bout, helot: Helot, number: int, reason: str) -> None:
        """Mark `number` on the helot's Turning Point Counter with a coin from the crowd, or from the
        box when the crowd is empty (pg.12). A number already marked is left alone."""
        if number in helot.tp_counter:
            return
        source = CROWD if self.state.crowd > 0 else BOX
        self._move_coins(1, source, counter_pile(helot), reason, slot=number)

    def collect_counter_coins(self: Bout, helot: Helot, dest: Pile, reason: str) -> int:
        """Every coin of the helot's Turning Point Counter goes to `dest`; the counter starts again."""
        coins = len(helot.tp_counter)
        if coins == 0:
            self.emit("coins", amount=0, source=pile_name(counter_pile(helot)), dest=pile_name(dest), reason=reason)
            return 0
        if dest[0] == "tp_counter":
            raise self.runtime_error("bad_value", "a Turning Point Counter's coins cannot go to a counter")
        self._move_coins(coins, counter_pile(helot), dest, reason)
        return coins

    def as_pile(self: Bout, value: Any) -> Pile:
        if isinstance(value, Helot):
            return ("cred", value.label)
        if value == "crowd":
            return CROWD
        if value == "box":
            return BOX
        if isinstance(value, str) and value in self.state.piles:  # a pile content declares
            return ("pile", value)
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
        held = self.held_in_front(helot)
        helot.facing = rotate(helot.facing, side)
        self.emit("rotate", helot=helot.label, facing=helot.facing.name)
        if held is not None:
            yield from self._carry_round(helot, held, 2 if side == "right" else -2)
        yield from self.fire("helot_rotated", self=helot, mover=mover if mover != helot else None)

    def face_helot(self: Bout, helot: Helot, facing: Direction) -> Run:
        """Turn a helot to face a compass direction (a card or ability turning it)."""
        held = self.held_in_front(helot)
        turn = (facing.value - helot.facing.value) % 8
        helot.facing = facing
        self.emit("rotate", helot=helot.label, facing=helot.facing.name)
        if held is not None and turn:
            yield from self._carry_round(helot, held, turn)

    # ---------------------------------------------------------------- grapples (pg.21-23, ruling 85)
    def take_hold(self: Bout, holder: Helot, held: Helot) -> Run:
        """`holder` seizes `held`: one hold each; any other hold either was in is released first."""
        if holder == held:
            raise self.runtime_error("bad_value", f"{holder.label} cannot hold itself")
        if holder.grappling not in (None, held.label):
            yield from self.release_hold(self.state.helots[holder.grappling])
        if held.grappler not in (None, holder.label):
            yield from self.release_hold(held)
        held.grappler = holder.label
        holder.grappling = held.label
        yield from self.add_state(held, "grappled", by=holder)

    def release_hold(self: Bout, held: Helot) -> Run:
        """`held` is no longer Grappled, and its grappler holds no one."""
        holder = self.state.helots.get(held.grappler) if held.grappler is not None else None
        if holder is not None and holder.grappling == held.label:
            holder.grappling = None
        held.grappler = None
        yield from self.remove_state(held, "grappled")

    def held_in_front(self: Bout, grappler: Helot) -> Helot | None:
        """The helot `grappler` holds, if it stands where the hold keeps it: the grappler's
        front-centre square (where Grapple seized it and Drag keeps it, pg.21-22)."""
        if grappler.grappling is None:
            return None
        held = self.state.helots[grappler.grappling]
        front = self.state.grid.front_center(grappler.square, grappler.facing)
        return held if held.on_board and grappler.on_board and held.square == front else None

    def _carry_round(self: Bout, grappler: Helot, held: Helot, eighths: int) -> Run:
        """A grappler that turns carries its opponent round into its new front-centre square, the
        opponent turning with it (pg.22: "if rotation carries an opponent through a hazard, the
        opponent was carried over it"): the squares passed over do nothing, the one it is carried
        into is entered. With that square not free, the hold breaks."""
        target = self.state.grid.front_center(grappler.square, grappler.facing)
        if self.blocked(target, ignore=held):
            self.emit("hold_broken", helot=held.label, grappler=grappler.label, reason="turned away")
            yield from self.release_hold(held)
            return
        assert target is not None
        held.facing = held.facing.rotated(eighths)
        yield from self.place_helot(held, target, mover=grappler)

    def settle_grapples(self: Bout) -> Run:
        """Once a command, ability, card or event has resolved, every hold whose opponent no longer
        stands in its grappler's front-centre square breaks — pushed, knocked back, thrown,
        relocated, or either helot moved away by anything but a Drag or a turn that carries it
        (ruling 85). A Drag's two steps are one move: it is judged after both."""
        for grappler in self.helots_in_turn():
            if grappler.grappling is not None and self.held_in_front(grappler) is None:
                held = self.state.helots[grappler.grappling]
                self.emit("hold_broken", helot=held.label, grappler=grappler.label, reason="separated")
                yield from self.release_hold(held)
        for held in self.helots_in_turn():
            holder = self.state.helots.get(held.grappler) if held.grappler is not None else None
            if held.grappler is not None and (holder is None or holder.grappling != held.label):
                yield from self.release_hold(held)  # a hold its grappler no longer keeps

    # ---------------------------------------------------------------- events
    def fire(self: Bout, event: str, /, **names: Any) -> Run:
        """Run every `when <event>` listener: rules, abilities, weapons and cards in load order, then
        the barge's hazards in their activation order, left to right (pg.15, pg.40)."""
        listeners = self.listeners.get(event, ())
        if not listeners:
            return
        if self.trigger_depth >= self.limits.max_trigger_depth:
            raise self.runtime_error("budget_exceeded", f"events nested more than {self.limits.max_trigger_depth} deep: "
                                                        f"this statement raised `{event}` inside {self._nesting()}")
        self.trigger_depth += 1
        self.nesting.append(event)
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
            self.nesting.pop()

    def _nesting(self: Bout) -> str:
        """The events (and performed commands) under way, outermost first, for a depth error."""
        return " > ".join(f"`{name}`" for name in self.nesting)

    def listeners_for(self: Bout, declaration: Any) -> list[Helot | None]:
        """Who a `when` clause listens for: rules, states, hazards and Turning Point cards for the whole
        bout; abilities, weapons and influence cards for each helot that owns them, from the
        triggering player clockwise (pg.15). A rule with a `motivation` property (a motivation's
        talent) listens for each helot of that motivation."""
        kind = declaration.kind
        if kind in ("hazard", "turning_point", "state") or kind == "rule" and declaration.property("motivation") is None:
            return [None]
        return [h for h in self.helots_in_turn() if self.owns(h, declaration)]

    def triggering_helot(self: Bout) -> str:
        """The player whose doing is being resolved: the helot giving the command, using the ability
        or card, or drawing the card under way; otherwise the active player; before any round, the
        first in initiative order (or the first seated)."""
        if self.triggers:
            return self.triggers[-1]
        if self.state.active is not None:
            return self.state.active
        if self.state.order:
            return self.state.order[0]
        return next(iter(self.state.helots))

    def helots_in_turn(self: Bout) -> list[Helot]:
        """Every helot from the triggering player clockwise round the table (pg.15)."""
        return self.state.clockwise_from(self.triggering_helot())

    def owns(self: Bout, helot: Helot, declaration: Any) -> bool:
        if declaration.kind == "weapon":
            return helot.weapon == declaration.id
        return self.owns_ability(helot, declaration)

    def runtime_error(self: Bout, code: str, message: str) -> ScriptRuntimeError:
        """A fault found by a mechanism; the interpreter positions it at the statement or call
        that set the mechanism off and names its declaration (`interpreter.fault_at`)."""
        return ScriptRuntimeError(Diagnostic(f"runtime/{code}", message, "<engine>"))

