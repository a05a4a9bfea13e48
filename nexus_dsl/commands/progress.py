"""Progress bars for long runs (`simulate`, `balance`, `ab`): bouts done, rate and time left.

tqdm draws them on stderr, and only when stderr is a terminal (`disable=None`): a log redirected to a
file, a pipe or a test's captured output gets nothing, so no carriage returns end up in logs. The
batch code reports progress through a `(done, total)` callback (`sim/balance.py`,
`workbench/batch.py`), the same one the editor's progress bar takes; this module is the command
line's end of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

Progress = Callable[[int, int], None]


@contextmanager
def progress_bar(total: int, what: str = "bouts", quiet: bool = False) -> Iterator[Progress]:
    """A `(done, total)` callback that moves a bar of `total` `what`; nothing is drawn when `quiet`
    or when stderr is not a terminal. The bar is closed (its line finished) on leaving."""
    from tqdm import tqdm  # imported with the first long run, never by `nexus --help`

    bar = tqdm(total=total, unit=f" {what}", unit_scale=False, disable=True if quiet else None,
               dynamic_ncols=True, smoothing=0.1)
    try:
        def advance(done: int, new_total: int) -> None:
            if new_total != bar.total:  # a run that learns its size as it goes (an A/B comparison's limit)
                bar.total = new_total
            bar.update(done - bar.n)

        yield advance
    finally:
        bar.close()
