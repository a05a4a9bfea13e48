"""Bouts on a Ray cluster: the `ray` backend of `backends.py`, imported only when it is asked for.

The packs travel with the job. For each ruleset a batch plays, the files of its packs are bundled
(`shipping.py`) and put into Ray's object store once; each worker fetches a bundle the first time a
chunk of bouts needs it, loads the Ruleset from it once and keeps it, by the bundle's digest, for
the batches that follow. The workers need nexus_dsl (and Ray) installed, never the content.

One worker (a Ray actor holding one CPU) per CPU free when this process first uses the cluster,
started once and kept warm for the life of the process, so an editor's second batch costs no
start-up. The bouts go out in chunks, as `run_local` hands them to its processes, and come back in
the order of the specs: the results are the local backend's, bout for bout.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import ray
from cachetools import LRUCache
from ray.util import ActorPool

from ..model.ruleset import Ruleset
from .backends import BackendError
from .batch import BoutResult, BoutSpec, RulesetKey, play_one, preload, rulesets_for
from .shipping import PackBundle, RebuiltRuleset, bundle_of, rebuild

#: How long an address may take to answer before the command says nothing answers there.
PROBE_SECONDS = 5.0
#: Rulesets a worker keeps loaded, the most recently used (an editor plays a few in turn).
KEPT_RULESETS = 8

# A bundle's digest and a list holding its object reference: Ray hands an object reference inside a
# list on as a reference, so a worker fetches the bundle only when it has not loaded it yet.
Shipped = tuple[str, list[Any]]


@ray.remote(num_cpus=1)
class BoutWorker:
    """Plays chunks of bouts with the rulesets it rebuilt from shipped bundles."""

    def __init__(self) -> None:
        self._loaded: LRUCache[str, RebuiltRuleset] = LRUCache(maxsize=KEPT_RULESETS)

    def play(self, shipped: dict[RulesetKey, Shipped], specs: list[BoutSpec]) -> list[BoutResult]:
        rebuilt = {key: self._ruleset(digest, reference) for key, (digest, reference) in shipped.items()}
        preload({key: loaded.ruleset for key, loaded in rebuilt.items()})
        results = []
        for spec in specs:
            result = play_one(spec)
            if result.fault is not None:
                result.fault = rebuilt[(spec.packs, spec.root)].as_caller_names(result.fault)
            results.append(result)
        return results

    def _ruleset(self, digest: str, reference: list[Any]) -> RebuiltRuleset:
        loaded = self._loaded.get(digest)  # a hit is the most recently used from now on
        if loaded is None:
            bundle: PackBundle = ray.get(reference[0])
            if bundle.digest() != digest:  # never play other content than the caller shipped
                raise ValueError("the shipped packs do not match their digest")
            loaded = self._loaded[digest] = rebuild(bundle)  # the least recently used goes past the bound
        return loaded


# The warm workers of this process, for the Ray job they were started in (a new `ray.init` is a new job).
_workers: tuple[str, list[Any]] | None = None
# The address this process joined (empty: none, or Ray was set up by the caller, who keeps it).
_joined: list[str | None] = []
# The editor plays batches from several sessions' threads: one joins the cluster and starts the workers.
_setting_up = threading.Lock()


def run_on_ray(specs: list[BoutSpec], workers: int | None, rulesets: Mapping[RulesetKey, Ruleset],
               address: str | None) -> Iterator[BoutResult]:
    """The bouts of `specs` on the cluster at `address` (None: a local one), in order."""
    if not specs:
        return
    with _setting_up:
        connect(address)
        actors = warm_workers()[: workers or None]
    shipped: dict[RulesetKey, Shipped] = {}
    for key, ruleset in rulesets_for(specs, rulesets).items():  # the caller's, else loaded as a local batch loads them
        bundle = bundle_of(ruleset)
        shipped[key] = (bundle.digest(), [ray.put(bundle)])
    size = max(1, len(specs) // (len(actors) * 8))
    chunks = [specs[start:start + size] for start in range(0, len(specs), size)]
    try:
        for results in ActorPool(actors).map(lambda actor, chunk: actor.play.remote(shipped, chunk), chunks):
            yield from results
    except ray.exceptions.ActorDiedError as error:
        raise BackendError(f"a Ray worker could not start or died: {_first_line(error)} (every machine of the "
                           "cluster needs nexus_dsl installed, the version this machine runs)") from None
    except ray.exceptions.RayError as error:
        raise BackendError(f"the Ray workers could not play the bouts: {_first_line(error)}") from None


def connect(address: str | None) -> None:
    """Join the cluster at `address`, or with none a local one (started for this process when no
    `ray start` instance runs here); nothing when this process is connected to it already. A
    cluster this process joined for another address is left first."""
    if ray.is_initialized():
        if not _joined or _joined[0] == address:
            return
        shutdown()
    silent = _silence(address) if address is not None else None
    if silent is not None:
        raise BackendError(f"cannot reach the Ray cluster at {address}: {silent}")
    try:
        # No dashboard for an instance started here; the object store is left at Ray's default, as
        # is required when no address is given and a `ray start` instance is found and joined.
        ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    except Exception as error:  # noqa: BLE001 - Ray raises many kinds; each becomes a plain message
        if address is None:
            raise BackendError(f"cannot start a local Ray instance: {_first_line(error)}") from None
        raise BackendError(f"cannot reach the Ray cluster at {address}: {_first_line(error)} (a cluster started with "
                           "token authentication, Ray's default, also needs RAY_AUTH_MODE=token and the cluster's "
                           "token here: see docs/cluster.md)") from None
    _joined[:] = [address]


def _silence(address: str) -> str | None:
    """Why nothing answers at a `host:port` address, said at once (Ray itself would retry for
    minutes); None when something does, or for an address Ray reads otherwise (`auto`, `ray://`)."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or "://" in address:
        return None
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS).close()
    except OSError as error:
        return f"nothing answers there ({error.strerror or type(error).__name__})"
    return None


def warm_workers() -> list[Any]:
    """This job's workers, started on first use: one per CPU the cluster has free."""
    global _workers
    job = ray.get_runtime_context().get_job_id()
    if _workers is None or _workers[0] != job:
        count = max(1, int(ray.available_resources().get("CPU", 1)))
        _workers = (job, [BoutWorker.remote() for _ in range(count)])  # type: ignore[attr-defined]
    return _workers[1]


def shutdown() -> None:
    """Stop this process's workers and leave the cluster (a local instance started here stops too)."""
    global _workers
    for actor in _workers[1] if _workers is not None else ():
        ray.kill(actor)
    _workers = None
    _joined.clear()
    ray.shutdown()


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
