"""Run many seeded bouts (on several cores) and collect what each one did.

Every bout is reproducible from its seed, its settings and the loaded packs; a worker is handed the
rulesets when it starts (`start_worker`, the pool's initializer) and plays its share. A bout that
raises is reported as an engine error with its seed, never hidden, so a batch doubles as a random-playout invariant test (the engine checks the coin
ledger after every action). A bout stopped by a script fault (content that faults at run time) is
counted apart from engine errors, with its positioned diagnostic: it is the content's problem,
not the engine's.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.context
import os
import statistics
import sys
import threading
import traceback
import types
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping

from ..agents import make_agent
from ..content.loader import cached_ruleset
from ..engine.bout import Bout, Event, next_action, on_demand_actors
from ..engine.setup import BoutSetup, standard_setup
from ..errors import Diagnostic
from ..model.ruleset import Ruleset
from .rates import Rate
from .shipping import PackBundle, RebuiltRuleset, bundle_of, rebuild

if TYPE_CHECKING:
    from .backends import Backend


@dataclass(frozen=True)
class BoutSpec:
    seed: int
    players: int = 2
    packs: tuple[str, ...] = ("base",)
    agents: tuple[str, ...] = ("heuristic",)
    barge: str | None = None
    motivations: tuple[str | None, ...] = ()
    lanistas: tuple[str | None, ...] = ()
    strict_ledger: bool = False  # prove the coin ledger after every event (slower; for tests)
    stack_turning_points: tuple[str, ...] = ()  # on top of the Turning Point deck, top card first
    dealt: tuple[tuple[str, ...], ...] = ()  # per player in seat order: influence cards in hand after the deal
    keep: tuple[int | None, ...] = ()  # per player: cards kept of the dealt share (None: the lanista's Influence)
    watched: tuple[str, ...] = ()  # card and ability ids whose uses are summarised (`BoutResult.watched`)
    root: str | None = None  # the content root the packs come from (None: the default)
    # Cards placed in zones before the setup deals (a game of zones, such as NEXUS Pirates): each
    # (zone, owner or None for a shared zone, cards top first), as a scenario's `zones:` places them.
    zones: tuple[tuple[str, str | None, tuple[str, ...]], ...] = ()


@dataclass
class WatchedUse:
    """What a watched card or ability did in one bout: every use (played, or drawn for a Turning
    Point card) and the events that followed it up to the next command, ability, card, draw or
    round boundary, summed."""

    played: int = 0  # used as an ability or played as an influence card
    drawn: int = 0  # drawn from a deck
    users: list[str] = field(default_factory=list)  # the helots that used or drew it, once each
    damage: int = 0  # condition coins taken (location and overall) by any helot
    hits: int = 0  # damage events that took coins
    cred_gained: int = 0  # coins into the user's cred pile
    cred_lost: int = 0  # coins out of the user's cred pile
    crowd_change: int = 0  # coins into the crowd pile minus coins out of it
    states_added: dict[str, int] = field(default_factory=dict)
    states_removed: dict[str, int] = field(default_factory=dict)


@dataclass
class BoutResult:
    seed: int
    winner: str | None = None
    termination: str | None = None
    cycles: int = 0
    totals: dict[str, int] = field(default_factory=dict)
    crowd: int = 0
    ledger_balanced: bool = True
    commands: dict[str, int] = field(default_factory=dict)
    cards_played: dict[str, int] = field(default_factory=dict)  # influence cards played
    cards_drawn: dict[str, int] = field(default_factory=dict)  # cards drawn from a deck (Turning Points)
    cards_kept: dict[str, int] = field(default_factory=dict)  # influence cards kept at the deal
    abilities: dict[str, int] = field(default_factory=dict)  # trait abilities used
    error: str | None = None
    fault: Diagnostic | None = None  # the script fault that stopped the bout (not an engine error)
    watched: dict[str, WatchedUse] = field(default_factory=dict)  # the spec's watched ids that were used or drawn
    barge: str | None = None  # the barge played on (a random pick resolved)
    # Each piece's role and its player's profile by label, as played (random draws resolved).
    motivations: dict[str, str | None] = field(default_factory=dict)
    lanistas: dict[str, str | None] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)  # each player's side: who shares its wins

    @property
    def finished(self) -> bool:
        """Played to its end: neither an engine error nor a script fault stopped it."""
        return self.error is None and self.fault is None


#: Which packs a bout plays, and from which content root (None: the default).
RulesetKey = tuple[tuple[str, ...], str | None]
# The rulesets this process plays bouts with, by (packs, root): a batch's worker is handed them by
# the pool's initializer (`start_worker`), a Ray worker with each chunk (`preload`).
_RULESETS: dict[RulesetKey, Ruleset] = {}
# A worker's rulesets loaded from the bytes of their packs, to give a fault's file its caller's name.
_REBUILT: dict[RulesetKey, RebuiltRuleset] = {}
# Why a worker could not load its rulesets (each of its bouts reports it), None when it could.
_start_error: str | None = None


def spec_setup(spec: BoutSpec) -> BoutSetup:
    """The standard setup a spec describes: seats, motivations, lanistas, stacked and dealt cards."""
    setup = standard_setup(players=spec.players, layout=spec.barge,
                           roles=list(spec.motivations) or None, profiles=list(spec.lanistas) or None)
    if spec.stack_turning_points:
        setup.decks["turning_point"] = list(spec.stack_turning_points)
    for helot, cards in zip(setup.pieces, spec.dealt):
        helot.dealt = list(cards)
    for helot, keep in zip(setup.pieces, spec.keep):
        helot.keep = keep
    for zone, owner, cards in spec.zones:
        if owner is None:
            setup.zones[zone] = list(cards)
        else:
            placed = setup.zones.setdefault(zone, {})
            assert isinstance(placed, dict)
            placed[owner] = list(cards)
    return setup


def spec_agents(spec: BoutSpec, labels: list[str]) -> dict[str, Any]:
    """One agent per helot, cycling through the spec's agent names; random agents seeded per seat."""
    return {label: make_agent(spec.agents[i % len(spec.agents)], seed=spec.seed * 31 + i)
            for i, label in enumerate(labels)}


def spec_ruleset(spec: BoutSpec, rulesets: Mapping[RulesetKey, Ruleset] | None = None) -> Ruleset:
    """The ruleset a spec plays: one of `rulesets` (default: those preloaded in this process), else
    its packs loaded (once per process)."""
    preloaded = (_RULESETS if rulesets is None else rulesets).get((spec.packs, spec.root))
    if preloaded is not None:
        return preloaded
    # The one-argument call shares its cache entry with callers that warm `cached_ruleset(packs)`.
    return cached_ruleset(spec.packs) if spec.root is None else cached_ruleset(spec.packs, spec.root)


def rulesets_for(specs: Iterable[BoutSpec], rulesets: Mapping[RulesetKey, Ruleset]) -> dict[RulesetKey, Ruleset]:
    """Every ruleset the specs play, by (packs, root): one of `rulesets`, else its packs loaded here
    (once per process). Packs that do not load are left out: each of their bouts reports why."""
    found: dict[RulesetKey, Ruleset] = {}
    for spec in specs:
        key = (spec.packs, spec.root)
        if key not in found:
            try:
                found[key] = spec_ruleset(spec, rulesets)
            except Exception:  # noqa: BLE001 - the bouts that play these packs report it, with their seeds
                continue
    return found


def play_one(spec: BoutSpec, rulesets: Mapping[RulesetKey, Ruleset] | None = None) -> BoutResult:
    """Play the bout of `spec` with one of `rulesets` (default: this process's, `preload`)."""
    result = BoutResult(spec.seed)
    try:
        ruleset = spec_ruleset(spec, rulesets)
        setup = spec_setup(spec)
        labels = [h.label for h in setup.pieces]
        agents = spec_agents(spec, labels)
        bout = Bout(ruleset, setup, seed=spec.seed, strict_ledger=spec.strict_ledger, options_on_demand=on_demand_actors(agents))
        while bout.pending is not None:
            bout.apply(next_action(bout, agents))
        result.fault = bout.fault
        outcome = bout.outcome
        assert outcome is not None
        result.winner = outcome.winner
        result.termination = outcome.termination
        result.cycles = bout.state.cycle
        result.totals = dict(outcome.totals)
        result.crowd = outcome.piles.get("crowd", 0)
        result.ledger_balanced = bout.state.coins_in_play() == bout.state.drawn
        result.barge = bout.state.meta.get("layout")
        result.motivations = {label: piece.role for label, piece in bout.state.pieces.items()}
        result.lanistas = {label: piece.profile for label, piece in bout.state.pieces.items()}
        result.sides = {label: player.side for label, player in bout.state.players.items()}
        if spec.watched:
            result.watched = watched_uses(bout.log, frozenset(spec.watched), bout.actor_word)
        for event in bout.log:
            if event.type in ("command", "ability", "card"):
                # A command's event names it under `command`; an ability's or a card's under `name`.
                key = event.data.get("command") or event.data["name"]
                result.commands[key] = result.commands.get(key, 0) + 1
            if event.type == "card":
                _count(result.cards_played, event.data["name"])
            elif event.type == "ability":
                _count(result.abilities, event.data["name"])
            elif event.type == "draw" and event.data.get("card"):
                _count(result.cards_drawn, event.data["card"])
        # What a lanista kept at the deal is what it played plus what is still in its hand.
        for card, times in result.cards_played.items():
            _count(result.cards_kept, card, times)
        for helot in bout.state.pieces.values():
            for card in helot.hand:
                _count(result.cards_kept, card)
    except Exception as error:  # noqa: BLE001 — a batch reports every engine failure with its seed
        result.error = f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=6)}"
    return result


def _count(counter: dict[str, int], key: str, times: int = 1) -> None:
    counter[key] = counter.get(key, 0) + times


# Where the consequences of a use stop being its own: the next thing a player does, or a new round.
USE_BOUNDARIES = frozenset({"command", "ability", "card", "draw", "round_start", "round_end", "initiative",
                            "allocate", "bout_end"})


def watched_uses(log: list[Event], watched: frozenset[str], actor_word: str = "helot") -> dict[str, WatchedUse]:
    """Sum up what each watched card or ability did in one bout's log (see `WatchedUse`); the log
    names who acts by `actor_word`, the game's word for it."""
    uses: dict[str, WatchedUse] = {}
    for index, event in enumerate(log):
        if event.type in ("card", "ability"):
            name = event.data.get("name")
        elif event.type == "draw":
            name = event.data.get("card")
        else:
            continue
        if name not in watched:
            continue
        use = uses.setdefault(name, WatchedUse())
        user = event.data.get(actor_word)
        if event.type == "draw":
            use.drawn += 1
        else:
            use.played += 1
        if user and user not in use.users:
            use.users.append(user)
        for after in log[index + 1:]:
            if after.type in USE_BOUNDARIES:
                break
            _add_consequence(use, after, user)
    return uses


def _add_consequence(use: WatchedUse, event: Event, user: str | None) -> None:
    data = event.data
    if event.type == "damage":
        taken = data.get("location_taken", 0) + data.get("overall_taken", 0)
        use.damage += taken
        use.hits += 1 if taken else 0
    elif event.type == "coins":
        amount = data["amount"]
        if user and data["dest"] == f"cred:{user}":
            use.cred_gained += amount
        if user and data["source"] == f"cred:{user}":
            use.cred_lost += amount
        use.crowd_change += amount * ((data["dest"] == "crowd") - (data["source"] == "crowd"))
    elif event.type == "state":
        if "added" in data:
            _count(use.states_added, data["added"])
        else:
            _count(use.states_removed, data["removed"])


def run_batch(specs: Iterable[BoutSpec], workers: int | None = None,
              rulesets: Mapping[RulesetKey, Ruleset] | None = None,
              backend: Backend | None = None) -> Iterator[BoutResult]:
    """Yield results in the order of `specs`, played by `backend` (`sim/backends.py`; default: the
    processes of this machine, `run_local`) on up to `workers` workers. `rulesets`, by (packs, root), are played
    instead of loading those packs again."""
    if backend is None:
        return run_local(list(specs), workers, rulesets or {})
    return backend.run(list(specs), workers, rulesets or {})


def preload(rulesets: Mapping[RulesetKey, Ruleset]) -> None:
    """The rulesets `play_one` plays in this process, by (packs, root), instead of loading them."""
    _RULESETS.clear()
    _RULESETS.update(rulesets)


def settle_heap() -> None:
    """Tell the garbage collector that everything this process holds now lives as long as it does
    (`gc.freeze`): a process made to play bouts calls it once its rulesets are loaded. A ruleset is
    a large, long-lived heap of syntax nodes and tables; left as it is, every collection a bout's
    allocations set off walks it again (several percent of a bout's time). What is frozen is never
    collected, so this is for processes that play bouts and little else — the `nexus sim` command
    and the workers of a batch — never done for a program that merely calls the library."""
    gc.freeze()


#: What a batch's worker is started with, by (packs, root): a loaded ruleset, or its packs' bytes.
WorkerRulesets = Mapping[RulesetKey, Ruleset | PackBundle]


def start_worker(rulesets: WorkerRulesets) -> None:
    """A batch worker's initializer: the rulesets it plays, each loaded once (a bundle of a
    ruleset's packs is rebuilt from its bytes, `shipping.py`), then its heap settled."""
    global _start_error
    loaded: dict[RulesetKey, Ruleset] = {}
    _REBUILT.clear()
    _start_error = None
    try:
        for key, given in rulesets.items():
            if isinstance(given, PackBundle):
                _REBUILT[key] = rebuilt = rebuild(given)
                given = rebuilt.ruleset
            loaded[key] = given
    except Exception as error:  # noqa: BLE001 - an initializer that raises is started again and again
        _start_error = f"{type(error).__name__}: the worker could not load the packs: {error}"
    preload(loaded)
    settle_heap()


def play_in_worker(spec: BoutSpec) -> BoutResult:
    """`play_one` in a batch's worker, a script fault naming the caller's files."""
    if _start_error is not None:
        return BoutResult(spec.seed, error=_start_error)
    result = play_one(spec)
    rebuilt = _REBUILT.get((spec.packs, spec.root))
    if result.fault is not None and rebuilt is not None:
        result.fault = rebuilt.as_caller_names(result.fault)
    return result


def run_local(specs: list[BoutSpec], workers: int | None,
              rulesets: Mapping[RulesetKey, Ruleset]) -> Iterator[BoutResult]:
    """The bouts on up to `workers` processes of this machine (default: one per core), in order.
    The rulesets are loaded here, once, and each worker is started with them (`start_worker`)."""
    played = rulesets_for(specs, rulesets)
    workers = workers or min(len(specs), os.cpu_count() or 1)
    if workers <= 1 or len(specs) < 4:
        for spec in specs:
            yield play_one(spec, played)
        return
    context = _process_context()
    with _no_main_script_for(context):
        pool = context.Pool(workers, initializer=start_worker, initargs=(_for_workers(played, context),))
    with pool:
        yield from pool.imap(play_in_worker, specs, chunksize=max(1, len(specs) // (workers * 8)))


@contextmanager
def _no_main_script_for(context: multiprocessing.context.BaseContext) -> Iterator[None]:
    """While workers that are not forked start, `__main__` is a module with no file. Such a worker first
    runs the parent's `__main__` script again (multiprocessing's way to find what is defined there);
    a batch's workers need nothing of it (what they run is in this module), and in a web server it is
    the page script run last (Streamlit installs each script run as `__main__`): run again in a worker,
    outside the server, it would draw a page into nothing, or fail."""
    if context.get_start_method() == "fork":
        yield
        return
    main = sys.modules.get("__main__")
    stand_in = sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        # Given back only if still the stand-in: a server's other thread may have started a script
        # run meanwhile, which installed its own `__main__`, newer than the one taken away.
        if main is not None and sys.modules.get("__main__") is stand_in:
            sys.modules["__main__"] = main


def _process_context() -> multiprocessing.context.BaseContext:
    """Fork when this process runs no other thread. A process that does (a web server such as the
    editor's) must not fork — a child can hang on a lock another thread held — so its workers come
    from a fork server."""
    if threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["nexus_dsl.sim.batch"])
    return context


def _for_workers(rulesets: Mapping[RulesetKey, Ruleset],
                 context: multiprocessing.context.BaseContext) -> WorkerRulesets:
    """What the workers are started with. A forked worker is a copy of this process, handed the
    initializer's arguments as they are: the loaded rulesets. A spawned one, or a fork server's, is
    a new process sent them pickled, and a ruleset does not pickle: it is sent the bytes of the
    ruleset's packs, which it loads once. Either plays exactly the content the caller loaded."""
    if context.get_start_method() == "fork":
        return dict(rulesets)
    return {key: bundle_of(ruleset) for key, ruleset in rulesets.items()}


#: How many diagnostics of script faults a summary prints (the rest are counted).
FAULTS_SHOWN = 5


@dataclass
class BatchSummary:
    bouts: int
    errors: list[BoutResult]
    unbalanced: list[int]
    wins: dict[str, int]
    draws: int
    median_cycles: float
    faults: list[BoutResult] = field(default_factory=list)
    contenders: tuple[str, ...] = ()  # who can win, in seat order: the players, or the sides they form

    @property
    def finished(self) -> int:
        """Bouts played to their end: the figures' denominator."""
        return self.bouts - len(self.errors) - len(self.faults)

    def win_rates(self) -> dict[str, Rate]:
        """Each contender's wins of the finished bouts (a draw is a bout not won)."""
        names = list(dict.fromkeys([*self.contenders, *sorted(self.wins)]))
        return {name: Rate(self.wins.get(name, 0), self.finished) for name in names}

    def draw_rate(self) -> Rate:
        return Rate(self.draws, self.finished)

    def lines(self) -> list[str]:
        out = [f"{self.bouts} bouts: {len(self.errors)} engine errors, {len(self.faults)} script faults, "
               f"{len(self.unbalanced)} unbalanced ledgers, {self.draws} draws, median {self.median_cycles:g} cycles"]
        out += [f"  {label}: {rate.wins} wins, {rate.shown()}" for label, rate in self.win_rates().items()]
        out.append(f"  draws: {self.draws}, {self.draw_rate().shown()}")
        out += [f"  error (seed {r.seed}): {r.error.splitlines()[0] if r.error else ''}" for r in self.errors[:10]]
        out += fault_lines(self.faults)
        return out

    def to_json(self) -> dict[str, Any]:
        """The summary as `nexus simulate --format json` prints it."""
        return {
            "bouts": self.bouts, "finished": self.finished, "median_cycles": self.median_cycles,
            "wins": {label: rate.to_json() for label, rate in self.win_rates().items()},
            "draws": self.draw_rate().to_json(),
            **problems_json(self.errors, self.faults),
            "unbalanced_ledgers": self.unbalanced,
        }


def problems_json(errors: list[BoutResult], faults: list[BoutResult]) -> dict[str, list[dict[str, Any]]]:
    """The bouts a batch could not finish, by seed, as the reports' JSON gives them: each engine error's
    first line, each script fault's positioned diagnostic."""
    return {
        "engine_errors": [{"seed": r.seed, "error": (r.error or "").splitlines()[0]} for r in errors],
        "script_faults": [{"seed": r.seed, **r.fault.to_json()} for r in faults if r.fault is not None],
    }


def fault_lines(faulted: list[BoutResult], shown: int = FAULTS_SHOWN) -> list[str]:
    """The first few script faults of a batch, each positioned, and how many more there were."""
    out = [f"  script fault (seed {r.seed}): {r.fault.location()}: {r.fault.message}"
           for r in faulted[:shown] if r.fault is not None]
    if len(faulted) > shown:
        out.append(f"  ... and {len(faulted) - shown} more bouts stopped by a script fault")
    return out


def summarise(results: list[BoutResult]) -> BatchSummary:
    finished = [r for r in results if r.finished]
    wins: dict[str, int] = {}
    for result in finished:
        if result.winner:
            wins[result.winner] = wins.get(result.winner, 0) + 1
    # A player wins for its side (the 2 vs 2 variant's teams); without sides each player is one.
    contenders = dict.fromkeys(side for result in finished
                               for side in (result.sides.values() if result.sides else result.totals))
    return BatchSummary(
        contenders=tuple(contenders),
        bouts=len(results),
        errors=[r for r in results if r.error is not None],
        faults=[r for r in results if r.fault is not None],
        unbalanced=[r.seed for r in finished if not r.ledger_balanced],
        wins=wins,
        draws=sum(1 for r in finished if r.winner is None),
        median_cycles=statistics.median([r.cycles for r in finished]) if finished else 0.0,
    )
