"""Coins moved through the ledger: damage, healing, transfers, a condition moved, a counter's coins."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...errors import ScriptRuntimeError
from ...model.ruleset import Ruleset
from ...syntax import ast_nodes as A
from ..conditions import Conditions
from ..interpreter import Limits, Run
from ..scope import Env
from ..ledger import Ledger
from ..state import Piece
from .values import reason


class Host(Protocol):
    """What the words of coins need of the bout."""

    ruleset: Ruleset
    limits: Limits
    ledger: Ledger
    conditions: Conditions

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


def coins(host: Host, env: Env, pile: Any) -> int:
    return host.ledger.coins_in(pile)


# Every number argument arrives checked against its vocabulary type and range (the interpreter):
# damage, healing and transfers move "up to" an amount, and one worked out below 0 arrives as 0.
# Handed back as it is (`primitives/movement.py` says why).
def damage(host: Host, env: Env, node: A.Action, victim: Piece, by: int, at: str | None = None, to: Any = None) -> Run:
    return host.conditions.deal_damage(victim, by, location=at, to=to, source=env.source, reason=reason(env))


def heal(host: Host, env: Env, node: A.Action, piece: Piece, by: int, **preps: Any) -> None:
    source = host.ledger.as_pile(preps["from"])
    location = preps.get("at")
    dest = ("location", piece.label, location) if location else ("overall", piece.label)
    host.ledger.transfer_coins(by, source, dest, reason(env))


def transfer(host: Host, env: Env, node: A.Action, amount: int, **preps: Any) -> None:
    host.ledger.transfer_coins(amount, host.ledger.as_pile(preps["from"]), host.ledger.as_pile(preps["to"]), reason(env))


def move_condition(host: Host, env: Env, node: A.Action, piece: Piece, by: int, to: str) -> None:
    room = host.ruleset.words.starts[to] - piece.locations[to]
    amount = max(0, min(by, room, piece.overall - 1))
    host.ledger.transfer_coins(amount, ("overall", piece.label), ("location", piece.label, to), reason(env))


def mark_counter(host: Host, env: Env, node: A.Action, piece: Piece, counter: str, number: int) -> None:
    # The log gives the number as the reason, after the counter's `reason`: a mark is for the number.
    numbers = piece.counters[counter]
    if number in numbers:
        return
    if len(numbers) >= host.limits.max_collection:
        raise host.runtime_error("budget_exceeded", f"{piece.label}'s counter `{counter}` already holds "
                                                    f"{host.limits.max_collection} numbers")
    host.ledger.mark_counter_coin(piece, counter, number, f"{host.ruleset.words.counters[counter]} {number}")


def collect_counter(host: Host, env: Env, node: A.Action, piece: Piece, counter: str, to: Any) -> None:
    host.ledger.collect_counter_coins(piece, counter, host.ledger.as_pile(to), reason(env))


FUNCTIONS: dict[str, Callable[..., Any]] = {"coins": coins}
EFFECTS: dict[str, Callable[..., Any]] = {"damage": damage, "heal": heal, "transfer": transfer, "move_condition": move_condition, "mark_counter": mark_counter, "collect_counter": collect_counter}
