"""The fixed vocabulary of the rule-script language: every name a script may use, with its type.

The checker reads these tables to resolve names and check types; the engine implements exactly
these primitives, functions, events and windows (a test keeps the two in step). Adding a word to
the language means adding it here and implementing it in the engine — never a grammar change.

Types are plain strings: `number`, `bool`, `text`, `piece`, `location`, `square`, `squares`,
`direction`, `state`, `trait`, `resource`, `pile`, `counter`, `object_type`, `roll_side`, `purpose`,
`outcome`, `list`, `any`. A `piece` is accepted where a `pile` (its player's first pile, as the game
declares its piles) or a `square` (where it stands) is expected.

Where a number argument only makes sense within a range (a die has at least 2 sides, a radius is
not negative), its signature says so (`Signature.ranges`): one definition both layers hold values
to, the checker a number it can work out while reading, the interpreter every value in play. An
amount moved "up to" a number (damage, coins) is a range that clamps (`NumberRange.clamp`): below
its low end it means the low end, moving nothing, in both layers alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .limits import MAX_NUMBER

# ---------------------------------------------------------------- enumerations (canonical ids)
# The words every game has. A game's own enumerations are declared by its content: its states
# (`state`), the stats of a piece (`stat`, each in a `group` that names a type, such as the base
# game's traits and body locations), its coin piles (`pile`), its events (`event`) and timing
# windows (`window`); the checker reads them from the loaded packs (check/context.py).
RESOURCES = ("AP", "MP")
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
RELATIVE = ("forward", "forward_right", "right", "backward_right", "backward", "backward_left", "left", "forward_left")
ROLL_SIDES = ("attack", "defense", "check")
PURPOSES = ("attack", "defense", "location", "check", "trait_die", "ratio_die", "tiebreak", "compass",
            "grid_col", "grid_row", "d8", "crate", "weapon_card", "first_player")
SEATS = ("north", "south", "east", "west")
# What becomes of a card drawn from a zone (its `drawn` property): played at once, or kept in hand.
DRAWN = ("played", "kept")
# How long a piece's turn lasts within a cycle (the `turn_length` rule param): its whole Command
# Round (it acts until it ends the round), or one action, the rounds of the cycle taking turns.
TURN_LENGTHS = ("whole_round", "one_action")

# Every enumeration member is a global name of the enumeration's type.
ENUM_TYPES: dict[str, tuple[str, ...]] = {
    "resource": RESOURCES,
    "direction": COMPASS + RELATIVE,
    "roll_side": ROLL_SIDES,
    "seat": SEATS,
    "turn_length": TURN_LENGTHS,
}

# The stat groups the engine's primitives name: `damage ... at <location>` and `add_trait`, trait
# costs and the initiative's trait die. Their members are the stats content declares in them; every
# other declared stat is a word of the `stat` type, which `add_stat` and `set_stat` change.
STAT_GROUPS = ("location", "trait")

# Cost resources: command points and condition; and what content declares: the stats of the `trait`
# group (trait reserves) and the piles each player holds (`owner player`), paid where the game's
# `default_for payment` pile says (the reserve without one).
COST_RESOURCES = RESOURCES + ("overall",)

# Attributes readable on a piece value (`target.overall`, `self.<trait>`, `target.<location>`).
# What a player is read for (`p.side`), besides the stats each player holds.
PLAYER_ATTRIBUTES: dict[str, str] = {"label": "text", "side": "text", "seat": "text", "fighting": "bool"}

PIECE_ATTRIBUTES: dict[str, str] = {
    "overall": "number",
    "ap": "number",
    "mp": "number",
    "facing": "direction",
    "square": "square",
    "weapon": "any",
    "fighting": "bool",
    "label": "text",
    "side": "text",
    "ratio": "number",
    "weapon_type": "any",
    "weapon_damage": "number",
    "weapon_optimal": "number",
    "weapon_block": "number",
    "weapon_draw": "number",  # AP to draw the held weapon (its `draw` property), 0 without one
    "weapon_store": "number",  # AP to store it (its `store` property)
    "ammo": "number",
    "durability": "number",
    "gained": "number",  # the coins its player's piles took from damage it dealt during the current command
    "on_board": "bool",
}  # and every stat content declares, as a number (`self.<trait>`, `target.<location>`), every counter,
# as the list of the numbers marked on it (`self.<counter>`), every pile each player holds, as the
# coins in its player's (`self.<pile>`), and the piece's role by the game's word for it
# (`self.<role word>`, `game { roles ... }`), as the id of its role or none.

# A hold (`hold`, `release`): the piece a piece holds and the piece holding it, or none. A game
# may name them its own way (a state's `holding` and `held_by`), and scripts then read its names.
HOLD_ATTRIBUTES: dict[str, str] = {"holding": "any", "held_by": "any"}
# Names the log already gives a line's fields, who acts among them (`piece` or `player` unless the
# game names them): a broken hold's line names its holder by the hold's `held_by` name, so no name
# of a hold may be one of them.
LOG_FIELDS = ("seq", "cycle", "round", "type", "actor", "piece", "player", "reason", "dice")
# The fields of the log's last line (`bout_end`) besides the coins each shared pile holds, by its id.
BOUT_END_FIELDS = ("termination", "winner", "totals")

# Argument types a command, ability or card can take from the player.
ARG_TYPES = ("location", "direction", "piece", "trait", "square", "number", "resource")

# Attributes readable on a command value (`command.tags`, bound in rules' requirements and events).
COMMAND_ATTRIBUTES: dict[str, str] = {"id": "text", "group": "text", "tags": "list"}


@dataclass(frozen=True)
class NumberRange:
    """The values a number may take where it stands, and what it is there (for messages)."""

    low: int
    high: int
    what: str  # e.g. "a die's number of sides"
    # True for an amount moved "up to" a number: a value below `low` means `low` (nothing moves),
    # so the checker accepts it and the engine takes it as `low`; False: it is refused by both.
    clamp: bool = False

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.low <= value <= self.high

    def accepts(self, value: int) -> bool:
        """Whether `value` may stand here: within the range, or below it where the range clamps."""
        return value <= self.high and (value >= self.low or self.clamp)

    def refusal(self, value: int) -> str:
        """What is wrong with a value this range does not accept (the same words in both layers)."""
        return f"{self.what} must be {self.describe()}, not {value:,}"

    def describe(self) -> str:
        """`at least 2`, `at most 6` or `1 to 6`."""
        if self.high >= MAX_NUMBER:
            return f"at least {self.low}"
        if self.low <= -MAX_NUMBER:
            return f"at most {self.high}"
        return f"{self.low} to {self.high}"


def at_least(low: int, what: str) -> NumberRange:
    return NumberRange(low, MAX_NUMBER, what)


def up_to(what: str) -> NumberRange:
    """An amount moved up to a number: 0 or more, a value below 0 moving nothing."""
    return NumberRange(0, MAX_NUMBER, what, clamp=True)


D6_TARGET = NumberRange(1, 6, "a target on a d6")


@dataclass(frozen=True)
class Signature:
    """Positional argument types, then preposition arguments (name -> type), which are required."""

    positional: tuple[str, ...] = ()
    preps: dict[str, str] = field(default_factory=dict)
    required_preps: tuple[str, ...] = ()
    optional_positional: int = 0  # how many trailing positionals may be left out
    doc: str = ""
    # The range of a number argument, by its position (0, 1...) or its preposition (`by`).
    ranges: dict[int | str, NumberRange] = field(default_factory=dict)
    # A function that rolls dice: never part of a question (a `cost` or a `requires`), which must
    # leave the bout as it found it; the checker refuses it there and the engine stops it.
    rolls: bool = False
    # Script text using it (a statement for an effect, an expression for a function), shown by the
    # editor's help; a test checks every example against a small pack of its own.
    example: str = ""


@dataclass(frozen=True)
class Note:
    """What a word of a table without signatures means, and script text using it (the editor's help)."""

    doc: str = ""
    example: str = ""


# ---------------------------------------------------------------- rule params the engine reads
# The rule params (global settings) the engine itself reads, by the kind of value each must hold:
# `count` a whole number written out, 0 to MAX_NUMBER; `flag` true or false; `locations` a list
# of body locations (`location_table` the same, with at least one: a die is rolled over it). The checker refuses any other value where the rule declares the param,
# so a Ruleset that loaded holds only values the engine can use.
SETTING_KINDS: dict[str, str] = {
    "count": f"a whole number from 0 to {MAX_NUMBER:,}, written out",
    "flag": "`true` or `false`",
    "locations": "a list of body locations (the stats of the group `location`)",
    "location_table": "a list of at least one body location (the stats of the group `location`)",
    "seat_groups": "a list of sides, each a list of seats, no seat twice, e.g. `[[north, south], [east, west]]`",
    "turn_length": "`whole_round` or `one_action`",
}
ENGINE_SETTINGS: dict[str, str] = {
    "trait_cap": "count", "scale_cap": "count", "overall_condition": "count",
    "fatal_locations": "locations", "random_location_table": "location_table",
    # Pieces on the seats of one group are one side (friends: they win together and never target
    # each other); a piece on a seat of no group is a side of its own.
    "sides": "seat_groups", "turn_length": "turn_length",
}  # and each rule param a stat's or a pile's `start` names, a count


# ---------------------------------------------------------------- primitives (effects)
PRIMITIVES: dict[str, Signature] = {
    "damage": Signature(
        ("piece",), {"by": "number", "at": "location", "to": "pile"}, ("by",),
        ranges={"by": up_to("an amount of damage")},
        doc="Deal damage: `at` a location also hits overall condition unless that location was already "
            "depleted. Coins go `to` a pile; by default to the acting piece's player's pile the game "
            "names for damage, else its shared pile for damage (`default_for damage`), else back to the reserve.",
        example="damage target by 2 at arm"),
    "heal": Signature(("piece",), {"by": "number", "at": "location", "from": "pile"}, ("by", "from"),
                      doc="Move coins from a pile back onto a piece's overall (or a location's) condition.",
                      ranges={"by": up_to("a number of coins")}, example="heal self by 1 from pot"),
    "transfer": Signature(("number",), {"from": "pile", "to": "pile"}, ("from", "to"),
                          doc="Move up to N coins between piles (as many as the source holds).",
                          ranges={0: up_to("a number of coins")}, example="transfer 2 from target to self"),
    "add_state": Signature(("piece", "state"), doc="Give a piece a state.", example="add_state target stunned"),
    "remove_state": Signature(("piece", "state"), doc="Take a state from a piece.", example="remove_state self stunned"),
    "move": Signature(("piece", "direction"), doc="Move a piece one square, keeping its facing.", example="move self forward"),
    "rotate": Signature(("piece", "direction"), doc="Turn a piece 90 degrees `left` or `right`.", example="rotate self left"),
    "face": Signature(("piece", "direction"), doc="Set a piece's facing to a compass direction.", example="face self N"),
    "relocate": Signature(("piece",), {"to": "square"}, ("to",), doc="Put a piece on a square.", example="relocate self to random_square()"),
    "place": Signature(("object_type",), {"at": "square"}, ("at",), doc="Place a board object.", example="place rock at square_of(self)"),
    "remove": Signature(("object_type",), {"at": "square"}, ("at",), doc="Remove a board object.", example="remove rock at square_of(target)"),
    "grant": Signature(("number", "resource"), {"to": "piece", "against": "piece"},
                       doc="Add AP or MP to a piece's reserve; `against` a piece: only for commands aimed at it.",
                       ranges={0: at_least(0, "a number of points granted")}, example="grant 1 AP to self against target"),
    "forfeit": Signature(("resource",), {"from": "piece"}, doc="Empty a piece's AP or MP reserve.", example="forfeit MP from self"),
    "set_points": Signature(("piece", "number", "resource"),
                            doc="Set a piece's AP or MP outright, as a split of its points does (no line of its "
                                "own: record what split them).",
                            ranges={1: at_least(0, "a number of points")}, example="set_points self 3 AP"),
    "slide_roll": Signature(("roll_side",), {"by": "number"}, ("by",),
                            doc="Slide the current attack or defense roll up (or, negative, down) its dice scale: "
                                "each level a die more in the pool, its best two kept (its worst two below 0), "
                                "never past the `scale_cap` rule param.", example="slide_roll attack by 1"),
    "fix_roll": Signature(("roll_side",), {"to": "number"}, ("to",),
                          doc="The current attack or defense is not rolled: its total is this number.", example="fix_roll defense to 7"),
    "add_damage": Signature(("number",), doc="Add a damage bonus (or, negative, a penalty) to the current attack.", example="add_damage 1"),
    "mark": Signature(("piece", "text"), {"with": "any"},
                      doc="Set a named marker on a piece (cleared by `unmark`), optionally holding a value.", example='mark target "aimed" with 2'),
    "unmark": Signature(("piece", "text"), doc="Clear a named marker on a piece.", example='unmark self "aimed"'),
    "log": Signature(("text",), doc="Write a line to the bout log.", example='log "the bell rings"'),
    "perform": Signature(("command",), doc="Resolve another command's roll and effects (no cost, no requirements) "
                                            "against the current target, e.g. each standard attack of a combo.", example="perform command"),
    "choose": Signature(("piece",), {"from": "list", "into": "name"}, ("from", "into"),
                        doc="Ask a piece's player to pick one of the options; the pick is bound to the `into` name.", example="choose self from opponents(self) into victim"),
    "equip": Signature(("piece",), {"with": "text"}, ("with",),
                       doc="Put a weapon in a piece's hands, drawn (Armed); any weapon it held is lost.", example='equip self with "club"'),
    "discard_weapon": Signature(("piece",), doc="The piece's weapon is dropped and gone for good.", example="discard_weapon target"),
    "holster": Signature(("piece",), doc="The piece stores its weapon: it keeps it but is no longer Armed.", example="holster self"),
    "unholster": Signature(("piece",), doc="The piece draws its stored weapon: it is Armed again.", example="unholster self"),
    "spend_ammo": Signature(("piece",), doc="One ammo is used; a weapon out of ammo is gone.", example="spend_ammo self"),
    "wear_weapon": Signature(("piece",), doc="One durability is lost; a weapon with none left breaks and is gone.", example="wear_weapon self"),
    "hold": Signature(("piece",), {"by": "piece"}, ("by",),
                      doc="The piece is held by another piece (in the state the game's hold names, if any).", example="hold target by self"),
    "release": Signature(("piece",), doc="The piece is no longer held (nor in the hold's state), and its holder holds no one.", example="release target"),
    "signal": Signature(("event",), doc="Raise an event for the acting piece (e.g. `signal round_over`): "
                                        "`self` is the acting piece, and every other name the event binds is the "
                                        "value of that name where the signal is given, or none.", example="signal round_starts"),
    "mark_counter": Signature(("piece", "counter", "number"),
                              doc="Mark a number on a piece's counter with a coin from the pile the game names for "
                                  "a mark (`default_for mark`; from the reserve when it is empty or there is none); "
                                  "a number already marked is left alone.", example="mark_counter self tally 3"),
    "collect_counter": Signature(("piece", "counter"), {"to": "pile"}, ("to",),
                                 doc="Move the coins of a piece's counter to a pile: its numbers are marked no more.", example="collect_counter self tally to pot"),
    "draw": Signature(("zone",), {"for": "piece"}, doc="Draw the top card of a zone: as the zone's `drawn` says, played "
                                                      "at once for the piece (then discarded) or kept in its hand.", example="draw deck for self"),
    "offer_negation": Signature(("piece",), doc="Offer a piece's player to pay the current card's cost to escape it "
                                                "(marks the piece `negated` when paid).", example="offer_negation target"),
    "prevent": Signature((), doc="Cancel what the current window is about (a move, a card, what the script that opened it says).", example="prevent"),
    "reroll": Signature(("roll_side",), doc="Roll the current attack or defense again (Perseverance).", example="reroll attack"),
    "ignore_overall": Signature((), doc="The damage about to be dealt spares overall condition.", example="ignore_overall"),
    "roll_check": Signature(("piece",), {"by": "number", "into": "name"}, ("by", "into"),
                            doc="The piece rolls a d6 check (purpose `check`), re-rollable in `after_check`; "
                                "binds the `into` name to true on `by` or more.",
                            ranges={"by": D6_TARGET}, example="roll_check self by 4 into passed"),
    "reduce_damage": Signature((), {"by": "number"}, ("by",),
                               doc="While `damage_incoming` is heard: the hit about to land is this much smaller.",
                               ranges={"by": up_to("an amount of damage")}, example="reduce_damage by 1"),
    "add_trait": Signature(("piece", "trait"), {"by": "number"}, ("by",), doc="Raise or lower a trait reserve (0..cap).", example="add_trait self MIGHT by 1"),
    "add_stat": Signature(("actor", "stat"), {"by": "number"}, ("by",),
                          doc="Raise (or, negative, lower) a piece's stat, or a player's (a stat each "
                              "player holds), kept within its `low` and `high`.", example="add_stat self morale by -1"),
    "set_trait": Signature(("piece", "trait"), {"to": "number"}, ("to",),
                           doc="Set a trait reserve outright (0..cap) with no line of its own, as a roll sets it: "
                               "the line of what set it says so.", example="set_trait self MIGHT to 2"),
    "set_ratio": Signature(("piece",), {"to": "number"}, ("to",),
                           doc="Set the ratio a piece's points are split by (`self.ratio`) with no line of its own, "
                               "as a roll sets it: the line of what rolled it says so.", example="set_ratio self to die(ratio_die)"),
    "set_stat": Signature(("actor", "stat"), {"to": "number"}, ("to",),
                          doc="Set a piece's stat, or a player's (a stat each player holds), kept within "
                              "its `low` and `high`.", example="set_stat self morale to 0"),
    "take_off_board": Signature(("piece",), doc="Remove a fallen piece's figure from the board.", example="take_off_board target"),
    "win": Signature(("side",), doc="A side wins (named, or by a piece on it: `win self`): the game ends at once "
                                    "with that verdict (the rest of the action resolves, nothing after it).", example="win self"),
    "declare_draw": Signature((), doc="The game ends at once as a draw (the rest of the action resolves, nothing "
                                      "after it).", example="declare_draw"),
    "deal_and_keep": Signature(("zone",), doc="The whole zone dealt evenly among the players; each keeps as many "
                                              "cards of its share as the field of its player's profile the zone's "
                                              "`keep` names (or its setup) allows, choosing them one by one, and "
                                              "the rest go to the zone's discards; then the cards a scenario deals "
                                              "join the hands.", example="deal_and_keep deck"),
    "ask": Signature(("actor", "text"), {"from": "list", "into": "name", "with": "bool"}, ("from", "into"),
                     doc="Put a decision of that name to a player: one of the options (made by `option`) is bound to "
                         "the `into` name; `with true` also offers what the player may use at any time, and asks "
                         "again after a use.", example='ask self "stance" from [option("pass"), option("brace")] into stance'),
    "take_turns": Signature(("list",), doc="Each piece (or player, in a game without pieces) of the list, in its "
                                           "order (the order of play from then on), takes its turn: the game's "
                                           "`turn`, whole or one action at a time as the `turn_length` rule param "
                                           "says. Only the game's round runs turns.", example="take_turns in_play()"),
    "alternate_turns": Signature(("list",), doc="As `take_turns`, the turns taking turns: each of the list, in "
                                                "its order, starts its turn (its start and opening), then those "
                                                "still in their turns act one action at a time in that order until "
                                                "every turn has ended.", example="alternate_turns in_play()"),
    "set_order": Signature(("list",), doc="Set the order of play (what `order_of_play()` reads) to a list of "
                                          "pieces, or players in a game without pieces, each once: e.g. in a "
                                          "game's setup, who plays first.", example="set_order reverse(pieces())"),
    "record": Signature(("event",), {"for": "actor", "with": "any"},
                        doc="Write a line of a declared event's type to the log (nothing listens): each name the "
                            "event declares is the value of that name here (`self`, who acts: `for`, else the acting "
                            "piece), a piece by its label, a square as [col, row]; `with` an option (`ask`'s "
                            "answer), its values follow.", example="record round_starts for self"),
    "open_window": Signature(("window",), {"into": "name"},
                             doc="Open a declared timing window for the acting piece: every piece, the acting one "
                                 "first, clockwise, is offered the abilities and cards usable in it; each name the "
                                 "window binds is the value of that name here, or none. `into` binds whether a use "
                                 "`prevent`ed what the window was about (true or false).", example="open_window any_time into stopped"),
    "move_card": Signature(("text",), {"from": "zone", "to": "zone", "at": "number"}, ("from", "to"),
                           doc="Move a card (its id) from one zone to another (or within one), to the place `at` "
                               "names counted from the top once it has left (1, the top, without `at`; one past "
                               "the last card, the bottom); logged as `card_moved`.",
                           ranges={"at": at_least(1, "a place in a zone, 1 the top")}, example="move_card first(cards(deck)) from deck to deck at 3"),
    "end_game": Signature(("text",), doc="The game comes to its end, named for the log (a word, e.g. "
                                         "`end_game \"deck_exhausted\"`): the `game`'s verdict decides who wins "
                                         "(the rest of the action resolves, nothing after it).", example='end_game "deck_exhausted"'),
    "move_condition": Signature(("piece",), {"by": "number", "to": "location"}, ("by", "to"),
                                doc="Move coins from a piece's overall condition onto one of its body locations, "
                                    "never above the location's starting condition and never the last overall "
                                    "coin.",
                                ranges={"by": up_to("a number of coins")}, example="move_condition self by 1 to arm"),
    "destroy": Signature(("object_type",), {"at": "square"}, ("at",),
                         doc="Remove a board object as destroyed by the acting piece (or by none) and raise "
                             "`object_destroyed` with `self`, `object` and `at` (also bound as `square`: `at` is a keyword, "
                             "so scripts read `square`); nothing happens if it is not there.", example="destroy rock at square_of(target)"),
}

# ---------------------------------------------------------------- functions (expressions)
FUNCTIONS: dict[str, Signature] = {
    "front_center": Signature(("piece",), doc="The square directly in front of a piece (a set of 0 or 1).", example="target in front_center(self)"),
    "front_arc": Signature(("piece",), doc="The three adjoining forward squares of a piece.", example="target in front_arc(self)"),
    "behind": Signature(("piece",), doc="The square directly behind a piece.", example="target in behind(self)"),
    "adjacent": Signature(("piece",), doc="The eight squares around a piece.", example="count(adjacent(self))"),
    "step": Signature(("piece", "direction"), doc="The square one step away in a direction (empty at the wall).", example="free(step(self, forward))"),
    "can_enter": Signature(("piece", "direction"), doc="Whether the piece could step in that direction.", example="can_enter(self, left)"),
    "random_location": Signature((), doc="Roll a body location on the game's table, the rule param `random_location_table` (without it, a face per declared location; purpose `location`).", rolls=True, example="random_location()"),
    "die": Signature(("purpose", "number"), optional_positional=1, doc="Roll one named die (default d6).",
                     ranges={1: at_least(2, "a die's number of sides")}, rolls=True, example="die(d8, 8)"),
    "opponents": Signature(("piece",), doc="Every piece of another side still in the bout (each piece is a side of its "
                                           "own unless the `sides` rule param groups seats), from the triggering "
                                           "player clockwise (pg.15).", example="first(opponents(self))"),
    "friends": Signature(("piece",), doc="Every other piece of the piece's side still in the bout, from the "
                                         "triggering player clockwise.", example="count(friends(self))"),
    "pieces": Signature((), doc="Every piece in the bout, from the triggering player clockwise (pg.15).", example="count(pieces())"),
    "distance": Signature(("piece", "piece"), doc="Squares between two pieces (king's moves).", example="distance(self, target) <= 2"),
    "has_mark": Signature(("piece", "text"), doc="Whether a piece carries a named marker.", example='has_mark(self, "aimed")'),
    "objects_at": Signature(("any",), doc="The object types on a square (or a piece's), or on any square of an area "
                                             "(`objects_at(front_arc(self))`; none for an empty area).", example="rock in objects_at(square_of(self))"),
    "check": Signature(("number",), doc="Roll a d6 (purpose `check`): true on this number or more. No window "
                                        "opens; use the `roll_check` effect where Perseverance may re-roll it.",
                       ranges={0: D6_TARGET}, rolls=True, example="check(4)"),
    "compass": Signature((), doc="Roll the compass die: a direction.", rolls=True, example="compass()"),
    "random_square": Signature((), doc="A Randomly Placed Object's square: orange d8 column, green d8 row.",
                               rolls=True, example="random_square()"),
    "square_at": Signature(("any", "direction"), doc="The square one step from a square (empty at the wall); "
                                                     "from a one-square area such as `step(...)` too (empty from an empty area).", example="square_at(square_of(self), N)"),
    "piece_on": Signature(("any",), doc="The piece standing on a square (or a one-square area such as `step(...)`), or none.", example="piece_on(step(self, forward))"),
    "squares_of": Signature(("object_type",), doc="Every square holding that object, west column first, "
                                                   "south to north in each column.", example="count(squares_of(rock))"),
    "area": Signature(("square", "number"), doc="The squares within a radius of a square.",
                      ranges={1: at_least(0, "a radius")}, example="target in area(square_of(self), 2)"),
    "area_of": Signature(("object_type", "number"), doc="The squares within a radius of any such object.",
                         ranges={1: at_least(0, "a radius")}, example="self in area_of(rock, 1)"),
    "in_sight": Signature(("piece", "piece"), doc="Line of sight: within 45 degrees of the facing, no cover between.", example="in_sight(self, target)"),
    "forward_distance": Signature(("piece", "piece"), doc="Squares to the target counted forward only.", example="forward_distance(self, target)"),
    "pieces_clockwise": Signature(("piece",), doc="Every piece still on the board, starting with this one, clockwise.", example="pieces_clockwise(self)"),
    "mark_value": Signature(("piece", "text"), doc="The value a marker holds, or none.", example='mark_value(self, "aimed")'),
    "opposite": Signature(("direction",), doc="The opposite compass direction.", example="opposite(self.facing)"),
    "blocks": Signature(("object_type",), doc="Whether an object type renders its square inaccessible.", example="blocks(rock)"),
    "destructible": Signature(("object_type",), doc="Whether an object type can be destroyed.", example="destructible(rock)"),
    "free": Signature(("any",), doc="Whether a piece could stand there: on the board, nothing blocking, no piece "
                                    "(a square, or a one-square area such as `square_at(...)`; false for any other area).", example="free(step(self, forward))"),
    "square_of": Signature(("piece",), doc="The square a piece stands on.", example="square_of(target)"),
    "beyond": Signature(("piece", "piece"), doc="The square one step past the second piece on the line from the "
                                                "first through it (a set of 0 or 1: empty at the wall, or when "
                                                "the two do not share a row, column or diagonal).", example="free(beyond(self, target))"),
    "has_flag": Signature(("object_type", "text"), doc="Whether an object type's data sets that flag "
                                                       "(objects.yaml, e.g. `against_wall`).", example='has_flag(rock, "against_wall")'),
    "objects_with": Signature(("any", "text"), doc="The object types on a square (or a piece's, or any square of an "
                                                   "area) whose data sets that flag (`objects_with(step(self, forward), "
                                                   "\"no_hurdle\")`).", example='objects_with(step(self, forward), "no_hurdle")'),
    "active": Signature((), doc="The piece whose Command Round is under way, or none.", example="active() == self"),
    "trait_reserve": Signature(("piece", "trait"), doc="A piece's reserve of a trait named by a value "
                                                       "(`self.<trait>` when the trait is known in advance).", example="trait_reserve(self, MIGHT)"),
    "location_condition": Signature(("piece", "location"), doc="The condition of a piece's body location named "
                                                               "by a value (`self.<location>` when the location is "
                                                               "known in advance).", example="location_condition(target, arm)"),
    "pick": Signature(("bool", "any", "any"), doc="The second value when the condition holds, else the third "
                                                  "(e.g. `pick(direction == forward, 1, 2)`).", example="pick(self.ap > 2, 2, 1)"),
    "heading": Signature(("piece", "direction"), doc="The compass direction that a direction relative to the piece's "
                                                     "facing points to (a compass direction is returned as it is).", example="heading(self, left)"),
    "next_in_initiative": Signature(("piece",), doc="The next piece still fighting after this one in the current "
                                                    "initiative order (wrapping round to the first), or none.", example="next_in_initiative(self)"),
    "squares_toward": Signature(("any", "direction", "number"),
                                doc="Up to N squares in a straight line from a square (not included) in a compass "
                                    "direction, nearest first; fewer when the wall comes first (a Floor Saw's path).",
                                ranges={2: up_to("a number of squares")}, example="squares_toward(square_of(self), N, 3)"),
    "random_weapon": Signature(("text",), doc="A weapon card of that type (`two_handed`, `shield`...) drawn at random "
                                              "(purpose `weapon_card`) from those no piece holds, in load order; "
                                              "none when every such card is held.", rolls=True, example='random_weapon("shield")'),
    "coins": Signature(("pile",), doc="How many coins a pile holds (a piece: its player's first pile; the reserve, "
                                      "never running out, counts 0).", example="coins(pot)"),
    "weapons_left": Signature(("text",), doc="The weapon cards of that type no piece holds, in load order (a "
                                             "question: `requires count(weapons_left(\"ranged\")) > 0`).", example='count(weapons_left("ranged")) > 0'),
    "wounded_locations": Signature(("piece",), doc="The piece's body locations below their starting condition.", example="count(wounded_locations(target))"),
    "indestructible_at": Signature(("any",), doc="Whether a square (or a one-square area) holds an object that "
                                                 "cannot be destroyed; true beyond the board (the wall).", example="indestructible_at(step(self, forward))"),
    "min": Signature(("number", "number"), example="min(margin, 3)"),
    "max": Signature(("number", "number"), example="max(margin - 1, 0)"),
    "abs": Signature(("number",), example="abs(margin)"),
    "count": Signature(("any",), doc="How many members a list (or a set of squares) holds.", example="count(opponents(self))"),
    "stat_value": Signature(("actor", "stat"), doc="A piece's or a player's stat named by a value (`self.vigour` "
                                                   "when the stat is known in advance).", example="stat_value(self, morale)"),
    "stat_level": Signature(("actor", "stat"), doc="The name of the level a piece's or player's stat stands at (its `levels`, "
                                                   "from `low` up), or none beyond them.", example="stat_level(self, morale)"),
    # Lists (a set of squares reads west column first, north to south in each column).
    "first": Signature(("list",), doc="The first member of a list, or none when it is empty.", example="first(in_play())"),
    "last": Signature(("list",), doc="The last member of a list, or none when it is empty.", example="last(in_play())"),
    "take": Signature(("list", "number"), doc="The first N members of a list (all of them when it holds fewer).",
                      ranges={1: at_least(0, "a number of members")}, example="take(in_play(), 2)"),
    "drop": Signature(("list", "number"), doc="A list without its first N members.",
                      ranges={1: at_least(0, "a number of members")}, example="drop(in_play(), 1)"),
    "reverse": Signature(("list",), doc="A list in the opposite order.", example="reverse(order_of_play())"),
    "sum": Signature(("list",), doc="The sum of a list of numbers (0 for an empty list).", example="sum([1, 2, 3])"),
    "product": Signature(("list",), doc="The product of a list of numbers (1 for an empty list): "
                                        "`product(card_values(parade, \"multiplier\"))`.", example="product([2, 3])"),
    "card_value": Signature(("text", "text"), doc="A card's field (`card_value(c, \"number\")`): the number, word or "
                                                  "text its `card` declaration gives it, or none without one.", example='card_value(first(cards(deck)), "number")'),
    "card_values": Signature(("list", "text"), doc="The field of each card of a list that has it, in the list's "
                                                   "order: `sum(card_values(cards(score_pile), \"stars\"))`.", example='sum(card_values(cards(deck), "stars"))'),
    "players_of": Signature(("side",), doc="The players of a side (named, or by a player or a piece on it), in seat "
                                          "order.", example="players_of(self)"),
    "highest": Signature(("list",), doc="The highest of a list of numbers, or none when it is empty.", example="highest([margin, 1])"),
    "lowest": Signature(("list",), doc="The lowest of a list of numbers, or none when it is empty.", example="lowest([margin, 1])"),
    "position": Signature(("list", "any"), doc="Where a value stands in a list, counting from 1; 0 when it is not there.", example="position(order_of_play(), self)"),
    "join": Signature(("list", "text"), doc="The members of a list (text, numbers, pieces by label) as one text, "
                                            "with the second argument between each two.", example='join(sides(), ", ")'),
    # The cards of a zone, top first, and its discards, in the order they were discarded.
    "cards": Signature(("zone",), doc="The cards a zone holds (their ids), top card first. A zone each player "
                                      "has one of is the acting player's, or the one `zone_of` names.", example="count(cards(deck))"),
    "zone_of": Signature(("zone", "any"), doc="One player's or side's zone of a kind each has one of (`owner "
                                              "player` or `owner side`): `zone_of(hand, p)`, the owner a player, "
                                              "a piece (its player), or a label or side by name.", example="cards(zone_of(deck, self))"),
    "discards": Signature(("zone",), doc="The cards a zone has discarded (their ids), in the order they were "
                                         "discarded.", example="count(discards(deck))"),
    # The sides and how they stand: what a game's verdict is written in.
    "sides": Signature((), doc="Every side in the game, by name, in the order of its first piece (each piece is a "
                               "side of its own unless the `sides` rule param groups seats).", example="count(sides())"),
    "score_of": Signature(("side",), doc="A side's score (named, or by a piece on it): its pieces' together of the "
                                         "number the `game` declaration's `score` names (0 without one).", example="score_of(self)"),
    "leading_sides": Signature((), doc="The sides with the highest score, in the order of `sides()` (more than one "
                                       "when they tie).", example="leading_sides()"),
    "in_play": Signature((), doc="The pieces still in play (fighting), in the order they are listed.", example="count(in_play()) > 1"),
    "order_of_play": Signature((), doc="The pieces (or players, in a game without pieces) in the order of play "
                                       "(the last `set_order` or `take_turns`), whether still in "
                                       "play or not.", example="first(order_of_play())"),
    "players": Signature((), doc="The players, in the order they are seated (as the setup lists them).", example="count(players())"),
    "option": Signature(("text", "text", "any", "text", "any"), optional_positional=4,
                        doc="An option of a decision put with `ask`: its name, then up to two names each followed by "
                            "its value (`option(\"allocate\", \"ratio_to\", \"ap\")`); an option named `pass` is a pass.", example='option("allocate", "ratio_to", "ap")'),
    "option_name": Signature(("any",), doc="The name of an option (the answer `ask` binds).", example='option_name(option("pass")) == "pass"'),
    "option_with": Signature(("any", "text", "any"),
                             doc="The option with its value of that name given (in its place if it has one, else "
                                 "last): an option is a record too, built up with `set` and logged by `record` as "
                                 "its values by name.", example='option_with(option("allocate"), "ratio_to", "mp")'),
    "append": Signature(("list", "any"), doc="A list with a value added at its end.", example="append(in_play(), self)"),
    "rank": Signature(("list", "purpose"),
                      doc="Rank a list of entries, each a list of its member then its keys (numbers): the members "
                          "by their keys compared in turn, highest first, the list's order kept among equals; those "
                          "still tied each roll a pair of d6 for the purpose, the higher pair first, and those tied "
                          "again roll again.", rolls=True, example="rank([[self, 1], [target, 2]], tiebreak)"),
    "sides_alternating": Signature(("list",), doc="A list of pieces (or players) with the sides taking turns: the first "
                                                  "of the first member's side, then the first of the next side to "
                                                  "appear, and so on round the sides while any is left.", example="sides_alternating(in_play())"),
    "group_stats": Signature(("text",), doc="The stats of a group (`group trait`), in the order they are declared: "
                                            "a die with a face per stat reads it.", example='group_stats("trait")'),
    "option_value": Signature(("any", "text"), doc="An option's value of that name, or none.", example='option_value(option("allocate", "ratio_to", "ap"), "ratio_to")'),
    "clockwise_from": Signature(("actor",), doc="Who acts round the table clockwise (north, east, south, west seen "
                                                "from above), starting with this one: the pieces, or in a game "
                                                "without pieces, the players.", example="clockwise_from(self)"),
    "sides_in_play": Signature((), doc="The sides with a piece still in play, in the order of `sides()`.", example="count(sides_in_play())"),
    "ending": Signature((), doc="How the game came to its end, while its verdict is given: the termination the log "
                                "records (such as `\"cycle_limit\"`), or none while the game goes on.", example="ending()"),
    "dice_pool": Signature(("purpose", "number", "number"),
                           doc="Roll N d6 for a purpose and count the successes: the dice showing the target or more.",
                           ranges={1: at_least(0, "a number of dice"), 2: D6_TARGET}, rolls=True, example="dice_pool(check, 3, 5)"),
}

FUNCTION_RESULTS: dict[str, str] = {
    "front_center": "squares", "front_arc": "squares", "behind": "squares", "adjacent": "squares",
    "step": "squares", "can_enter": "bool", "random_location": "location", "die": "number",
    "opponents": "list", "friends": "list", "pieces": "list", "distance": "number", "has_mark": "bool",
    "objects_at": "list", "check": "bool", "compass": "direction", "random_square": "square",
    "square_at": "squares", "piece_on": "any", "squares_of": "list", "area": "squares", "area_of": "squares",
    "in_sight": "bool", "forward_distance": "number", "pieces_clockwise": "list", "mark_value": "any",
    "opposite": "direction", "blocks": "bool", "destructible": "bool", "free": "bool", "square_of": "square",
    "beyond": "squares", "has_flag": "bool", "objects_with": "list", "active": "any", "trait_reserve": "number",
    "location_condition": "number",
    "min": "number", "max": "number", "abs": "number", "count": "number",
    "pick": "any", "heading": "direction",
    "next_in_initiative": "any", "squares_toward": "list", "wounded_locations": "list",
    "indestructible_at": "bool", "random_weapon": "any", "weapons_left": "list", "coins": "number",
    "stat_value": "number", "stat_level": "any",
    "first": "any", "last": "any", "take": "list", "product": "number", "card_value": "any",
    "card_values": "list", "players_of": "list", "drop": "list", "reverse": "list", "sum": "number",
    "highest": "any", "lowest": "any", "position": "number", "join": "text", "dice_pool": "number",
    "sides": "list", "score_of": "number", "leading_sides": "list", "ending": "any", "in_play": "list",
    "sides_in_play": "list", "order_of_play": "list", "players": "list", "clockwise_from": "list", "option": "any", "option_name": "text", "option_value": "any",
    "option_with": "any", "append": "list", "rank": "list", "sides_alternating": "list", "group_stats": "list", "cards": "list", "discards": "list",
    "zone_of": "zone",
}


# ---------------------------------------------------------------- events and windows
# The events and timing windows are declared by content (`event`, `window`), with the names each
# binds; the roles a `window ... by` clause may name are the language's own.
WINDOW_ROLES = ("self", "opponent", "any")

# Names bound while a command's roll is resolved (in `on success` / `on failure`).
ROLL_NAMES: dict[str, str] = {
    "margin": "number",
    "attack_total": "number",
    "defense_total": "number",
    "damage_bonus": "number",
    "roll_total": "number",
}

ROLL_KINDS = ("attack", "check")
OUTCOMES = ("success", "failure")

# ---------------------------------------------------------------- properties per declaration kind
# property name -> (value type, how many values: "one" or "many")
PROPERTIES: dict[str, dict[str, tuple[str, str]]] = {
    # `group` is the section of the game's menu a command is offered in: one of the game's `groups`
    # (any word in a game that declares none).
    # `offered control`: the command is offered among a turn's controls (`acts control`), at any
    # time in the turn, and is no command given: no `command` line, no `command_used`, no rule's
    # requirement (the base game's Command token).
    "command": {
        "group": ("text", "one"), "tags": ("text", "many"), "targets": ("text", "one"),
        "flavor": ("text", "one"), "text": ("text", "one"), "rulebook": ("text", "one"),
        "offered": ("text", "one"),
    },
    "trait_ability": {"tags": ("text", "many"), "flavor": ("text", "one"), "text": ("text", "one"),
                      "targets": ("text", "one")},
    "hazard": {"activation": ("text", "many"), "object": ("text", "many"), "flavor": ("text", "one"),
               "text": ("text", "one"), "tags": ("text", "many")},
    "drawn_card": {"flavor": ("text", "one"), "text": ("text", "one"), "tags": ("text", "many")},
    "hand_card": {"flavor": ("text", "one"), "text": ("text", "one"), "tags": ("text", "many"),
                  "targets": ("text", "one")},
    "weapon": {"type": ("text", "one"), "damage": ("number", "one"), "durability": ("number", "one"),
               "ammo": ("number", "one"), "optimal": ("number", "one"), "draw": ("number", "one"),
               "block": ("number", "one"),
               "store": ("number", "one"), "flavor": ("text", "one"), "text": ("text", "one"),
               "tags": ("text", "many")},
    "rule": {"flavor": ("text", "one"), "text": ("text", "one"), "tags": ("text", "many"),
             "rulebook": ("text", "one")},
    # `badge` (one or two characters) and `colour` (`#rrggbb`) mark a piece in the state on the board.
    # `holding` and `held_by` (each a word) make the state the one a piece held is in (`hold` gives
    # it, `release` takes it), and are the game's names of a piece's `holding` and `held_by`.
    # `implied_by` (end states) says a piece in one of them is in this state too.
    "state": {"flavor": ("text", "one"), "text": ("text", "one"), "tags": ("text", "many"),
              "rulebook": ("text", "one"), "badge": ("text", "one"), "colour": ("text", "one"),
              "holding": ("attribute", "one"), "held_by": ("attribute", "one"), "implied_by": ("text", "many")},
    # `group` (a `name`: any word) makes the stat a word of the type of that name; `start` (an
    # `amount`: a whole number written out, or the name of the rule param holding it) is its value
    # when a piece enters play, 0 without one.
    # `low` and `high` (amounts) bound a stat outside the engine's groups (`stat` type: changed by
    # `add_stat`, `set_stat`); `levels` names its values from `low` up (`stat_level`).
    # `owner player`: each player holds the stat, rather than each piece.
    # `logged false`: a change of the stat is not a line of the log of its own (the line of what
    # changed it says so); `profile` names the field of the player's profile (the data item its
    # setup names for the player) the stat starts at when the profile has it.
    "stat": {"group": ("name", "one"), "owner": ("text", "one"), "start": ("amount", "one"), "low": ("amount", "one"),
             "logged": ("flag", "one"), "profile": ("text", "one"),
             "high": ("amount", "one"), "levels": ("text", "many"), "flavor": ("text", "one"),
             "text": ("text", "one"), "tags": ("text", "many"), "rulebook": ("text", "one")},
    # `numbered true` makes the pile a counter: one each piece holds, a coin on each number marked
    # (`mark_counter`, `collect_counter`), read on a piece as the list of its numbers; `reason` is what
    # the log says a coin marked on it is for, before the number (the counter's id without one).
    # `owner player`: each player holds one (read on a piece or a player by its id, paid as a cost).
    # `reserve true`: the pile coins come out of and go back to, never running out (one a game).
    # `start` (an amount) is how many coins it holds at the start, from the reserve: each player's,
    # for one each player holds; `per player`, that many for each player, in a shared pile.
    # `default_for` (`damage`, `payment`, `mark`) makes it where coins go (or, for a counter's mark,
    # come from) when a script names no pile.
    "pile": {"numbered": ("flag", "one"), "reason": ("text", "one"), "owner": ("text", "one"),
             "reserve": ("flag", "one"), "start": ("amount", "one"), "per": ("text", "one"),
             "default_for": ("text", "many"), "flavor": ("text", "one"),
             "text": ("text", "one"), "tags": ("text", "many"), "rulebook": ("text", "one")},
    "event": {"text": ("text", "one"), "tags": ("text", "many"), "rulebook": ("text", "one")},
    "procedure": {"flavor": ("text", "one"), "text": ("text", "one"), "tags": ("text", "many"),
                  "rulebook": ("text", "one")},
    "window": {"text": ("text", "one"), "tags": ("text", "many"), "rulebook": ("text", "one")},
    # `holds` names the kind of declaration whose cards fill the zone; `drawn` what becomes of one drawn.
    # `owner` (`player` or `side`) gives each player or side a zone of its own; `visible` (`all`,
    # `owner`, `none`) says who may see its cards: the others see only how many it holds. `keep`
    # names the field of a player's profile saying how many cards of the deal it keeps.
    "zone": {"holds": ("text", "one"), "drawn": ("text", "one"), "owner": ("text", "one"), "keep": ("text", "one"),
             "visible": ("text", "one"), "flavor": ("text", "one"), "text": ("text", "one"),
             "tags": ("text", "many"), "rulebook": ("text", "one")},
    # `setup` (a `procedure` of no args) runs once before the first round; `round` (another) is
    # what the game loop runs again and again; `turn` names the `turn` its pieces take; `score` (a
    # `score`: a number every piece has, an attribute or a stat) is what a side's standing is counted
    # in; `verdict` (a `procedure` of no args) decides who wins when the game ends undecided.
    # `pieces` (a number, 0 for a game of players alone, such as a card game) is how many pieces
    # each player controls; without it, as many as the setup places.
    # `players` lists how many players it is played by (`players 2` or `players 2, 3, 4`).
    # `piece_word` and `player_word` are the game's own names of a piece and a player: scripts may
    # write them as types (`arg target: <piece_word>`), and the log names who acts by them.
    # `activations` lists the ways its hazards come into play (a hazard's `activation` is among them).
    # `groups` (words) are the groups its commands may be in, the sections of its menu.
    # `profiles` and `roles` name the kinds of YAML data a setup names a player's profile and a
    # piece's role from; the name of an item of `roles` is the game's role word.
    # `layouts` names the YAML data kind holding its board layouts (a setup's `layout` is one of
    # them: the objects placed, the hazards in play); `layout_word` is the game's name of one, the
    # purpose of the die that picks one at random among more than eight, and the word its messages use.
    # `board_size` (a number) is how many squares each side of its square board has (8 without it).
    "game": {"profiles": ("text", "one"), "roles": ("text", "one"), "activations": ("text", "many"), "layouts": ("text", "one"), "layout_word": ("text", "one"),
             "board_size": ("number", "one"), "pieces": ("number", "one"), "players": ("number", "many"), "piece_word": ("text", "one"), "player_word": ("text", "one"),
             "groups": ("text", "many"), "setup": ("procedure", "one"), "round": ("procedure", "one"), "turn": ("turn", "one"), "score": ("score", "one"), "verdict": ("procedure", "one"),
             "flavor": ("text", "one"),
             "text": ("text", "one"), "tags": ("text", "many"), "rulebook": ("text", "one")},
    # `starts`, `ends` and `over` (declared events, raised with `self`) mark a turn's start, its end
    # and the moment it is over; `closing` (a procedure of one arg) runs between the two, given
    # who took the turn (the base game's clears the points left); `length` (a number) ends it
    # after that many actions; `passing` (true or false) says whether the player may end it.
    # A card of a game's own: its fields (`number 7`, `stars 2`, `kind ship`) are the pack's to name,
    # each one number, word or text, read by `card_value`; these are the fields every card may have.
    "card": {"flavor": ("text", "one"), "text": ("text", "one"), "tags": ("text", "many"),
             "rulebook": ("text", "one"), "assumed": ("text", "one")},
    # A kind of declaration content names (`kind <id> "<name>" { like <built-in kind> }`): `like`
    # is the built-in kind whose clauses, properties, schema and behaviour its declarations take
    # (one of LIKE_KINDS); its name is what a card of the kind is titled.
    "kind": {"like": ("text", "one"), "flavor": ("text", "one"), "text": ("text", "one"),
             "tags": ("text", "many"), "rulebook": ("text", "one")},
    "turn": {"starts": ("event", "one"), "ends": ("event", "one"), "over": ("event", "one"),
             "closing": ("turn_procedure", "one"),
             "length": ("number", "one"), "passing": ("flag", "one"), "acts": ("text", "many"),
             "flavor": ("text", "one"),
             "text": ("text", "one"), "tags": ("text", "many"), "rulebook": ("text", "one")},
}

# The kinds that may name the role they belong to, by a property named by the game's role word
# (`game { roles ... }`): a trait ability of that role's pieces, a rule listening for each of them.
ROLE_KINDS = ("trait_ability", "rule")

# The kinds whose `when` clauses listen once for the whole bout, held by no piece: every other
# kind's listen for each piece holding it (`self`).
BOUT_LISTENERS = ("hazard", "rule", "state")

# Which clause types each declaration kind may hold.
CLAUSES: dict[str, tuple[str, ...]] = {
    "command": ("property", "arg", "cost", "requires", "roll", "on", "effect", "param"),
    "trait_ability": ("property", "arg", "cost", "requires", "window", "roll", "on", "effect", "param", "when"),
    "hazard": ("property", "param", "when", "arg", "requires", "effect"),
    # No `arg`: a card played when it is drawn asks no one for an argument.
    "drawn_card": ("property", "param", "requires", "effect", "when", "cost"),
    "hand_card": ("property", "arg", "cost", "requires", "window", "effect", "when", "param", "roll", "on"),
    "weapon": ("property", "param", "when", "requires"),
    "rule": ("property", "param", "when", "requires"),
    # A state is declared by content (the base game's seven in content/base/states.nexus); the rules
    # that make it matter may live in its own `when` clauses or in rules that name it.
    "state": ("property", "param", "when"),
    # The words of a game: a stat of its pieces, a coin pile, an event (its `arg`s are the names it
    # binds for the `when` clauses that listen to it) and a timing window (the names it binds for the
    # `requires` and `effect` of what is used in it).
    "stat": ("property",),
    "pile": ("property",),
    "event": ("property", "arg"),
    "window": ("property", "arg"),
    # An ordered pile of cards, shuffled at the start, drawn from the top: a deck.
    "zone": ("property",),
    # A procedure is an effect content declares: its `arg`s are the values a script passes it
    # (`strike attacker defender 3`), in order; its `effect` runs with them and its params only.
    # A procedure may run other procedures but never, even through others, itself.
    "procedure": ("property", "param", "arg", "effect"),
    # How the game is played as a whole: at most one per Ruleset, overridden by id.
    "game": ("property",),
    # A piece's turn: its `effect` is its opening, run with `self` after its start event.
    "turn": ("property", "effect"),
    # A card of a game's own, filling a zone that `holds card`: its fields, nothing it runs.
    "card": ("property",),
    # A kind of declaration content names after a built-in one: its `like`, its words.
    "kind": ("property",),
}

# The built-in kinds a declared kind may be like: the cards whose use the engine reads from the
# zones holding them (GameWords.hand_kinds, played_kinds), so a kind of any name behaves as they do.
LIKE_KINDS = ("hand_card", "drawn_card")

# The types a name an event or a window binds may have (`arg attacker: piece`), besides the types
# content declares (a stat group such as `location`, `state`, `pile`).
BOUND_TYPES = ("number", "bool", "text", "piece", "player", "actor", "square", "squares", "direction", "resource", "roll_side",
               "object_type", "command", "list", "any")

# The numbers a property holds: the engine reads each as a number written out (`damage 2`), so the
# checker wants a plain number within its range there.
PROPERTY_RANGES: dict[str, NumberRange] = {
    "damage": at_least(0, "a weapon's damage"),
    "durability": at_least(0, "a weapon's durability"),
    "ammo": at_least(0, "a weapon's ammo"),
    "optimal": at_least(0, "a weapon's optimal range"),
    "draw": at_least(0, "the AP to draw a weapon"),
    "block": at_least(0, "a shield's block"),
    "store": at_least(0, "the AP to store a weapon"),
    "length": at_least(1, "a turn's length in actions"),
    "pieces": at_least(0, "the pieces each player controls"),
    "players": NumberRange(1, 8, "the number of players a game is played by"),
    "board_size": NumberRange(1, 26, "the squares along each side of a game's board"),
}

# Symbolic values a property accepts (checked by the checker; open where packs may add their own).
# The end states the engine sets itself (by damage): a piece in one is in no other unless a state
# says it is implied by it (`implied_by`).
END_STATES = ("incapacitated", "dead")

PROPERTY_VALUES: dict[str, tuple[str, ...]] = {
    "targets": ("opponent",),
    "type": ("melee", "two_handed", "one_handed", "shield", "shiv", "net", "bola", "ranged", "thrown"),
    "drawn": DRAWN,
    "owner": ("player", "side"),
    "per": ("player",),
    "default_for": ("damage", "payment", "mark"),
    "acts": ("command", "control", "ability", "card"),
    "offered": ("command", "control"),
    "visible": ("all", "owner", "none"),
    "implied_by": END_STATES,
}

# Quoted text a property must match, with how to write it (a state's board badge and its colour).
PROPERTY_PATTERNS: dict[str, tuple[str, str]] = {
    "badge": (r"[^\s\x00-\x1f]{1,2}", "one or two visible characters, e.g. `badge \"P\"`"),
    "colour": (r"#[0-9a-fA-F]{6}", "a colour as `#rrggbb`, e.g. `colour \"#5d4037\"`"),
}

#: The largest amount a cost may name (a literal is held to it by the JSON Schema too).
MAX_COST = 12
COST_RANGE = NumberRange(0, MAX_COST, "a cost")


# ---------------------------------------------------------------- help on properties and attributes
# What each property means and a clause using it (the editor's hover and language reference).
PROPERTY_NOTES: dict[str, Note] = {
    "activation": Note("How a hazard comes into play: one of the game's `activations`.", "activation random"),
    "activations": Note("The ways the game's hazards come into play.", "activations random, placed"),
    "acts": Note("What a piece may do in its turn: give commands, use controls, abilities, cards.",
                 "acts command, control, ability, card"),
    "ammo": Note("How many shots a weapon holds; it is gone when they are spent.", "ammo 3"),
    "assumed": Note("What a card takes for granted, said in words for the designer.", 'assumed "played face up"'),
    "badge": Note("The one or two characters marking a piece in the state on the board.", 'badge "S"'),
    "block": Note("How much damage a shield stops.", "block 1"),
    "board_size": Note("How many squares each side of the game's square board has (8 without it).", "board_size 8"),
    "closing": Note("The procedure run between a turn's end and the moment it is over, given who took it.",
                    "closing points_never_carry_over"),
    "colour": Note("The colour marking a piece in the state on the board, as `#rrggbb`.", 'colour "#5d4037"'),
    "damage": Note("The damage a weapon adds to a hit.", "damage 2"),
    "default_for": Note("Makes a pile where coins go (or come from) when a script names no pile.", "default_for damage"),
    "draw": Note("The AP it costs to draw the weapon.", "draw 1"),
    "drawn": Note("What becomes of a card drawn from the zone: played at once, or kept in hand.", "drawn kept"),
    "durability": Note("How many uses a weapon takes before it breaks.", "durability 4"),
    "ends": Note("The event raised when a turn ends.", "ends round_ends"),
    "flavor": Note("Words for the card's mood, printed in italics; no rule reads them.", 'flavor "Steel sings."'),
    "group": Note("A command's section of the menu; a stat's group, which makes it a word of that type.", "group trait"),
    "groups": Note("The sections of the game's menu its commands are offered in.", "groups melee, movement"),
    "held_by": Note("The game's name of the piece holding a piece in this state.", "held_by holder"),
    "high": Note("The highest value a stat may take (a number or a rule param).", "high 5"),
    "holding": Note("The game's name of the piece a piece in this state holds.", "holding held"),
    "holds": Note("The kind of declaration whose cards fill the zone.", "holds card"),
    "implied_by": Note("End states a piece is in this state in as well.", "implied_by dead"),
    "keep": Note("The field of a player's profile saying how many cards of the deal it keeps.", 'keep "hand_size"'),
    "layout_word": Note("The game's word for one of its board layouts.", 'layout_word "arena"'),
    "layouts": Note("The YAML data kind holding the game's board layouts.", 'layouts "arenas"'),
    "length": Note("A turn ends after this many actions.", "length 1"),
    "levels": Note("The names of a stat's values, from `low` up.", "levels calm, eager, wild"),
    "like": Note("The built-in kind a declared kind takes its clauses and behaviour from.", "like hand_card"),
    "logged": Note("`false`: a change of the stat is no line of the log of its own.", "logged false"),
    "low": Note("The lowest value a stat may take (a number or a rule param).", "low 0"),
    "numbered": Note("`true` makes the pile a counter each piece holds, a coin on each number marked.", "numbered true"),
    "object": Note("The board objects a hazard concerns.", "object rock"),
    "offered": Note("`control`: offered among a turn's controls, not given as a command.", "offered control"),
    "optimal": Note("The range a weapon hits best at.", "optimal 3"),
    "over": Note("The event raised when a turn is over.", "over round_over"),
    "owner": Note("`player`: each player holds one (a stat, a pile, a zone); `side`: each side.", "owner player"),
    "passing": Note("Whether the player may end the turn.", "passing true"),
    "per": Note("`player`: a shared pile's `start` is that many coins for each player.", "per player"),
    "piece_word": Note("The game's own name of a piece: scripts may write it as a type.", 'piece_word "fighter"'),
    "pieces": Note("How many pieces each player controls (0 for a game of players alone).", "pieces 1"),
    "player_word": Note("The game's own name of a player.", 'player_word "captain"'),
    "players": Note("How many players the game is played by.", "players 2, 3, 4"),
    "profile": Note("The field of the player's profile the stat starts at.", 'profile "nerve"'),
    "profiles": Note("The YAML data kind a setup names a player's profile from.", 'profiles "captains"'),
    "reason": Note("What the log says a coin marked on a counter is for.", 'reason "round"'),
    "reserve": Note("`true`: the pile coins come out of and go back to, never running out.", "reserve true"),
    "roles": Note("The YAML data kind a setup names a piece's role from.", 'roles "classes"'),
    "round": Note("The procedure the game loop runs again and again.", "round play_round"),
    "rulebook": Note("Where the rule is written in the rulebook, for the designer.", 'rulebook "pg.12"'),
    "score": Note("What a side's standing is counted in: a number every piece has.", "score overall"),
    "setup": Note("The procedure run once before the first round.", "setup setting_up"),
    "start": Note("Its value when a piece enters play (a stat), or the coins it starts with (a pile).", "start 3"),
    "starts": Note("The event raised when a turn starts.", "starts round_starts"),
    "store": Note("The AP it costs to store the weapon.", "store 1"),
    "tags": Note("Words rules and requirements read (`\"wild\" in command.tags`).", "tags attack, wild"),
    "targets": Note("`opponent`: the player picks a piece of another side, bound as `target`.", "targets opponent"),
    "text": Note("The rules text printed on the card.", 'text "Deal 2 damage to a piece next to you."'),
    "turn": Note("The `turn` its pieces take.", "turn command_round"),
    "type": Note("What kind of weapon it is.", "type one_handed"),
    "verdict": Note("The procedure deciding who wins when the game ends undecided.", "verdict most_points"),
    "visible": Note("Who may see the zone's cards: the others see only how many it holds.", "visible owner"),
}

# What each attribute and name bound by a roll means, and an expression reading it.
ATTRIBUTE_NOTES: dict[str, Note] = {
    "overall": Note("The piece's overall condition.", "target.overall"),
    "ap": Note("Its action points left this round.", "self.ap"),
    "mp": Note("Its movement points left this round.", "self.mp"),
    "facing": Note("The compass direction it faces.", "self.facing"),
    "square": Note("The square it stands on.", "self.square"),
    "weapon": Note("The weapon it holds, or none.", "self.weapon"),
    "fighting": Note("Whether it is still in play.", "target.fighting"),
    "label": Note("Its name in the log.", "self.label"),
    "side": Note("The side it is on.", "self.side"),
    "seat": Note("The seat a player sits at.", "first(players()).seat"),
    "ratio": Note("The ratio its points are split by.", "self.ratio"),
    "weapon_type": Note("Its weapon's type, or none.", "self.weapon_type"),
    "weapon_damage": Note("Its weapon's damage, 0 without one.", "self.weapon_damage"),
    "weapon_optimal": Note("Its weapon's optimal range, 0 without one.", "self.weapon_optimal"),
    "weapon_block": Note("Its shield's block, 0 without one.", "self.weapon_block"),
    "weapon_draw": Note("The AP to draw its weapon, 0 without one.", "self.weapon_draw"),
    "weapon_store": Note("The AP to store its weapon, 0 without one.", "self.weapon_store"),
    "ammo": Note("The shots its weapon has left.", "self.ammo"),
    "durability": Note("The uses its weapon has left.", "self.durability"),
    "gained": Note("The coins its player's piles took from damage it dealt in the current command.", "self.gained"),
    "on_board": Note("Whether its figure is on the board.", "target.on_board"),
    "holding": Note("The piece it holds, or none.", "self.holding"),
    "held_by": Note("The piece holding it, or none.", "self.held_by"),
    "id": Note("The id of the command given.", "command.id"),
    "group": Note("The section of the menu the command is offered in.", "command.group"),
    "tags": Note("The command's tags.", '"wild" in command.tags'),
    "margin": Note("By how much the attack beat the defense.", "margin"),
    "attack_total": Note("The attack roll's total.", "attack_total"),
    "defense_total": Note("The defense roll's total.", "defense_total"),
    "damage_bonus": Note("The bonuses and penalties to the damage of the attack.", "damage_bonus"),
    "roll_total": Note("The total of a check roll.", "roll_total"),
}


# ---------------------------------------------------------------- words designers reach for
# The words a designer writes for an effect or a function the language names otherwise, with the
# words it has for that meaning (and what each is for). An unknown word found here is answered by
# meaning, before any spelling match: `gain` means raising a number, which `grant` does only for
# AP and MP, so naming `grant` alone would mislead.
_RAISE = (("grant", "AP or MP"), ("add_stat", "a stat"), ("add_trait", "a trait reserve"), ("heal", "condition"))
_LOWER = (("damage", "condition"), ("add_stat", "a stat, by a negative amount"), ("forfeit", "AP or MP"),
          ("add_trait", "a trait reserve, by a negative amount"))
_COINS = (("transfer", "coins from one pile to another"),)
_GIVE_STATE = (("add_state", "a state"),)
_TAKE_STATE = (("remove_state", "a state"),)
_GO = (("move", "one square"), ("relocate", "to a square"))
_TURN = (("rotate", "90 degrees left or right"), ("face", "a compass direction"))
_SAY = (("log", "a line of the log"),)
_COUNT = (("count", "the items of a list"),)
_RANDOM = (("die", "a die of a purpose and a number of sides"), ("random_square", "a square"),
           ("random_location", "a body location"))

EFFECT_SYNONYMS: dict[str, tuple[tuple[str, str], ...]] = {
    **{word: _RAISE for word in ("gain", "give", "add", "increase", "raise", "boost", "buff", "earn", "restore")},
    **{word: _LOWER for word in ("lose", "decrease", "subtract", "lower", "hurt", "wound", "hit", "drain", "deal")},
    **{word: _COINS for word in ("pay", "steal", "send", "bet", "coin")},
    **{word: _GIVE_STATE for word in ("apply", "inflict", "afflict", "set_state", "add_status")},
    **{word: _TAKE_STATE for word in ("cure", "clear", "clear_state", "remove_status")},
    **{word: _GO for word in ("walk", "push", "teleport", "jump", "go", "shift")},
    **{word: _TURN for word in ("turn", "spin")},
    **{word: _SAY for word in ("print", "say", "narrate", "message", "announce")},
}

FUNCTION_SYNONYMS: dict[str, tuple[tuple[str, str], ...]] = {
    **{word: _COUNT for word in ("len", "length", "size", "number_of")},
    **{word: _RANDOM for word in ("random", "rand", "randint", "roll", "dice", "d6")},
}

# Words of other programming languages with no meaning here, and what a script writes instead.
FOREIGN_WORDS: dict[str, str] = {
    "while": "there is no `while`: loop with `for each h in <list> { ... }` or `repeat <count> { ... }`",
    "def": "a script defines no functions: a `procedure` declaration holds steps run by name",
    "return": "an effect ends after its last statement: there is no `return`",
    "break": "a loop runs to its end: there is no `break`; test a mark or a `let` inside it instead",
    "continue": "there is no `continue`: put the rest of the loop's body under an `if`",
    "pass": "an empty block is written `{}`: there is no `pass`",
    "import": "a script imports nothing: every declaration of the packs in view can be named",
    "class": "a script declares no classes: a declaration starts with its kind, e.g. `command my_id \"My Name\" { ... }`",
    "print": "write a line to the log with `log \"...\"`",
}

# Literal words of other languages, and this language's own.
FOREIGN_LITERALS: dict[str, str] = {"True": "true", "False": "false", "None": "none", "null": "none", "nil": "none",
                                    "TRUE": "true", "FALSE": "false", "NULL": "none"}


def synonym_hint(words: tuple[tuple[str, str], ...]) -> str:
    """How to say what a synonym means: `grant` (AP or MP), `add_stat` (a stat) ..."""
    named = [f"`{word}` ({what})" for word, what in words]
    return "use " + (named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1])
