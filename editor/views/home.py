"""The first page: what the workbench is for and what to do first, each journey one click away, with
the packs loaded now (the sidebar changes them)."""

from __future__ import annotations

import streamlit as st

from editor import state, widgets

# Each journey a designer comes for: its page, what it does, and the first thing to do there.
JOURNEYS = (
    ("views/card_editor.py", "Write a card", ":material/edit_note:",
     "Start a new card from a template (or duplicate one). It is checked as you type, its face shown "
     "beside it, and it is saved into a pack of your own."),
    ("views/test_run.py", "See what it does", ":material/play_circle:",
     "Step through one bout with the card forced into a hand or onto the deck, then run an A/B "
     "comparison with and without it: how often it came into play, what moved, and how sure that is."),
    ("views/playtest.py", "Play it", ":material/groups:",
     "Play a bout by hand, hot seat or against the agents, on the real game: motivations, lanistas "
     "and barge drawn by the dice."),
    ("views/browser.py", "Look something up", ":material/search:",
     "Every card, ability, rule and barge of the loaded packs, with its face and its script."),
    ("views/barge_editor.py", "Draw a barge", ":material/grid_on:",
     "Place walls, crates and hazards on the 8x8 board and check them against the box."),
    ("views/odds.py", "Work out the odds", ":material/casino:",
     "The exact chances of an attack on the Sliding Dice Scale, level against level."),
)


def render() -> None:
    st.title("NEXUS workbench")
    st.markdown("Design cards, barges and house rules for NEXUS, then find out what they do: "
                "simulate hundreds of bouts, compare with and without, and play them by hand.")
    rules = state.ruleset()
    if rules is not None:
        packs = ", ".join(f"`{pack.id}`" for pack in rules.packs)
        st.caption(f"Loaded now: {packs}. Add an expansion, a house rule or your own pack in the sidebar.")
    columns = st.columns(2)
    for index, (page, title, icon, what) in enumerate(JOURNEYS):
        with columns[index % 2].container(border=True):
            st.page_link(page, label=title, icon=icon)
            st.caption(what)
    if rules is None:
        widgets.require_ruleset()


render()
