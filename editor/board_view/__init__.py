"""The board view: a picture of the board (from `nexus_dsl.workbench.board_svg`) that answers clicks.

A Streamlit custom component (components v2: inline HTML, CSS and JavaScript, nothing to build or
download), shared by every page that shows a board. Every element of the picture with a
`data-target` attribute (a square `sq:COL,ROW`, a helot `piece:LABEL`, or any other id) can be
clicked when the page lists it as `selectable`: it gets a pointer and a hover outline, and a click
reports its target. `selected` targets are outlined; `marks` tint targets with a class from
`MARK_CLASSES`.

A click reaches the page as a `BoardClick` with a sequence number that grows with every click, so
the same square clicked twice is two clicks; `clicked(key)` hands each click to the page once.

Headless tests (AppTest) cannot run the component's JavaScript: there a test clicks by putting the
click where the component's change callback puts it (`click_key(key)` in Session State), as the
browser test clicks the real picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import streamlit as st

HERE = Path(__file__).parent
HTML = '<div class="nx-board"><div class="nx-picture"></div></div>'

# The tints a page may put on a target (board.css draws each).
MARK_CLASSES = frozenset({"reach", "danger", "problem", "warning", "chosen"})


@dataclass(frozen=True)
class BoardClick:
    """One click on the picture: the clicked element's `data-target`, and its place in the sequence."""

    target: str
    seq: int


@lru_cache(maxsize=1)
def _component() -> Callable[..., Any]:
    # Registered once per process: registering again under the same name replaces it (with a warning).
    return st.components.v2.component(
        "nexus_board_view", html=HTML, css=(HERE / "board.css").read_text(encoding="utf-8"),
        js=(HERE / "board.js").read_text(encoding="utf-8"))


def click_key(key: str) -> str:
    """Where the page keeps the last click the board `key` reported (Session State)."""
    return f"{key}__click"


def _handled_key(key: str) -> str:
    return f"{key}__handled"


def _as_click(value: Any) -> BoardClick | None:
    if not hasattr(value, "get"):
        return None
    target, seq = value.get("target"), value.get("seq")
    if isinstance(target, str) and isinstance(seq, int) and not isinstance(seq, bool):
        return BoardClick(target, seq)
    return None


def _last_click(key: str) -> BoardClick | None:
    return _as_click(st.session_state.get(click_key(key)))


def board_view(svg: str, *, key: str, selectable: Sequence[str] = (), selected: Sequence[str] = (),
               marks: Mapping[str, str] = {}) -> None:
    """Draw the board picture `svg`. Clicks on `selectable` targets reach `clicked(key)`."""
    unknown = sorted(set(marks.values()) - MARK_CLASSES)
    if unknown:
        raise ValueError(f"unknown board mark {unknown[0]!r}: one of {sorted(MARK_CLASSES)}")

    def reported() -> None:
        value = st.session_state.get(key) or {}
        click = _as_click(value.get("click") if hasattr(value, "get") else None)
        last = _last_click(key)
        if click is not None and (last is None or click.seq > last.seq):
            st.session_state[click_key(key)] = {"target": click.target, "seq": click.seq}

    last = _last_click(key)
    _component()(
        key=key,
        data={"svg": svg, "selectable": list(selectable), "selected": list(selected), "marks": dict(marks),
              # the browser numbers its clicks on from here (a new tab starts after the last one)
              "seq": last.seq if last else 0},
        on_click_change=reported,
    )


def clicked(key: str) -> BoardClick | None:
    """The last click on board `key` that the page has not yet been given, or None."""
    click = _last_click(key)
    if click is None or click.seq <= st.session_state.get(_handled_key(key), 0):
        return None
    st.session_state[_handled_key(key)] = click.seq
    return click
