"""Turn a bout's event log into lines a person reads, round by round (`nexus play`), in the words
of the game being played: its turn's name and the name of what it scores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from .engine.bout import Event
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

    @classmethod
    def of(cls, ruleset: Ruleset) -> GameTerms:
        turn = ruleset.turn.declaration
        score = ruleset.game.score or "score"
        stat = ruleset.declaration("stat", score)
        return cls(turn=turn.name if turn is not None else "turn",
                   score=stat.name.lower() if stat is not None else score,
                   pieces=ruleset.game.pieces != 0, actor=ruleset.game.actor_word, held_by=ruleset.words.hold.held_by,
                   events=tuple((d.id, d.name) for d in ruleset.declarations("event")))


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
    d = event.data
    t = event.type
    if t == "initiative":
        # The rolls a game's initiative records, by label: the base game's trait and ratio die, or
        # whatever values a pack's own initiative records (each written as its name and value).
        rolls = d.get("rolls") or {label: {} for label in d.get("order", ())}
        order = ", ".join(f"{label} ({_initiative_roll(r)})" if r else str(label) for label, r in rolls.items())
        return f"== Cycle {event.cycle} — initiative: {order}"
    if t == "round_start":
        return f"-- {d[terms.actor]}'s {terms.turn}"
    if t == "round_limit":
        return f"   {d[terms.actor]}'s round ends: {d['actions']} actions given, the most a round allows"
    if t == "allocate":
        return f"   {d[terms.actor]} allocates {d['ap']} AP / {d['mp']} MP"
    if t == "command":
        return f"   {d[terms.actor]}: {d['command']}{_args(d['args'])}"
    if t == "move":
        return f"      moves to [{d['dest'][0]},{d['dest'][1]}] facing {d['facing']}"
    if t == "rotate":
        return f"      now faces {d['facing']}"
    if t == "roll":
        if "fixed" in d:
            return f"      {d['side']}: fixed at {d['total']}"
        return f"      {d['side']} {sds_text(d['level'])}: rolled {d['pool']}, kept {d['kept']} = {d['total']}"
    if t == "attack":
        verdict = f"hit by {d['attack'] - d['defense']}" if d["success"] else "defended"
        return f"      {d['attack']} vs {d['defense']}: {verdict}"
    if t == "check":
        return f"      check {d['needed']}+: rolled {d['rolled']} — {'success' if d['success'] else 'failure'}"
    if t == "damage":
        where = f"{d['location']} -{d['location_taken']}, " if d.get("location") else ""
        return f"      {d['victim']}: {where}overall -{d['overall_taken']} (coins to {d['to']})"
    if t == "coins" and not d["reason"].endswith(("attack", "damage")) and d["source"].split(":")[0] in ("crowd", "cred"):
        return f"      {d['amount']} cred {d['source']} → {d['dest']} ({d['reason']})"
    if t == "status":
        return f"   ** {d[terms.actor]} is {d['status']}"
    if t == "state":
        return f"      {d[terms.actor]} {'is now' if 'added' in d else 'is no longer'} {d.get('added') or d.get('removed')}"
    if t == "round_end":
        unspent = d["unspent_ap"] + d["unspent_mp"]
        if not terms.pieces:
            return f"   {d[terms.actor]} ends the {terms.turn.lower()}"
        return f"   {d[terms.actor]} ends the round" + (f" with {unspent} unspent" if unspent else "")
    if t == "card_moved":
        return f"      {d['card']} moves from {d['origin']} to {d['destination']}, place {d['at']} from the top"
    if t == "hold_broken":
        return f"      {d[terms.actor]} is no longer held by {d[terms.held_by]} ({d['reason']})"
    if t == "fault":
        where = f"{d['file']}:{d['line']}:{d['column']}" if d.get("line") else d.get("file", "")
        return f"!! The bout stopped on a script fault: {where}: {d['message']}"
    if t == "bout_end":
        totals = ", ".join(f"{k} {v}" for k, v in d["totals"].items())
        result = f"{d['winner']} wins" if d["winner"] != "draw" else "a draw"
        how = d["termination"].replace("_", " ")
        if not terms.pieces:
            return f"== Game over ({how}): {result} — {terms.score} {totals}"
        # Then each shared pile's coins, by the game's names of them (the base game's crowd).
        piles = "".join(f"; {pile} {coins}" for pile, coins in d.items() if pile not in (*BOUT_END_FIELDS, "dice"))
        return f"== Bout over ({how}): {result} — {terms.score} {totals}{piles}"
    name = dict(terms.events).get(t)
    if name is not None:  # a line a script recorded
        values = ", ".join(f"{key} {_value(value)}" for key, value in d.items())
        return f"      {name}" + (f": {values}" if values else "")
    return None


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
