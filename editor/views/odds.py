"""Odds: the exact chance of an opposed roll on the Sliding Dice Scale (pg.27-29), from the
workbench's odds module (computed, never sampled)."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import streamlit as st

from nexus_dsl.workbench import odds


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def matchup(attack: int, defense: int) -> None:
    result = odds.matchup_odds(attack, defense)
    success = result.success
    st.metric("Attack succeeds", percent(success), help="Ties go to the defender.")
    st.markdown(f"Exactly **{success.numerator}/{success.denominator}** ≈ {percent(success)}; "
                f"expected margin {float(result.expected_margin):.2f}.")
    left, right = st.columns(2)
    left.metric("Attacker's Crowd Pleaser", percent(result.attack_crowd_pleaser))
    right.metric("Defender's Crowd Pleaser", percent(result.defense_crowd_pleaser))
    st.subheader("Margin (damage before bonuses)")
    margins = pd.DataFrame({"margin": list(result.margins), "chance": [float(p) for p in result.margins.values()]})
    st.bar_chart(margins, x="margin", y="chance")
    st.dataframe(margins.assign(chance=[percent(p) for p in result.margins.values()]), hide_index=True)


def full_table() -> None:
    st.subheader("Every level against every level (attack down, defense across)")
    names = [odds.sds_text(level) for level in odds.LEVELS]
    rows = [[percent(cell.success) for cell in row] for row in odds.odds_table()]
    st.dataframe(pd.DataFrame(rows, index=names, columns=names))


def render() -> None:
    st.title("Odds")
    levels = list(odds.LEVELS)
    left, right = st.columns(2)
    attack = left.selectbox("Attack level", levels, index=levels.index(0), key="odds_attack", format_func=odds.sds_text)
    defense = right.selectbox("Defense level", levels, index=levels.index(0), key="odds_defense", format_func=odds.sds_text)
    matchup(attack, defense)
    full_table()


render()
