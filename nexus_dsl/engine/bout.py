"""A bout: its mechanisms, its decision points, and the one way to change state.

The whole bout runs as a generator (the Command Cycle, `engine/cycle.py`) that yields a `Decision`
whenever a player must choose and receives the chosen `Action`. `Bout.apply(action)` is the only
entry point that changes state: it checks the action against the legal options (refusing anything
else with a `RulesError` and changing nothing), runs the game to the next decision, and returns the
events it caused. The seed plus the list of applied actions replays a bout exactly.

A script that faults while an action resolves (a runtime error: a budget exceeded, a value of the
wrong kind, a number beyond the limit...) stops the bout: its state is put back as it was before
that action, `fault` holds the positioned diagnostic and the outcome's termination is
`script_fault`. Half an effect is never left applied, and the ledger stays balanced.

Which commands exist, what they cost and do, and every rule that adds a bonus or a penalty are
content: they arrive through the Ruleset as rule scripts and run in the interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import Diagnostic, RulesError, ScriptRuntimeError
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .actions import ABILITY, CARD, COMMAND, PASS, Action, Decision
from .conditions import Conditions
from .cycle import KEEP_DECISION, Cycle, Game
from .decks import Decks
from .dice import Dice
from .events import Events
from .holds import Holds
from .initial_state import initial_state
from .interpreter import Interpreter, Limits, Run
from .causes import Cause, Tracer
from .scope import faulting_declaration
from .ledger import Ledger
from .legality import Legality
from .on_demand import OPTIONS_FAULTED, CommandOptions, OptionsFaulted
from .movement import Movement
from .refusals import reason_refused, refusal_code
from .resolution import Resolution
from .rolls import RollLevels, RollReached, Rolls
from .primitives import script_tables, traced_tables
from .setup import BoutSetup
from .snapshot import snapshot_of
from .state import BoutState, Piece, Outcome, Player, Termination
from .text_facts import declaration_group, declaration_tags
from .timing import Timing

# Decisions between a player's own moves: a script's step budget starts again at each of these
# (inside an action or a turn's opening — a timing window, a `choose`, an `ask` — the steps keep counting).
# A deal's decisions (`keep_<zone>`, `cycle.KEEP_DECISION`) are between moves too.
BETWEEN_MOVES: Final = frozenset({"command", "allocate", "between_rounds"})
# The limits of a bout given none: one value for them all (a frozen dataclass, never changed), not
# one made for every bout.
DEFAULT_LIMITS: Final = Limits()


@dataclass
class Event:
    seq: int
    cycle: int
    round: str | None
    type: str
    data: dict[str, Any]
    # The script statements under way when it was logged, outermost first (`causes.py`): kept by a
    # bout played to be explained, None otherwise.
    cause: tuple[Cause, ...] | None = field(default=None, init=False, compare=False, repr=False)

    # Written out, the dataclass's own `__init__` would do: an event is made for every line of the
    # log, and the compiled engine then makes it with compiled code (`board.Square` says more).
    def __init__(self, seq: int, cycle: int, round: str | None, type: str, data: dict[str, Any]) -> None:
        self.seq = seq
        self.cycle = cycle
        self.round = round
        self.type = type
        self.data = data
        self.cause = None

    def __reduce__(self) -> tuple[Any, ...]:
        # The causes point into the syntax tree: a pickled event (a batch's log) goes without them.
        return (Event, (self.seq, self.cycle, self.round, self.type, self.data))

    def with_data(self, data: dict[str, Any]) -> Event:
        """The same line with other values (a card hidden from who may not see it), its causes kept."""
        event = Event(self.seq, self.cycle, self.round, self.type, data)
        event.cause = self.cause
        return event

    def to_json(self) -> dict[str, Any]:
        """The line as the log writes it; with its causes (`cause`) when the bout was explained."""
        line = {"seq": self.seq, "cycle": self.cycle, "round": self.round, "type": self.type, **self.data}
        if self.cause is not None:
            line["cause"] = [cause.to_json() for cause in self.cause]
        return line


class Bout:
    """One bout: its setup, state, dice and log, and the mechanisms that change the state, each a
    small object holding the bout as its host (`ledger`, `legality`, `events`, `timing`,
    `conditions`, `movement`, `holds`, `rolling`, `resolution`, `decks`, `cycle`)."""

    # A preview's copy lets go of its mechanisms when done (`WhatIf.let_go`); compiled (`nexus_dsl.native`),
    # only the attributes named here may be deleted.
    __deletable__ = ("ledger", "legality", "events", "timing", "conditions", "movement", "holds", "rolling",
                     "resolution", "decks", "cycle", "interpreter")

    def __init__(self, ruleset: Ruleset, setup: BoutSetup, seed: int = 0,
                 forced_dice: dict[str, list[int]] | None = None, limits: Limits | None = None,
                 strict_ledger: bool = False, explain: bool = False,
                 options_on_demand: bool | frozenset[str] = False):
        self.ruleset = ruleset
        # Command decisions worked out as the agents ask for their options (`on_demand.py`): asked
        # for by loops that ask the agents through `next_action`, which handles a fault met so.
        # True: every actor's; a set: those actors' only (`on_demand_actors`: the agents that ask
        # for options one by one; an agent that reads the whole list is served it whole, cheaper).
        self.options_on_demand = options_on_demand
        # Where the bout was before the last action (`_stop` undoes it on a fault): its state when
        # the game had not yet run (kept only while the first decision is offered on demand), and
        # the length of the log.
        self._opening: BoutState | None = None
        self._log_before = 0
        # Tests ask for the ledger to be proved after every event, not only after every action.
        self.strict_ledger = strict_ledger
        self.setup = setup
        self.seed = seed
        self.forced_dice = forced_dice or {}
        self.dice_seed = seed
        self.rolled: Dice | None = Dice(seed, self.forced_dice)  # `dice`
        self.limits = limits or DEFAULT_LIMITS
        self.log: list[Event] = []
        self.history: list[Action] = []
        self.round_actions = 0  # commands, abilities and cards given in the current Command Round
        self.fault: Diagnostic | None = None  # the script fault that stopped the bout, if one did
        self.fault_declaration: A.Declaration | None = None  # the declaration whose script faulted
        self.object_types = frozenset(ruleset.data.get("objects", {}))
        # The log names who acts by the game's own word for it (its `piece_word` or `player_word`).
        self.actor_word = ruleset.game.actor_word
        # Each command's declaration by name, read once per ruleset: a preview runs one.
        self.commands: dict[str, A.Declaration] = ruleset.derived("command_declarations", lambda: _commands_of(ruleset))
        self._state = initial_state(ruleset, setup, self.dice)
        self.ledger: Ledger = Ledger(self)
        self.legality: Legality = Legality(self)
        self.events: Events = Events(self)
        self.timing: Timing = Timing(self)
        self.conditions: Conditions = Conditions(self)
        self.movement: Movement = Movement(self)
        self.holds: Holds = Holds(self)
        self.rolling: Rolls = Rolls(self)
        self.resolution: Resolution = Resolution(self)
        self.decks: Decks = Decks(self)
        self.cycle: Cycle = Cycle(self)
        self.interpreter: Interpreter = Interpreter(self, self.limits)
        self.interpreter.functions, self.interpreter.primitives = script_tables(self.limits)
        # Explained (`causes.py`): every line of the log keeps the script statements under way.
        self.tracer: Tracer | None = Tracer() if explain else None
        if explain:
            self.interpreter.primitives = traced_tables(self.limits)
        self._wire()
        self.pending: Decision | None = None
        # The copy the last previews were taken on (`Previews`), kept for the next decision's.
        self._spare: WhatIf | None = None
        self._game = self.cycle.play()
        self._run_to_decision(None)

    def _wire(self) -> None:
        """Once every mechanism is built: each keeps at hand the others it calls (its `wire`), read
        natively from then on rather than through its host Protocol on every call (docs/native.md)."""
        self.events.wire()
        self.legality.wire()
        self.timing.wire()
        self.rolling.wire()
        self.resolution.wire()
        self.movement.wire()
        self.cycle.wire()
        self.conditions.wire()
        self.holds.wire()

    # ---------------------------------------------------------------- the state
    @property
    def state(self) -> BoutState:
        return self._state

    @state.setter
    def state(self, state: BoutState) -> None:
        """The state replaced whole (a fault undone, a preview's copy started over): each mechanism
        keeps the state at hand, where it reads it natively rather than through its host Protocol
        (docs/native.md), so each is handed the new one."""
        self._state = state
        self.ledger.state = self.legality.state = self.events.state = self.timing.state = state
        self.conditions.state = self.movement.state = self.holds.state = self.decks.state = self.cycle.state = state
        self.ledger.recount()

    # ---------------------------------------------------------------- the log
    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None:
        """Log an event, its names in `data` (a dict made for the line: the log keeps it); its `actor`
        (who acts) is written under the game's word for who acts. The names come as one dict, called
        positionally: a compiled method called with keywords parses them at every call."""
        if "actor" in data and self.actor_word != "actor":
            data = {(self.actor_word if key == "actor" else key): value for key, value in data.items()}
        rolled = self.dice.drain_history()
        if rolled:
            data["dice"] = [{"purpose": r.purpose, "sides": r.sides, "value": r.value} for r in rolled]
        event = Event(len(self.log), self.state.cycle, self.state.active, event_type, data)
        tracer = self.tracer
        if tracer is not None:
            event.cause = tracer.current()
        self.log.append(event)
        if self.strict_ledger:
            self._check_ledger()

    def settle(self) -> Run:
        """Let what waits until an action has wholly resolved resolve (the cycle's `settle`)."""
        yield from self.cycle.settle()

    def roll(self, purpose: str, sides: int = 6) -> int:
        if self.interpreter.pure:
            raise self.runtime_error("impure", "a cost or a requirement is a question: it cannot roll dice")
        return self.dice.roll(purpose, sides)

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError:
        """A fault found by a mechanism; the interpreter positions it at the statement or call
        that set the mechanism off and names its declaration (`interpreter.fault_at`)."""
        return ScriptRuntimeError(Diagnostic(f"runtime/{code}", message, "<engine>"))

    # ---------------------------------------------------------------- the one way to change state
    def legal_actions(self) -> list[Action]:
        return list(self.pending.options) if self.pending else []

    def apply(self, action: Action) -> list[Event]:
        """Apply one of the pending decision's options and run the bout to its next decision.
        Returns the events it caused. A refused action raises `RulesError` and changes nothing;
        an action whose scripts fault stops the bout (`fault`, see the module docstring)."""
        pending = self.pending
        if pending is None:
            raise RulesError(Diagnostic("rules/bout_over", self._over(), "<bout>"))
        try:
            offered = action is not OPTIONS_FAULTED and pending.offers(action)
        except OptionsFaulted:
            offered = False
            action = OPTIONS_FAULTED
        if action is OPTIONS_FAULTED and pending.on_demand is not None:  # (`next_action`)
            start = len(self.log)
            self._options_faulted()
            return self.log[start:]
        if not offered:
            raise RulesError(Diagnostic(f"rules/{refusal_code(self, action)}", reason_refused(self, action), "<bout>"))
        start = len(self.log)
        self.history.append(action)
        self._run_to_decision(action)
        self._check_ledger()
        return self.log[start:]

    def _over(self) -> str:
        if self.fault is not None:
            return f"the bout stopped on a script fault: {self.fault.location()}: {self.fault.message}"
        return "the bout is over"

    def _run_to_decision(self, action: Action | None) -> None:
        """Run the game until it waits for the next decision, as one transaction: a script fault
        puts the state back as it was and stops the bout. Before the game first runs the state is
        copied (once a bout); before an action it is not, since a fault is rare and a bout replays
        exactly from its seed and its actions (`_state_before_last_action`)."""
        start = self.state.clone() if action is None else None
        log_length = self._log_before = len(self.log)
        self.dice.checkpoint()
        try:
            self.pending = self._advance(action)
        except ScriptRuntimeError as error:
            self._stop(error, start if start is not None else self._state_before_last_action(), log_length, action)
        pending = self.pending
        if pending is None:  # over: no more previews to take
            self._let_go_spare()
        # The first decision offered on demand keeps the state to undo a fault met later to.
        self._opening = start if pending is not None and pending.on_demand is not None else None

    def _options_faulted(self) -> None:
        """A question of the pending decision asked on demand faulted (`on_demand.OptionsFaulted`):
        the bout stops as it would have when it reached the decision. The game, told so
        (`OPTIONS_FAULTED`), works the whole list out again where it always did and meets the fault
        the whole list meets first, so the game's frames see it as they always did; the state, dice
        and log are undone to before the last action."""
        action = self.history[-1] if self.history else None
        start = self._opening
        try:
            self.pending = self._advance(OPTIONS_FAULTED)
        except ScriptRuntimeError as error:
            self._stop(error, start if start is not None and action is None else self._state_before_last_action(),
                       self._log_before, action)
        if self.pending is None:
            self._let_go_spare()

    def _advance(self, action: Action | None) -> Decision | None:
        try:
            decision = self._game.send(action) if action is not None else next(self._game)
        except StopIteration:
            return None
        if decision.kind in BETWEEN_MOVES or decision.kind.startswith(KEEP_DECISION):
            self.interpreter.reset_budget()
        return decision

    def offers_on_demand(self, actor: str) -> bool:
        """Whether `actor`'s command decisions are worked out as they are asked for (`on_demand.py`)."""
        setting = self.options_on_demand
        return setting is True or (not isinstance(setting, bool) and actor in setting)

    def _state_before_last_action(self) -> BoutState:
        """The state as it was before the last action of the history: the bout played again from
        its seed, its forced dice as they were given and the actions before that one. Its game is
        closed before its state is taken (closing runs only the mechanisms' own `finally` clean-ups)."""
        replay = Bout(self.ruleset, self.setup, self.seed, self.dice.forced_results(), self.limits, self.strict_ledger,
                      options_on_demand=self.options_on_demand)
        for action in self.history[:-1]:
            replay.apply(action)
        replay._game.close()
        return replay.state

    def _stop(self, error: ScriptRuntimeError, state: BoutState, log_length: int, action: Action | None) -> None:
        """The bout stops on a script fault: the state (`state`), the dice and the log as they were
        before the action (the game that raised is finished: its stacks are already unwound), the
        fault recorded and logged, and an outcome without a winner."""
        self.state = state
        self.dice = self.dice.rewound()
        del self.log[log_length:]
        self.rolling.reset()
        self.timing.reset()
        self.conditions.reset()
        self.decks.reset()
        self.events.reset()
        if self.tracer is not None:  # the runs that faulted are over: none is under way
            self.tracer.stack.clear()
        self.fault = error.diagnostics[0]
        self.fault_declaration = faulting_declaration(error)
        self.pending = None
        self.state.ended = True
        totals = self.cycle.scores()
        self.state.outcome = Outcome(Termination.SCRIPT_FAULT.value, None, totals, dict(self.state.piles))
        self.emit_line("fault", {**self.fault.to_json(), "action": action.to_json() if action is not None else None})

    def _check_ledger(self) -> None:
        """The rules' invariant: the coins out of the reserve are the coins in every other pile, as
        the ledger keeps them while they move (`Ledger.in_play`). A strict ledger (tests) adds the
        piles up besides, and proves the kept count by them."""
        state = self.state
        in_play = self.ledger.in_play
        if self.strict_ledger:
            summed = state.coins_in_play()
            if summed != in_play:
                raise AssertionError(f"coin ledger out of count: {summed} in the piles, {in_play} kept in play")
        if in_play != state.drawn:
            raise AssertionError(f"coin ledger out of balance: {in_play} in play, {state.drawn} drawn from the reserve")

    # ---------------------------------------------------------------- reading state
    def piece_attribute(self, piece: Piece | Player, name: str) -> Any:
        """The attribute `name` of a fighter, as a script reads it (`attributes.py`)."""
        return self.interpreter.attributes.read(self, piece, name)

    def is_declaration_id(self, name: str) -> bool:
        return name in self.ruleset.declaration_ids

    def declaration_attribute(self, declaration: A.Declaration, name: str) -> Any:
        if name == "id":
            return declaration.id
        if name == "group":
            return declaration_group(declaration)
        return declaration_tags(declaration)

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    def snapshot(self) -> dict[str, Any]:
        """The scenario snapshot (SCENARIOS.md): every key the contract names, and a few more."""
        return snapshot_of(self.state, self.ruleset)

    def events_json(self) -> list[dict[str, Any]]:
        return [event.to_json() for event in self.log]

    # ---------------------------------------------------------------- what-if
    def preview(self, action: Action) -> BoutState:
        """The state right after `action`, computed on a copy (for agents weighing their options).
        Runs the action's effects to completion; later decisions are not taken. The copy shares
        nothing the bout changes (`_what_if`), so a preview leaves the bout exactly as it was.
        Raises `ScriptRuntimeError` when the action's scripts fault: an option to judge as bad."""
        clone = self._what_if()
        try:
            return self._run_preview(clone, action)
        finally:
            clone.let_go()

    def previews(self) -> Previews:
        """Previews of several options of the pending decision, one after another, on one copy
        whose mechanisms are built once (`Previews`): each leaves what `preview` would."""
        return Previews(self)

    def roll_levels(self, action: Action) -> RollLevels | None:
        """The levels on the dice scale of the first opposed roll `action` would make, worked out
        from the state now the way resolution works them out: its costs paid, its `effect` blocks,
        the roll's own level, the windows before the rolls (passed, as a preview passes them) and
        the rules that answer the attack roll, each sliding a side. It runs on a copy (`preview`'s)
        that stops before the roll's first die (`Rolls.halt_before_dice`): no die is rolled and the
        bout is left exactly as it was. None when the action makes no opposed roll, when what comes
        before it would roll a die (its levels then hang on chance) or when its scripts fault."""
        clone = self._what_if()
        clone.rolling.halt_before_dice = True
        try:
            self._run_preview(clone, action)
        except RollReached as reached:
            return reached.levels if clone.rolled is None else None
        except ScriptRuntimeError:
            return None
        finally:
            clone.let_go()
        return None

    def _run_preview(self, clone: WhatIf, action: Action) -> BoutState:
        piece = clone.state.actor(action.actor)
        if action.kind in (ABILITY, CARD):
            game = clone.timing.use_ability(action, None)
        elif action.kind == COMMAND:
            declaration = self.commands.get(action.name or "")
            assert declaration is not None
            game = clone.resolution.run_command(piece, declaration, action)
        else:
            return clone.state
        # Most previews meet no decision: `next` with a default ends them without an exception.
        decision = next(game, None)
        while decision is not None:  # decisions inside a preview: pass, or take the first option
            passing = [o for o in decision.options if o.kind == PASS]
            try:
                decision = game.send(passing[0] if passing else decision.options[0])
            except StopIteration:
                break
        return clone.state

    def _what_if(self) -> WhatIf:
        """A copy of this bout for a preview (`WhatIf`)."""
        return WhatIf(self)

    def _copy_for_previews(self) -> WhatIf:
        """A copy for the previews of the pending decision: the one the last previews were taken
        on, started over (`WhatIf.start_over`), or a new one."""
        spare = self._spare
        if spare is None:
            return self._what_if()
        self._spare = None
        spare.start_over(self)
        return spare

    def _keep_spare(self, copy: WhatIf) -> None:
        """Keep the copy previews were taken on for the next decision's, while the bout goes on."""
        self._let_go_spare()
        if self.pending is None:
            copy.let_go()
        else:
            self._spare = copy

    def _let_go_spare(self) -> None:
        if self._spare is not None:
            self._spare.let_go()
            self._spare = None

    @property
    def dice(self) -> Dice:
        """The bout's dice; a preview's copy seeds its own only when it first rolls (`WhatIf`)."""
        if self.rolled is None:
            self.rolled = Dice(self.dice_seed)
        return self.rolled

    @dice.setter
    def dice(self, dice: Dice) -> None:
        self.rolled = dice


class WhatIf(Bout):
    """A bout's copy for a preview: its own state, dice, log, mechanisms (with their stacks and
    caches) and interpreter; only what never changes (the ruleset, the setup, the limits, the
    listeners) is shared. It has no game of its own to resume. What makes a copy costs as much as
    a short preview, so it does without what no one reads: it keeps no log (a strict ledger is
    still proved at every line), and its dice are seeded only when the preview first rolls (most
    never do). Made by copying, never by `Bout.__init__`."""

    def __init__(self, original: Bout):  # pylint: disable=super-init-not-called
        self.ruleset = original.ruleset
        self.strict_ledger = original.strict_ledger
        self.setup = original.setup
        self.seed = original.seed
        self.limits = original.limits
        self.round_actions = original.round_actions
        self.fault = original.fault
        self.fault_declaration = original.fault_declaration
        self.options_on_demand = False  # a preview runs one command: it offers no turn's decision
        self._opening, self._log_before = None, 0
        self.object_types = original.object_types
        self.actor_word = original.actor_word
        self.commands = original.commands
        self.tracer = None  # a preview logs nothing: no cause to keep
        self._state = original.state.clone()
        self.dice_seed, self.rolled = _preview_dice_seed(original), None
        self.log = []
        # The bout's own list, read and never added to: a copy has no decision pending, so it
        # applies no action (`apply` refuses before adding), and its previews run commands directly.
        self.history = original.history
        self.forced_dice = dict(original.forced_dice)
        self.pending = None
        self._spare = None
        self._game = _no_game()
        # The mechanisms hold their bout: the copy's are built anew for the copy.
        self.ledger = Ledger(self)
        self.legality = original.legality.copy_for(self)
        self.events = original.events.copy_for(self)
        self.timing = original.timing.copy_for(self)
        self.conditions = Conditions(self)
        self.movement = Movement(self)
        self.holds = Holds(self)
        self.rolling = Rolls(self)
        self.resolution = Resolution(self)
        self.decks = Decks(self)
        self.cycle = Cycle(self)
        self.interpreter = Interpreter(self, self.limits)
        self.interpreter.functions, self.interpreter.primitives = original.interpreter.functions, original.interpreter.primitives
        self._wire()

    def start_over(self, original: Bout) -> None:
        """Ready the copy for another preview of `original`, of the same decision or a later one,
        as a new copy would be: the state copied afresh into the copy's own (`BoutState.copy_from`:
        the state the last preview returned is overwritten, read by then), dice not yet seeded, no
        window, roll, card, damage or procedure under way, the events under way and the step
        budget as a new copy has them. What is worked out once (the listeners, the plans, the
        caches, each a memo of what the ruleset alone decides) is kept. The mechanisms keep the
        state object they hold: it is the same one, its contents replaced."""
        self.round_actions = original.round_actions
        self.fault, self.fault_declaration = original.fault, original.fault_declaration
        self.history = original.history
        self._state.copy_from(original.state)
        self.ledger.in_play = original.ledger.in_play  # the same coins, in the same piles
        self.dice_seed, self.rolled = _preview_dice_seed(original), None
        self.events.take_under_way(original.events)
        self.timing.reset()
        self.conditions.reset()
        self.rolling.reset()
        self.decks.reset()
        self.cycle.taking_turns = False
        interpreter = self.interpreter
        interpreter.steps, interpreter.pure, interpreter.procedure_depth = 0, False, 0

    def let_go(self) -> None:
        """Drop what the copy holds once its preview is over (its state lives on with whoever asked).
        Its mechanisms each hold it as their host, and the interpreter its `asking` context: cycles
        only Python's collector would free, and previews come by the thousand, each setting off
        collections that walk every object alive, the ruleset included. Let go of, all are freed at
        once."""
        del self.interpreter._asking
        del (self.ledger, self.legality, self.events, self.timing, self.conditions, self.movement, self.holds,
             self.rolling, self.resolution, self.decks, self.cycle, self.interpreter)

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None:
        if self.rolled is not None:
            self.rolled.drain_history()
        if self.strict_ledger:
            self._check_ledger()


def _commands_of(ruleset: Ruleset) -> dict[str, A.Declaration]:
    """Each command's declaration by its id (`Ruleset.declaration("command", id)` for each)."""
    return {ident: item.declaration for ident, item in ruleset.scripts.get("command", {}).items()}


def _preview_dice_seed(original: Bout) -> int:
    """The seed of a preview's dice: a stream of its own, so a preview never foresees the bout's
    next rolls, the same for every preview of one decision."""
    return original.seed * 1_000_003 + len(original.history) + 1


class Previews:
    """Previews of several options of one decision, taken one after another on one copy of the
    bout (`WhatIf.start_over` between them): building a copy's mechanisms costs about as much as
    copying its state, and every option of a decision starts from the same bout. Nothing may
    apply an action to the bout while they are taken; `close` (or leaving a `with` block) hands
    the copy back to the bout, which starts it over for the next decision's previews (and lets
    go of it once the bout is over)."""

    def __init__(self, bout: Bout):
        self.bout = bout
        self.copy: WhatIf | None = None

    def preview(self, action: Action) -> BoutState:
        """What `Bout.preview(action)` returns, and raises. The state returned is the copy's own:
        read it before the next preview, which overwrites it (`WhatIf.start_over`)."""
        copy = self.copy
        if copy is None:
            copy = self.copy = self.bout._copy_for_previews()
        else:
            copy.start_over(self.bout)
        return self.bout._run_preview(copy, action)

    def close(self) -> None:
        if self.copy is not None:
            self.bout._keep_spare(self.copy)
            self.copy = None

    def __enter__(self) -> Previews:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _no_game() -> Game:
    """The game of a preview's copy: there is none to resume."""
    return
    yield  # a generator that ends at once


def next_action(bout: Bout, agents: dict[str, Any]) -> Action:
    """Ask the agents for the next action: first every other piece, clockwise from the decider,
    whether it interjects with an instant ability or card; then the decider itself. A decision
    offered on demand is asked only for what the agents read (`on_demand.py`); when a question asked
    so faults, the answer is `OPTIONS_FAULTED`, on which `Bout.apply` stops the bout."""
    decision = bout.pending
    assert decision is not None
    if decision.on_demand is not None:
        try:
            return _next_on_demand(bout, agents, decision)
        except OptionsFaulted:
            return OPTIONS_FAULTED
    actor, options = decision.actor, decision.options
    main = [o for o in options if o.actor == actor]
    if len(main) < len(options):  # others have something to use: most decisions offer them nothing
        interjection = _interjection(bout, agents, decision, options)
        if interjection is not None:
            return interjection
    elif len(main) > 1:  # the decider's own options only: the decision as it stands
        return agents[actor].choose(bout, decision)
    if len(main) == 1:
        return main[0]
    return agents[actor].choose(bout, Decision(actor, decision.kind, tuple(main)))


def _interjection(bout: Bout, agents: dict[str, Any], decision: Decision, options: tuple[Action, ...]) -> Action | None:
    """The first of the other pieces, clockwise from the decider, whose agent interjects with one of
    its own `options` (an instant ability or card), and what it uses; None when none does."""
    for piece in bout.state.actors_clockwise_from(decision.actor)[1:]:
        label = piece.label
        own = [o for o in options if o.actor == label]
        if own:
            interjection = agents[label].interject(bout, decision, own)
            if interjection is not None:
                return interjection
    return None


def _next_on_demand(bout: Bout, agents: dict[str, Any], decision: Decision) -> Action:
    """`next_action` for a decision offered on demand: the same questions to the same agents, with
    the commands (all the decider's) asked only as far as needed: whether the decider has one
    option alone asks whether any command is legal (or, with nothing else to offer, finds two)."""
    on_demand = decision.on_demand
    assert isinstance(on_demand, CommandOptions)
    actor, rest = decision.actor, on_demand.rest
    mine = [o for o in rest if o.actor == actor]
    others = len(mine) < len(rest)
    if others:
        interjection = _interjection(bout, agents, decision, rest)
        if interjection is not None:
            return interjection
    if len(mine) == 1 and not on_demand.any_command():
        return mine[0]
    if not mine:
        first = on_demand.first_commands(2)
        if len(first) == 1:
            return first[0]
    if not others:
        return agents[actor].choose(bout, decision)
    return agents[actor].choose(bout, Decision(actor, decision.kind, None, on_demand.restricted(actor)))


def on_demand_actors(agents: dict[str, Any]) -> frozenset[str]:
    """The actors whose agents ask for a command decision's options one by one (`asks_on_demand`):
    their decisions are best worked out on demand; an agent that reads the whole list (the random
    agent) gets it cheaper worked out whole."""
    return frozenset(label for label, agent in agents.items() if getattr(agent, "asks_on_demand", False))


def play(ruleset: Ruleset, setup: BoutSetup, agents: dict[str, Any], seed: int = 0) -> Bout:
    """Play a whole bout with agents choosing at every decision."""
    bout = Bout(ruleset, setup, seed, options_on_demand=on_demand_actors(agents))
    while bout.pending is not None:
        bout.apply(next_action(bout, agents))
    return bout
