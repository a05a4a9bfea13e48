"""Shrinking a failing input to a small one that fails the same way (delta debugging).

First whole lines are taken away, in halves, quarters and so on down to single lines; then single
bytes and runs of bytes. A candidate is kept when the predicate (the same failure signature) still
holds. Bytes, not characters, so that a stray invalid UTF-8 byte can be what remains. The work is
bounded by a wall-clock allowance: a failure reported quickly matters more than the smallest one.
"""

from __future__ import annotations

import time
from typing import Callable

Predicate = Callable[[bytes], bool]


class _Clock:
    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self.deadline


def _reduce(pieces: list[bytes], joiner: bytes, still_fails: Predicate, clock: _Clock) -> list[bytes]:
    """Remove chunks of `pieces` (halves first, down to single pieces) while the input still fails."""
    chunk = max(1, len(pieces) // 2)
    while pieces and not clock.expired:
        removed_any = False
        start = 0
        while start < len(pieces) and not clock.expired:
            candidate = pieces[:start] + pieces[start + chunk:]
            if still_fails(joiner.join(candidate)):
                pieces = candidate
                removed_any = True
            else:
                start += chunk
        if chunk == 1 and not removed_any:
            break
        chunk = max(1, chunk // 2)
    return pieces


def minimise(data: bytes, still_fails: Predicate, seconds: float) -> bytes:
    """A smaller `data` for which `still_fails` holds (`data` itself when nothing smaller does)."""
    clock = _Clock(seconds)
    lines = _reduce(data.split(b"\n"), b"\n", still_fails, clock)
    smaller = b"\n".join(lines)
    return b"".join(_reduce([bytes([b]) for b in smaller], b"", still_fails, clock))
