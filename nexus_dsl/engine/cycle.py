"""The game loop: the procedures the `game` declaration names as its setup, its round (run again and
again) and its verdict, and a piece's turn as its `turn` declaration shapes it. What is still
NEXUS's own here (the deal's keep count) is called by the base game's content.

The whole bout runs as one generator (`Cycle.play`) that yields a `Decision` whenever a player must
choose and receives the chosen `Action`.
"""

from __future__ import annotations

from typing import Any, Generator, Protocol

from ..errors import ScriptRuntimeError
from ..model.game import Turn
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .actions import ABILITY, CARD, CHOICE, CONTROL, END_ROUND, NEXT_ROUND, Action, Decision
from .events import Events
from .holds import Holds
from .interpreter import BlockPlan, Interpreter, Limits, block_plan
from .scope import Env
from .legality import Legality
from .on_demand import OPTIONS_FAULTED, CommandOptions, OptionsFaulted
from .resolution import Resolution, body_clauses, declared
from .setup import BoutSetup
from .state import Actor, BoutState, Piece, Outcome, Status, Termination
from .timing import Timing

Game = Generator[Decision, Action, None]
# What a Command Round yields, when the rounds of a cycle take turns, where the next piece's turn
# comes: never shown to a player (compared by identity).
TURN_BREAK = Decision("", "turn_break", ())
# A deal's decisions and log lines are named after the zone dealt: `keep_<zone>` asks a player
# which card of its share to keep; `<zone>_dealt` says how many it kept.
KEEP_DECISION = "keep_"
DEALT_LINE = "_dealt"


class CycleHost(Protocol):
    """What the cycle needs of the bout: its setup, state and rules, the limits, the round's count of
    actions, the log, and every mechanism a round uses."""

    setup: BoutSetup
    state: BoutState
    ruleset: Ruleset
    limits: Limits
    round_actions: int
    events: Events
    legality: Legality
    timing: Timing
    resolution: Resolution
    holds: Holds
    interpreter: Interpreter

    def offers_on_demand(self, actor: str) -> bool:
        """Whether `actor`'s command decisions are worked out on demand (`on_demand.py`)."""
        ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...

    def piece_attribute(self, piece: Actor, name: str) -> Any: ...

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...


class TurnPlan:
    """The game's `turn` as a round runs it, read once per bout from the ruleset's `Turn` (which is
    not compiled): its events, closing and length, what it offers, whether it may be passed, its
    declaration and the plans of its opening (the declaration's `effect` blocks)."""

    __slots__ = ("starts", "ends", "over", "closing", "length", "passing", "acts", "commands", "controls",
                 "instants", "declaration", "opening")

    def __init__(self, turn: Turn):
        self.starts: str | None = turn.starts
        self.ends: str | None = turn.ends
        self.over: str | None = turn.over
        self.closing: str | None = turn.closing
        self.length: int | None = turn.length
        self.passing: bool = bool(turn.passing)
        acts = turn.acts
        self.acts: tuple[str, ...] = acts
        self.commands = "command" in acts
        self.controls = "control" in acts
        self.instants = "ability" in acts or "card" in acts
        self.declaration: A.Declaration | None = turn.declaration
        declaration = turn.declaration
        # `turn.opening` (its `effect` clauses), as resolution keeps a declaration's clauses: the
        # turn's property asks the interpreted syntax tree at every turn.
        self.opening: tuple[BlockPlan, ...] = (
            tuple(block_plan(effect.body) for effect in body_clauses(declaration)[0]) if declaration is not None else ())


def _turn_plan(ruleset: Ruleset) -> TurnPlan:
    """The turn's plan, worked out once per ruleset."""
    return ruleset.derived("turn_plan", lambda: TurnPlan(ruleset.turn))


def _commands(ruleset: Ruleset) -> dict[str, A.Declaration]:
    """Each command's declaration by its id, read once per ruleset (`declared` walks the ruleset's tables)."""
    def work_out() -> dict[str, A.Declaration]:
        items = ruleset.scripts.get("command", {})
        return {ident: items[ident].declaration for ident in items}
    return ruleset.derived("command_declarations", work_out)


class Cycle:
    """The game loop of a bout."""

    # Kept at hand (`wire`), read natively rather than through the host Protocol on every turn.
    events: Events
    legality: Legality
    timing: Timing
    resolution: Resolution
    holds: Holds
    interpreter: Interpreter

    def __init__(self, host: CycleHost):
        self.host = host
        self.state: BoutState = host.state  # handed anew by the bout whenever it replaces its state
        self.taking_turns = False  # the game's round is running its turns (`take_turns`)
        ruleset = host.ruleset
        self.turn: TurnPlan = _turn_plan(ruleset)
        self.commands: dict[str, A.Declaration] = _commands(ruleset)
        self.max_actions: int = host.limits.max_actions_per_round

    def wire(self) -> None:
        """Keep the mechanisms a round goes through at hand (`Bout._wire`: the interpreter is built last)."""
        host = self.host
        self.events = host.events
        self.legality = host.legality
        self.timing = host.timing
        self.resolution = host.resolution
        self.holds = host.holds
        self.interpreter = host.interpreter

    # ---------------------------------------------------------------- the cycle
    def play(self) -> Game:
        """The whole game, from its setup to its end, as one generator of decisions: the procedure
        the `game` declaration names as its `setup`, once, then its `round` again and again."""
        yield from self._run_game_procedure(self.host.ruleset.game.setup)
        yield from self.settle()
        if self.host.setup.phase == "command":
            active = self.state.active
            assert active is not None
            labels = [actor.label for actor in self.state.actors()]
            index = labels.index(active)
            self.state.order = labels[index:] + labels[:index]
            yield from self._command_round(self.state.actor(active), mid_round=True)
            for label in self.state.order[1:]:
                if self.state.ended:
                    return
                yield from self._command_round(self.state.actor(label))
        while not self.state.ended:
            if self.state.cycle >= self.host.setup.max_cycles:
                yield from self.end_game(Termination.CYCLE_LIMIT.value)
                return
            yield from self._cycle()

    def deal_and_keep(self, zone: str) -> Game:
        """Deal the whole zone evenly; each player keeps as many as the zone's `keep` field of its
        profile says (pg.8), the rest go to the zone's
        discards. Then the cards each setup deals (`dealt`) join the hands."""
        yield from self._deal(zone)
        for spec in self.host.setup.pieces:
            self.state.pieces[spec.label].hand.extend(spec.dealt)

    def _deal(self, zone: str) -> Game:
        deck = self.state.decks.get(zone, [])
        keepers = [h for h in self.state.pieces.values() if not h.hand and self.keep_count(h, zone) > 0]
        if not deck or not keepers or self.host.setup.phase != "cycle":
            return
        players = list(self.state.pieces.values())
        share = len(deck) // len(players)
        hands = {h.label: deck[i * share:(i + 1) * share] for i, h in enumerate(players)}
        self.state.decks[zone] = deck[share * len(players):]
        for piece in players:
            hand = list(hands[piece.label])
            keep = self.keep_count(piece, zone) if piece in keepers else 0  # a hand set by a scenario stays as it is
            for _ in range(min(keep, len(hand))):
                options = tuple(Action.make(CHOICE, piece.label, "keep_card", card=card) for card in hand)
                action = yield Decision(piece.label, KEEP_DECISION + zone, options)
                card = action.arg("card")
                hand.remove(card)
                piece.hand.append(card)
            self.state.discards.setdefault(zone, []).extend(hand)
            self.host.emit_line(zone + DEALT_LINE, {"actor": piece.label, "kept": len(piece.hand)})

    def keep_count(self, piece: Piece, zone: str) -> int:
        """How many cards of a deal of `zone` the piece keeps: its setup's `keep`, else the field
        of its player's profile the zone's `keep` names (none without either). A question, asked
        by the deal and by whoever shows it (the playtest's prompt)."""
        spec = next((s for s in self.host.setup.pieces if s.label == piece.label), None)
        if spec is not None and spec.keep is not None:
            return spec.keep
        declared = self.host.ruleset.words.zones.get(zone)
        field_name = declared.keep if declared is not None else None
        profile = self.host.ruleset.profile_of(piece.profile)
        return int((profile or {}).get(field_name, 0)) if field_name is not None else 0

    def _cycle(self) -> Game:
        """One round of the game loop: the procedure the `game` declaration names as its `round`
        (NEXUS's Command Cycle: initiative, then the Command Rounds in that order)."""
        self.state.cycle += 1
        self.state.active = None
        self.host.round_actions = 0
        yield from self._run_game_procedure(self.host.ruleset.game.round)

    def _run_game_procedure(self, name: str | None, *values: Any) -> Game:
        """Run a procedure the `game` or `turn` declaration names (its setup, its round, its verdict,
        a turn's closing), if any, given `values` for its args."""
        rest = self._game_procedure(name, values)
        if rest is not None:
            yield from rest

    def _game_procedure(self, name: str | None, values: tuple[Any, ...]) -> Game | None:
        """`_run_game_procedure`, as far as the procedure goes without waiting (`Interpreter.run_procedure`):
        None once it ran to its end (or there is none), else the rest to run."""
        procedure = declared(self.host.ruleset, "procedure", name) if name is not None else None
        return self.interpreter.run_procedure(procedure, values) if procedure is not None else None

    def take_turns(self, pieces: list[Actor], alternating: bool = False) -> Game:
        """Each piece (or player, in a game without pieces) of the list takes its turn in that
        order, the order of play from then on: its turn whole, or, `alternating` (`alternate_turns`,
        or the `turn_length: one_action` rule param), one action at a time with the turns taking
        turns. Turns are the game's round's to run, never a turn's own."""
        if self.taking_turns:
            raise self.host.runtime_error("not_allowed", "`take_turns` and `alternate_turns` run the turns of the "
                                                         "game's round; a turn under way cannot start others")
        self.state.order = [piece.label for piece in pieces]
        yield from self.settle()
        self.taking_turns = True
        try:
            if alternating or self.host.ruleset.settings.get("turn_length") == "one_action":
                yield from self._rounds_taking_turns(pieces)
                return
            for piece in pieces:
                if self.state.ended:
                    return
                yield from self._command_round(piece)
        finally:
            self.taking_turns = False

    def _rounds_taking_turns(self, pieces: list[Actor]) -> Game:
        """The cycle's Command Rounds played one action at a time (`turn_length: one_action`):
        every round starts in turn order (its start-of-round events and allocation), then the
        pieces still in their rounds take turns, one command, ability, card or control each, until
        every round has ended. Each round is its own generator, paused where it would offer its
        next action (`TURN_BREAK`), so what it offers is worked out when its turn comes."""
        rounds = [(piece, self._command_round(piece, taking_turns=True)) for piece in pieces]
        live = []
        for piece, round_ in rounds:
            if self.state.ended:
                return
            if (yield from self._until_turn_break(round_)):
                live.append((piece, round_))
        while live and not self.state.ended:
            for entry in list(live):
                if self.state.ended:
                    return
                self.state.active = entry[0].label
                if not (yield from self._until_turn_break(entry[1])):
                    live.remove(entry)

    @staticmethod
    def _until_turn_break(round_: Game) -> Generator[Any, Any, bool]:
        """Run a round on, passing every decision it asks up to the players, until it pauses for the
        next turn (True) or ends (False)."""
        try:
            asked = next(round_)
            while asked is not TURN_BREAK:
                asked = round_.send((yield asked))
            return True
        except StopIteration:
            return False

    # ---------------------------------------------------------------- rounds
    def settle(self) -> Game:
        """What waits until a command, ability, card or event has wholly resolved: holds whose
        pieces were separated break (ruling 85)."""
        return self.holds.settle_holds()

    def _command_round(self, piece: Actor, mid_round: bool = False, taking_turns: bool = False) -> Game:
        """A piece's turn, shaped by the game's `turn` declaration: its start event and opening, then
        its actions until the player ends it (where `passing` lets it), its `length` is reached or the
        piece is out, then its end."""
        # No plan is held in this frame (a suspended bout's frames are read as state: `fingerprint.py`).
        host = self.host
        self.state.active = piece.label
        host.round_actions = 0
        if not mid_round:
            if piece.status != Status.FIGHTING:
                return
            host.emit_line("round_start", {"actor": piece.label})
            if self.turn.starts is not None:
                yield from self.events.fire_with(self.turn.starts, {"self": piece})
            yield from self.settle()
            if piece.status == Status.FIGHTING:
                yield from self._open(piece)
        while piece.status == Status.FIGHTING and not self.state.ended:
            if taking_turns:
                yield TURN_BREAK  # the other rounds take their turns; this one goes on when its turn comes
                self.state.active = piece.label
                if piece.status != Status.FIGHTING or self.state.ended:
                    break
            yield from self.settle()
            if piece.status != Status.FIGHTING:
                break
            actions = host.round_actions
            if actions >= self.max_actions:
                host.emit_line("round_limit", {"actor": piece.label, "actions": actions})
                break
            if self.turn.length is not None and actions >= self.turn.length:
                break
            decision = self._turn_decision(piece)
            if decision is None:  # a turn the player may not end, with nothing left to do, is over
                break
            action = yield decision
            if action is OPTIONS_FAULTED:
                self._fault_of_whole_list(piece, decision)
            if action.kind == END_ROUND:
                break
            host.round_actions += 1
            if action.kind in (ABILITY, CARD):
                yield from self.timing.use_ability(action, None)
            else:
                declaration = self.commands.get(action.name or "")
                assert declaration is not None
                if action.kind == CONTROL:
                    yield from self.resolution.run_control(piece, declaration, action)
                else:
                    yield from self.resolution.run_command(piece, declaration, action)
        yield from self.settle()
        yield from self._end_round(piece)

    def _turn_decision(self, piece: Actor) -> Decision | None:
        """The decision the turn offers its player now (None: nothing to offer), as its `acts` says:
        commands, controls (the commands offered as controls: the base game's Command tokens),
        abilities and cards, then ending the turn where `passing` lets it. In a bout that offers
        options on demand (`on_demand.py`) the commands are worked out as they are asked for."""
        turn = self.turn
        if not (turn.commands and self.host.offers_on_demand(piece.label)):
            options = self._turn_options(piece, True)
            return Decision(piece.label, "command", options) if options else None
        # The options that are no command, then, when there are none, whether any command is legal.
        on_demand = CommandOptions(self.legality, piece, self.interpreter.steps)
        try:
            on_demand.rest = self._turn_options(piece, False)
            if not on_demand.rest and not on_demand.any_command():
                return None
        except (ScriptRuntimeError, OptionsFaulted):
            # A fault: the whole list worked out in its order meets the fault it always met first.
            self.interpreter.steps = on_demand.start
            options = self._turn_options(piece, True)
            return Decision(piece.label, "command", options) if options else None
        return Decision(piece.label, "command", None, on_demand)

    def _fault_of_whole_list(self, piece: Actor, decision: Decision) -> None:
        """A question of `decision` asked on demand faulted (`on_demand.py`): its whole list worked out
        again, in its order, from the steps spent when it was first worked out, meets the fault it
        always met first, here, where it always met it (the commands come first: the rest did not
        fault)."""
        on_demand = decision.on_demand
        assert isinstance(on_demand, CommandOptions)
        self.interpreter.steps = on_demand.start
        self.legality.legal_commands(piece)
        raise AssertionError("a question asked on demand faulted that the whole list does not meet")

    def _turn_options(self, piece: Actor, commands: bool) -> tuple[Action, ...]:
        """What the turn offers its player now, as its `acts` says, the commands left out unless
        `commands` (`_turn_decision`)."""
        turn = self.turn
        options: list[Action] = []
        if turn.commands and commands:
            options += self.legality.legal_commands(piece)
        if turn.controls:
            options += self.legality.legal_controls(piece)
        if turn.instants:
            acts = turn.acts
            options += [o for o in self.timing.instant_options(piece) if o.kind in acts]
        if turn.passing:
            options.append(Action.make(END_ROUND, piece.label))
        return tuple(options)

    def _open(self, piece: Actor) -> Game:
        """The turn's opening: its declaration's `effect`, with `self` the piece whose turn it is."""
        declaration = self.turn.declaration
        if declaration is None:
            return
        scope = self.legality.declaration_env(declaration)
        interpreter = self.interpreter
        for index in range(len(self.turn.opening)):
            # No one's doing on the board: what the opening deals it deals as the rules' own.
            rest = interpreter.run_plan(self.turn.opening[index], Env.owning({"self": piece}, scope))
            if rest is not None:
                yield from rest

    # ---------------------------------------------------------------- the end of a round and of the bout
    def _end_round(self, actor: Actor) -> Game:
        if self.state.ended:  # a script decided the bout during the round: nothing follows
            return
        piece = actor if isinstance(actor, Piece) else None
        self.host.emit_line("round_end", {"actor": actor.label, "unspent_ap": piece.ap if piece else 0,
                                          "unspent_mp": piece.mp if piece else 0})
        if self.turn.ends is not None:
            yield from self.events.fire_with(self.turn.ends, {"self": actor})
        yield from self.settle()
        if self.state.ended:
            return
        if self.turn.closing is not None:  # the turn's closing, given who took it (the base game's clears its points)
            rest = self._game_procedure(self.turn.closing, (actor,))
            if rest is not None:
                yield from rest
        for other in self.state.pieces.values():
            other.bonus_ap.clear()  # AP granted against a piece lasts for the round it was given in
        # Whether the game is over now is content's to say (`end_game`), as its rules listen here.
        if self.turn.over is not None:
            yield from self.events.fire_with(self.turn.over, {"self": actor})
        if self.state.ended:
            return
        yield Decision(actor.label, "between_rounds", (Action.make(NEXT_ROUND, actor.label),))

    def decide(self, winner: str | None) -> None:
        """A script decided the game (`win` a side, `declare_draw`): it ends with that verdict,
        unless it has already ended. Whatever is resolving finishes; no round, cycle or decision
        follows. Decided by the game's verdict, the game ends as it came to its end."""
        if not self.state.ended:
            self._conclude(self.state.ending or Termination.DECIDED.value, winner)

    def score(self, piece: Actor) -> int:
        """A piece's (or, in a game without pieces, a player's) part of its side's score: the number
        the `game` declaration's `score` names (0 without one, or for a value that is not a number)."""
        name = self.host.ruleset.game.score
        try:
            value = self.host.piece_attribute(piece, name) if name is not None else 0
        except AttributeError:  # a score a piece has that a player does not
            value = 0
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def scores(self) -> dict[str, int]:
        """Each piece's (or player's) score, by label, in the order they are listed: the totals an
        outcome records."""
        return {actor.label: self.score(actor) for actor in self.state.actors()}

    def _conclude(self, termination: str, winner: str | None) -> None:
        """The bout ends: its outcome (the winning side, or None for a draw) recorded and logged."""
        totals = self.scores()
        self.state.ended = True
        piles = dict(self.state.piles)  # each shared pile by its name, as the game declares it
        self.state.outcome = Outcome(termination, winner, totals, piles)
        self.host.emit_line("bout_end", {"termination": termination, "winner": winner or "draw", "totals": totals,
                                         **piles})

    def end_game(self, termination: str) -> Game:
        """The game has come to its end (`termination` names how, for the log): the procedure its
        `game` declaration names as the verdict decides who wins (`win`, `declare_draw`); a game
        without one, or a verdict that decides nothing, ends in a draw. A verdict a script has
        already given (`win`, `draw`) stands, and a game ends once: an `end_game` while the verdict
        is given changes nothing. Whatever is resolving finishes; no round, cycle or decision
        follows."""
        if self.state.ended or self.state.ending is not None:
            return
        self.state.ending = termination
        yield from self._run_game_procedure(self.host.ruleset.game.verdict)
        if not self.state.ended:
            self._conclude(termination, None)
