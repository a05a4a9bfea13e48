"""What the engine works out once from a ruleset's content and keeps beside its fields.

A ruleset never changes once loaded, so whatever depends on its content alone (the listeners of
each event, the uses offered at each window) is worked out at the first bout and shared by every
bout played with it, and by their previews. Kept under a name starting with `_`, it is never
pickled (`Ruleset.__getstate__`): a copy in another process works it out again.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from ..model.ruleset import Ruleset

_Derived = TypeVar("_Derived")


def kept_with(ruleset: Ruleset, name: str, work_out: Callable[[], _Derived]) -> _Derived:
    """What `work_out()` gives for this ruleset, worked out the first time only, kept as `name`."""
    assert name.startswith("_"), "kept beside the fields, never pickled"
    found = ruleset.__dict__.get(name)
    if found is None:
        found = work_out()
        object.__setattr__(ruleset, name, found)
    return found  # type: ignore[no-any-return]
