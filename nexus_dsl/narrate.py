"""Turn a bout's event log into lines a person reads, round by round (`nexus play`)."""

from __future__ import annotations

from typing import Any, Iterable

from .engine.bout import Event
from .syntax.printer import sds_text


def _args(args: dict[str, Any]) -> str:
    shown = {k: v for k, v in args.items() if k != "target"}
    text = " ".join(f"{k}={v}" for k, v in shown.items())
    target = args.get("target")
    return (f" on {target}" if target else "") + (f" ({text})" if text else "")


def describe(event: Event) -> str | None:
    d = event.data
    t = event.type
    if t == "initiative":
        order = ", ".join(f"{label} ({r['trait']}, ratio {r['ratio']})" for label, r in d["rolls"].items())
        return f"== Cycle {event.cycle} — initiative: {order}"
    if t == "round_start":
        return f"-- {d['helot']}'s Command Round"
    if t == "round_limit":
        return f"   {d['helot']}'s round ends: {d['actions']} actions given, the most a round allows"
    if t == "allocate":
        return f"   {d['helot']} allocates {d['ap']} AP / {d['mp']} MP"
    if t == "command":
        return f"   {d['helot']}: {d['command']}{_args(d['args'])}"
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
        return f"   ** {d['helot']} is {d['status']}"
    if t == "state":
        return f"      {d['helot']} {'is now' if 'added' in d else 'is no longer'} {d.get('added') or d.get('removed')}"
    if t == "round_end":
        unspent = d["unspent_ap"] + d["unspent_mp"]
        return f"   {d['helot']} ends the round" + (f" with {unspent} unspent" if unspent else "")
    if t == "card_moved":
        return f"      {d['card']} moves from {d['origin']} to {d['destination']}, place {d['at']} from the top"
    if t == "hold_broken":
        return f"      {d['helot']} is no longer held by {d['grappler']} ({d['reason']})"
    if t == "fault":
        where = f"{d['file']}:{d['line']}:{d['column']}" if d.get("line") else d.get("file", "")
        return f"!! The bout stopped on a script fault: {where}: {d['message']}"
    if t == "bout_end":
        totals = ", ".join(f"{k} {v}" for k, v in d["totals"].items())
        result = f"{d['winner']} wins" if d["winner"] != "draw" else "a draw"
        return f"== Bout over ({d['termination'].replace('_', ' ')}): {result} — cred {totals}; crowd {d['crowd']}"
    return None


def narrate(events: Iterable[Event]) -> list[str]:
    return [line for line in (describe(e) for e in events) if line is not None]


def summary(bout: Any) -> str:
    outcome = bout.outcome
    if outcome is None:
        return "bout unfinished"
    totals = " ".join(f"{k}={v}" for k, v in outcome.totals.items())
    winner = outcome.winner or ("none" if getattr(bout, "fault", None) is not None else "draw")
    return (f"seed={bout.seed} winner={winner} termination={outcome.termination} cycles={bout.state.cycle} "
            f"{totals} crowd={outcome.crowd} events={len(bout.log)}")
