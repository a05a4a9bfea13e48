"""What each figure of `figures.py` means: its label, which way is better, and the speed work's target.

Targets are printed beside the figures and said to be met or not; nothing asserts them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    label: str
    unit: str
    higher_is_better: bool
    target: float | None = None  # None: no target of its own (shown for context, or feeding a ratio)
    strict: bool = False  # the target must be beaten, not just reached (`< 30 s`)
    size_dependent: bool = False  # the target holds at the full size only (`--quick` plays fewer bouts)

    def target_text(self) -> str:
        if self.target is None:
            return ""
        sign = (">" if self.strict else ">=") if self.higher_is_better else ("<" if self.strict else "<=")
        return f"{sign} {self.target:g}"

    def met(self, value: float) -> bool | None:
        if self.target is None:
            return None
        if self.higher_is_better:
            return value > self.target if self.strict else value >= self.target
        return value < self.target if self.strict else value <= self.target

    def ratio(self, reference: float, now: float) -> float:
        """Now against the reference, greater than 1 when now is better whichever way is better."""
        return now / reference if self.higher_is_better else reference / now


FIGURES: dict[str, Figure] = {
    "heuristic_2p": Figure("heuristic 2-player bouts per CPU s", "bouts/s", True, 200),
    "random_2p": Figure("random-agent 2-player bouts per CPU s", "bouts/s", True, 500),
    "heuristic_4p": Figure("heuristic 4-player bouts per CPU s", "bouts/s", True),
    "cost_4p_vs_2p": Figure("4-player bout cost / 2-player bout cost", "x", False, 2.5),
    "length_4p_vs_2p": Figure("  of it: 4-player bout length / 2-player (actions applied)", "x", False),
    "action_cost_4p_vs_2p": Figure("  of it: 4-player / 2-player cost of an action applied", "x", False),
    "random_4p": Figure("random-agent 4-player bouts per CPU s", "bouts/s", True),
    "random_cost_4p_vs_2p": Figure("random agents: 4-player / 2-player bout cost", "x", False, 2.5),
    "ab_2_workers": Figure("A/B comparison, 2 workers (wall)", "s", False, 10, size_dependent=True),
    "ab_1_worker": Figure("A/B comparison, 1 worker (wall)", "s", False, size_dependent=True),
    "ab_speedup": Figure("A/B speedup, 2 workers vs 1", "x", True, 1.9),
    "balance": Figure("balance baseline, nexus balance (wall)", "s", False, 30, strict=True, size_dependent=True),
    "load_warm": Figure("base pack load + validation, warm (CPU)", "ms", False, 150),
    "load_cold": Figure("base pack load + validation, fresh process (CPU)", "ms", False, 500),
    "parse_per_declaration": Figure("parse per declaration (CPU)", "µs", False),
    "cli_help": Figure("nexus --help, fresh process (wall)", "ms", False, 150),
}
