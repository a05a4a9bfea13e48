"""One test bout a designer steps through, command by command.

`TestRunSettings` says what to play: packs, barge, each player's motivation, lanista and agent, the
seed, Turning Point cards stacked on top of their deck and influence cards put in a player's hand.
`Stepper` plays it: every `step()` lets the agents choose until the next command, ability or card
has resolved and the bout waits for the next one, and returns a `StepView` of what happened (the
events, readable lines, the dice) and where things stand (a snapshot, every helot's conditions,
cred, states, weapon, trait reserves, AP and MP). The same settings always play the same steps;
`Stepper.actions` (the applied actions) saves a run and `Stepper(settings, script=...)` replays it.
A bout stopped by a script fault ends there: the last step's view carries the positioned
diagnostic (`StepView.fault`), with the state as it was before the action that faulted.
`fault_text` formats such a fault with its script line and a caret, and `faulting_item` gives the
loaded item of the declaration that faulted (`StepView.fault_declaration`, kept by the bout: for a
page to open it in the card editor); the playtest uses both.

A game played without a board (`game { pieces 0 }`, NEXUS Pirates) has no barge, motivations or
lanistas: its players are as many as the game allows, `place_cards` puts chosen cards in its zones
before the setup deals (as a scenario's `zones:` does), and a step shows each player's stats
(`StepView.players`) and the zones (in the snapshot, seen by everyone or by one player: `table`).

The settings build the same `BoutSpec` a batch plays (`sim/batch.py`), so seed N of a batch is the
bout a Stepper with seed N steps through. A stepped bout is played to be explained (`Bout(...,
explain=True)`): each line of a step's log (`StepView.log`, a `LogLine` each) keeps its event with
the script statements under way when it was written, for `explain.explain` to say why it happened.
A batch's bouts keep none (they are played for their figures, as fast as they go).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..agents.base import AGENT_NAMES
from ..content.loader import default_content_root
from ..engine.actions import Action, Decision
from ..engine.bout import Bout, Event, next_action
from ..engine.primitives.chance import LOCATION_DIE, location_table
from ..engine.setup import RANDOM_ITEM, RANDOM_LAYOUT, SetupError, draw_at_random
from ..engine.state import Outcome
from ..errors import Diagnostic, NexusError, did_you_mean
from ..model.ruleset import Ruleset, ScriptItem
from ..narrate import GameTerms
from ..sim.batch import BoutSpec, spec_agents, spec_setup
from ..syntax import ast_nodes as A
from .explain import LogLine, told

#: The labels of the players, in seat order (the standard setup's).
PLAYER_LABELS = ("red", "blue", "green", "yellow")
#: Events that mark a player's own move: a step ends once one of these has resolved.
STEP_EVENTS = frozenset({"command", "ability", "card"})
#: Decisions at which nothing is half-resolved: a step may stop when the bout waits at one of these.
BETWEEN_COMMANDS = frozenset({"command", "allocate", "between_rounds", "deception", "keep_influence"})
#: How dealt influence cards join a hand: besides the cards the player keeps, or as its whole hand.
DEAL_MODES = ("add", "replace")
SETTINGS_FILE = "<test run settings>"


class SettingsError(NexusError):
    """Test-run settings that name something the loaded packs do not hold, or cannot be played."""


@dataclass(frozen=True)
class TestRunSettings:
    """What one test bout (or every bout of a batch) plays.

    Players are as many as `motivations` (2 to 4), labelled red, blue, green, yellow in seat order.
    `barge` is a barge id, "random" (a schematic picked with the seed) or None (an empty barge).
    Each motivation and lanista is an id, "random" (drawn with the bout's dice from those no other
    player has: the real game, as the editor sets it by default) or None (none).
    `stack_turning_points` go on top of the Turning Point deck, top card first. `deal_influence`
    maps a player's label to influence cards in its hand after the deal: with `deal_mode` "add"
    besides the cards its lanista keeps, with "replace" as its whole hand; either way those cards
    are taken out of the deck first.
    """

    __test__ = False  # not a pytest class, whatever its name

    packs: tuple[str, ...] = ("base",)
    barge: str | None = None
    motivations: tuple[str | None, ...] = (None, None)
    lanistas: tuple[str | None, ...] = ()
    agents: tuple[str, ...] = ("heuristic",)
    seed: int = 0
    stack_turning_points: tuple[str, ...] = ()
    deal_influence: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    deal_mode: str = "add"
    content_root: str | None = None  # None: the project's content folder
    # Cards placed in a game's zones before its setup deals: (zone, owner or None, cards top first).
    place_cards: tuple[tuple[str, str | None, tuple[str, ...]], ...] = ()

    @property
    def players(self) -> int:
        return len(self.motivations)

    @property
    def labels(self) -> tuple[str, ...]:
        return PLAYER_LABELS[: self.players]

    @property
    def forced_cards(self) -> list[str]:
        """The cards these settings force into the bout: stacked, then dealt."""
        return [*self.stack_turning_points, *(card for cards in self.deal_influence.values() for card in cards)]

    def with_seed(self, seed: int) -> TestRunSettings:
        return replace(self, seed=seed)

    def bout_spec(self, seed: int | None = None, watched: Sequence[str] = ()) -> BoutSpec:
        """The batch's description of this bout (with another seed, for the i-th bout of a batch)."""
        labels = self.labels
        dealt = tuple(tuple(self.deal_influence.get(label, ())) for label in labels)
        keep: tuple[int | None, ...] = ()
        if self.deal_mode == "replace":
            keep = tuple(0 if label in self.deal_influence else None for label in labels)
        return BoutSpec(
            seed=self.seed if seed is None else seed, players=self.players, packs=tuple(self.packs),
            agents=tuple(self.agents), barge=self.barge, motivations=tuple(self.motivations),
            lanistas=tuple(self.lanistas), stack_turning_points=tuple(self.stack_turning_points),
            dealt=dealt if any(dealt) else (), keep=keep, watched=tuple(watched), root=self.content_root,
            zones=tuple(self.place_cards),
        )


# ---------------------------------------------------------------- checking the settings
def _problem(code: str, message: str, name: str | None = None, known: Sequence[str] = ()) -> Diagnostic:
    hint = did_you_mean(name, known) if name is not None else None
    return Diagnostic(f"testrun/{code}", message, SETTINGS_FILE, hint=hint)


def settings_problems(settings: TestRunSettings, ruleset: Ruleset) -> list[Diagnostic]:
    """Everything in the settings the packs cannot play, each a diagnostic naming the field."""
    problems: list[Diagnostic] = []
    players = settings.players
    if not 2 <= players <= 4:
        problems.append(_problem("players", f"a bout has 2 to 4 players; the settings name {players} motivations"))
    elif ruleset.game.players and players not in ruleset.game.players:
        allowed = " or ".join(str(n) for n in ruleset.game.players)
        problems.append(_problem("players", f"players: {game_name(ruleset)} is played by {allowed}, not {players}"))
    if settings.lanistas and len(settings.lanistas) != players:
        problems.append(_problem("players", f"lanistas: {len(settings.lanistas)} given for {players} players"))
    if not settings.agents or len(settings.agents) > max(players, 1):
        problems.append(_problem("agents", f"agents: give 1 to {players} agent names (cycled over the players)"))
    for agent in settings.agents:
        if agent not in AGENT_NAMES:
            problems.append(_problem("agents", f"agents: no agent `{agent}` (choose from {', '.join(AGENT_NAMES)})",
                                     agent, AGENT_NAMES))
    barges = list(ruleset.data.get("barges", {}))
    if settings.barge not in (None, RANDOM_LAYOUT) and settings.barge not in barges:
        problems.append(_problem("unknown_barge", f"barge: no barge `{settings.barge}` in the loaded packs",
                                 settings.barge, barges))
    for name in ("motivations", "lanistas"):
        problems += _item_problems(name, getattr(settings, name), list(ruleset.data.get(name, {})))
    turning_points = [d.id for d in ruleset.declarations("turning_point")]
    problems += _unknown_ids("stack_turning_points", settings.stack_turning_points, turning_points)
    problems += _repeated("stack_turning_points", list(settings.stack_turning_points))
    if settings.deal_mode not in DEAL_MODES:
        problems.append(_problem("deal_mode", f"deal_mode: `{settings.deal_mode}` is not one of {', '.join(DEAL_MODES)}"))
    influence = [d.id for d in ruleset.declarations("influence")]
    for label, cards in settings.deal_influence.items():
        if label not in settings.labels:
            problems.append(_problem("unknown_player", f"deal_influence: no player `{label}` "
                                     f"(the players are {', '.join(settings.labels)})", label, settings.labels))
        problems += _unknown_ids(f"deal_influence[{label}]", cards, influence)
    problems += _repeated("deal_influence", [c for cards in settings.deal_influence.values() for c in cards])
    problems += _placement_problems(settings, ruleset)
    return problems


def _placement_problems(settings: TestRunSettings, ruleset: Ruleset) -> list[Diagnostic]:
    """Cards placed in zones: each zone declared, its owner a player or side it has, each card a
    `card` of the packs, placed once."""
    problems: list[Diagnostic] = []
    zones = ruleset.words.zones
    cards = [d.id for d in ruleset.declarations("card")]
    for zone, owner, placed in settings.place_cards:
        if zone not in zones:
            problems.append(_problem("unknown_zone", f"place_cards: no zone `{zone}` in the loaded packs", zone, list(zones)))
            continue
        owners = zone_owners(ruleset, settings.players, zone)
        if (owner is None) != (zones[zone].owner is None) or (owner is not None and owner not in owners):
            problems.append(_problem("zone_owner", f"place_cards: zone `{zone}` "
                                     + (f"is one each of {', '.join(owners)}'s; name one of them" if owners
                                        else "is shared; name no owner"), owner, owners))
        problems += _unknown_ids(f"place_cards[{zone}]", placed, cards)
    problems += _repeated("place_cards", [c for _, _, placed in settings.place_cards for c in placed])
    return problems


def zone_owners(ruleset: Ruleset, players: int, zone: str) -> list[str]:
    """Whose a zone is, one of each: the players' labels, or their sides (the `sides` rule param
    groups seats; without it each player is a side of its own). Empty for a shared zone."""
    owner = ruleset.words.zones[zone].owner
    if owner == "player":
        return list(PLAYER_LABELS[:players])
    if owner == "side":
        return list(dict.fromkeys(player_sides(ruleset, players).values()))
    return []


def player_sides(ruleset: Ruleset, players: int) -> dict[str, str]:
    """Each player's side in the standard setup for `players`, as the engine seats them."""
    from ..engine.setup import standard_setup

    setup = standard_setup(players)
    bout = Bout(ruleset, setup, seed=0) if ruleset.game.pieces == 0 else None
    if bout is None:
        return {spec.label: spec.side or spec.label for spec in setup.pieces}
    return {label: player.side for label, player in bout.state.players.items()}


def game_name(ruleset: Ruleset) -> str:
    """The game's name as its `game` declaration gives it (`NEXUS Pirates`)."""
    declaration = ruleset.declaration("game", ruleset.game.id or "")
    return declaration.name if declaration is not None and declaration.name else "the game"


def player_counts(ruleset: Ruleset) -> list[int]:
    """How many players a bout of the loaded game may have: as its `game` says, else 2 to 4."""
    return [n for n in ruleset.game.players if 2 <= n <= 4] or [2, 3, 4]


def _unknown_ids(name: str, ids: Sequence[str | None], known: list[str]) -> list[Diagnostic]:
    return [_problem("unknown_id", f"{name}: no `{ident}` in the loaded packs", ident, known)
            for ident in ids if ident is not None and ident not in known]


def _item_problems(name: str, chosen: Sequence[str | None], known: list[str]) -> list[Diagnostic]:
    """Each player's motivation or lanista: an id of the packs, none, or `random` (drawn by the bout
    from those no other player has, `engine.setup.draw_at_random`), with enough left to draw."""
    drawn_here = RANDOM_ITEM not in known  # the packs may hold an item of that id: it is named, not drawn
    problems = _unknown_ids(name, [item for item in chosen if not (drawn_here and item == RANDOM_ITEM)], known)
    try:  # the bout's own drawing, every die fixed at its first face: it fails exactly when the bout's would
        draw_at_random(chosen, [str(index) for index in range(len(chosen))], known, lambda _word, _faces: 1, name)
    except SetupError:
        drawn = sum(item == RANDOM_ITEM for item in chosen)
        named = {item for item in chosen if item in known}
        problems.append(_problem("too_few_to_draw", f"{name}: {drawn} to draw at random, but the loaded packs hold "
                                 f"{len(known)}, {len(named)} of them chosen outright (players draw different ones)"))
    return problems


def _repeated(name: str, ids: list[str]) -> list[Diagnostic]:
    """Each card exists once in its deck, so it can be stacked or dealt only once."""
    seen: set[str] = set()
    problems = []
    for ident in ids:
        if ident in seen:
            problems.append(_problem("repeated_card", f"{name}: `{ident}` is named twice; the deck holds one"))
        seen.add(ident)
    return problems


def load_settings_ruleset(settings: TestRunSettings) -> Ruleset:
    """The packs the settings name, loaded (and cached until their files change)."""
    from .packs import load_packs

    root = Path(settings.content_root) if settings.content_root else default_content_root()
    result = load_packs(list(settings.packs), root)
    if result.ruleset is None:
        raise SettingsError(result.diagnostics or [_problem("packs", f"packs {', '.join(settings.packs)} did not load")])
    return result.ruleset


def checked_ruleset(settings: TestRunSettings, ruleset: Ruleset | None = None) -> Ruleset:
    """The ruleset to play (loaded when not given), after checking the settings against it."""
    ruleset = ruleset if ruleset is not None else load_settings_ruleset(settings)
    problems = settings_problems(settings, ruleset)
    if problems:
        raise SettingsError(problems)
    return ruleset


# ---------------------------------------------------------------- script faults
def fault_text(ruleset: Ruleset, fault: Diagnostic) -> str:
    """A script fault as `nexus check` prints a problem: position, message, the script line and a caret."""
    return fault.format(ruleset.sources.get(fault.file))


def faulting_item(ruleset: Ruleset, declaration: A.Declaration | None) -> ScriptItem | None:
    """The loaded script item of the declaration whose script faulted (`Bout.fault_declaration`):
    None when no declaration faulted, or when `ruleset` does not hold that very declaration (e.g.
    other packs are loaded now than the bout was played with)."""
    if declaration is None:
        return None
    item = ruleset.scripts.get(declaration.kind, {}).get(declaration.id)
    return item if item is not None and item.declaration is declaration else None


# ---------------------------------------------------------------- what a step shows
@dataclass(frozen=True)
class DieRoll:
    """One die rolled during a step: what for, how many sides, the result, the event it fed, whose
    roll it was (when the event names who acts) and what the face meant (a location die's location)."""

    purpose: str
    sides: int
    value: int
    event: str
    whose: str | None = None
    meaning: str | None = None


def die_meaning(ruleset: Ruleset, purpose: str, value: int) -> str | None:
    """What a die's face stands for, where the game gives faces a meaning: the body location a
    location die picks on the game's table (`random_location`)."""
    if purpose != LOCATION_DIE:
        return None
    table = location_table(ruleset)
    return table[value - 1].replace("_", " ") if 1 <= value <= len(table) else None


@dataclass(frozen=True)
class HelotView:
    """One helot as the step left it."""

    label: str
    motivation: str | None
    lanista: str | None
    status: str
    overall: int
    locations: dict[str, int]
    cred: int
    states: tuple[str, ...]
    weapon: str | None
    traits: dict[str, int]
    ap: int
    mp: int
    at: tuple[int, int]
    facing: str
    influence: tuple[str, ...]


@dataclass(frozen=True)
class PlayerView:
    """One player as the step left it: its seat, its side and the stats it holds (its score)."""

    label: str
    seat: str
    side: str
    stats: dict[str, int]


@dataclass(frozen=True)
class StepView:
    """What one step did and where it left the bout."""

    index: int  # 1 for the first step
    actions: tuple[Action, ...]  # the actions applied during the step
    events: tuple[Event, ...]  # with their causes: a stepped bout is explained
    log: tuple[LogLine, ...]  # the events told in words, each beside its event (`explain.told`)
    dice: tuple[DieRoll, ...]
    snapshot: dict[str, Any]  # `Bout.snapshot()`
    pieces: dict[str, HelotView]
    crowd: int
    cycle: int
    active: str | None
    waiting_for: Decision | None  # the decision the bout waits at, None once it is over
    outcome: Outcome | None
    fault: Diagnostic | None = None  # the script fault that stopped the bout, positioned in its script
    fault_declaration: A.Declaration | None = None  # the declaration whose script faulted (`faulting_item`)
    players: dict[str, PlayerView] = field(default_factory=dict)
    actor_word: str = "helot"  # what the log calls who acts (the game's word for a piece or a player)

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def lines(self) -> tuple[str, ...]:
        """The events as readable lines (`narrate`)."""
        return tuple(line.text for line in self.log)

    @property
    def headline(self) -> str:
        """The step in a few words: the command, ability or card it resolved."""
        for event in self.events:
            if event.type == "command":
                return f"{event.data[self.actor_word]}: {event.data['command']}"
            if event.type in ("ability", "card"):
                return f"{event.data[self.actor_word]}: {event.data['name']} ({event.type})"
        if self.fault is not None:
            return "the bout stopped on a script fault"
        if self.outcome is not None:
            return "the bout ends"
        return "setup"

    @property
    def cred(self) -> dict[str, int]:
        """Every cred pile: each player's and the crowd's."""
        return {**{label: view.cred for label, view in self.pieces.items()}, "crowd": self.crowd}


def _helot_views(bout: Bout) -> dict[str, HelotView]:
    return {label: HelotView(
        label=label, motivation=h.role, lanista=h.profile, status=h.status.value, overall=h.overall,
        locations=dict(h.locations), cred=bout.state.player_of(h).piles.get("cred", 0), states=tuple(sorted(h.states)), weapon=h.weapon,
        traits=dict(h.traits), ap=h.ap, mp=h.mp, at=(h.square.col, h.square.row), facing=h.facing.name,
        influence=tuple(h.hand)) for label, h in bout.state.pieces.items()}


def _player_views(bout: Bout) -> dict[str, PlayerView]:
    return {label: PlayerView(label, p.seat, p.side, dict(p.stats)) for label, p in bout.state.players.items()}


def _dice(events: Sequence[Event], ruleset: Ruleset, actor_word: str) -> tuple[DieRoll, ...]:
    rolls = []
    for event in events:
        whose = event.data.get(actor_word)
        for die in event.data.get("dice", ()):
            rolls.append(DieRoll(die["purpose"], die.get("sides", 6), die["value"], event.type,
                                 whose if isinstance(whose, str) else None,
                                 die_meaning(ruleset, str(die["purpose"]), int(die["value"]))))
    return tuple(rolls)


# ---------------------------------------------------------------- stepping
class Stepper:
    """A test bout played by agents one command (or ability, or card) at a time.

    `script` replays a saved run: those actions are applied first, in order (each one must be
    legal when its turn comes), and the agents choose after them. Actions may be `Action`s or
    their `to_json()` dicts (as saved to a file).
    """

    def __init__(self, settings: TestRunSettings, ruleset: Ruleset | None = None,
                 script: Sequence[Action | Mapping[str, Any]] = ()):
        self.settings = settings
        self.ruleset = checked_ruleset(settings, ruleset)
        self.spec = settings.bout_spec()
        setup = spec_setup(self.spec)
        self.bout = Bout(self.ruleset, setup, seed=settings.seed, explain=True)
        self.agents = spec_agents(self.spec, [h.label for h in setup.pieces])
        self.actions: list[Action] = []  # every action applied so far, in order
        self._script = list(script)
        self._reported = 0  # events already shown in a step
        self._actions_reported = 0  # actions already shown in a step
        self._steps = 0

    @property
    def finished(self) -> bool:
        return self.bout.pending is None

    @property
    def outcome(self) -> Outcome | None:
        return self.bout.outcome

    @property
    def fault(self) -> Diagnostic | None:
        """The script fault that stopped the bout, if one did."""
        return self.bout.fault

    @property
    def fault_declaration(self) -> A.Declaration | None:
        """The declaration whose script faulted, if one did (`faulting_item` finds its loaded item)."""
        return self.bout.fault_declaration

    def fault_text(self) -> str | None:
        """The fault as `nexus check` prints a problem: position, message, the script line and a caret."""
        fault = self.bout.fault
        return None if fault is None else fault_text(self.ruleset, fault)

    def actions_json(self) -> list[dict[str, Any]]:
        """The applied actions as plain data, to save and replay with `script=`."""
        return [action.to_json() for action in self.actions]

    def step(self) -> StepView:
        """Advance to the end of the next command, ability or card (or the end of the bout)."""
        acted = False
        while self.bout.pending is not None:
            if acted and self.bout.pending.kind in BETWEEN_COMMANDS:
                break
            acted = self._apply_next() or acted
        return self._view()

    def steps_to_end(self) -> list[StepView]:
        """Play the rest of the bout step by step, as `step` would one press at a time: every step's
        view, so each keeps its number and can be gone back to."""
        views = []
        while self.bout.pending is not None:
            views.append(self.step())
        return views

    def run_to_end(self) -> StepView:
        """Play the rest of the bout as one step (every remaining event, line and die in one view)."""
        while self.bout.pending is not None:
            self._apply_next()
        return self._view()

    def _apply_next(self) -> bool:
        """Apply the next scripted or agent-chosen action; whether it resolved a command, ability or card."""
        action = self._next_scripted() if self._script else next_action(self.bout, self.agents)
        events = self.bout.apply(action)
        self.actions.append(action)
        return any(event.type in STEP_EVENTS for event in events)

    def _next_scripted(self) -> Action:
        saved = self._script.pop(0)
        if isinstance(saved, Action):
            return saved
        decision = self.bout.pending
        assert decision is not None
        for option in decision.options:
            if option.to_json() == dict(saved):
                return option
        raise SettingsError(_problem("replay", f"the saved action {dict(saved)} is not legal at action "
                                     f"{len(self.actions) + 1} (the bout waits for {decision.actor}: {decision.kind})"))

    def seen_lines(self, view: StepView, viewer: str | None) -> list[str]:
        """A step's log lines as one player of a game without a board may read them (None: someone
        who is no player): a card it could not see moving is `a card` (`table.seen_events`)."""
        return [line.text for line in self.seen_log(view, viewer)]

    def seen_log(self, view: StepView, viewer: str | None) -> tuple[LogLine, ...]:
        """`seen_lines`, each beside its event as the viewer may know it (its causes kept, the
        hidden card named in none of their values)."""
        from .table import seen_events

        return told(seen_events(view.events, self.bout, viewer), GameTerms.of(self.ruleset))

    def _view(self) -> StepView:
        bout = self.bout
        events = tuple(bout.log[self._reported:])
        applied = tuple(self.actions[self._actions_reported:])
        self._reported, self._actions_reported = len(bout.log), len(self.actions)
        self._steps += 1
        return StepView(
            index=self._steps, actions=applied, events=events, log=told(events, GameTerms.of(bout.ruleset)), dice=_dice(events, bout.ruleset, bout.actor_word),
            snapshot=bout.snapshot(), pieces=_helot_views(bout), crowd=bout.state.piles.get("crowd", 0), cycle=bout.state.cycle,
            active=bout.state.active, waiting_for=bout.pending, outcome=bout.outcome, fault=bout.fault,
            fault_declaration=bout.fault_declaration, players=_player_views(bout),
            actor_word=bout.actor_word)


__all__ = ["DEAL_MODES", "DieRoll", "die_meaning", "HelotView", "PLAYER_LABELS", "PlayerView", "SettingsError", "StepView", "Stepper",
           "TestRunSettings", "checked_ruleset", "fault_text", "faulting_item", "load_settings_ruleset",
           "game_name", "player_counts", "player_sides", "settings_problems", "zone_owners"]
