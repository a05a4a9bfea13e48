"""Batch simulation: many seeded bouts, in parallel, summarised."""

from .batch import BoutResult, BatchSummary, run_batch, summarise

__all__ = ["BatchSummary", "BoutResult", "run_batch", "summarise"]
