"""Turn a bout's event log into lines a person reads, round by round (`nexus play`), in the words
of the game being played: its turn's name and the name of what it scores."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterable, Mapping

from .engine.bout import Event
from .engine.cycle import DEALT_LINE
from .model.ruleset import Ruleset
from .syntax.printer import sds_text
from .vocabulary import BOUT_END_FIELDS


@dataclass(frozen=True)
class GameTerms:
    """How the lines name a game's parts: a turn (`-- red's Command Round`), what a player's
    standing is counted in, and whether the game is played with pieces (a bout, with the crowd's
    pile beside the totals) or by players alone (a game)."""

    turn: str = "Command Round"
    score: str = "cred"
    pieces: bool = True
    # What the log calls who acts (the game's word for a piece, or for a player in a game of players alone).
    actor: str = "helot"
    # What the log calls the holder of a broken hold (the game's `held_by` name of a hold).
    held_by: str = "grappler"
    # The events content declares, by id, with their names: a line a script `record`s is told by
    # its event's name and the values it carries.
    events: tuple[tuple[str, str], ...] = ()
    # Every declaration's name by its id (the first declared, where kinds share an id): a line
    # names a card, an ability, a pile by its name, not its id.
    names: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, ruleset: Ruleset) -> GameTerms:
        """The terms of a ruleset, worked out once per ruleset (the test run and the playtest ask for
        them at every page run, and the names walk every declaration)."""
        return ruleset.derived("game_terms", lambda: cls._worked_out(ruleset))

    @classmethod
    def _worked_out(cls, ruleset: Ruleset) -> GameTerms:
        turn = ruleset.turn.declaration
        score = ruleset.game.score or "score"
        stat = ruleset.declaration("stat", score)
        return cls(turn=turn.name if turn is not None else "turn",
                   score=stat.name.lower() if stat is not None else score,
                   pieces=ruleset.game.pieces != 0, actor=ruleset.game.actor_word, held_by=ruleset.words.hold.held_by,
                   events=tuple((d.id, d.name) for d in ruleset.declarations("event")),
                   names=_declared_names(ruleset))

    @cached_property
    def _names(self) -> dict[str, str]:
        return dict(self.names)

    def named(self, ident: Any) -> str:
        """A declaration's name by its id; anything else (or an id no declaration has) as it is,
        its underscores read as spaces."""
        text = str(ident)
        return self._names.get(text) or text.replace("_", " ")


def _declared_names(ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    names: dict[str, str] = {}
    for items in ruleset.scripts.values():
        for ident, item in items.items():
            if item.declaration.name:
                names.setdefault(ident, item.declaration.name)
    for data_items in ruleset.data.values():
        for ident, data_item in data_items.items():
            name = data_item.data.get("name") if isinstance(data_item.data, Mapping) else None
            if isinstance(name, str) and name:
                names.setdefault(ident, name)
    return tuple(names.items())


NEXUS_TERMS = GameTerms()


def _args(args: dict[str, Any]) -> str:
    shown = {k: v for k, v in args.items() if k != "target"}
    text = " ".join(f"{k}={v}" for k, v in shown.items())
    target = args.get("target")
    return (f" on {target}" if target else "") + (f" ({text})" if text else "")


def _initiative_roll(roll: dict[str, object]) -> str:
    if set(roll) == {"trait", "ratio"}:
        return f"{roll['trait']}, ratio {roll['ratio']}"
    return ", ".join(f"{name} {value}" for name, value in roll.items())


def describe(event: Event, terms: GameTerms = NEXUS_TERMS) -> str | None:
    """The event's line in words: by the teller of its type, else (a line a script recorded, or any
    other) by its event's name and values."""
    teller = _TELLERS.get(event.type)
    if teller is not None:
        line = teller(event.data, event, terms)
        if line is not None:
            return line
    elif event.type.endswith(DEALT_LINE) and "kept" in event.data:
        return _dealt(event.data, event, terms)
    name = dict(terms.events).get(event.type) or event.type.replace("_", " ").capitalize()
    values = ", ".join(f"{key.replace('_', ' ')} {_value(value)}" for key, value in event.data.items() if key != "dice")
    return f"      {name}" + (f": {values}" if values else "")


# ---------------------------------------------------------------- one teller per event type
# Each takes the event's data, the event and the game's terms, and gives its line (None: told by
# name and values instead).
Data = Mapping[str, Any]
Teller = Callable[[Data, Event, GameTerms], "str | None"]


def _initiative(d: Data, event: Event, terms: GameTerms) -> str:
    # The rolls a game's initiative records, by label: the base game's trait and ratio die, or
    # whatever values a pack's own initiative records (each written as its name and value).
    rolls = d.get("rolls") or {label: {} for label in d.get("order", ())}
    order = ", ".join(f"{label} ({_initiative_roll(r)})" if r else str(label) for label, r in rolls.items())
    return f"== Cycle {event.cycle} — initiative: {order}"


def _roll(d: Data, event: Event, terms: GameTerms) -> str:
    if "fixed" in d:
        return f"      {d['side']}: fixed at {d['total']}"
    return f"      {d['side']} {sds_text(d['level'])}: rolled {d['pool']}, kept {d['kept']} = {d['total']}"


def _attack(d: Data, event: Event, terms: GameTerms) -> str:
    verdict = f"hit by {d['attack'] - d['defense']}" if d["success"] else "defended"
    return f"      {d['attack']} vs {d['defense']}: {verdict}"


def _damage(d: Data, event: Event, terms: GameTerms) -> str:
    where = f"{terms.named(d['location'])} -{d['location_taken']}, " if d.get("location") else ""
    # Damage reduced to nothing moves no coins: such a line names no pile.
    coins = f" (coins to {_pile(d['to'], terms)})" if d.get("to") else " (no coins move)"
    return f"      {d['victim']}: {where}overall -{d['overall_taken']}{coins}"


def _round_end(d: Data, event: Event, terms: GameTerms) -> str:
    unspent = d["unspent_ap"] + d["unspent_mp"]
    if not terms.pieces:
        return f"   {d[terms.actor]} ends the {terms.turn.lower()}"
    return f"   {d[terms.actor]} ends the round" + (f" with {unspent} unspent" if unspent else "")


def _fault(d: Data, event: Event, terms: GameTerms) -> str:
    where = f"{d['file']}:{d['line']}:{d['column']}" if d.get("line") else d.get("file", "")
    return f"!! The bout stopped on a script fault: {where}: {d['message']}"


def _bout_end(d: Data, event: Event, terms: GameTerms) -> str:
    totals = ", ".join(f"{k} {v}" for k, v in d["totals"].items())
    result = f"{d['winner']} wins" if d["winner"] != "draw" else "a draw"
    how = d["termination"].replace("_", " ")
    if not terms.pieces:
        return f"== Game over ({how}): {result} — {terms.score} {totals}"
    # Then each shared pile's coins, by the game's names of them (the base game's crowd).
    piles = "".join(f"; {pile} {coins}" for pile, coins in d.items() if pile not in (*BOUT_END_FIELDS, "dice"))
    return f"== Bout over ({how}): {result} — {terms.score} {totals}{piles}"


def _played(d: Data, event: Event, terms: GameTerms) -> str:
    verb = "plays" if event.type == "card" else "uses"
    return f"   {d.get(terms.actor)} {verb} {terms.named(d['name'])}{_args(d.get('args') or {})}"


def _draw(d: Data, event: Event, terms: GameTerms) -> str:
    deck = terms.named(d["deck"])
    if d.get("card") is None:
        return f"      {d.get(terms.actor)} draws from {deck}: it is empty"
    return f"      {d.get(terms.actor)} draws {terms.named(d['card'])} from {deck}"


def _points(d: Data, event: Event, terms: GameTerms) -> str:
    change = d["change"]
    against = f" (against {d['against']})" if d.get("against") else ""
    return f"      {d.get(terms.actor)} {'gains' if change >= 0 else 'loses'} {abs(change)} {d['resource']}{against}"


def _object(d: Data, event: Event, terms: GameTerms) -> str | None:
    for change, verb in (("placed", "placed on"), ("removed", "removed from"), ("destroyed", "destroyed on")):
        if change in d:
            return f"      {terms.named(d[change])} {verb} [{d['at'][0]},{d['at'][1]}]"
    return None


def _weapon(d: Data, event: Event, terms: GameTerms) -> str:
    if "equipped" in d:
        return f"      {d.get(terms.actor)} takes up {terms.named(d['equipped'])}"
    return f"      {d.get(terms.actor)} loses {terms.named(d['lost']) if d.get('lost') else 'its weapon'}"


def _dealt(d: Data, event: Event, terms: GameTerms) -> str:
    return f"   {d.get(terms.actor)} keeps {d['kept']} {terms.named(event.type[:-len(DEALT_LINE)])} card(s)"


_TELLERS: dict[str, Teller] = {
    "initiative": _initiative,
    "round_start": lambda d, e, terms: f"-- {d[terms.actor]}'s {terms.turn}",
    "round_limit": lambda d, e, terms: f"   {d[terms.actor]}'s round ends: {d['actions']} actions given, the most a round allows",
    "allocate": lambda d, e, terms: f"   {d[terms.actor]} allocates {d['ap']} AP / {d['mp']} MP",
    "command": lambda d, e, terms: f"   {d[terms.actor]}: {d['command']}{_args(d['args'])}",
    "move": lambda d, e, terms: f"      moves to [{d['dest'][0]},{d['dest'][1]}] facing {d['facing']}",
    "rotate": lambda d, e, terms: f"      now faces {d['facing']}",
    "roll": _roll,
    "attack": _attack,
    "check": lambda d, e, terms: f"      check {d['needed']}+: rolled {d['rolled']} — {'success' if d['success'] else 'failure'}",
    "damage": _damage,
    "coins": lambda d, e, terms: (f"      {d['amount']} {terms.score}: {_pile(d['source'], terms)} → "
                                  f"{_pile(d['dest'], terms)} ({terms.named(d['reason'])})"),
    "status": lambda d, e, terms: f"   ** {d[terms.actor]} is {d['status']}",
    "state": lambda d, e, terms: (f"      {d[terms.actor]} {'is now' if 'added' in d else 'is no longer'} "
                                  f"{d.get('added') or d.get('removed')}"),
    "round_end": _round_end,
    "card_moved": lambda d, e, terms: (f"      {d['card']} moves from {d['origin']} to {d['destination']}, "
                                       f"place {d['at']} from the top"),
    "hold_broken": lambda d, e, terms: f"      {d[terms.actor]} is no longer held by {d[terms.held_by]} ({d['reason']})",
    "fault": _fault,
    "bout_end": _bout_end,
    # What a script's effects did.
    "card": _played,
    "ability": _played,
    "card_cancelled": lambda d, e, terms: f"      {terms.named(d['name'])} is cancelled",
    "negated": lambda d, e, terms: f"      {terms.named(d['card'])} is negated",
    "draw": _draw,
    "points": _points,
    "trait": lambda d, e, terms: f"      {d.get(terms.actor)}'s {terms.named(d['trait'])} is now {d['value']}",
    "stat": lambda d, e, terms: f"      {d.get(terms.actor)}'s {terms.named(d['stat'])} is now {d['value']}",
    "object": _object,
    "off_board": lambda d, e, terms: f"   ** {d.get(terms.actor)} is taken off the board at [{d['at'][0]},{d['at'][1]}]",
    "weapon": _weapon,
    "blocked": lambda d, e, terms: f"      {d.get(terms.actor)} cannot move {d['direction']}: the way is blocked",
    "move_prevented": lambda d, e, terms: f"      {d.get(terms.actor)}'s move is prevented",
    "note": lambda d, e, terms: f"      note: {d['text']}",
}


def _pile(name: str, terms: GameTerms) -> str:
    """A pile as the ledger names it (`crowd`, `cred:blue`, `location:red:head`), in words:
    `the Crowd`, `blue's Cred`, `red's head`."""
    parts = name.split(":")
    what = parts[-1] if len(parts) > 2 else parts[0]
    named = terms.named(what)
    if named[:4].lower() == "the ":  # a pile named with its article: "The Crowd Coin Pile"
        named = named[4:]
    return f"the {named}" if len(parts) == 1 else f"{parts[1]}'s {named}"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    return str(value)


def narrate(events: Iterable[Event], terms: GameTerms = NEXUS_TERMS) -> list[str]:
    return [line for line in (describe(e, terms) for e in events) if line is not None]


def summary(bout: Any) -> str:
    outcome = bout.outcome
    if outcome is None:
        return "bout unfinished"
    totals = " ".join(f"{k}={v}" for k, v in outcome.totals.items())
    piles = "".join(f"{pile}={coins} " for pile, coins in outcome.piles.items())
    winner = outcome.winner or ("none" if getattr(bout, "fault", None) is not None else "draw")
    return (f"seed={bout.seed} winner={winner} termination={outcome.termination} cycles={bout.state.cycle} "
            f"{totals} {piles}events={len(bout.log)}")
