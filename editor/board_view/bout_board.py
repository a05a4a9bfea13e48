"""A bout's board whose pieces can be clicked: a click on a piece shows its card (traits, locations,
states, what it holds) under the picture, a second click on it puts the card away. Nothing else
changes: the bout is only looked at."""

from __future__ import annotations

from typing import Mapping

import streamlit as st

from editor.board_view import board_view, clicked
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench.board_svg import bout_svg, piece_target
from nexus_dsl.workbench.piece_card import PieceCard, piece_card
from nexus_dsl.workbench.testrun import HelotView


def _chosen_key(key: str) -> str:
    return f"{key}__piece"


def chosen_piece(key: str, pieces: Mapping[str, HelotView]) -> str | None:
    """The piece whose card is shown, after the last click on board `key` (a piece still on it)."""
    click = clicked(key)
    if click is not None:
        label = click.target.removeprefix("piece:")
        same = st.session_state.get(_chosen_key(key)) == label
        st.session_state[_chosen_key(key)] = None if same else label
    chosen = st.session_state.get(_chosen_key(key))
    return chosen if chosen in pieces else None


def show_card(card: PieceCard) -> None:
    with st.container(border=True, key="piece_card"):
        st.markdown(f"**{card.label}** — {card.status}")
        st.markdown("  \n".join(f"{what}: {value}" for what, value in card.facts))
        st.markdown("**Traits** " + " · ".join(f"{name} {value}" for name, value in card.traits))
        st.markdown("**Locations** " + " · ".join(f"{name} {value}" for name, value in card.locations))
        st.markdown("**States** " + (", ".join(card.states) or "none"))


def bout_board(rules: Ruleset, snapshot: Mapping[str, object], pieces: Mapping[str, HelotView], *, key: str) -> None:
    """The board of a step with its pieces clickable, and the card of the piece chosen."""
    chosen = chosen_piece(key, pieces)
    board_view(bout_svg(snapshot, rules), key=key, selectable=[piece_target(label) for label in pieces],
               selected=[piece_target(chosen)] if chosen else [])
    if chosen:
        show_card(piece_card(rules, pieces[chosen]))
    else:
        st.caption("Click a piece to see its card.")
