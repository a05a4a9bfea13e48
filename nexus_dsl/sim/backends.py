"""Where a batch's bouts are played: the seam between a batch and the machines that play it.

`local` (the default) plays on processes of this machine (`batch.run_local`: forked workers, or a
fork server's in a process that runs threads, each started with the loaded rulesets by the pool's
initializer). `ray` plays on a Ray
cluster (`ray_backend.py`): a local one started for the purpose, or one reached at an address, whose
workers are sent the packs' files with the job and need no copy of the content.

Either gives the same results for the same specs, in the same order: a bout depends only on its
spec and the packs' contents. Ray is an optional extra (`pip install nexus_dsl[cluster]`); it is
imported only when the `ray` backend is asked for, so importing nexus_dsl never imports it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Protocol

from ..model.ruleset import Ruleset
from .batch import BoutResult, BoutSpec, RulesetKey, run_local

BACKENDS = ("local", "ray")
INSTALL_HINT = "pip install 'nexus_dsl[cluster]'"


class BackendError(RuntimeError):
    """A backend that cannot play: Ray not installed, a cluster that cannot be reached, workers
    that cannot load the packs. The message says what to do; the commands print it, no traceback."""


class Backend(Protocol):
    @property
    def name(self) -> str:
        """`local` or `ray`, as the command line names it."""
        ...

    def run(self, specs: list[BoutSpec], workers: int | None,
            rulesets: Mapping[RulesetKey, Ruleset]) -> Iterator[BoutResult]:
        """Yield one result per spec, in the order of `specs`. `rulesets`, by (packs, root), are
        the ones to play (others are loaded as `batch.spec_ruleset` loads them)."""
        ...


@dataclass(frozen=True)
class LocalBackend:
    """Processes of this machine: `workers` of them (default: one per core)."""

    name: str = "local"

    def run(self, specs: list[BoutSpec], workers: int | None,
            rulesets: Mapping[RulesetKey, Ruleset]) -> Iterator[BoutResult]:
        return run_local(specs, workers, rulesets)


@dataclass(frozen=True)
class RayBackend:
    """A Ray cluster: the one at `address` (`host:port`, `auto`, `ray://host:port`), or with no
    address a local one (the one `ray start` began on this machine, else a new one for this process).
    One worker per CPU of the cluster (at most `workers`), kept warm between batches."""

    address: str | None = None
    name: str = "ray"

    def run(self, specs: list[BoutSpec], workers: int | None,
            rulesets: Mapping[RulesetKey, Ruleset]) -> Iterator[BoutResult]:
        return ray_module().run_on_ray(specs, workers, rulesets, self.address)


def backend_named(name: str, address: str | None = None) -> Backend:
    """The backend a command line or a setting names. Raises `ValueError` for an unknown name or an
    address given to the local backend, `BackendError` when Ray is asked for and not installed."""
    if name == "local":
        if address is not None:
            raise ValueError("--address is the address of a Ray cluster: use it with --backend ray")
        return LocalBackend()
    if name == "ray":
        ray_module()  # say now, before any bout is set up, that Ray is missing
        return RayBackend(address)
    raise ValueError(f"unknown backend `{name}`; choose from {', '.join(BACKENDS)}")


def ray_module() -> ModuleType:
    """`ray_backend`, imported on first use; a `BackendError` saying how to install Ray without it."""
    try:
        return importlib.import_module(".ray_backend", __package__)
    except ImportError as error:
        if error.name is not None and error.name != "ray" and not error.name.startswith("ray."):
            raise
        raise BackendError(f"the ray backend needs Ray, which is not installed: {INSTALL_HINT}") from None
