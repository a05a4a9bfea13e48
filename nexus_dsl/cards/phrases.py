"""The English of the language's words: how a card face reads each primitive, function and attribute.

Data, not code: each entry is a template the renderer (`english.py`) fills with its arguments
already in words, so a new word of the vocabulary is taught to the faces by one line here (a test
keeps every primitive and function of `vocabulary.py` phrased).

A template's fields: `{0}`, `{1}`... the positional arguments; `{by}`, `{at}`... the preposition
arguments; `{self}` who acts (e.g. "your piece"); `{actor}` the game's word for who acts (its
`piece_word`, or `player_word` in a game without pieces). A field may name a form after a colon:
`pos` its possessive ("the target's"); `a` with an indefinite article ("a Fire"), `the` with the
definite one; `coins` a number of coins ("1 coin", "3 coins"); `more` a signed amount ("4 more",
"2 less"); `change` a signed change ("rises by 2", "falls by 1"); `level` a scale level ("+SDS");
`bare` a text without its quotes (a field's name: "the stars of the card"); `owned` the field's
thing of the owner in field 0 ("your piece's PHYS", "the chosen trait of your piece"); `way` a
direction to go ("north", "in the chosen direction", "toward your piece's facing"). `[...]` is said
only when every field inside it is given; `[...|...]` says the part after the bar when not.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Phrase:
    """How a function reads: `text` as a value; `holds` as a condition (a function of type bool),
    `holds_not` its denial; `member` what `<item> in <it>` says (`{item}` the item, `{it}` the
    value's words); `each` the noun for one of its items (what `for each` over it calls each)."""

    text: str
    holds_not: str = ""
    member: str = ""
    each: str = ""


#: Each effect as a sentence, in the present tense, its subject first.
PRIMITIVE_PHRASES: dict[str, str] = {
    "damage": "{0} takes {by} damage [to {at} and overall condition|to overall condition][, paid to {to}]",
    "heal": "Move {by:coins} from {from} back onto {0:pos} [{at}|overall condition]",
    "transfer": "Move {0:coins} from {from} to {to}",
    "add_state": "{0} becomes {1}",
    "remove_state": "{0} is no longer {1}",
    "move": "{0} moves one square {1:way}",
    "rotate": "{0} turns 90 degrees {1}",
    "face": "{0} turns to face {1}",
    "relocate": "{0} is put on {to}",
    "place": "Place {0:a} on {at}",
    "remove": "Remove {0:the} from {at}",
    "grant": "[{to}|{self}] gains {0} {1}[, only against {against}]",
    "forfeit": "[{from}|{self}] loses every {0} left",
    "set_points": "{0} now has {1} {2}",
    "slide_roll": "{0:the} roll slides {by:level} on its dice scale",
    "fix_roll": "{0:the} roll is not rolled: its total is {to}",
    "add_damage": "The attack does {0:more} damage",
    "mark": "Note {1} on {0}[, holding {with}]",
    "unmark": "Clear the note {1} from {0}",
    "log": "Write {0} to the log",
    "perform": "Resolve {0} as well, with no cost and no requirement",
    "choose": "{0:pos} player picks the {into}: one of {from}",
    "equip": "{0} draws {with}, ready in hand",
    "discard_weapon": "{0} drops its weapon for good",
    "holster": "{0} stores its weapon",
    "unholster": "{0} draws its stored weapon",
    "spend_ammo": "{0} uses one ammo",
    "wear_weapon": "{0:pos} weapon loses one durability",
    "hold": "{0} is held by {by}",
    "release": "{0} is released",
    "signal": "{0} happens",
    "mark_counter": "Mark {2} on {1:owned}",
    "collect_counter": "The coins on {1:owned} go to {to}",
    "draw": "Draw the top card of {0}[ for {for}]",
    "offer_negation": "{0:pos} player may pay this card's cost to escape it",
    "prevent": "What this answers is cancelled",
    "reroll": "{0:the} roll is rolled again",
    "ignore_overall": "The damage about to be dealt spares overall condition",
    "roll_check": "{0} rolls a d6: {into} on {by} or more",
    "reduce_damage": "The hit about to land is {by} smaller",
    "add_trait": "{1:owned} {by:change}",
    "add_stat": "{1:owned} {by:change}",
    "set_trait": "{1:owned} becomes {to}",
    "set_ratio": "{0:pos} ratio becomes {to}",
    "set_stat": "{1:owned} becomes {to}",
    "take_off_board": "{0} is taken off the board",
    "win": "{0} wins the game",
    "declare_draw": "The game ends in a draw",
    "deal_and_keep": "Deal {0} out among the players; each keeps as many as it may",
    "ask": "{0} decides {1}: the {into}, one of {from}",
    "take_turns": "{0} take their turns, one after another",
    "alternate_turns": "{0} take their turns, one action at a time",
    "set_order": "The order of play becomes {0}",
    "record": "Record {0}[ for {for}][ with {with}]",
    "open_window": "Everyone may now act: {0}[, {into} if it is cancelled]",
    "move_card": "Move {0} from {from} to {to}[, at place {at} from the top]",
    "end_game": "The game ends: {0}",
    "move_condition": "Move {by:coins} from {0:pos} overall condition to its {to}",
    "destroy": "Destroy {0:the} on {at}",
}

#: Each function as a value, or as a condition where it is one.
FUNCTION_PHRASES: dict[str, Phrase] = {
    "front_center": Phrase("{0:pos} front-centre square", member="{item} is on {it}"),
    "front_arc": Phrase("{0:pos} three forward squares", member="{item} is on one of {it}"),
    "behind": Phrase("the square behind {0}", member="{item} is on {it}"),
    "adjacent": Phrase("the eight squares around {0}", member="{item} is on one of {it}"),
    "step": Phrase("the square {1:way} from {0}", member="{item} is on {it}"),
    "can_enter": Phrase("{0} can step {1:way}", holds_not="{0} cannot step {1:way}"),
    "random_location": Phrase("a random body location"),
    "die": Phrase("a roll of a [d{1}|d6]"),
    "opponents": Phrase("every opponent of {0}", member="{item} is an opponent of {0}", each="opponent"),
    "friends": Phrase("every friend of {0}", member="{item} is a friend of {0}", each="friend"),
    "pieces": Phrase("every {actor}", each="{actor}"),
    "distance": Phrase("the distance between {0} and {1}"),
    "has_mark": Phrase("{0} bears the note {1}", holds_not="{0} does not bear the note {1}"),
    "objects_at": Phrase("the objects on {0}", member="there is {item:a} on {0}", each="object"),
    "check": Phrase("a d6 roll of {0} or more succeeds", holds_not="a d6 roll of {0} or more fails"),
    "compass": Phrase("a roll of the compass die"),
    "random_square": Phrase("a random square"),
    "square_at": Phrase("the square {1:way} from {0}", member="{item} is the square {1:way} from {0}", each="square"),
    "piece_on": Phrase("the {actor} on {0}"),
    "squares_of": Phrase("every square holding {0:a}", member="there is {0:a} on {item}", each="square"),
    "area": Phrase("the squares within {1} of {0}", member="{item} is within {1} of {0}", each="square"),
    "area_of": Phrase("the squares within {1} of any {0}", member="{item} is within {1} of {0:a}",
                      each="square"),
    "in_sight": Phrase("{1} is in {0:pos} line of sight", holds_not="{1} is out of {0:pos} line of sight"),
    "forward_distance": Phrase("the squares forward from {0} to {1}"),
    "pieces_clockwise": Phrase("every {actor} on the board, clockwise from {0}", each="{actor}"),
    "mark_value": Phrase("what {0:pos} note {1} holds"),
    "opposite": Phrase("the opposite of {0}"),
    "blocks": Phrase("{0} blocks its square", holds_not="{0} does not block its square"),
    "destructible": Phrase("{0} can be destroyed", holds_not="{0} cannot be destroyed"),
    "free": Phrase("{0} is free", holds_not="{0} is not free"),
    "square_of": Phrase("{0:pos} square"),
    "beyond": Phrase("the square beyond {1}, seen from {0}", member="{item} is the square beyond {1}, seen from {0}",
                     each="square"),
    "has_flag": Phrase("{0} is {1:bare}", holds_not="{0} is not {1:bare}"),
    "objects_with": Phrase("the {1:bare} objects on {0}", member="there is {item:a} on {0}", each="object"),
    "active": Phrase("the {actor} whose round it is"),
    "trait_reserve": Phrase("{1:owned}"),
    "location_condition": Phrase("{1:owned}"),
    "pick": Phrase("{1} if {0}, else {2}"),
    "heading": Phrase("{1} as {0} faces"),
    "next_in_initiative": Phrase("the next {actor} after {0} in initiative order"),
    "squares_toward": Phrase("{2} squares {1:way} from {0}", member="{item} is one of {it}", each="square"),
    "random_weapon": Phrase("a random {0} weapon card that no one holds"),
    "coins": Phrase("the number of coins on {0}"),
    "weapons_left": Phrase("the {0} weapon cards that no one holds", each="weapon card"),
    "wounded_locations": Phrase("{0:pos} wounded body locations", each="body location"),
    "indestructible_at": Phrase("{0} holds an indestructible object",
                                holds_not="{0} holds no indestructible object"),
    "min": Phrase("the lower of {0} and {1}"),
    "max": Phrase("the higher of {0} and {1}"),
    "abs": Phrase("the size of {0}"),
    "count": Phrase("the number of {0}"),
    "stat_value": Phrase("{1:owned}"),
    "stat_level": Phrase("{0:pos} {1} level"),
    "first": Phrase("the first of {0}"),
    "last": Phrase("the last of {0}"),
    "take": Phrase("the first {1} of {0}"),
    "drop": Phrase("{0} but the first {1}"),
    "reverse": Phrase("{0}, last first"),
    "sum": Phrase("the sum of {0}"),
    "product": Phrase("the product of {0}"),
    "card_value": Phrase("the {1:bare} of the card {0}"),
    "card_values": Phrase("the {1:bare} of every card of {0}"),
    "players_of": Phrase("the players of {0}", each="player"),
    "highest": Phrase("the highest of {0}"),
    "lowest": Phrase("the lowest of {0}"),
    "position": Phrase("the place of {1} among {0}"),
    "join": Phrase("{0} joined by {1}"),
    "cards": Phrase("the cards of {0}", member="{item} is one of {it}", each="card"),
    "zone_of": Phrase("{1:pos} {0}", each="card"),
    "discards": Phrase("the discards of {0}", each="card"),
    "sides": Phrase("every side", each="side"),
    "score_of": Phrase("the score of {0}"),
    "leading_sides": Phrase("the sides in the lead", each="side"),
    "in_play": Phrase("everyone still in play"),
    "order_of_play": Phrase("the order of play"),
    "players": Phrase("every player", each="player"),
    "option": Phrase("the option {0}"),
    "option_name": Phrase("the name of {0}"),
    "option_with": Phrase("{0}, its {1:bare} now {2}"),
    "append": Phrase("{0} followed by {1}"),
    "rank": Phrase("{0}, ranked by a roll"),
    "sides_alternating": Phrase("{0}, sides taking turns"),
    "group_stats": Phrase("the stats of the group {0}"),
    "option_value": Phrase("the {1:bare} of {0}"),
    "clockwise_from": Phrase("everyone clockwise from {0}"),
    "sides_in_play": Phrase("the sides still in play", each="side"),
    "ending": Phrase("how the game ended"),
    "dice_pool": Phrase("the best of a pool of dice"),
}

#: The comparisons as words: what `a <op> b` says, and its denial.
COMPARISONS: dict[str, tuple[str, str]] = {
    "==": ("is", "is not"), "!=": ("is not", "is"), "<": ("is less than", "is at least"),
    "<=": ("is at most", "is more than"), ">": ("is more than", "is at most"), ">=": ("is at least", "is less than"),
    "in": ("is among", "is not among"), "not in": ("is not among", "is among"),
    "is": ("is", "is not"), "is not": ("is not", "is"),
}

#: Arithmetic as words.
OPERATORS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "and": "and", "or": "or"}

#: The attributes of a piece (or a player, or a command) as nouns; an attribute not here is said as
#: the game names it (a stat's, a pile's, a state's declaration) or by its own words.
ATTRIBUTE_NOUNS = {
    "overall": "overall condition", "ap": "AP", "mp": "MP", "facing": "facing", "square": "square",
    "weapon": "weapon", "label": "name", "side": "side", "ratio": "ratio", "weapon_type": "weapon type",
    "weapon_damage": "weapon's damage", "weapon_optimal": "weapon's optimal range", "weapon_block": "weapon's block",
    "weapon_draw": "weapon's draw cost", "weapon_store": "weapon's store cost", "ammo": "ammo",
    "durability": "weapon's durability", "gained": "coins earned this command", "col": "column", "row": "row",
    "tags": "tags", "id": "id", "group": "group", "seat": "seat",
}

#: The attributes that are true or false, as conditions (`{0}` the piece), with their denials.
ATTRIBUTE_CONDITIONS = {
    "fighting": ("{0} is still fighting", "{0} is no longer fighting"),
    "on_board": ("{0} is on the board", "{0} is off the board"),
}

#: How a roll's outcome clause reads (`on success`).
OUTCOMES = {"success": "On a success", "failure": "On a failure", "tie": "On a tie"}
