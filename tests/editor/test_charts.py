"""The batch and A/B charts, from their data: every bin drawn (the empty ones too), counts right,
and a forest plot whose intervals and colours tell significant differences from the others."""

from __future__ import annotations

import pandas as pd

from editor.charts import bin_label, difference_chart, histogram, win_chart
from nexus_dsl.workbench.batch import Difference


def _rows(chart) -> pd.DataFrame:
    return chart.data if isinstance(chart.data, pd.DataFrame) else pd.DataFrame(chart.data)


def test_a_histogram_draws_every_bin_between_the_extremes_with_its_count() -> None:
    chart = histogram({"bouts": [5, 5, 7, 9, 9, 9]}, 1, "Command Cycles")
    rows = _rows(chart)
    assert list(rows["bin"]) == ["5", "6", "7", "8", "9"]  # 6 and 8: no bout, still a bin
    assert list(rows["bouts"]) == [2, 0, 1, 0, 3]
    assert chart.to_dict()["encoding"]["x"]["sort"] == ["5", "6", "7", "8", "9"]


def test_binned_histograms_count_each_series_in_its_bins() -> None:
    chart = histogram({"red": [0, 9, 10, 31], "blue": [12, -3]}, 10, "final cred")
    rows = _rows(chart).set_index(["series", "bin"])["bouts"]
    assert rows[("red", "0–9")] == 2 and rows[("red", "10–19")] == 1 and rows[("red", "30–39")] == 1
    assert rows[("red", "20–29")] == 0 and rows[("blue", "-10–-1")] == 1 and rows[("blue", "10–19")] == 1
    assert rows.groupby(level="series").sum().to_dict() == {"red": 4, "blue": 2}
    assert "xOffset" in chart.to_dict()["encoding"]  # two players: bars side by side
    assert bin_label(20, 10) == "20–29" and bin_label(7, 1) == "7"


def test_no_values_no_histogram() -> None:
    assert histogram({"red": [], "blue": []}, 10, "final cred") is None


def test_the_forest_plot_shows_each_difference_with_its_interval_and_verdict() -> None:
    significant = Difference("red win rate", 0.40, 0.55, (0.05, 0.25), 0.003, "two-proportion z-test", True)
    unclear = Difference("draws", 0.10, 0.12, (-0.03, 0.07), 0.41, "two-proportion z-test", True)
    chart = difference_chart([significant, unclear], percent=True)
    layers = chart.to_dict()["layer"]
    assert len(layers) == 3  # the zero line, the intervals, the points
    rows = _rows(chart.layer[1]).set_index("figure")
    assert abs(rows.loc["red win rate", "difference"] - 15) < 1e-9
    assert (rows.loc["red win rate", "low"], rows.loc["red win rate", "high"]) == (5.0, 25.0)
    assert rows.loc["draws", "verdict"] == "not significant" and rows.loc["red win rate", "verdict"] == "significant at 5%"
    assert layers[2]["encoding"]["color"]["scale"]["range"] == ["#c62828", "#888888"]


def test_win_rates_are_bars_on_a_full_scale_with_their_interval_as_whiskers() -> None:
    wins = pd.DataFrame([{"player": "red", "win rate": 0.5, "95% low": 0.24, "95% high": 0.76},
                         {"player": "blue", "win rate": 0.4, "95% low": 0.17, "95% high": 0.69}])
    layers = win_chart(wins).to_dict()["layer"]
    marks = [layer["mark"]["type"] for layer in layers]
    assert marks == ["bar", "rule", "tick", "tick"]
    assert layers[0]["encoding"]["y"]["scale"]["domain"] == [0, 1]
    assert (layers[1]["encoding"]["y"]["field"], layers[1]["encoding"]["y2"]["field"]) == ("low", "high")
    assert {layers[2]["encoding"]["y"]["field"], layers[3]["encoding"]["y"]["field"]} == {"low", "high"}
