"""The whole state of a bout as plain, comparable data: hidden state included.

"Seed plus actions replays a bout exactly", and "a preview leaves the bout as it was", are claims
about *all* of a bout's state, not only what a snapshot shows. `whole_state(bout)` reads all of it:

* every field of the `BoutState` and of each `Piece` (read generically, field by field, so a field
  added later is read too);
* the engine's own mutable attributes: the log, the history, the pending decision, the round's
  action count, the fault, the interpreter's step budget, and the dice with the random generator's
  internal state;
* the state each of the bout's mechanisms holds (`MECHANISMS`): the stacks of rolls, windows,
  cards and damage frames, the events under way and the triggering players, the trigger depth;
* the suspended game itself: each generator frame of the Command Cycle, from the outermost to the
  innermost, with the line it waits at and its local variables.

What is not read is listed in `NOT_STATE` and `MECHANISMS_NOT_STATE`: inputs that never change
during a bout (the ruleset, the setup, the limits), what is derived from them once (the listeners,
the declarations' params, the legality plans), and the bout each mechanism holds. A test holds
every attribute of a `Bout`, and of each of its mechanisms, to one list or the other.

A piece referred to from anywhere but the state's own table (a mark's value, a decision's
subject, a local variable) is written as its label and whether it is the state's own object
("live") or an orphan ("stale", e.g. one a preview or an undone action left behind).
"""

from __future__ import annotations

import dataclasses
import hashlib
import types
from collections.abc import Generator
from enum import Enum
from typing import Any

from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .actions import Action, Decision
from .board import Square
from .bout import Bout, Event
from .dice import Dice
from .interpreter import BlockPlan, Interpreter, Step
from .scope import Dynamic, Env
from .state import BoutState, Piece
from .timing import WindowUses

#: Bout attributes that are the bout's state, read by `whole_state`.
STATE: tuple[str, ...] = (
    "state", "log", "history", "pending", "round_actions", "fault", "fault_declaration", "dice", "seed",
    "forced_dice", "strict_ledger", "interpreter",
    "_game",
)
#: Bout attributes read under another name in `STATE`: the dice are held as `rolled` and read as `dice`
#: (a preview's copy seeds its own only when it first rolls), the state as `_state` behind the property
#: that hands it to the mechanisms.
READ_AS: dict[str, str] = {"rolled": "dice", "_state": "state"}
#: The bout's mechanisms (attributes of the bout), each with its attributes that are state: read by
#: `whole_state` as `mechanism.attribute`.
MECHANISMS: dict[str, tuple[str, ...]] = {
    "ledger": (),
    "legality": (),
    "events": ("trigger_depth", "nesting", "triggers"),
    "timing": ("windows",),
    "conditions": ("damage_frames",),
    "movement": (),
    "holds": (),
    "rolling": ("rolls",),
    "resolution": (),
    "decks": ("cards",),
    "cycle": ("taking_turns",),
}
#: What each mechanism holds that is not state: the bout it works on, the bout's state kept at hand
#: (read as the bout's own), what is worked out once, and how a copy is told to run (`halt_before_dice`: only a
#: copy asked for a roll's levels, `Bout.roll_levels`, sets it).
MECHANISMS_NOT_STATE: dict[str, frozenset[str]] = {
    "ledger": frozenset({"host", "state", "reserve_name", "reserve", "owned_piles", "shared_defaults", "max_number",
                         "in_play"}),
    "legality": frozenset({"host", "state", "interpreter", "ruleset", "limits", "max_number", "max_options", "hand_kinds",
                           "_action_plans", "global_requirements", "_declaration_envs", "_legality_plans", "_actions", "_role_ownership",
                           "_questions_by_limit", "_command_questions", "_lasting_domains",
                           "_lasting_combinations", "_offered", "_cost_plans", "_controls", "_lasting_uses",
                           "_value_verdicts", "_slots", "_combination_keys", "_memos"}),
    "events": frozenset({"host", "state", "interpreter", "legality", "listeners", "_hazard_objects", "_depth_limit", "_table", "_rings", "_scopes",
                         "_functions_asked", "_engine_marks", "_asking", "_primitives_asked", "_checks_asked", "_engine_unmark",
                         "_step_limit", "_collection_limit", "event_names"}),
    "timing": frozenset({"host", "state", "legality", "events", "max_actions", "_by_window", "_affordable"}),
    "conditions": frozenset({"host", "state", "events", "timing", "ledger", "_damage_pile", "_fatal"}),
    "movement": frozenset({"host", "state", "events", "timing"}),
    "holds": frozenset({"host", "state", "events", "conditions", "movement", "_hold_state", "_held_by"}),
    "rolling": frozenset({"host", "scale_cap", "halt_before_dice", "interpreter", "events", "timing"}),
    "resolution": frozenset({"host", "owned_piles", "plans", "interpreter", "ledger", "conditions", "events", "legality",
                             "rolling"}),
    "decks": frozenset({"host", "state"}),
    "cycle": frozenset({"host", "state", "turn", "commands", "max_actions", "events", "legality", "timing", "resolution",
                        "holds", "interpreter"}),
}
#: Bout attributes that are not state: fixed inputs of the bout, and what is worked out from them
#: once (or memoised) without ever changing what the bout does.
NOT_STATE: frozenset[str] = frozenset({
    "ruleset", "setup", "limits", "object_types", "actor_word", "dice_seed", "commands",
    "_spare",  # a copy kept for previews, started over before each use (`Bout._copy_for_previews`)
    "tracer",  # an explained bout's causes under way (`causes.py`): what its log says why, never read by the rules
    "options_on_demand",  # how its command decisions are worked out (`on_demand.py`): the same options either way
    # Where the bout was before its last action, kept to undo a fault met on demand (`Bout._options_faulted`):
    # the log's length then and the state before the game first ran, both found again from its history.
    "_opening", "_log_before",
})


EventMemo = dict[int, tuple[Any, Any]]


def whole_state(bout: Bout, memo: EventMemo | None = None) -> dict[str, Any]:
    """Every part of the bout's state, each as nested tuples of plain values. `memo` (one dict
    per bout, kept between calls) remembers the form of each logged event: the log only grows,
    and its events are never changed once emitted, so reading a long bout step by step stays fast."""
    canon = _Canon(bout, memo if memo is not None else {})
    whole = {name: canon.value(getattr(bout, name)) for name in STATE}
    for mechanism, names in MECHANISMS.items():
        held = getattr(bout, mechanism)
        whole.update((f"{mechanism}.{name}", canon.value(getattr(held, name))) for name in names)
    return whole


def fingerprint(bout: Bout, memo: EventMemo | None = None) -> str:
    """A digest of `whole_state`: equal for two bouts exactly when their whole states are equal."""
    return hashlib.sha256(repr(whole_state(bout, memo)).encode()).hexdigest()


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The parts in which two whole states differ (by name, for a readable test failure)."""
    return [name for name in a if a[name] != b.get(name)] + [name for name in b if name not in a]


_PLAIN = (type(None), bool, int, float, str)


class _Canon:
    """Turns any value a bout holds into nested tuples of plain values."""

    def __init__(self, bout: Bout, memo: EventMemo):
        self.bout = bout
        self.pieces = bout.state.pieces
        self.memo = memo
        self.immutable = (Event, Action)
        self.mechanisms = tuple(type(getattr(bout, name)) for name in MECHANISMS)
        # Each object's form, worked out once per reading: the suspended game's frames reach the same
        # state, scopes and frames again and again (the bout's state 65 times in one reading), and
        # nothing changes while the bout is read. Kept with the object, so no id is reused meanwhile.
        self.read: dict[int, tuple[Any, Any]] = {}

    def value(self, value: Any) -> Any:
        kind = type(value)
        if kind in _PLAIN:
            return value
        if kind in self.immutable:  # logged events and applied actions: read once per bout
            remembered = self.memo.get(id(value))
            if remembered is None or remembered[0] is not value:
                remembered = self.memo[id(value)] = (value, self._object(value))
            return remembered[1]
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, Enum):
            return (type(value).__name__, value.name)
        if isinstance(value, Square):
            return ("square", value.col, value.row)
        if isinstance(value, Piece):
            return ("piece", value.label, "live" if self.pieces.get(value.label) is value else "stale")
        if isinstance(value, A.Declaration):
            return ("declaration", value.kind, value.id)
        if isinstance(value, A.Node):
            return ("node", type(value).__name__, value.pos.file, value.pos.line, value.pos.column)
        if isinstance(value, (list, tuple)):
            return (type(value).__name__, tuple(self.value(item) for item in value))
        if isinstance(value, (dict, types.MappingProxyType)):
            return ("dict", tuple((self.value(k), self.value(v)) for k, v in value.items()))
        if isinstance(value, (set, frozenset)):
            return ("set", tuple(sorted((self.value(item) for item in value), key=repr)))
        read = self.read.get(id(value))
        if read is None:
            read = self.read[id(value)] = (value, self._object(value))
        return read[1]

    def _object(self, value: Any) -> Any:
        # A waiting frame holds the plan of its block or the step of its loop: read as the node it
        # was made for, as a frame holding the node itself would be.
        if isinstance(value, BlockPlan):
            return self.value(value.block)
        if isinstance(value, Step):
            return self.value(value.node)
        if isinstance(value, Bout):
            return ("bout", "this" if value is self.bout else "another")
        if isinstance(value, self.mechanisms):
            # A mechanism a suspended frame holds: its state is read under its own name.
            return ("mechanism", type(value).__name__, "this" if value.host is self.bout else "another")
        if isinstance(value, Event):
            return ("event", value.seq, value.cycle, value.round, value.type, self.value(value.data))
        if isinstance(value, Ruleset):
            return ("ruleset", value.pack_ids)
        if isinstance(value, WindowUses):
            # Worked out once per ruleset and shared by its bouts, with tables filled as pieces ask
            # (which roles own what, the actions offered so far): what it is, never what it has kept.
            return ("window uses", tuple(plan.name for plan in value.plans))
        if isinstance(value, Dice):
            return ("dice", self.value(value.state()))
        if isinstance(value, Decision):
            # Its options as a list, whether worked out whole or on demand (`on_demand.py`): what is
            # offered, never what has been asked so far.
            return ("decision", value.actor, value.kind, self.value(value.options))
        if isinstance(value, Interpreter):
            return ("interpreter", value.steps, value.pure)
        if isinstance(value, Env):
            return ("env", self.value(value.names), self.value(value.source), self.value(value.declaration),
                    self.value(value.parent))
        if isinstance(value, Dynamic):
            return ("dynamic", self.value(value.read()))
        if isinstance(value, BoutState):
            return ("BoutState", tuple((f.name, self._pieces(value.pieces) if f.name == "pieces" else
                                        self.value(getattr(value, f.name))) for f in dataclasses.fields(value)))
        if isinstance(value, types.GeneratorType):
            return self._generator(value)
        if isinstance(value, Generator):
            # A generator of the compiled engine (`nexus_dsl.native`) keeps its frame to itself:
            # only which one it is can be read.
            return ("generator", type(value).__qualname__, "compiled")
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            if isinstance(value, Piece):  # pragma: no cover - handled above; kept for clarity of order
                raise AssertionError
            return (type(value).__name__, tuple((f.name, self.value(getattr(value, f.name)))
                                                for f in dataclasses.fields(value)))
        # Attributes as declared: a class's slots, or those of a class of the compiled engine.
        declared = getattr(type(value), "__slots__", None) or getattr(type(value), "__mypyc_attrs__", None)
        if declared is not None and not callable(value):
            return (type(value).__name__, tuple((name, self.value(getattr(value, name, None)))
                                                for name in declared))
        if callable(value):
            return ("callable", getattr(value, "__qualname__", type(value).__name__))
        if hasattr(value, "__next__"):
            # A loop under way (a list, tuple, dict or range iterator, an itertools product):
            # what it walks, and how far it has gone.
            _, args, *rest = value.__reduce__()
            return ("iterator", type(value).__name__, self.value(args), self.value(rest[0] if rest else None))
        raise TypeError(f"no canonical form for a {type(value).__name__} in a bout's state")

    def _pieces(self, pieces: dict[str, Piece]) -> Any:
        """The state's own table of pieces: every field of each (elsewhere a piece is a reference)."""
        return ("pieces", tuple((label, tuple((f.name, self.value(getattr(piece, f.name)))
                                              for f in dataclasses.fields(piece)))
                                for label, piece in pieces.items()))

    def _generator(self, generator: types.GeneratorType) -> Any:
        frame = generator.gi_frame
        if frame is None:
            return ("generator", generator.__qualname__, "finished")
        # In the code's own order of its variables: the order of `f_locals` depends on when it was
        # read before (a name unbound at one reading is dropped, and put last once bound again).
        code, bound = frame.f_code, frame.f_locals
        local = {name: bound[name] for name in (*code.co_varnames, *code.co_cellvars, *code.co_freevars)
                 if name != "self" and name in bound}
        return ("generator", generator.__qualname__, frame.f_lineno, self.value(local),
                self.value(generator.gi_yieldfrom))


__all__ = ["MECHANISMS", "MECHANISMS_NOT_STATE", "NOT_STATE", "READ_AS", "STATE", "differences", "fingerprint", "whole_state"]
