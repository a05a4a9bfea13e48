"""A rate (wins of bouts, draws of bouts) and its 95% confidence interval.

The interval is Wilson's score interval, sound at small counts and near 0% or 100%, as scipy computes
it (`scipy.stats.binomtest(k, n).proportion_ci(method="wilson")`).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The 95% normal quantile (the Wald interval of a difference of rates, `workbench/batch.py`).
Z95 = 1.959963984540054
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Rate:
    wins: int
    bouts: int

    @property
    def share(self) -> float:
        return self.wins / self.bouts if self.bouts else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the share; (0, 1) when nothing was counted."""
        if not self.bouts:
            return (0.0, 1.0)
        # Imported here: scipy.stats takes most of a second to import, and only a report needs it.
        from scipy.stats import binomtest

        interval = binomtest(self.wins, self.bouts).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
        return (float(interval.low), float(interval.high))

    def to_json(self) -> dict[str, object]:
        low, high = self.interval()
        return {"count": self.wins, "of": self.bouts, "share": self.share, "interval_95": [low, high]}

    def shown(self) -> str:
        """`45.0% (95% interval 35.6%-54.8%)`."""
        low, high = self.interval()
        return f"{self.share:.1%} (95% interval {low:.1%}-{high:.1%})"
