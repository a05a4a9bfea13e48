"""The charts and tables of the test run's batches and A/B comparisons (Altair, pandas), built from
workbench reports. Pure functions of their data, so they are tested without a page."""

from __future__ import annotations

import altair as alt
import pandas as pd

from nexus_dsl.errors import Diagnostic
from nexus_dsl.workbench import batch

CHART_HEIGHT = 240
# Counts of bouts are whole numbers: no 0.2-bout ticks on a small batch's axis.
COUNT_AXIS = alt.Axis(tickMinStep=1, format="d")


def win_chart(wins: pd.DataFrame) -> alt.LayerChart:
    """Win rates as bars with their 95% Wilson intervals as whiskers (a line with a short cap at
    each end), on a 0-100% scale."""
    data = wins.rename(columns={"win rate": "rate", "95% low": "low", "95% high": "high"})
    base = alt.Chart(data).encode(x=alt.X("player:N", sort=None, title=None, axis=alt.Axis(labelAngle=0)))
    bars = base.mark_bar(width={"band": 0.5}).encode(
        y=alt.Y("rate:Q", title="win rate", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        tooltip=["player", alt.Tooltip("rate:Q", format=".1%"), alt.Tooltip("low:Q", format=".1%"),
                 alt.Tooltip("high:Q", format=".1%")])
    whisker = base.mark_rule(color="#222", strokeWidth=1.5).encode(y="low:Q", y2="high:Q")
    caps = [base.mark_tick(color="#222", size=18, thickness=1.5).encode(y=f"{end}:Q") for end in ("low", "high")]
    return alt.layer(bars, whisker, *caps).properties(height=CHART_HEIGHT)


CRED_BIN = 10
SCORE_BIN = 2  # a card game's scores (NEXUS Pirates') spread over a few points, not tens of cred
LENGTH_BIN = 1  # cycles: a bout lasts a handful of them, so each length gets its bar


def bin_label(start: int, width: int) -> str:
    return str(start) if width == 1 else f"{start}–{start + width - 1}"


def histogram(series: dict[str, list[int]], width: int, title: str) -> alt.Chart | None:
    """Bouts per bin of `width` on x, one bar per series side by side. Every bin from the lowest
    value to the highest is drawn, the empty ones too, so gaps show as gaps."""
    values = [value for amounts in series.values() for value in amounts]
    if not values:
        return None
    first, last = min(values) // width * width, max(values) // width * width
    starts = range(first, last + width, width)
    rows = [{"series": label, "start": start, "bin": bin_label(start, width),
             "bouts": sum(1 for value in amounts if start <= value < start + width)}
            for label, amounts in series.items() for start in starts]
    order = [bin_label(start, width) for start in starts]
    names = list(series)
    chart = alt.Chart(pd.DataFrame(rows)).mark_bar().properties(height=CHART_HEIGHT).encode(
        x=alt.X("bin:O", sort=order, title=title, axis=alt.Axis(labelAngle=0 if width == 1 else -45)),
        y=alt.Y("bouts:Q", title="bouts", axis=COUNT_AXIS),
        tooltip=[alt.Tooltip("series:N", title=""), alt.Tooltip("bin:O", title=title), "bouts"])
    if len(names) > 1:
        chart = chart.encode(xOffset=alt.XOffset("series:N", sort=names),
                             color=alt.Color("series:N", sort=names, title=None))
    return chart


def difference_chart(differences: list[batch.Difference], percent: bool) -> alt.LayerChart:
    """Each difference B − A as a point with its 95% interval: a forest plot. An interval that does
    not cross the zero line is a significant difference (red); one that does is not (grey)."""
    scale = 100 if percent else 1
    rows = [{"figure": d.name, "difference": d.difference * scale, "low": d.interval[0] * scale,
             "high": d.interval[1] * scale, "verdict": d.verdict, "p-value": round(d.p_value, 4)}
            for d in differences]
    data = pd.DataFrame(rows)
    title = "B − A (percentage points)" if percent else "B − A (cred)"
    colour = alt.Color("verdict:N", scale=alt.Scale(domain=["significant at 5%", "not significant"],
                                                    range=["#c62828", "#888888"]), title=None,
                       legend=alt.Legend(orient="bottom"))
    base = alt.Chart(data).encode(y=alt.Y("figure:N", sort=None, title=None, axis=alt.Axis(labelLimit=240)))
    interval = base.mark_rule(strokeWidth=2).encode(x=alt.X("low:Q", title=title), x2="high:Q", color=colour)
    point = base.mark_point(filled=True, size=70).encode(
        x="difference:Q", color=colour, tooltip=["figure", "difference", "low", "high", "p-value", "verdict"])
    zero = alt.Chart(pd.DataFrame({"zero": [0]})).mark_rule(strokeDash=[4, 3], color="#444").encode(x="zero:Q")
    # A band per difference (a step), so every figure gets its row however many there are.
    return (zero + interval + point).properties(height=alt.Step(ROW_HEIGHT))


ROW_HEIGHT = 34  # pixels per difference in the forest plot


FAULT_COLUMNS = ["seed", "where", "message"]


def fault_table(faults: list[tuple[int, Diagnostic]]) -> pd.DataFrame:
    """The bouts a script fault stopped, one row each: the seed (to replay it step by step), where
    the script faulted (file:line:column) and what went wrong."""
    rows = [{"seed": seed, "where": fault.location(), "message": fault.message} for seed, fault in faults]
    return pd.DataFrame(rows, columns=FAULT_COLUMNS)
