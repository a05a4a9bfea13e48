"""Odds: the exact chance of an opposed roll on the Sliding Dice Scale (pg.27-29), from the
workbench's odds module (computed, never sampled). A game played without a board and its dice
(NEXUS Pirates) has none: the page says so."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import streamlit as st

from editor import state, widgets
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


def sds_worth(attack: int, defense: int) -> None:
    """What one more level of attack buys against this defense: the chance and the expected margin
    at every attack level, and each level's gain over the one below it."""
    st.subheader(f"What a +SDS is worth against a {odds.sds_text(defense)} defense")
    results = [odds.matchup_odds(level, defense) for level in odds.LEVELS]
    if attack < odds.LEVELS[-1]:
        here, better = results[odds.LEVELS.index(attack)], results[odds.LEVELS.index(attack) + 1]
        st.markdown(f"One more SDS ({odds.sds_text(attack)} → {odds.sds_text(attack + 1)}) takes the chance from "
                    f"{percent(here.success)} to {percent(better.success)} "
                    f"(**{float(better.success - here.success) * 100:+.1f} points**) and the expected margin from "
                    f"{float(here.expected_margin):.2f} to {float(better.expected_margin):.2f} "
                    f"(**{float(better.expected_margin - here.expected_margin):+.2f}**).")
    else:
        st.markdown(f"{odds.sds_text(attack)} is the top of the scale: no level is left to gain.")
    rows = [{"attack": odds.sds_text(r.attack_level), "succeeds": percent(r.success),
             "gain over the level below": "" if i == 0 else f"{float(r.success - results[i - 1].success) * 100:+.1f} points",
             "expected margin": f"{float(r.expected_margin):.2f}",
             "margin gained": "" if i == 0 else f"{float(r.expected_margin - results[i - 1].expected_margin):+.2f}"}
            for i, r in enumerate(results)]
    table = pd.DataFrame(rows)
    chosen = odds.sds_text(attack)
    st.dataframe(table.style.apply(lambda row: ["font-weight: bold; background-color: #fdecec"
                                                 if row["attack"] == chosen else "" for _ in row], axis=1),
                 hide_index=True)


def full_table() -> None:
    st.subheader("Every level against every level (attack down, defense across)")
    names = [odds.sds_text(level) for level in odds.LEVELS]
    rows = [[percent(cell.success) for cell in row] for row in odds.odds_table()]
    st.dataframe(pd.DataFrame(rows, index=names, columns=names))


def render() -> None:
    st.title("Odds")
    if widgets.no_board(state.ruleset(), "no Sliding Dice Scale and no opposed rolls, so no odds to work out"):
        return
    levels = list(odds.LEVELS)
    left, right = st.columns(2)
    attack = left.selectbox("Attack level", levels, index=levels.index(0), key="odds_attack", format_func=odds.sds_text)
    defense = right.selectbox("Defense level", levels, index=levels.index(0), key="odds_defense", format_func=odds.sds_text)
    matchup(attack, defense)
    sds_worth(attack, defense)
    full_table()


render()
