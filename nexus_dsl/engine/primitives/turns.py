"""The game's setup and its round: the players, the deal, the order of play, and the pieces (or, in
a game without pieces, the players) taking their turns in it (the words the procedures a `game`
declaration names as its `setup` and `round` are written in)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..cycle import Cycle
from ..interpreter import Run
from ..scope import Env, describe_value
from ..state import Actor, BoutState, Player
from ..state import Piece as Piece
from .values import Faults


class Host(Faults, Protocol):
    """What the words of turns need of the bout."""

    state: BoutState
    cycle: Cycle

    def roll(self, purpose: str, sides: int = 6) -> int: ...


def order_of_play(host: Host, env: Env) -> tuple[Actor, ...]:
    return tuple(host.state.actor(label) for label in host.state.order)


def players(host: Host, env: Env) -> tuple[Player, ...]:
    return tuple(host.state.players.values())


def clockwise_from(host: Host, env: Env, start: Any) -> tuple[Actor, ...]:
    """Who acts round the table clockwise (north, east, south, west), starting with `start`: the
    pieces, or in a game without pieces, the players."""
    if not isinstance(start, (Piece, Player)) or start not in host.state.actors():
        raise host.runtime_error("wrong_type", f"`clockwise_from` starts from one who acts here, not {describe_value(start)}")
    return tuple(host.state.actors_clockwise_from(start.label))


def _actors(host: Host, listed: Any, effect: str) -> list[Actor]:
    """A list of pieces (or players, in a game without pieces), each once."""
    members = tuple(listed)
    for member in members:
        if not isinstance(member, Piece if host.state.pieces else Player):
            what = "pieces" if host.state.pieces else "players"
            raise host.runtime_error("wrong_type", f"`{effect}` takes a list of {what}, which holds {describe_value(member)}")
    if len(set(members)) != len(members):
        raise host.runtime_error("bad_value", f"`{effect}` names each one once: {describe_value(members)} repeats one")
    return list(members)


def set_order(host: Host, env: Env, node: A.Action, listed: Any) -> None:
    host.state.order = [actor.label for actor in _actors(host, listed, "set_order")]


def rank(host: Host, env: Env, entries: Any, purpose: str) -> tuple[Any, ...]:
    """The members of `entries` (each a list: the member, then its keys, numbers) ranked by their
    keys compared in turn, highest first, the list's order kept among equals; those still tied
    each roll a pair of d6 for `purpose`, the pairs ordering them highest first, and only those
    tied again roll again."""
    keyed: list[tuple[Any, tuple[int, ...]]] = []
    for entry in entries:
        if not isinstance(entry, tuple) or not entry:
            raise host.runtime_error("wrong_type", f"`rank` ranks lists, each its member then its keys, "
                                                   f"not {describe_value(entry)}")
        member, keys = entry[0], entry[1:]
        for key in keys:
            if isinstance(key, bool) or not isinstance(key, int):
                raise host.runtime_error("wrong_type", f"`rank` compares numbers, and {describe_value(member)} "
                                                       f"is ranked by {describe_value(key)}")
        keyed.append((member, keys))
    ordered = sorted(keyed, key=lambda pair: pair[1], reverse=True)  # a stable sort: equals keep their order
    ranked: list[Any] = []
    index = 0
    while index < len(ordered):
        tied = [member for member, keys in ordered if keys == ordered[index][1]]
        index += len(tied)
        ranked.extend(_by_pairs(host, tied, purpose))
    return tuple(ranked)


def _by_pairs(host: Host, tied: list[Any], purpose: str) -> list[Any]:
    """Members tied in rank, each rolling a pair of d6 in turn: the higher pair first; those tied
    again roll again."""
    if len(tied) <= 1:
        return tied
    pairs = [host.roll(purpose) + host.roll(purpose) for _ in tied]
    ordered: list[Any] = []
    for total in sorted(set(pairs), reverse=True):
        ordered.extend(_by_pairs(host, [member for member, pair in zip(tied, pairs) if pair == total], purpose))
    return ordered


def sides_alternating(host: Host, env: Env, listed: Any) -> tuple[Actor, ...]:
    """The list with the sides taking turns: the first of the side of the first member, then the
    first of the next side to appear, and so on round the sides while any is left."""
    queues: dict[str, list[Actor]] = {}
    for member in tuple(listed):
        if not isinstance(member, (Piece, Player)):
            raise host.runtime_error("wrong_type", f"`sides_alternating` takes a list of pieces or players, "
                                                   f"which holds {describe_value(member)}")
        queues.setdefault(member.side, []).append(member)
    alternated: list[Actor] = []
    while any(queues.values()):
        for queue in queues.values():
            if queue:
                alternated.append(queue.pop(0))
    return tuple(alternated)


def deal_and_keep(host: Host, env: Env, node: A.Action, zone: str) -> Run:
    yield from host.cycle.deal_and_keep(zone)


def take_turns(host: Host, env: Env, node: A.Action, pieces: Any) -> Run:
    members = tuple(pieces)
    for member in members:
        if not isinstance(member, (Piece, Player)):
            raise host.runtime_error("wrong_type", f"`take_turns` takes a list of pieces, which holds {describe_value(member)}")
    yield from host.cycle.take_turns(list(members))


def alternate_turns(host: Host, env: Env, node: A.Action, listed: Any) -> Run:
    yield from host.cycle.take_turns(_actors(host, listed, "alternate_turns"), alternating=True)


FUNCTIONS: dict[str, Callable[..., Any]] = {"order_of_play": order_of_play, "players": players,
                                            "clockwise_from": clockwise_from, "rank": rank,
                                            "sides_alternating": sides_alternating}
EFFECTS: dict[str, Callable[..., Any]] = {"deal_and_keep": deal_and_keep, "set_order": set_order,
                                          "take_turns": take_turns, "alternate_turns": alternate_turns}
