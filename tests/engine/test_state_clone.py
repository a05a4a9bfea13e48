"""A copy of the state (`BoutState.clone`, `Piece.clone`) holds every field of the original and
shares nothing mutable with it. The copies list the fields by position (they run for every action
and every preview), so a field added to `Piece` or `BoutState` must be added to its copy: these
tests fail until it is."""

from __future__ import annotations

import dataclasses
from enum import Enum

from nexus_dsl import Bout, cached_ruleset
from nexus_dsl.engine.board import Square
from nexus_dsl.engine.setup import standard_setup
from nexus_dsl.engine.state import BoutState, Piece

IMMUTABLE = (type(None), bool, int, str, tuple, frozenset, Enum)


def started_bout() -> Bout:
    return Bout(cached_ruleset(("base",)), standard_setup(), seed=3)


def distinct(piece: Piece) -> Piece:
    """`piece` with every field set to a value no other field holds, mutable fields non-empty."""
    for index, field in enumerate(dataclasses.fields(piece)):
        value = getattr(piece, field.name)
        if isinstance(value, Enum):
            continue
        if isinstance(value, bool):
            setattr(piece, field.name, not value)
        elif isinstance(value, int):
            setattr(piece, field.name, 1000 + index)
        elif isinstance(value, dict) and not value:
            setattr(piece, field.name, {f"key{index}": {index} if field.name == "counters" else index})
        elif isinstance(value, (set, list)) and not value:
            value.append(f"item{index}") if isinstance(value, list) else value.add(f"item{index}")
        elif value is None or isinstance(value, str):
            setattr(piece, field.name, f"value{index}")
    return piece


def mutable_parts(value: object) -> list[object]:
    """The containers inside a value (itself included): what a copy must not share."""
    if isinstance(value, IMMUTABLE) or dataclasses.is_dataclass(value):
        return []
    parts: list[object] = [value]
    if isinstance(value, dict):
        for item in value.values():
            parts += mutable_parts(item)
    return parts


def test_a_pieces_copy_holds_every_field_and_shares_no_container():
    piece = distinct(next(iter(started_bout().state.pieces.values())))
    copy = piece.clone()
    for field in dataclasses.fields(Piece):
        original, copied = getattr(piece, field.name), getattr(copy, field.name)
        assert copied == original, field.name
        shared = {id(part) for part in mutable_parts(original)} & {id(part) for part in mutable_parts(copied)}
        assert not shared, f"{field.name} is shared with the copy"


def test_a_states_copy_holds_every_field_and_shares_no_container():
    state = started_bout().state
    state.owned = {"hand": {"red": ["a card"]}}
    state.discards = {"influence": ["a card"]}
    state.meta["list"] = ["hazard"]
    copy = state.clone()
    for field in dataclasses.fields(BoutState):
        original, copied = getattr(state, field.name), getattr(copy, field.name)
        assert copied == original, field.name
        if field.name in ("grid", "outcome"):
            continue  # never changed in place
        shared = {id(part) for part in mutable_parts(original)} & {id(part) for part in mutable_parts(copied)}
        assert not shared, f"{field.name} is shared with the copy"
    assert all(copy.pieces[label] is not piece for label, piece in state.pieces.items())


def test_objects_placed_or_removed_on_one_copy_never_show_in_the_other():
    state = started_bout().state
    square = Square(1, 1)
    state.place("blood", square)
    copy = state.clone()
    copy.place("guts", square)
    assert state.objects_at(square) == ("blood",) and copy.objects_at(square) == ("blood", "guts")
    assert copy.remove("blood", square) and copy.objects_at(square) == ("guts",)
    assert state.objects_at(square) == ("blood",)
    assert state.remove("blood", square) and square not in state.objects and not state.remove("blood", square)
    assert copy.objects_at(square) == ("guts",)


def test_clockwise_order_starts_from_each_piece_in_turn():
    state = Bout(cached_ruleset(("base",)), standard_setup(4), seed=3).state
    seats = {piece.label: piece.seat for piece in state.pieces.values()}
    for label in state.pieces:
        order = [piece.seat for piece in state.clockwise_from(label)]
        assert order[0] == seats[label]
        # North, east, south, west round the table, wherever it starts.
        ring = ["north", "east", "south", "west"]
        start = ring.index(order[0])
        assert order == (ring[start:] + ring[:start])[:len(order)]
        assert state.clone().clockwise_from(label) == state.clockwise_from(label)


def as_data(state: BoutState) -> list[tuple[str, str]]:
    """Every field of a state, pieces and players included, as text that shows each table's order."""
    fields = [(field.name, repr(getattr(state, field.name))) for field in dataclasses.fields(BoutState)]
    for label, piece in state.pieces.items():
        fields += [(f"{label}.{field.name}", repr(getattr(piece, field.name))) for field in dataclasses.fields(Piece)]
        fields += [(f"{label}.marks.pieces", repr([id(v) for v in piece.marks.values() if isinstance(v, Piece)]))]
    for label, player in state.players.items():
        fields += [(f"player {label}.{field.name}", repr(getattr(player, field.name)))
                   for field in dataclasses.fields(type(player))]
    return fields


def test_a_state_copied_into_another_holds_what_a_copy_holds_and_shares_no_container():
    """`BoutState.copy_from` (a preview's copy started over) leaves what `clone` makes: every field,
    each table in the same order, marks holding the copy's own pieces, nothing shared."""
    bout = started_bout()
    target = bout.state.clone()
    state = bout.state
    for label, piece in state.pieces.items():
        distinct(piece).label = label  # every field changed but the label a mark is rebound by
    labels = list(state.pieces)
    state.pieces[labels[0]].marks = {"held": state.pieces[labels[1]], "n": 3}
    state.pieces[labels[1]].traits = dict(reversed(list(state.pieces[labels[1]].traits.items())))
    state.owned = {"hand": {"red": ["a card"]}}
    state.discards = {"influence": ["a card"]}
    state.meta["list"] = ["hazard"]
    state.place("blood", Square(1, 1))
    for cards in state.decks.values():
        cards.reverse()
        del cards[:1]
    assert state.decks and target.decks.keys() == state.decks.keys()  # filled in place: the same decks
    kept = dict(target.pieces)
    target.copy_from(state)
    fresh = state.clone()
    # Marks point at the copy's own pieces: compare by what they hold, and by whose they are.
    assert [row for row in as_data(target) if not row[0].endswith("marks.pieces")] == \
        [row for row in as_data(fresh) if not row[0].endswith("marks.pieces")]
    assert all(target.pieces[label] is piece for label, piece in kept.items())  # written into, not made anew
    assert target.pieces[labels[0]].marks["held"] is target.pieces[labels[1]]
    for field in dataclasses.fields(BoutState):
        if field.name in ("grid", "outcome"):
            continue
        original, copied = getattr(state, field.name), getattr(target, field.name)
        shared = {id(part) for part in mutable_parts(original)} & {id(part) for part in mutable_parts(copied)}
        assert not shared, f"{field.name} is shared with the copy"
    for label, piece in state.pieces.items():
        for field in dataclasses.fields(Piece):
            original, copied = getattr(piece, field.name), getattr(target.pieces[label], field.name)
            shared = {id(part) for part in mutable_parts(original)} & {id(part) for part in mutable_parts(copied)}
            assert not shared, f"{label}.{field.name} is shared with the copy"
    # Copied back into from a plainer state, tables emptied on one side are emptied on the other.
    plain = started_bout().state
    target.copy_from(plain)
    assert [row for row in as_data(target) if not row[0].endswith("marks.pieces")] == \
        [row for row in as_data(plain.clone()) if not row[0].endswith("marks.pieces")]
