"""Card faces: the rules text players read, generated from the script so the two never drift.

`card_face(declaration)` renders a declaration as a player would read it: its name and kind, what it
costs, when it may be used, what it requires (the scripts' own `else` messages), its roll, and its
effects in plain words. The designer's `text` property is shown beside it as the card's prose; the
generated lines are what the engine will actually do. A game's own cards (`card` declarations, such
as NEXUS Pirates') are faced from their fields: their number, what they score, a Ship, and a mark
of its own where a value is the designer's assumption (`assumed`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .model.ruleset import DataItem, Ruleset, ScriptItem
from .syntax import ast_nodes as A
from .syntax.printer import print_declaration, print_expr, sds_text

# What a card of each built-in kind is titled; one of a kind content declares (`kind`) is titled by
# that declaration's name (`kind_title`).
KIND_TITLES = {
    "command": "Command", "trait_ability": "Trait Ability", "hazard": "Hazard", "drawn_card": "Drawn Card",
    "hand_card": "Hand Card", "kind": "Kind", "weapon": "Weapon", "rule": "Rule", "state": "State", "stat": "Stat",
    "pile": "Pile", "event": "Event", "window": "Timing Window", "procedure": "Procedure", "game": "Game", "turn": "Turn", "card": "Card",
    "barges": "Barge", "lanistas": "Lanista", "motivations": "Motivation", "objects": "Object",
}

# The numbers a card's params and the rules' settings stand for, substituted while rendering so a
# player reads "4 more damage" rather than a param's name.
Known = dict[str, Any]  # name -> the constant it stands for


def _substitute(expr: A.Expr, known: Known) -> A.Expr:
    if isinstance(expr, A.Name) and expr.id in known:
        value = known[expr.id]
        if isinstance(value, bool):
            return A.Bool(value=value)
        if isinstance(value, int):
            return A.Num(value=value) if value >= 0 else A.Neg(operand=A.Num(value=-value))
        return expr
    if isinstance(expr, A.Binary):
        return A.Binary(op=expr.op, left=_substitute(expr.left, known), right=_substitute(expr.right, known))
    if isinstance(expr, A.Neg):
        return A.Neg(operand=_substitute(expr.operand, known))
    if isinstance(expr, A.Call):
        return A.Call(func=expr.func, args=tuple(_substitute(a, known) for a in expr.args), kwargs=expr.kwargs)
    return expr


def _constant_int(expr: A.Expr) -> int | None:
    """The whole number a literal (a number, an SDS level or a negated one) stands for."""
    if isinstance(expr, A.Num):
        return expr.value
    if isinstance(expr, A.ScaleLevel):
        return expr.level
    if isinstance(expr, A.Neg):
        inner = _constant_int(expr.operand)
        return -inner if inner is not None else None
    return None


def _words(expr: A.Expr, known: Known | None = None) -> str:
    expr = _substitute(expr, known or {})
    if isinstance(expr, A.Call) and expr.func == "random_location" and not expr.args:
        return "a random body location"
    text = print_expr(expr)
    return text.replace("_", " ") if isinstance(expr, A.Name) else text


def describe_action(action: A.Action, known: Known | None = None) -> str:
    """One effect in plain words; anything without a phrasing is shown as its script line."""
    verb = action.verb
    args = [_words(a, known) for a in action.args]
    prep = {p.prep: _words(p.value, known) for p in action.preps}
    if verb == "damage":
        spot = prep.get("at", "")
        spot = spot if spot.startswith("a ") else f"the {spot}"
        where = f" to {spot} (and overall condition)" if "at" in prep else " to overall condition"
        paid = f", paid to {prep['to']}" if "to" in prep else ""
        return f"{args[0]} takes {prep['by']} damage{where}{paid}"
    if verb == "transfer":
        return f"{args[0]} cred move from {prep['from']} to {prep['to']}"
    if verb == "add_state":
        return f"{args[0]} becomes {args[1]}"
    if verb == "remove_state":
        return f"{args[0]} is no longer {args[1]}"
    if verb == "move":
        return f"{args[0]} moves one square {args[1]}"
    if verb == "rotate":
        return f"{args[0]} turns 90 degrees {args[1]}"
    if verb == "slide_roll":
        level = _substitute(action.prep("by") or A.Num(value=0), known or {})
        steps = _constant_int(level)
        amount = sds_text(steps) if steps is not None else prep.get("by", "")
        return f"the {args[0]} roll slides {amount} on the Sliding Dice Scale"
    if verb == "add_damage":
        return f"the attack does {args[0]} more damage"
    if verb == "grant":
        against = f" (only against {prep['against']})" if "against" in prep else ""
        return f"{prep.get('to', 'you')} gains {args[0]} {args[1]}{against}"
    if verb == "place":
        return f"place {args[0]} at {prep['at']}"
    if verb == "equip":
        return f"{args[0]} draws a {prep['with']}"
    parts = [verb] + args + [f"{k} {v}" for k, v in prep.items()]
    return " ".join(parts)


def describe_block(block: A.Block, depth: int = 0, known: Known | None = None) -> list[str]:
    lines: list[str] = []
    pad = "  " * depth
    for stmt in block.statements:
        if isinstance(stmt, A.Action):
            lines.append(f"{pad}- {describe_action(stmt, known)}")
        elif isinstance(stmt, A.If):
            for index, branch in enumerate(stmt.branches):
                word = "if" if index == 0 else "otherwise, if"
                lines.append(f"{pad}- {word} {print_expr(branch.condition)}:")
                lines.extend(describe_block(branch.body, depth + 1, known))
            if stmt.otherwise is not None:
                lines.append(f"{pad}- otherwise:")
                lines.extend(describe_block(stmt.otherwise, depth + 1, known))
        elif isinstance(stmt, A.ForEach):
            lines.append(f"{pad}- for each {stmt.var} in {print_expr(stmt.iterable)}:")
            lines.extend(describe_block(stmt.body, depth + 1, known))
        elif isinstance(stmt, A.Repeat):
            lines.append(f"{pad}- {_words(stmt.count, known)} times:")
            lines.extend(describe_block(stmt.body, depth + 1, known))
        elif isinstance(stmt, A.Let):
            lines.append(f"{pad}- let {stmt.name} be {print_expr(stmt.value)}")
        elif isinstance(stmt, A.Set):
            lines.append(f"{pad}- let {stmt.name} now be {print_expr(stmt.value)}")
    return lines


@dataclass
class CardFace:
    id: str
    kind: str
    name: str
    prose: str | None
    lines: list[str] = field(default_factory=list)
    origin: str = ""
    figure: list[str] = field(default_factory=list)  # preformatted lines, e.g. a barge's drawn schematic
    # Why a value printed on the card is the designer's assumption (a `card`'s `assumed` property):
    # shown as a mark of its own, so a guessed value is never read as the rulebook's.
    assumed: str | None = None
    # What its kind is titled, where the packs name the kind (`kind_title`); else KIND_TITLES's.
    title: str | None = None

    @property
    def kind_title(self) -> str:
        return self.title or KIND_TITLES.get(self.kind, self.kind)

    def to_json(self) -> dict[str, Any]:
        face = {"id": self.id, "kind": self.kind, "name": self.name, "text": self.prose, "rules": self.lines,
                "origin": self.origin}
        if self.figure:
            face["figure"] = self.figure
        if self.assumed:
            face["assumed"] = self.assumed
        return face

    def text(self) -> str:
        head = f"{self.name} — {self.kind_title} ({self.id})"
        body = [head]
        if self.prose:
            body.append(f"  {self.prose}")
        body += [f"  {line}" for line in self.lines]
        body += [f"  {line}".rstrip() for line in self.figure]
        if self.assumed:
            body.append(f"  {ASSUMED_MARK}: {self.assumed}")
        return "\n".join(body)

    def markdown(self) -> str:
        body = [f"### {self.name}", f"*{self.kind_title}* · `{self.id}`", ""]
        if self.prose:
            body += [self.prose, ""]
        body += [f"- {line}" if not line.startswith(("  ", "- ")) else line for line in self.lines]
        if self.figure:
            body += ["", "```", *self.figure, "```"]
        if self.assumed:
            body += ["", f"> **{ASSUMED_MARK}**: {self.assumed}"]
        return "\n".join(body) + "\n"


def _property_text(declaration: A.Declaration, name: str) -> str | None:
    prop = declaration.property(name)
    if prop and prop.values and isinstance(prop.values[0], A.Str):
        return prop.values[0].value
    return None


def kind_title(kind: str, ruleset: Ruleset | None = None) -> str:
    """What a card of `kind` is titled: the name of the packs' declaration of the kind (`kind
    influence "Influence Card" { ... }`), else the built-in kind's title, else the kind itself."""
    declared = ruleset.declaration("kind", kind) if ruleset is not None else None
    return declared.name if declared is not None else KIND_TITLES.get(kind, kind)


def script_face(item: ScriptItem, settings: Known | None = None, ruleset: Ruleset | None = None) -> CardFace:
    """`item`'s face; `ruleset`, where given, names its kind (`kind_title`)."""
    from .model.values import constant_value

    d = item.declaration
    known: Known = dict(settings or {})
    for param in d.clauses_of(A.Param):
        try:
            known[param.name] = constant_value(param.value)
        except ValueError:
            pass
    face = CardFace(d.id, d.kind, d.name, _property_text(d, "text"), origin=f"{item.origin.file}:{item.origin.line}",
                    title=kind_title(d.kind, ruleset) if ruleset is not None else None)
    lines = face.lines
    costs = [f"{_words(i.amount, known)} {i.resource}" for c in d.clauses_of(A.Cost) for i in c.items]
    if costs:
        lines.append("Cost: " + ", ".join(costs))
    for window in d.clauses_of(A.Window):
        who = {"self": "by the helot it concerns", "opponent": "by an opponent"}.get(window.by or "any", "by anyone")
        lines.append(f"Use: {window.name.replace('_', ' ')}, {who}")
    for requirement in d.clauses_of(A.Requires):
        refusal = f" (otherwise: \u201c{requirement.message}\u201d)" if requirement.message else ""
        lines.append(f"Requires: {_words(requirement.condition, known)}{refusal}")
    for roll in d.clauses_of(A.Roll):
        spec = roll.spec
        if isinstance(spec, A.OpposedRoll):
            lines.append(f"Roll: {roll.kind} at {print_expr(spec.level)} against {spec.against}")
        elif isinstance(spec, A.ThresholdRoll):
            lines.append(f"Roll: a d6, {spec.target} or more")
        else:
            lines.append("Roll: automatic success")
    for effect in d.clauses_of(A.Effect):
        lines.append("Effect:")
        lines.extend(describe_block(effect.body, 1, known))
    for on in d.clauses_of(A.On):
        lines.append(f"On {on.outcome}:")
        lines.extend(describe_block(on.body, 1, known))
    for when in d.clauses_of(A.When):
        condition = f" if {print_expr(when.condition)}" if when.condition is not None else ""
        lines.append(f"When {when.event.replace('_', ' ')}{condition}:")
        lines.extend(describe_block(when.body, 1, known))
    if d.kind == "card":
        lines[:0] = card_lines(d)
        face.assumed = _property_text(d, "assumed")
    if d.kind == "weapon":
        numbers = [f"{p.name} {print_expr(p.values[0])}" for p in d.clauses_of(A.Property)
                   if p.name in ("type", "damage", "block", "durability", "ammo", "optimal", "draw", "store") and p.values]
        if numbers:
            lines.insert(0, "Card: " + ", ".join(numbers))
    return face


# ---------------------------------------------------------------- a game's own cards (`card`)
#: The properties of a `card` that say something about it rather than being one of its fields.
CARD_NOTES = frozenset({"text", "flavor", "rulebook", "assumed", "tags"})
ASSUMED_MARK = "Assumed value"


def card_fields(declaration: A.Declaration) -> dict[str, Any]:
    """A `card`'s fields (`number 7`, `stars 1`, `ship true`) as values, in the order written; the
    notes about it (text, rulebook, assumed) left out. `card_value` reads the same fields in play."""
    from .model.values import constant_value

    fields: dict[str, Any] = {}
    for prop in declaration.clauses_of(A.Property):
        if prop.name in CARD_NOTES or not prop.values:
            continue
        try:
            fields[prop.name] = constant_value(prop.values[0])
        except ValueError:
            fields[prop.name] = print_expr(prop.values[0])
    return fields


def _field_name(name: str) -> str:
    return name.replace("_", " ").capitalize()


def card_lines(declaration: A.Declaration) -> list[str]:
    """The lines of a `card`'s face from its fields, in the order its pack writes them, each as the
    pack names it: `Number: 7`, `Skulls: 1`; a field that is `true` by its name alone (`Ship`), one
    that is `false` not at all."""
    lines = []
    for name, value in card_fields(declaration).items():
        if value is True:
            lines.append(_field_name(name))
        elif value is not False:
            lines.append(f"{_field_name(name)}: {_field_text(value)}")
    return lines


def _field_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(_field_text(v) for v in value)
    return str(value)


def card_label(declaration: A.Declaration | None, ident: str) -> str:
    """A card in a few words, as it lies on the table: its name, then its number fields not already
    in its name (`7 skulls 1`, `15 multiplier 2`, `Ship`); a card whose values are assumed is
    followed by `?`. A card the packs do not declare is its id."""
    if declaration is None:
        return ident
    name = declaration.name or ident
    shown = [f"{field.replace('_', ' ')} {value}" for field, value in card_fields(declaration).items()
             if isinstance(value, int) and not isinstance(value, bool) and str(value) != name]
    mark = "?" if declaration.property("assumed") is not None else ""
    return " ".join([name, *shown]) + mark


def _symbol(object_type: str, flags: Mapping[str, Any]) -> str:
    """The object's mark on a drawn schematic: its `symbol` in objects.yaml, else its id's first letters."""
    return str(flags.get("symbol") or object_type[:2].upper())


def barge_grid(data: Mapping[str, Any], ruleset: Ruleset | None = None) -> list[str]:
    """The schematic as a small grid, north end at the top (rulebook pg.38): one cell per square,
    the objects by symbol, each seat's starting square by its initial in lower case."""
    from .content.barge_checks import BOARD_SIZE, starting_squares

    flags_of = (lambda t: ruleset.object_flags(t)) if ruleset is not None else (lambda t: {})
    cells: dict[tuple[int, int], str] = {square: seat[0] for square, seat in starting_squares().items()}
    legend: dict[str, str] = {}
    for obj in data.get("objects", []):
        symbol = _symbol(obj["type"], flags_of(obj["type"]))
        legend.setdefault(symbol, str(flags_of(obj["type"]).get("name") or obj["type"]))
        cells[(obj["at"][0], obj["at"][1])] = symbol
    header = ("     " + " ".join(f"{col:<2}" for col in range(1, BOARD_SIZE + 1))).rstrip()
    lines = ["North".center(len(header) + 2).rstrip(), header]
    for row in range(1, BOARD_SIZE + 1):
        lines.append(f"  {row}  " + " ".join(f"{cells.get((col, row), '.'):<2}" for col in range(1, BOARD_SIZE + 1)).rstrip())
    lines.append("South".center(len(header) + 2).rstrip())
    key = ", ".join(f"{symbol} {name}" for symbol, name in legend.items())
    lines.append("Key: " + (key + "; " if key else "") + "n s w e: the seats' starting squares")
    return lines


def _gift_line(ident: str, ruleset: Ruleset | None) -> str:
    """A motivation's ability or talent as its card prints it: name, cost, the designer's text."""
    found = [i for i in ruleset.find(ident) if isinstance(i, ScriptItem)] if ruleset is not None else []
    if not found:
        return ident
    declaration = found[-1].declaration
    costs = ", ".join(f"{_words(i.amount)} {i.resource}" for c in declaration.clauses_of(A.Cost) for i in c.items)
    text = _property_text(declaration, "text")
    return f"{declaration.name} ({ident}" + (f"; {costs}" if costs else "") + ")" + (f": {text}" if text else "")


def data_face(item: DataItem, ruleset: Ruleset | None = None) -> CardFace:
    data = item.data
    face = CardFace(item.id, item.type, str(data.get("name", item.id)),
                    str(data.get("flavor") or data.get("description") or "") or None,
                    origin=f"{item.origin.file}:{item.origin.line}")
    if item.type == "lanistas":
        face.lines.append(f"Influence {data.get('influence')}, Deception {data.get('deception')}, Command {data.get('command')}")
    elif item.type == "motivations":
        if data.get("description") and data.get("flavor"):
            face.lines.append(str(data["description"]))
        advantages = ", ".join(f"{k} {v}" for k, v in (data.get("advantages") or {}).items())
        face.lines.append(f"Trait advantages: {advantages}")
        for ability in data.get("abilities") or ():
            face.lines.append("Unique ability: " + _gift_line(ability, ruleset))
        if data.get("talent"):
            face.lines.append("Talent: " + _gift_line(str(data["talent"]), ruleset))
    elif item.type == "barges":
        counts: dict[str, int] = {}
        for obj in data.get("objects", []):
            counts[obj["type"]] = counts.get(obj["type"], 0) + 1
        face.lines.append("Objects: " + ", ".join(f"{n} {t}" for t, n in sorted(counts.items())))
        if data.get("hazards"):
            face.lines.append("Hazards, left to right: " + ", ".join(data["hazards"]))
        face.figure = barge_grid(data, ruleset)
    return face


def card_types(ruleset: Ruleset) -> list[str]:
    """Every value `all_faces` takes as a kind: each declaration kind, each data type (also
    without its plural `s`), whether or not the loaded packs hold any of it."""
    from .model.ruleset import DATA_TYPES
    from .syntax.ast_nodes import DECLARATION_KINDS

    data_types = sorted(set(DATA_TYPES) | set(ruleset.data))
    return sorted(set(DECLARATION_KINDS) | set(ruleset.scripts) | set(data_types) | {t.rstrip("s") for t in data_types})


def all_faces(ruleset: Ruleset, kind: str | None = None) -> list[CardFace]:
    faces: list[CardFace] = []
    for script_kind, items in ruleset.scripts.items():
        if kind in (None, script_kind):
            faces.extend(script_face(item, dict(ruleset.settings), ruleset) for item in items.values())
    for data_type, data_items in ruleset.data.items():
        if kind in (None, data_type, data_type.rstrip("s")):
            faces.extend(data_face(item, ruleset) for item in data_items.values())
    return sorted(faces, key=lambda f: (f.kind, f.id))


def show(ruleset: Ruleset, ident: str) -> list[tuple[CardFace, str | None]]:
    """Every item with this id: its face and, for scripts, its canonical script text."""
    found: list[tuple[CardFace, str | None]] = []
    for item in ruleset.find(ident):
        if isinstance(item, ScriptItem):
            found.append((script_face(item, dict(ruleset.settings), ruleset), print_declaration(item.declaration)))
        else:
            found.append((data_face(item, ruleset), None))
    return found
