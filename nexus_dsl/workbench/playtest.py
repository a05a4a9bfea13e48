"""Hot-seat bouts: 2-4 people round one screen, or people against the heuristic agent.

A `PlaySession` is its settings (packs, barge, motivations, lanistas, who sits in each seat, the
seed) plus the list of actions applied so far. The bout is a function of those two (the engine
replays a bout exactly from its seed and actions), so a session is saved as JSON holding nothing
else, and loading it replays every action to the very same state.

What a page shows comes from here, never from rules of its own:

* `pending_decision()` — who must decide what, and whether that seat is a person;
* `options(viewer)` — the viewer's legal actions as buttons (words, evaluated cost, kind), grouped;
* `apply(action)` — refused actions raise the engine's `RulesError` with its message;
* `advance_agents()` — the agents decide until a person must;
* `visible_state(viewer)` — the snapshot with the other players' influence hands reduced to counts
  (in a game played without a board, NEXUS Pirates: the zones as the viewer may see them, the
  engine's `player_view`, every other player's hand a count, and each player's stats);
* `dice_since(index)` and `log_lines()` — the dice as they fell and the narration; `log()` and
  `seen_log(viewer)` the same lines each beside its event (`explain.LogLine`): the bout is played
  to be explained, so each line can say why it happened (`explain.explain`);
* `fault` and `fault_text()` — the script fault that stopped the bout, if one did.

A script fault (content that fails at run time, during a person's action or an agent's) ends the
session's play: the engine puts the state back as it was before the faulting action and stops the
bout; the session keeps that action (replaying it faults again), `apply` refuses anything more with
a `RulesError` saying why, and the saved file records the fault, which `load` checks the replay
reproduces.

Sessions live in a folder the caller chooses (`session_file`, `list_sessions`): the editor keeps
them per user, outside the content root. A session file is written through the safe store, confined
to its folder and under its lock: a session remembers the fingerprint of the file it last read or
wrote, so a session played on meanwhile in another window (or a new session given the name of a
saved one) is a `ConflictError`, never overwritten.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..agents import make_agent
from ..agents.base import AGENT_NAMES
from ..content.loader import default_content_root
from ..engine.timing import window_defaults
from ..engine.actions import ABILITY, CARD, CHOICE, COMMAND, END_ROUND, NEXT_ROUND, PASS, Action, Decision
from ..engine.board import Square
from ..engine.bout import Bout
from ..engine.text_facts import declaration_group
from ..engine.setup import standard_setup
from ..errors import Diagnostic, NexusError, RulesError
from ..limits import INPUT_LIMITS, InputLimits
from ..model.ruleset import Ruleset
from ..narrate import GameTerms, narrate
from .explain import LogLine, told
from ..syntax import ast_nodes as A
from .packs import load_packs
from .store import ABSENT, NotEditableError, StoreError, open_for_edit
from .store import save as store_save
from .table import has_board, label_of, seen_events
from .testrun import die_meaning, fault_text

__all__ = [
    "PERSON", "DiceShown", "OptionButton", "OptionGroup", "Pending", "PlaySession", "PlaySettings",
    "SessionError", "SessionNameError", "list_sessions", "read_session", "refusal_message", "session_file",
    "session_settings",
]

PERSON = "person"  # a seat played by someone at the screen; any other seat names an agent
SESSION_FORMAT = "nexus-playtest"
SESSION_VERSION = 1
SESSION_SUFFIX = ".playtest.json"
MAX_AGENT_STEPS = 20_000  # a safety net: the engine's cycle limit ends every bout long before this
# The button kinds a page distinguishes; the engine's other action kinds are all round controls.
BUTTON_KINDS = {COMMAND: "command", ABILITY: "ability", CARD: "card"}
GROUP_TITLES = {"ability": "Abilities", "card": "Influence cards", "control": "Round"}
RESOURCE_WORDS = {"overall": "condition", "cred": "cred"}
SESSION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]{0,79}")  # used with fullmatch: `$` would let a newline through


class SessionError(NexusError):
    """A session file that cannot be read or no longer replays (e.g. the content changed)."""


class SessionNameError(StoreError, ValueError):
    """A session name that cannot name a file in the sessions folder."""


def _session_error(message: str, file: str = "<session>", hint: str | None = None) -> SessionError:
    return SessionError(Diagnostic("playtest/bad_session", message, file, hint=hint))


# ---------------------------------------------------------------- settings

@dataclass(frozen=True)
class PlaySettings:
    """Everything a bout is set up from. `seats[i]` is `person` or an agent name (`heuristic`,
    `random`) for the i-th player, who sits south, north, west, east in that order (pg.9)."""

    seats: tuple[str, ...] = (PERSON, "heuristic")
    packs: tuple[str, ...] = ("base",)
    barge: str | None = None
    motivations: tuple[str | None, ...] = ()
    lanistas: tuple[str | None, ...] = ()
    labels: tuple[str, ...] = ()
    seed: int = 0
    content_root: str | None = None
    # Stop for people's any-time abilities and cards during an agent's decisions (else people use
    # them at their own decisions and in the windows that offer them).
    stop_for_interjections: bool = False

    def __post_init__(self) -> None:
        if not 2 <= len(self.seats) <= 4:
            raise ValueError("a bout has 2 to 4 players")
        for seat in self.seats:
            if seat != PERSON and seat not in AGENT_NAMES:
                raise ValueError(f"a seat is `{PERSON}` or an agent ({', '.join(AGENT_NAMES)}), not `{seat}`")
        if self.labels and (len(self.labels) != len(self.seats) or len(set(self.labels)) != len(self.labels)):
            raise ValueError("give one different label per player, or none")
        for name in ("motivations", "lanistas"):
            if len(getattr(self, name)) > len(self.seats):
                raise ValueError(f"more {name} than players")

    @property
    def players(self) -> int:
        return len(self.seats)

    def to_json(self) -> dict[str, Any]:
        return {key: (list(value) if isinstance(value, tuple) else value) for key, value in asdict(self).items()}

    @classmethod
    def from_json(cls, data: Any) -> PlaySettings:
        """The settings a session file holds; ValueError saying what is wrong with them (a value of
        the wrong type is refused here, never met later by the engine)."""
        if not isinstance(data, Mapping):
            raise ValueError("the settings are not a mapping of names to values")
        unknown = sorted(str(key) for key in set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise ValueError(f"unknown setting `{unknown[0]}`")
        for key, value in data.items():
            _check_setting(key, value)
        values: dict[str, Any] = {key: tuple(value) if isinstance(value, list) else value
                                  for key, value in data.items()}
        return cls(**values)


# The JSON form of each setting: a list of texts (True: an item may also be null), a text or null,
# a whole number, true or false.
_LISTS_OF_TEXT = {"seats": False, "packs": False, "labels": False, "motivations": True, "lanistas": True}
_TEXT_OR_NULL = ("barge", "content_root")


def _check_setting(key: str, value: Any) -> None:
    """ValueError when the JSON value of setting `key` is not of its type."""
    if key in _LISTS_OF_TEXT:
        nullable = _LISTS_OF_TEXT[key]
        if not isinstance(value, list) or not all(isinstance(v, str) or (nullable and v is None) for v in value):
            raise ValueError(f"`{key}` is not a list of names")
    elif key in _TEXT_OR_NULL:
        if value is not None and not isinstance(value, str):
            raise ValueError(f"`{key}` is not a name")
    elif key == "seed":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("`seed` is not a whole number")
    elif not isinstance(value, bool):  # stop_for_interjections
        raise ValueError(f"`{key}` is not true or false")


def _padded(values: Sequence[str | None], count: int) -> list[str | None]:
    return list(values) + [None] * (count - len(values))


# ---------------------------------------------------------------- what a page shows

@dataclass(frozen=True)
class Pending:
    """The decision the bout waits for: whose, what kind, and who else may act in it."""

    actor: str
    kind: str
    seat: str  # `person` or the agent's name
    interjecting: tuple[str, ...] = ()  # other helots holding options in this decision

    @property
    def person(self) -> bool:
        return self.seat == PERSON


@dataclass(frozen=True)
class OptionButton:
    action: Action
    label: str
    kind: str  # command | ability | card | control
    group: str
    cost: tuple[tuple[int, str], ...] = ()  # (amount, resource), evaluated for this action now

    @property
    def cost_text(self) -> str:
        return ", ".join(f"{amount} {RESOURCE_WORDS.get(resource, resource)}" for amount, resource in self.cost)


@dataclass(frozen=True)
class OptionGroup:
    title: str
    buttons: tuple[OptionButton, ...]


@dataclass(frozen=True)
class DiceShown:
    """One die as it fell, with the event it belongs to (`seq` is the event's index in the log):
    whose roll it was when the event names a helot, and the event's narrated line (what the dice
    came to: "attack -SDS: rolled [3, 6, 4], kept [3, 4] = 7")."""

    seq: int
    event: str
    purpose: str
    value: int
    actor: str | None = None
    summary: str = ""
    meaning: str | None = None  # what the face stands for (`testrun.die_meaning`: a location die's location)


# ---------------------------------------------------------------- the session

def _ruleset_for(settings: PlaySettings) -> Ruleset:
    """The settings' packs, loaded from their content root (reloaded when their files change)."""
    root = Path(settings.content_root) if settings.content_root else default_content_root()
    result = load_packs(list(settings.packs), root)
    if result.ruleset is None:
        raise SessionError(result.diagnostics or [Diagnostic("playtest/no_packs", "the packs did not load", str(root))])
    return result.ruleset


class PlaySession:
    def __init__(self, settings: PlaySettings, actions: Iterable[Action] = (), ruleset: Ruleset | None = None):
        self.settings = settings
        self.ruleset = ruleset or _ruleset_for(settings)
        self.actions: list[Action] = []
        self._labels: list[str] = []
        self._bout = self._new_bout()
        self._agents: dict[str, Any] = {}
        # The fingerprint of the session file as this session last read or wrote it: a new session
        # expects no file, so it never overwrites a saved one of the same name.
        self.fingerprint = ABSENT
        for action in actions:
            self.apply(action)

    def _new_bout(self) -> Bout:
        settings = self.settings
        setup = standard_setup(settings.players, _padded(settings.motivations, settings.players),
                               _padded(settings.lanistas, settings.players), settings.barge,
                               list(settings.labels) or None)
        self._labels = [h.label for h in setup.pieces]
        return Bout(self.ruleset, setup, seed=settings.seed, explain=True)

    # ---------------------------------------------------------------- reading
    @property
    def bout(self) -> Bout:
        return self._bout

    def replay(self) -> Bout:
        """A fresh bout rebuilt from the seed and the actions (what `load` does)."""
        bout = self._new_bout()
        for action in self.actions:
            bout.apply(action)
        return bout

    @property
    def labels(self) -> list[str]:
        return list(self._labels)

    def seat_of(self, label: str) -> str:
        """`person` or the agent's name for the helot `label`."""
        return self.settings.seats[self._labels.index(label)]

    def people(self) -> list[str]:
        return [label for label in self._labels if self.seat_of(label) == PERSON]

    @property
    def ended(self) -> bool:
        return self._bout.pending is None

    @property
    def fault(self) -> Diagnostic | None:
        """The script fault that stopped the bout, positioned in its script; None if none did."""
        return self._bout.fault

    @property
    def fault_declaration(self) -> A.Declaration | None:
        """The declaration whose script faulted (`testrun.faulting_item` finds its loaded item)."""
        return self._bout.fault_declaration

    def fault_text(self) -> str | None:
        """The fault with its script line and a caret, as `nexus check` prints a problem."""
        fault = self._bout.fault
        return None if fault is None else fault_text(self.ruleset, fault)

    def pending_decision(self) -> Pending | None:
        decision = self._bout.pending
        if decision is None:
            return None
        others = tuple(dict.fromkeys(o.actor for o in decision.options if o.actor != decision.actor))
        return Pending(decision.actor, decision.kind, self.seat_of(decision.actor), others)

    def options(self, viewer: str) -> list[OptionGroup]:
        """The viewer's legal actions in the pending decision, as buttons grouped in the engine's
        order (e.g. the Action Menu's sections, then abilities, cards, and ending the round)."""
        decision = self._bout.pending
        if decision is None:
            return []
        groups: dict[str, list[OptionButton]] = {}
        for action in decision.options:
            if action.actor == viewer:
                button = self._button(action)
                groups.setdefault(button.group, []).append(button)
        return [OptionGroup(title, tuple(buttons)) for title, buttons in groups.items()]

    def unspent_points(self, label: str) -> dict[str, int]:
        """The points a piece has left to spend this round (`AP`, `MP`), those above zero: what
        ending its round now would leave unspent. None for a player without a piece."""
        piece = self._bout.state.pieces.get(label)
        if piece is None:
            return {}
        return {name: points for name, points in (("AP", piece.ap), ("MP", piece.mp)) if points > 0}

    def buttons(self, viewer: str) -> list[OptionButton]:
        return [button for group in self.options(viewer) for button in group.buttons]

    # ---------------------------------------------------------------- acting
    def apply(self, action: Action | OptionButton) -> list[Any]:
        """Apply one action; a refused action raises the engine's `RulesError` and changes nothing.
        After a script fault every action is refused, with the fault's position in the message."""
        if isinstance(action, OptionButton):
            action = action.action
        if self.fault is not None:
            raise RulesError(self._stopped())
        events = self._bout.apply(action)
        self.actions.append(action)
        return events

    def _stopped(self) -> Diagnostic:
        """Why any action is refused once a script fault stopped the bout."""
        fault = self.fault
        assert fault is not None
        return Diagnostic("playtest/stopped_by_fault",
                          f"the bout stopped on a script fault ({fault.location()}: {fault.message}); "
                          "no further action is accepted", "<session>",
                          hint="fix the script, then start a new session")

    def advance_agents(self, max_steps: int = MAX_AGENT_STEPS, people_pass: bool = False) -> int:
        """Let the agents decide until a person must (or the bout ends, a script fault included);
        returns the actions taken.

        With `stop_for_interjections`, an agent's decision where a person could use an ability or
        card stops here too; `people_pass=True` lets the first such decision go on without them."""
        taken = 0
        while taken < max_steps:
            decision = self._bout.pending
            if decision is None:
                break
            action = self._agent_action(decision, people_pass=people_pass and taken == 0)
            if action is None:
                break
            self.apply(action)
            taken += 1
        return taken

    def _agent(self, label: str) -> Any:
        if label not in self._agents:
            index = self._labels.index(label)
            self._agents[label] = make_agent(self.settings.seats[index], seed=self.settings.seed * 31 + index)
        return self._agents[label]

    def _agent_action(self, decision: Decision, people_pass: bool = False) -> Action | None:
        """What the agents do now, or None when a person is to decide. As the engine's own
        `next_action`: first every other helot (or player, in a game without pieces), clockwise
        from the decider, may interject."""
        for helot in self._bout.state.actors_clockwise_from(decision.actor)[1:]:
            own = [o for o in decision.options if o.actor == helot.label]
            if not own:
                continue
            if self.seat_of(helot.label) == PERSON:
                if self.settings.stop_for_interjections and not people_pass and \
                        any(o.kind in (ABILITY, CARD) for o in own):
                    return None
                continue
            interjection = self._agent(helot.label).interject(self._bout, decision, own)
            if interjection is not None:
                return interjection
        if self.seat_of(decision.actor) == PERSON:
            return None
        main = tuple(o for o in decision.options if o.actor == decision.actor)
        if len(main) == 1:
            return main[0]
        return self._agent(decision.actor).choose(self._bout, Decision(decision.actor, decision.kind, main))

    # ---------------------------------------------------------------- showing
    def visible_state(self, viewer: str | None) -> dict[str, Any]:
        """The snapshot as `viewer` may see it: every other helot's influence hand is a count only
        (`influence: None`, `influence_count: n`). `viewer=None` hides every hand."""
        snapshot = self._bout.snapshot()
        if not self.has_board:
            return self._table_state(snapshot, viewer)
        hand = self._bout.ruleset.words.hand  # the hand's name: the base game's `influence`
        for label in self._labels:
            helot = snapshot[label]
            if hand is None or hand not in helot:
                continue
            helot[f"{hand}_count"] = len(helot[hand])
            if label != viewer:
                helot[hand] = None
        pending = self.pending_decision()
        snapshot["pending"] = None if pending is None else {"helot": pending.actor, "kind": pending.kind,
                                                            "person": pending.person}
        snapshot["seats"] = {label: self.seat_of(label) for label in self._labels}
        return snapshot

    @property
    def has_board(self) -> bool:
        """Whether the game is played with pieces on a board (NEXUS) or by players alone (Pirates)."""
        return has_board(self.ruleset)

    def _table_state(self, snapshot: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """A game without a board as `viewer` sees it: `zones` as its view holds them (the cards of
        the zones it may see, counts for the others); `viewer=None` sees only what everyone sees.
        `players` holds each player's seat, side and stats; `pending` and `seats` as for a board."""
        if viewer is not None:
            zones = snapshot["views"][viewer]["zones"]
        else:
            zones = _public(self._bout.snapshot()["zones"], self.ruleset)
        pending = self.pending_decision()
        return {"zones": zones, "players": snapshot["players"], "ended": snapshot.get("ended"),
                "winner": snapshot.get("winner"),
                "pending": None if pending is None else {"helot": pending.actor, "kind": pending.kind,
                                                          "person": pending.person},
                "seats": {label: self.seat_of(label) for label in self._labels}}

    @property
    def log_length(self) -> int:
        """The number of events so far: pass it to `dice_since` later to get only the new dice."""
        return len(self._bout.log)

    def dice_since(self, index: int = 0) -> list[DiceShown]:
        """The dice rolled in the events from `index` on, in the order they fell."""
        shown = []
        terms = GameTerms.of(self._bout.ruleset)
        for event in self._bout.log[max(index, 0):]:
            dice = event.data.get("dice", ())
            if not dice:
                continue
            lines = narrate([event], terms)
            summary = lines[0].strip(" =") if lines else ""
            helot = event.data.get(self._bout.actor_word)
            for die in dice:
                shown.append(DiceShown(event.seq, event.type, str(die["purpose"]), int(die["value"]),
                                       helot if isinstance(helot, str) else None, summary,
                                       die_meaning(self._bout.ruleset, str(die["purpose"]), int(die["value"]))))
        return shown

    def log_lines(self, since: int = 0) -> list[str]:
        return [line.text for line in self.log(since)]

    def log(self, since: int = 0) -> tuple[LogLine, ...]:
        """The narration from event `since` on, each line beside its event and the causes it keeps."""
        return told(self._bout.log[max(since, 0):], GameTerms.of(self._bout.ruleset))

    def seen_log_lines(self, viewer: str | None, since: int = 0) -> list[str]:
        """The narration as `viewer` may read it (None: someone who is no player): a card moved
        between zones the viewer sees neither of (from the Deck into another player's hand) is told
        as `a card`, so the log never shows what the table hides."""
        return [line.text for line in self.seen_log(viewer, since)]

    def seen_log(self, viewer: str | None, since: int = 0) -> tuple[LogLine, ...]:
        """`seen_log_lines`, each beside its event as the viewer may know it (`table.seen_events`:
        the hidden card named neither in the line nor in its causes' values)."""
        events = seen_events(self._bout.log[max(since, 0):], self._bout, viewer)
        return told(events, GameTerms.of(self._bout.ruleset))

    # ---------------------------------------------------------------- saving
    def to_json(self) -> dict[str, Any]:
        """The settings and the actions, and the script fault that stopped the bout (a record for
        whoever reads the file; loading replays the actions and checks the fault comes back)."""
        data: dict[str, Any] = {"format": SESSION_FORMAT, "version": SESSION_VERSION,
                                "settings": self.settings.to_json(),
                                "actions": [action.to_json() for action in self.actions]}
        if self.fault is not None:
            data["fault"] = self.fault.to_json()
        return data

    def save(self, path: str | Path) -> Path:
        """Write the session (settings, actions and any script fault) as JSON through the safe store: atomically,
        confined to the session file's folder, under its lock. `ConflictError` when the file is no
        longer what this session last read or wrote; `StoreError` when the path or the write is
        refused."""
        path = Path(path)
        text = json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n"
        saved = store_save(path, text, self.fingerprint, check=False, root=path.parent, keep_history=False)
        self.fingerprint = saved.fingerprint
        return path

    @classmethod
    def from_json(cls, data: Any, ruleset: Ruleset | None = None, file: str = "<session>",
                  fingerprint: str = ABSENT) -> PlaySession:
        """The session `data` holds, replayed; `fingerprint` is that of the file it was read from
        (`read_session`), which its next save compares against."""
        settings = session_settings(data, file)
        actions = data.get("actions") or []
        if not isinstance(actions, list):
            raise _session_error("the session's actions are not a list", file)
        try:
            session = cls(settings, ruleset=ruleset)
        except SessionError:
            raise
        except NexusError as error:  # settings its packs cannot set up: an unknown barge, motivation or lanista
            raise _session_error(f"the session's settings do not fit its packs: {error.diagnostics[0].message}", file,
                                 hint="the content changed since the session was saved; start a new session") from None
        for index, saved in enumerate(actions):
            session._replay_saved(index, saved, file)
        session._check_saved_fault(data.get("fault"), file)
        session.fingerprint = fingerprint
        return session

    def _check_saved_fault(self, saved: Any, file: str) -> None:
        """A session saved as stopped by a script fault must stop on the same fault when replayed: if
        it plays on instead, the content changed since, and the saved play no longer means what it did.
        (A replay that faults where the saved session did not is the content's fault now: it stands.)"""
        if saved is None:
            return
        if not isinstance(saved, Mapping):
            raise _session_error("the session's saved script fault is not readable", file)
        fault = self.fault
        if fault is not None and _fault_key(fault.to_json()) == _fault_key(saved):
            return
        where = f"{saved.get('file')}:{saved.get('line')}:{saved.get('column')}: {saved.get('message')}"
        raise _session_error(f"the session was saved stopped by a script fault ({where}), but its replay no "
                             "longer stops there", file,
                             hint="the content changed since the session was saved; start a new session")

    def _replay_saved(self, index: int, saved: Any, file: str) -> None:
        """Apply a saved action: the pending option it names (actions are matched by their JSON
        form, so squares and lists come back as the engine's own values)."""
        decision = self._bout.pending
        if isinstance(saved, Mapping) and "helot" in saved and "actor" not in saved:  # saved before `actor`
            saved = {("actor" if key == "helot" else key): value for key, value in saved.items()}
        match = next((o for o in decision.options if o.to_json() == saved), None) if decision else None
        if match is None:
            raise _session_error(
                f"action {index + 1} ({_describe_saved(saved)}) is not possible at that point of the bout",
                file, hint="the content or the engine changed since the session was saved; start a new session")
        self.apply(match)

    @classmethod
    def load(cls, path: str | Path, ruleset: Ruleset | None = None) -> PlaySession:
        data, fingerprint = read_session(path)
        return cls.from_json(data, ruleset, str(path), fingerprint)

    # ---------------------------------------------------------------- buttons
    def _button(self, action: Action) -> OptionButton:
        kind = BUTTON_KINDS.get(action.kind, "control")
        declaration = self._declaration(action)
        if not self.has_board:
            return self._table_button(action, kind, declaration)
        if kind == "command":
            group_id = declaration_group(declaration) if declaration is not None else None
            group = group_id.replace("_", " ").capitalize() if group_id else "Other commands"
        elif action.kind == CHOICE:
            group = "Choose"
        else:
            group = GROUP_TITLES[kind]
        cost = self._cost(action, declaration) if declaration is not None else self._control_cost(action)
        return OptionButton(action, self._label(action, declaration), kind, group, cost)

    def _table_button(self, action: Action, kind: str, declaration: Any) -> OptionButton:
        """A choice in a game without a board, in the game's words: a command with a card of a zone
        is grouped by the card (`YARRR!: 7 skulls 1`) and labelled by where it goes (`place 1 (top)`)."""
        if declaration is None:
            label = ("End your turn (then hand over to the next player)" if action.kind == NEXT_ROUND
                     else _control_words(action, self._name_of))
            return OptionButton(action, label, kind, "Turn")
        cards = [(name, value) for name, value in action.args if self._is_card(value)]
        others = [(name, value) for name, value in action.args if not self._is_card(value)]
        group = declaration.name + "".join(f": {label_of(self.ruleset, str(card))}" for _, card in cards)
        words = [self._place_words(action, name, value) for name, value in others]
        label = ", ".join(words) if cards and words else " ".join([declaration.name, *words]).strip()
        return OptionButton(action, label, kind, group)

    def _is_card(self, value: Any) -> bool:
        return isinstance(value, str) and self.ruleset.declaration("card", value) is not None

    def _place_words(self, action: Action, name: str, value: Any) -> str:
        """A number among the numbers offered with the same other choices: `place 1 (top)`, the
        highest `(bottom)`, as a row of cards is read top first."""
        if not isinstance(value, int) or isinstance(value, bool):
            return _arg_words(name, value)
        decision = self._bout.pending
        rest = [pair for pair in action.args if pair[0] != name]
        offered = [other.arg(name) for other in (decision.options if decision else ())
                   if other.name == action.name and other.actor == action.actor
                   and [pair for pair in other.args if pair[0] != name] == rest]
        numbers = [n for n in offered if isinstance(n, int)]
        end = " (top)" if value == 1 else " (bottom)" if numbers and value == max(numbers) else ""
        return f"{name.replace('_', ' ')} {value}{end}"

    def _control_cost(self, action: Action) -> tuple[tuple[int, str], ...]:
        """The round controls that cost something: the Motivation Button's condition (pg.29), a
    Deception and blocking one (pg.6: the block's cost is the rule param `deception_block_cost`), and
        negating a Turning Point card, which costs the trait reserves its `cost` names (pg.14)."""
        if action.name == "motivation_button":
            return ((int(self.ruleset.settings.get("motivation_button_cost", 5)), "overall"),)
        if action.name == "deception":  # spends one of the deceiver's Deception (the allocation's script)
            return ((1, "deception"),)
        if action.name == "block_deception":
            return ((int(self.ruleset.settings.get("deception_block_cost", 2)), "deception"),)
        if action.name == "negate":
            card = self.ruleset.declaration("turning_point", str(action.arg("card")))
            if card is not None:
                return tuple((item.amount.value, item.resource) for cost in card.clauses_of(A.Cost)
                             for item in cost.items if isinstance(item.amount, A.Num))
        return ()

    def declaration(self, action: Action) -> Any:
        """The declaration a command, ability or card action uses; None for the round controls."""
        return self._declaration(action)

    def _declaration(self, action: Action) -> Any:
        kind = {COMMAND: "command", ABILITY: "trait_ability", CARD: "influence"}.get(action.kind)
        return self.ruleset.declaration(kind, action.name or "") if kind else None

    def _name_of(self, ident: str) -> str:
        for item in self.ruleset.find(ident):
            declaration = getattr(item, "declaration", None)
            if declaration is not None and declaration.name:
                return declaration.name
        return ident.replace("_", " ")

    def _label(self, action: Action, declaration: Any) -> str:
        if declaration is not None:
            words = [_arg_words(name, value) for name, value in _ordered_args(action)]
            return " ".join([declaration.name, *words]).strip()
        if action.name in ("allocate", "motivation_button"):
            return self._allocation_words(action)
        return _control_words(action, self._name_of)

    def _allocation_words(self, action: Action) -> str:
        points = int(self.ruleset.settings.get("command_points", 6))
        side = str(action.arg("ratio_to") or action.arg("to") or "").upper()
        other = "MP" if side == "AP" else "AP"
        if action.name == "motivation_button":
            return f"Motivation Button: all {points} points to {side}"
        ratio = self._bout.state.pieces[action.actor].ratio
        return f"Ratio die ({ratio}) to {side}, the other {points - ratio} to {other}"

    def _cost(self, action: Action, declaration: Any) -> tuple[tuple[int, str], ...]:
        """The declaration's cost clauses evaluated for this action (as the engine will charge)."""
        if declaration is None:
            return ()
        bout = self._bout
        helot = bout.state.pieces.get(action.actor)
        if helot is None:  # a game without pieces: its commands cost nothing a piece pays
            return ()
        open_windows = bout.timing.windows
        frame = open_windows[-1] if open_windows else None
        extra = {**window_defaults(declaration, bout.ruleset.words.windows), **(dict(frame.names) if frame else {})} if action.kind != COMMAND else None
        interpreter = bout.interpreter
        was_pure = interpreter.pure
        interpreter.pure = True  # working out a cost may not roll dice
        try:
            env = bout.legality.action_env(helot, declaration, action, extra)
            return tuple((int(amount), str(resource)) for amount, resource in bout.legality.cost_items(helot, declaration, env))
        except NexusError:
            return ()
        finally:
            interpreter.pure = was_pure


def _public(zones: Mapping[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    """Every zone as someone who is no player sees it: the cards of the zones open to all, only
    counts of the others (a face-down deck, every hand)."""
    shown: dict[str, Any] = {}
    for name, held in zones.items():
        visible = ruleset.words.zones[name].visible == "all"
        if isinstance(held, Mapping):
            shown[name] = {owner: list(cards) if visible else len(cards) for owner, cards in held.items()}
        else:
            shown[name] = list(held) if visible else len(held)
    return shown


def _ordered_args(action: Action) -> list[tuple[str, Any]]:
    """The target first, then the other arguments as the action holds them."""
    return sorted(action.args, key=lambda pair: pair[0] != "target")


def _arg_words(name: str, value: Any) -> str:
    if name == "target":
        return f"on {value}"
    if isinstance(value, Square):
        return f"to [{value.col}, {value.row}]"
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"to [{value[0]}, {value[1]}]"
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return f"({name.replace('_', ' ')}: {value})"
    if isinstance(value, int):
        return f"({value} {name.replace('_', ' ')})"
    return f"({value.replace('_', ' ')})" if name not in ("direction", "location") else f"— {value.replace('_', ' ')}"


def _control_words(action: Action, name_of: Any) -> str:
    """Words for the round controls and choices (the engine's `control`, `choice`, `pass`, ...)."""
    side = str(action.arg("ratio_to") or action.arg("to") or "").upper()
    if action.kind == END_ROUND:
        return "End the command round"
    if action.kind == NEXT_ROUND:
        return "Continue to the next round"
    if action.kind == PASS:
        return "Pass"
    if action.name == "deception":
        return f"Deceive {action.arg('target')}: ratio die to {side}"
    if action.name == "block_deception":
        return "Block the deception"
    if action.name == "spend_command_token":
        return f"Spend a command token on {side}"
    if action.name == "negate":
        return f"Negate {name_of(str(action.arg('card')))} (pay its cost)"
    if action.kind == CHOICE and action.name == "keep_card":
        return f"Keep {name_of(str(action.arg('card')))}"
    if action.kind == CHOICE:
        pick = action.arg("pick")
        return f"Choose {name_of(str(pick)) if isinstance(pick, str) else pick} ({(action.name or '').replace('_', ' ')})"
    words = " ".join(_arg_words(name, value) for name, value in _ordered_args(action))
    return " ".join([(action.name or action.kind).replace("_", " ").capitalize(), words]).strip()


def _fault_key(fault: Mapping[str, Any]) -> tuple[Any, ...]:
    """What identifies a fault across a save: its code, position in its file and message (the file's
    path is left out: the same content root may be named differently on resume)."""
    return tuple(fault.get(key) for key in ("code", "line", "column", "message"))


def _describe_saved(saved: Any) -> str:
    if not isinstance(saved, Mapping):
        return repr(saved)
    parts = [str(saved.get("actor", saved.get("helot", "?"))), str(saved.get("name") or saved.get("kind", "?"))]
    parts += [f"{k}={v}" for k, v in saved.items() if k not in ("actor", "helot", "name", "kind")]
    return " ".join(parts)


# ---------------------------------------------------------------- where sessions are kept

def session_file(folder: str | Path, name: str) -> Path:
    """The file of the session called `name` in `folder` (letters, digits, space, `_`, `-`): never
    outside it. `SessionNameError` (a `StoreError` and a `ValueError`) for any other name."""
    if not isinstance(name, str) or not SESSION_NAME.fullmatch(name) or name != name.strip():
        raise SessionNameError("name the session with letters, digits, spaces, `_` and `-` (at most 80 "
                               "characters, starting with a letter or digit); nothing was saved")
    return Path(folder) / f"{name}{SESSION_SUFFIX}"


def read_session(path: str | Path, limits: InputLimits = INPUT_LIMITS) -> tuple[Any, str]:
    """The JSON a session file holds and the file's fingerprint (for `PlaySession.from_json`). The file
    is read as a save would write it: confined to its folder, never through a symbolic link, and
    within `limits`: at most `max_file_bytes` (a whole bout's session is 10 to 25 KB) of UTF-8,
    lists and mappings nested at most `max_depth` deep (a session nests 5). `SessionError`,
    positioned where it can be, when it cannot be read or is not such JSON."""
    path = Path(path)
    file = str(path)
    try:
        opened = open_for_edit(path, root=path.parent, limits=limits)
    except NotEditableError as error:  # too large, or not UTF-8
        problem = error.diagnostics[0]
        raise SessionError(replace(problem, code="playtest/bad_session", file=file,
                                   message=f"cannot read the session: {problem.message}")) from None
    except StoreError as error:
        raise _session_error(f"cannot read the session: {error}", file) from None
    if opened.fingerprint == ABSENT:
        raise _session_error("there is no saved session of that name", file)
    try:
        data = json.loads(opened.text)
    except json.JSONDecodeError as error:
        raise SessionError(Diagnostic("playtest/bad_session", f"the session is not valid JSON: {error.msg}",
                                      file, error.lineno, error.colno)) from None
    except RecursionError:  # nested beyond what the JSON reader follows, long before memory is at stake
        raise _session_error(_TOO_DEEP.format(limits.max_depth), file) from None
    except ValueError as error:  # a number of more than 4,300 digits
        raise _session_error(f"the session is not usable JSON: {error}", file) from None
    if _depth(data) > limits.max_depth:
        raise _session_error(_TOO_DEEP.format(limits.max_depth), file)
    return data, opened.fingerprint


_TOO_DEEP = "the session nests lists and mappings more than {} deep; a saved session nests 5"


def _depth(data: Any) -> int:
    """How deeply lists and mappings nest in `data` (JSON), counted without recursion."""
    deepest = 0
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            pending.extend((child, depth + 1) for child in children)
    return deepest


def session_settings(data: Any, file: str = "<session>") -> PlaySettings:
    """The settings of a session as `read_session` gave it, or `SessionError` saying what is wrong
    with them (also for what is not a session at all)."""
    if not isinstance(data, Mapping) or data.get("format") != SESSION_FORMAT:
        raise _session_error("this is not a saved playtest session", file)
    if data.get("version") != SESSION_VERSION:
        raise _session_error(f"session format version {_shown(data.get('version'))} is not supported", file)
    try:
        return PlaySettings.from_json(data.get("settings") or {})
    except (TypeError, ValueError) as error:
        raise _session_error(f"the session's settings are not usable: {error}", file) from None


def _shown(value: Any) -> str:
    """A value from a session file as a message shows it: cut short when long."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def list_sessions(folder: str | Path) -> list[str]:
    """The names of the sessions saved in `folder`, sorted."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p.name[: -len(SESSION_SUFFIX)] for p in folder.iterdir()
                  if p.is_file() and p.name.endswith(SESSION_SUFFIX))


# Kept for pages that show a refusal: the engine's message, without the file prefix.
def refusal_message(error: RulesError) -> str:
    return "; ".join(d.message for d in error.diagnostics)

