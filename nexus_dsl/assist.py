"""Help while writing a rule script: what a word means (`hover`), what may be written at the
cursor (`completions`), and the language reference both are drawn from (`entries`).

Nothing here is a second copy of the language. The words and their meaning come from the
vocabulary's tables (`vocabulary.py`), the grammar's own keyword terminals, the checker's context
of the loaded packs (their states, stats, piles, events, windows, procedures and ids) and the
packs' declarations themselves; what may come next at the cursor is asked of the grammar's LALR
parser (Lark's interactive parser: the terminals it accepts after the text before the cursor).
The module knows no Streamlit, so the editor and a language server give the same answers.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Mapping

from lark import Token

from . import vocabulary as V
from .check.checker import CheckContext
from .model.ruleset import Ruleset
from .syntax import ast_nodes as A
from .syntax.parser import grammar_parser
from .validate_files import check_context

# The groups of the reference, in the order it lists them (and completion offers them).
GROUPS = ("keyword", "declaration kind", "effect", "function", "property", "attribute", "enumeration",
          "declared", "local")
GROUP_TITLES = {
    "keyword": "Keywords", "declaration kind": "Declaration kinds", "effect": "Effects (statements)",
    "function": "Functions", "property": "Properties", "attribute": "Attributes and bound names",
    "enumeration": "Enumerations", "declared": "The loaded packs' declarations", "local": "Names of the script",
}


@dataclass(frozen=True)
class Entry:
    """One meaning of a word: what it is, how it is written, what it does, an example."""

    word: str
    group: str  # one of GROUPS
    kind: str  # what the word is here: `effect`, `function → number`, `piece attribute: number`, `state`...
    signature: str  # how it is written
    doc: str = ""
    example: str = ""
    where: str = ""  # a pack's declaration: its file:line
    kinds: tuple[str, ...] = ()  # a property: the declaration kinds that may hold it

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Hover:
    """The word under the cursor (1-based line, columns from..to exclusive) and its meanings."""

    word: str
    line: int
    start_column: int
    end_column: int
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Completion:
    """A word that may be written at the cursor: `insert` replaces the `prefix` typed before it."""

    label: str
    group: str
    detail: str
    insert: str
    prefix: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


# ---------------------------------------------------------------- the grammar's keywords
# The meaning of each keyword of the grammar (a test holds this table to the grammar's terminals).
KEYWORDS: dict[str, tuple[str, str, str]] = {  # word -> (how it is written, meaning, example)
    "cost": ("cost <amount> <resource>, ...", "What using a command, ability or card costs: AP, MP, overall "
             "condition, a trait reserve or a pile its player holds.", "cost 2 AP, 1 overall"),
    "requires": ("requires <condition> [else \"<why not>\"]", "A condition that must hold for it to be offered "
                 "or used; the text after `else` is what the player is told when it does not.",
                 'requires target in front_center(self) else "the target must stand in front of you"'),
    "else": ("... else ...", "The other branch of an `if`, or a `requires` clause's reason.",
             'if self.overall > 3 { log "fresh" } else { log "tired" }'),
    "roll": ("roll attack <level> vs <side> | roll check <N>+ | roll ... automatic", "The roll a command "
             "makes; `on success` and `on failure` say what follows.", "roll attack SD vs defense"),
    "vs": ("roll attack <level> vs <side>", "The side an attack roll is opposed by.", "roll attack -SDS vs defense"),
    "automatic": ("roll attack automatic", "The roll always succeeds.", "roll attack automatic"),
    "on": ("on success { ... } | on failure { ... }", "What follows the declaration's roll; `margin`, "
           "`damage_bonus` and the totals are bound inside.", "on success { damage target by margin }"),
    "if": ("if <condition> { ... } [elif ...] [else { ... }]", "Run a block when a condition holds; after "
           "`when <event>`, listen only when it holds.", "if target.overall < 3 { add_state target stunned }"),
    "elif": ("elif <condition> { ... }", "A further branch of an `if`.",
             "if margin > 3 { add_damage 2 } elif margin > 1 { add_damage 1 }"),
    "when": ("when <event> [if <condition>] { ... }", "Listen for an event: the block runs each time it is "
             "raised, with the names the event binds.", "when round_starts { grant 1 AP to self }"),
    "window": ("window <window> [by self | opponent | any]", "The timing window an ability or card is used "
               "in (and who may use it); also the kind `window`, declaring one.", "window any_time"),
    "by": ("<effect> ... by <amount> | window <w> by <who>", "The amount of an effect (`damage target by 2`), "
           "or who may use something in a window.", "damage target by 2"),
    "param": ("param <name> = <value>", "A named value of the declaration (a rule param when a rule declares "
              "it): scripts and house rules read and change it by name.", "param reach = 2"),
    "arg": ("arg <name>: <type>", "A value the player chooses when using it (or, in an event or window, a "
            "name it binds).", "arg location: location"),
    "effect": ("effect { ... }", "What it does, statement by statement.", "effect { heal self by 1 from pot }"),
    "in": ("<value> in <list> | for each <name> in <list> | arg <name>: in <zone>", "Membership of a list or "
           "a set of squares; the list a `for each` walks.", "requires target in adjacent(self)"),
    "let": ("let <name> = <value>", "Bind a name for the rest of the block.", "let reach = distance(self, target)"),
    "set": ("set <name> = <value>", "Bind again a name a `let` bound.", "let reach = 1; set reach = reach + 1"),
    "for": ("for each <name> in <list> { ... } | ... for <piece>", "Walk a list (a `for each`), or the piece "
            "an effect is for (`draw deck for self`).", "for each p in opponents(self) { damage p by 1 }"),
    "each": ("for each <name> in <list> { ... }", "Run a block once for each member of a list.",
             "for each p in opponents(self) { damage p by 1 }"),
    "repeat": ("repeat <N> { ... }", "Run a block N times.", "repeat 2 { move self forward }"),
    "true": ("true", "The truth value.", "logged true"),
    "false": ("false", "The false value.", "logged false"),
    "none": ("none", "No value (a piece not there, a marker not set).", "requires active() != none"),
    "to": ("<effect> ... to <where>", "Where an effect puts something: coins to a pile, a piece to a square.",
           "transfer 1 from self to pot"),
    "from": ("<effect> ... from <where>", "Where an effect takes something from.", "heal self by 1 from pot"),
    "at": ("<effect> ... at <place>", "Where an effect lands: a body location, a square, a place in a zone.",
           "damage target by 1 at random_location()"),
    "into": ("<effect> ... into <name>", "The name an effect binds its answer to.",
             "roll_check self by 4 into passed"),
    "with": ("<effect> ... with <value>", "The value an effect carries (a marker's value, a weapon).",
             'mark self "aimed" with 2'),
    "against": ("grant <N> <resource> to <piece> against <piece>", "Points granted only for commands aimed at "
                "that piece.", "grant 1 AP to self against target"),
    "and": ("<condition> and <condition>", "Both hold.", "requires self.ap > 0 and target.overall > 0"),
    "or": ("<condition> or <condition>", "Either holds.", "requires self is stunned or self.ap > 2"),
    "not": ("not <condition> | <value> not in <list>", "The condition does not hold.",
            "requires not has_mark(self, \"aimed\")"),
    "is": ("<piece> is <state> | <piece> is not <state>", "Whether a piece is in a state.",
           "requires target is not stunned"),
}


@lru_cache(maxsize=1)
def grammar_keywords() -> dict[str, str]:
    """Each keyword of the grammar (a word among its string terminals) by its terminal's name."""
    words: dict[str, str] = {}
    for terminal in grammar_parser().terminals:
        pattern = terminal.pattern
        if pattern.type == "str" and re.fullmatch(r"[a-z_]+", pattern.value):
            words[terminal.name] = pattern.value
    return words


# ---------------------------------------------------------------- how words are written
def _type_word(type_name: str) -> str:
    return f"<{type_name}>"


def primitive_signature(verb: str, signature: V.Signature) -> str:
    """`damage <piece> by <number> [at <location>] [to <pile>]`."""
    parts = [verb]
    required = len(signature.positional) - signature.optional_positional
    for index, type_name in enumerate(signature.positional):
        parts.append(_type_word(type_name) if index < required else f"[{_type_word(type_name)}]")
    for prep, type_name in signature.preps.items():
        written = f"{prep} {_type_word(type_name)}"
        parts.append(written if prep in signature.required_preps else f"[{written}]")
    return " ".join(parts)


def function_signature(name: str, signature: V.Signature, result: str) -> str:
    """`die(<purpose>, [<number>]) → number`."""
    required = len(signature.positional) - signature.optional_positional
    arguments = [_type_word(t) if i < required else f"[{_type_word(t)}]" for i, t in enumerate(signature.positional)]
    return f"{name}({', '.join(arguments)}) → {result}"


# ---------------------------------------------------------------- the entries
def _language_entries() -> Iterator[Entry]:
    """The language's own words, the same in every game."""
    for word, (written, doc, example) in KEYWORDS.items():
        yield Entry(word, "keyword", "keyword", written, doc, example)
    for kind in A.DECLARATION_KINDS:
        yield Entry(kind, "declaration kind", "declaration kind", f'{kind} <id> "<name>" {{ ... }}',
                    f"May hold: {', '.join(V.CLAUSES[kind])}. Its properties: {', '.join(V.PROPERTIES.get(kind, {}))}.")
    for verb, signature in V.PRIMITIVES.items():
        yield Entry(verb, "effect", "effect", primitive_signature(verb, signature), signature.doc, signature.example)
    for name, signature in V.FUNCTIONS.items():
        result = V.FUNCTION_RESULTS.get(name, "any")
        yield Entry(name, "function", f"function → {result}", function_signature(name, signature, result),
                    signature.doc, signature.example)
    yield from _property_entries()
    yield from _attribute_entries()
    yield from _enumeration_entries()


def _property_entries() -> Iterator[Entry]:
    holders: dict[str, list[str]] = {}
    for kind, properties in V.PROPERTIES.items():
        for name in properties:
            holders.setdefault(name, []).append(kind)
    for name, kinds in holders.items():
        shapes = {V.PROPERTIES[k][name] for k in kinds}
        values = " | ".join(sorted(f"<{value}>" + (", ..." if many == "many" else "") for value, many in shapes))
        note = V.PROPERTY_NOTES.get(name, V.Note())
        allowed = V.PROPERTY_VALUES.get(name)
        doc = note.doc + (f" One of: {', '.join(allowed)}." if allowed else "")
        yield Entry(name, "property", "property of " + ", ".join(kinds), f"{name} {values}", doc.strip(),
                    note.example, kinds=tuple(kinds))


_ATTRIBUTE_TABLES: tuple[tuple[str, Mapping[str, str]], ...] = (
    ("piece attribute", V.PIECE_ATTRIBUTES), ("player attribute", V.PLAYER_ATTRIBUTES),
    ("hold attribute", V.HOLD_ATTRIBUTES), ("command attribute", V.COMMAND_ATTRIBUTES),
    ("bound in `on success` / `on failure`", V.ROLL_NAMES),
)


def _attribute_entries() -> Iterator[Entry]:
    for what, table in _ATTRIBUTE_TABLES:
        for name, type_name in table.items():
            note = V.ATTRIBUTE_NOTES.get(name, V.Note())
            written = name if what.startswith("bound") else f"<value>.{name}"
            yield Entry(name, "attribute", f"{what}: {type_name}", written, note.doc, note.example)


_LANGUAGE_ENUMERATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    *V.ENUM_TYPES.items(), ("purpose", V.PURPOSES), ("roll kind", V.ROLL_KINDS), ("outcome", V.OUTCOMES),
    ("window role", V.WINDOW_ROLES), ("argument type", V.ARG_TYPES), ("cost resource", V.COST_RESOURCES),
    *((f"value of `{name}`", values) for name, values in V.PROPERTY_VALUES.items()),
)


def _enumeration_entries() -> Iterator[Entry]:
    for type_name, members in _LANGUAGE_ENUMERATIONS:
        for member in members:
            yield Entry(member, "enumeration", type_name, member, f"One of the {type_name} words: {', '.join(members)}.")


def _declared_entries(ruleset: Ruleset) -> Iterator[Entry]:
    """The loaded packs' own words: each declaration, data item and rule param."""
    for kind, items in ruleset.scripts.items():
        for ident, item in items.items():
            declaration = item.declaration
            text = _property_text(declaration, "text") or _property_text(declaration, "flavor")
            yield Entry(ident, "declared", f"{kind}: {declaration.name}", f'{kind} {ident} "{declaration.name}"',
                        text, where=f"{item.origin.file}:{item.origin.line}")
    for data_type, data_items in ruleset.data.items():
        for ident, data_item in data_items.items():
            name = str(data_item.data.get("name", ident))
            doc = str(data_item.data.get("description", "") or data_item.data.get("text", ""))
            yield Entry(ident, "declared", f"{data_type}: {name}", ident, doc,
                        where=f"{data_item.origin.file}:{data_item.origin.line}")
    for name, value in ruleset.settings.items():
        shown = ", ".join(map(str, value)) if isinstance(value, tuple) else str(value).lower() if isinstance(value, bool) else str(value)
        yield Entry(name, "declared", "rule param", f"{name} = {shown}", "A rule param: a house rule may change it.")


def _property_text(declaration: A.Declaration, name: str) -> str:
    found = declaration.property(name)
    if found is None:
        return ""
    return " ".join(value.value for value in found.values if isinstance(value, A.Str))


@lru_cache(maxsize=1)
def language_entries() -> tuple[Entry, ...]:
    return tuple(_language_entries())


def entries(ruleset: Ruleset | None) -> tuple[Entry, ...]:
    """Every word with its meanings: the language's and the loaded packs' (worked out once a ruleset)."""
    if ruleset is None:
        return language_entries()
    return ruleset.derived("assist_entries", lambda: language_entries() + tuple(_declared_entries(ruleset)))


def dictionary(ruleset: Ruleset | None) -> dict[str, list[dict[str, object]]]:
    """The entries by word, as data (what the code editor answers a hover from)."""
    def work_out() -> dict[str, list[dict[str, object]]]:
        return {word: [entry.as_dict() for entry in found] for word, found in _by_word(ruleset).items()}
    if ruleset is None:
        return work_out()
    return ruleset.derived("assist_dictionary", work_out)


def _by_word(ruleset: Ruleset | None) -> dict[str, tuple[Entry, ...]]:
    def work_out() -> dict[str, tuple[Entry, ...]]:
        grouped: dict[str, list[Entry]] = {}
        for entry in entries(ruleset):
            grouped.setdefault(entry.word, []).append(entry)
        return {word: tuple(found) for word, found in grouped.items()}
    if ruleset is None:
        return work_out()
    return ruleset.derived("assist_by_word", work_out)


# ---------------------------------------------------------------- positions
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _offset(text: str, line: int, column: int) -> int:
    """The index in `text` of a 1-based line and column (clamped to the text)."""
    lines = text.split("\n")
    line = max(1, min(line, len(lines)))
    start = sum(len(lines[i]) + 1 for i in range(line - 1))
    return start + max(0, min(column - 1, len(lines[line - 1])))


def _local_names(text: str) -> dict[str, str]:
    """The names the script binds itself (`let`, `arg`, `param`, `for each`, `into`), with how."""
    found: dict[str, str] = {}
    patterns = (("let", r"\blet\s+(\w+)"), ("arg", r"\barg\s+(\w+)"), ("param", r"\bparam\s+(\w+)"),
                ("for each", r"\bfor\s+each\s+(\w+)"), ("into", r"\binto\s+(\w+)"))
    for how, pattern in patterns:
        for match in re.finditer(pattern, text):
            line = text.count("\n", 0, match.start()) + 1
            found.setdefault(match.group(1), f"bound by `{how}` on line {line}")
    return found


def hover(text: str, line: int, column: int, ruleset: Ruleset | None) -> Hover | None:
    """The word at a 1-based line and column (on it, or just after it) and its meanings, those the
    place makes likeliest first; None where no known word stands."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    source_line = lines[line - 1]
    for match in _WORD.finditer(source_line):
        if match.start() <= column - 1 <= match.end():
            break
    else:
        return None
    word = match.group(0)
    if _in_text_or_comment(source_line[:match.start()]):
        return None
    meanings = list(_by_word(ruleset).get(word, ()))
    local = _local_names(text).get(word)
    if local and not any(e.group == "declared" for e in meanings):
        meanings.insert(0, Entry(word, "local", "name of this script", word, local))
    if not meanings:
        return None
    before = source_line[:match.start()].rstrip()
    after = source_line[match.end():].lstrip()
    likely = ("attribute",) if before.endswith(".") else ("function",) if after.startswith("(") else \
        ("effect", "keyword") if not before else ()
    meanings.sort(key=lambda e: (e.group not in likely, e.group == "local" and not likely))
    return Hover(word, line, match.start() + 1, match.end() + 1, tuple(meanings))


def _in_text_or_comment(line_before: str) -> bool:
    """Whether the end of `line_before` (a line up to the cursor) is inside quoted text or a comment,
    where no word of the language is written."""
    quoted = False
    for index, char in enumerate(line_before):
        if char == '"' and (not quoted or line_before[index - 1] != "\\"):
            quoted = not quoted
        elif char == "#" and not quoted:
            return True
    return quoted


# ---------------------------------------------------------------- completion
def _tokens(text: str) -> list[Token]:
    """The significant tokens of `text` as the parser sees them (its post-lexer's newlines)."""
    try:
        return list(grammar_parser().lex(text))
    except Exception:  # noqa: BLE001 - text the lexer cannot read (an open string) gives no context
        return []


def _accepted(before_word: str) -> set[str] | None:
    """The terminals the grammar accepts after `before_word`; None where `before_word` does not parse."""
    parser = grammar_parser()
    try:
        interactive = parser.parse_interactive(before_word)
        interactive.exhaust_lexer()
        accepted = set(interactive.accepts())
        # The post-lexer holds a newline back until the next token: a cursor on a fresh line
        # stands after it.
        if _on_fresh_line(before_word) and "_NL" in accepted:
            interactive.feed_token(Token("_NL", "\n"))
            accepted = set(interactive.accepts())
        return accepted
    except Exception:  # noqa: BLE001 - any error of the parse means "unknown here", never a failure
        return None


def _on_fresh_line(before_word: str) -> bool:
    """Whether the cursor stands on a line of its own, after the newline ending the one before."""
    return "\n" in before_word and not before_word[before_word.rfind("\n") + 1:].strip()


_DECLARATION_START = re.compile(r"^[A-Za-z_]\w*[ \t]+[A-Za-z_]\w*[ \t]+\"", re.MULTILINE)


def _current_declaration(before_word: str) -> str:
    """The text from the start of the declaration the cursor is in (its kind at a line's start)."""
    starts = [m.start() for m in _DECLARATION_START.finditer(before_word)]
    return before_word[starts[-1]:] if starts else before_word


@dataclass
class _Place:
    """Where the cursor stands, read from the tokens before it."""

    kind: str | None = None  # the declaration's kind
    depth: int = 0  # braces open
    previous: Token | None = None
    clause: str | None = None  # the first word of the clause the cursor is in
    statement: list[Token] | None = None  # the tokens of the statement the cursor is in (depth >= 2)
    before_previous: Token | None = None
    listened: str | None = None  # the event the `when` clause the cursor is in listens to
    windows: tuple[str, ...] = ()  # the windows the declaration's `window` clauses name


def _place(tokens: list[Token]) -> _Place:
    place = _Place()
    clause_start = True
    statement: list[Token] = []
    for index, token in enumerate(tokens):
        if token.type == "LBRACE":
            place.depth += 1
            statement = []
            clause_start = place.depth == 1
        elif token.type == "RBRACE":
            place.depth = max(0, place.depth - 1)
            statement = []
            if place.depth == 0:
                place.kind, place.clause, place.windows = None, None, ()
        elif token.type == "_NL":
            statement = []
            clause_start = place.depth == 1
        else:
            if place.depth == 0 and token.type in ("NAME", "WINDOW") and (index == 0 or tokens[index - 1].type == "RBRACE"):
                place.kind = str(token)
            if clause_start and place.depth == 1:
                place.clause = str(token)
                place.listened = None
                clause_start = False
            elif place.depth == 1 and index > 0 and tokens[index - 1].type in ("WHEN", "WINDOW") and token.type == "NAME":
                if tokens[index - 1].type == "WHEN":
                    place.listened = str(token)
                else:
                    place.windows += (str(token),)
            statement.append(token)
    place.previous = tokens[-1] if tokens else None
    place.before_previous = tokens[-2] if len(tokens) > 1 else None
    place.statement = statement if place.depth >= 2 else None
    return place


def completions(text: str, line: int, column: int, ruleset: Ruleset | None) -> list[Completion]:
    """The words that may be written at a 1-based line and column, those starting with the word
    typed before the cursor, best first: what the grammar accepts there, the names in scope."""
    offset = _offset(text, line, column)
    before = text[:offset]
    prefix = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", before)
    typed = prefix.group(0) if prefix else ""
    before_word = before[:len(before) - len(typed)]
    if _in_text_or_comment(before_word[before_word.rfind("\n") + 1:]):
        return []
    context = _context(ruleset)
    accepted = _accepted(before_word)
    if accepted is None:
        before_word = _current_declaration(before_word)
        accepted = _accepted(before_word)
    tokens = _tokens(before_word)
    if _on_fresh_line(before_word) and tokens and tokens[-1].type not in ("LBRACE", "RBRACE", "_NL", "COMMA"):
        tokens.append(Token("_NL", "\n"))  # the newline the post-lexer holds back, as for `_accepted`
    place = _place(tokens)
    offered = _offered(accepted, place, text, context, ruleset)
    found: dict[str, Completion] = {}
    for label, group, detail, insert in offered:
        if label.startswith(typed) and label not in found:
            found[label] = Completion(label, group, detail, insert, typed)
    exact = [c for c in found.values() if c.label == typed]
    rest = sorted((c for c in found.values() if c.label != typed),
                  key=lambda c: (GROUPS.index(c.group) if c.group in GROUPS else len(GROUPS), c.label))
    return rest + exact


def _context(ruleset: Ruleset | None) -> CheckContext:
    if ruleset is None:
        return CheckContext()
    return ruleset.derived("assist_context", lambda: check_context(ruleset, []))


_Offer = tuple[str, str, str, str]  # label, group, detail, text inserted
_Detail = Callable[[str, str], str]  # a word and its group -> how it is written
# The grammar's prepositions (`prep` in nexus.lark): after an effect, only those it takes are offered.
PREPOSITIONS = ("by", "to", "from", "at", "into", "with", "for", "against")


def _offered(accepted: set[str] | None, place: _Place, text: str, context: CheckContext,
             ruleset: Ruleset | None) -> Iterator[_Offer]:
    keywords = grammar_keywords()
    by_word = _by_word(ruleset)

    def detail(word: str, group: str) -> str:
        found = next((e for e in by_word.get(word, ()) if e.group == group), None)
        return found.signature if found else group

    expects_name = accepted is None or "NAME" in accepted
    special = _after_keyword(str(place.previous) if place.previous is not None else "", place, context)
    if expects_name and special is not None and place.clause == "cost":
        for word, group in special:  # a cost's resource, not an operator
            yield word, group, detail(word, group), word
        return
    kind = place.kind
    like = context.base_kind(kind) if kind else None
    previous = place.previous.type if place.previous is not None else None
    if accepted is not None and "SDS_LEVEL" in accepted:
        yield "SD", "enumeration", "a level of the dice scale (+SDS, -2SDS... with a sign)", "SD"
    for terminal in sorted(accepted or ()):
        keyword = keywords.get(terminal)
        if keyword is None:
            continue
        if place.depth == 1 and previous in (None, "LBRACE", "_NL") and like and keyword not in V.CLAUSES[like]:
            continue  # a clause the declaration's kind may not hold
        if place.statement is not None and keyword in PREPOSITIONS and not _takes(place.statement, keyword, context):
            continue  # a preposition the effect does not take
        yield keyword, "keyword", detail(keyword, "keyword"), keyword
    if not expects_name:
        return
    yield from _names(place, text, context, detail)


def _takes(statement: list[Token], prep: str, context: CheckContext) -> bool:
    """Whether the effect the statement starts with takes this preposition (any, if not known)."""
    if not statement or statement[0].type != "NAME":
        return True
    signature = V.PRIMITIVES.get(str(statement[0])) or context.procedures.get(str(statement[0]))
    return signature is None or prep in signature.preps


def _names(place: _Place, text: str, context: CheckContext, detail: _Detail) -> Iterator[_Offer]:
    previous = place.previous
    kind_of_previous = previous.type if previous is not None else None
    word_before = str(previous) if previous is not None else ""
    if kind_of_previous == "DOT":
        yield from _attributes(context)
        return
    if place.depth == 0:
        if kind_of_previous in (None, "RBRACE"):
            for kind in (*A.DECLARATION_KINDS, *context.kinds):
                yield kind, "declaration kind", detail(kind, "declaration kind"), kind
        return
    like = context.base_kind(place.kind) if place.kind else None
    if place.depth == 1 and kind_of_previous in ("LBRACE", "_NL"):
        for name in V.PROPERTIES.get(like or "", {}):
            yield name, "property", detail(name, "property"), name
        return
    values = _property_values(place, context)
    if values is not None:
        for word in values:
            yield word, "enumeration", f"value of `{place.clause}`", word
        return
    special = _after_keyword(word_before, place, context)
    if special is not None:
        for word, group in special:
            yield word, group, detail(word, group), word
        return
    if place.statement == [] or (place.statement is None and place.depth >= 2):
        for verb in V.PRIMITIVES:
            yield verb, "effect", detail(verb, "effect"), verb
        for procedure in context.procedures:
            yield procedure, "declared", "procedure", procedure
        return
    yield from _expression_names(place, text, context, detail)


def _property_values(place: _Place, context: CheckContext) -> tuple[str, ...] | None:
    """The values a property takes, where the cursor stands at one of a property's values and its
    values are words of a known set; None elsewhere."""
    like = context.base_kind(place.kind) if place.kind else None
    if place.depth != 1 or place.previous is None or place.clause not in V.PROPERTIES.get(like or "", {}):
        return None
    if place.previous.type != "COMMA" and str(place.previous) != place.clause:
        return None
    value_type = V.PROPERTIES[like or ""][place.clause][0]
    known = {"group": context.groups, "activation": context.activations, "object": tuple(sorted(context.object_types))}
    if place.clause in V.PROPERTY_VALUES:
        return V.PROPERTY_VALUES[place.clause]
    if place.clause in known and known[place.clause]:
        return known[place.clause]
    if value_type == "event":
        return tuple(context.events)
    if value_type in ("procedure", "turn_procedure"):
        return tuple(context.procedures)
    if value_type == "turn":
        return context.turns
    return None


def _after_keyword(word: str, place: _Place, context: CheckContext) -> list[tuple[str, str]] | None:
    """The words a clause keyword is followed by, where it names one of a kind; None elsewhere."""
    if word == "when":
        return [(event, "declared") for event in context.events]
    if word == "window" and place.depth == 1:
        return [(window, "declared") for window in context.windows]
    if word == "by" and place.clause == "window":
        return [(role, "enumeration") for role in V.WINDOW_ROLES]
    if word == "on" and place.depth == 1:
        return [(outcome, "enumeration") for outcome in V.OUTCOMES]
    if word == "roll" and place.depth == 1:
        return [(kind, "enumeration") for kind in V.ROLL_KINDS]
    if word == "vs":
        return [(side, "enumeration") for side in V.ROLL_SIDES]
    previous = place.previous.type if place.previous is not None else None
    if previous == "IS" or (previous == "NOT" and place.before_previous is not None and place.before_previous.type == "IS"):
        return [(state, "declared") for state in context.states]
    if word == ":" and place.clause == "arg":
        types = (*V.ARG_TYPES, *context.type_names) if place.kind not in ("event", "window", "procedure") else \
            (*V.BOUND_TYPES, *context.type_names, *context.members)
        return [(t, "enumeration") for t in dict.fromkeys(types)]
    if place.clause == "cost" and place.previous is not None and place.previous.type in ("NUMBER", "NAME", "RPAR"):
        resources = (*V.COST_RESOURCES, *context.members.get("trait", ()), *context.owned_piles)
        return [(r, "enumeration") for r in dict.fromkeys(resources)]
    return None


def _attributes(context: CheckContext) -> Iterator[_Offer]:
    names: dict[str, str] = {}
    names.update(context.piece_attributes)
    names.update(context.player_attributes)
    names.update(V.COMMAND_ATTRIBUTES)
    for stat in context.stats:
        names.setdefault(stat, "number")
    for counter in context.members.get("counter", ()):
        names.setdefault(counter, "list")
    for name, type_name in names.items():
        yield name, "attribute", type_name, name


def _expression_names(place: _Place, text: str, context: CheckContext, detail: _Detail) -> Iterator[_Offer]:
    yield "self", "local", context.actor_type, "self"
    yield "target", "local", "piece", "target"
    for name, how in _local_names(text).items():
        yield name, "local", how, name
    if place.clause == "on":
        for name, type_name in V.ROLL_NAMES.items():
            yield name, "attribute", type_name, name
    # The names the event a `when` listens to binds, and those of the windows the declaration is used in.
    heard = [context.events.get(place.listened, {})] if place.clause == "when" and place.listened else []
    for bound in (*heard, *(context.windows.get(w, {}) for w in place.windows)):
        for name, type_name in bound.items():
            yield name, "local", type_name, name
    for name in V.FUNCTIONS:
        yield name, "function", detail(name, "function"), name + "("
    for type_name, members in (*V.ENUM_TYPES.items(), *context.members.items()):
        for member in members:
            yield member, "enumeration", type_name, member
    for object_type in sorted(context.object_types):
        yield object_type, "declared", "object type", object_type
    for setting in context.settings:
        yield setting, "declared", "rule param", setting
    for ident in sorted(context.declaration_ids):
        yield ident, "declared", "id", ident


def words_of(found: Iterable[Completion]) -> list[str]:
    """The labels of completions, in order (for messages and tests)."""
    return [c.label for c in found]
