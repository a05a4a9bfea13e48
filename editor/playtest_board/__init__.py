"""A clickable board picture for the playtest (a Streamlit custom component, components v2: inline
HTML, CSS and JavaScript). It draws an SVG, outlines the elements that may be clicked now and those
selected, and reports a click as its target: an element's `data-target`, else a piece
(`piece:LABEL`, a `g.helot`'s `data-label`) or a square (`sq:COL,ROW`). A click carries a number of
its own (`seq`), so the page takes each click once.

Headless tests (AppTest) cannot run the JavaScript: they click by setting the component's value in
Session State, as the browser would (`{"click": {"target": ..., "seq": ...}}`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import streamlit as st

HERE = Path(__file__).parent
HTML = '<div class="pt-board" role="group"></div>'
CSS = """
.pt-board svg {max-width: 100%; height: auto; display: block;}
.pt-board .pt-selectable {cursor: pointer; outline: none;}
.pt-board rect.pt-selectable, .pt-board .pt-selectable rect, .pt-board .pt-selectable circle
  {stroke: #1e88e5; stroke-width: 3;}
.pt-board .pt-selected rect, .pt-board rect.pt-selected, .pt-board .pt-selected circle
  {stroke: #f57c00; stroke-width: 4;}
"""


@dataclass(frozen=True)
class BoardClick:
    target: str
    seq: int


@lru_cache(maxsize=1)
def _component() -> Callable[..., Any]:
    return st.components.v2.component("nexus_playtest_board", html=HTML, css=CSS,
                                      js=(HERE / "board.js").read_text(encoding="utf-8"))


def board_view(svg: str, *, key: str, selectable: Sequence[str] = (), selected: Sequence[str] = (),
               marks: Mapping[str, str] = {}) -> None:
    """Draw `svg`, the `selectable` targets outlined as clickable, the `selected` ones highlighted;
    `marks` gives a target a title shown on hover."""
    _component()(key=key, data={"svg": svg, "selectable": list(selectable), "selected": list(selected),
                                "marks": dict(marks)})


def clicked(key: str) -> BoardClick | None:
    """The last click on the picture `key`, or None before any."""
    read = getattr(st.session_state.get(key), "get", None)  # the component's state: a mapping of its values
    click = read("click") if read is not None else None
    if isinstance(click, str):
        click = json.loads(click)
    if not isinstance(click, Mapping) or not isinstance(click.get("target"), str):
        return None
    seq = click.get("seq")
    return BoardClick(click["target"], int(seq) if isinstance(seq, (int, float)) else 0)
