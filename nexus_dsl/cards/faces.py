"""Card faces: the rules text players read, generated from the script so the two never drift.

`card_face(declaration)` renders a declaration as a player would read it: its name and kind, what it
costs, when it may be used, what it requires (the scripts' own `else` messages), its roll, and its
effects in plain words. The designer's `text` property is shown beside it as the card's prose; the
generated lines are what the engine will actually do. A game's own cards (`card` declarations, such
as NEXUS Pirates') are faced from their fields: their number, what they score, a Ship, and a mark
of its own where a value is the designer's assumption (`assumed`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping

from ..model.ruleset import DataItem, Ruleset, ScriptItem
from ..syntax import ast_nodes as A
from ..syntax.printer import print_declaration, print_expr
from .english import Known, Speaker, words_of
from .phrases import OUTCOMES

# What a card of each built-in kind is titled; one of a kind content declares (`kind`) is titled by
# that declaration's name (`kind_title`).
KIND_TITLES = {
    "command": "Command", "trait_ability": "Trait Ability", "hazard": "Hazard", "drawn_card": "Drawn Card",
    "hand_card": "Hand Card", "kind": "Kind", "weapon": "Weapon", "rule": "Rule", "state": "State", "stat": "Stat",
    "pile": "Pile", "event": "Event", "window": "Timing Window", "procedure": "Procedure", "game": "Game", "turn": "Turn", "card": "Card",
    "barges": "Barge", "lanistas": "Lanista", "motivations": "Motivation", "objects": "Object",
}

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
    # The pack it comes from (its id), what it costs (amount in words, resource) and its tags: what
    # a printed face shows in its own places (workbench/card_svg.py).
    pack: str = ""
    flavor: str | None = None  # the designer's line of colour (`flavor`), printed after the text
    costs: list[tuple[str, str]] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)

    @property
    def kind_title(self) -> str:
        return self.title or KIND_TITLES.get(self.kind, self.kind)

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything the face says, as one hashable value: equal for equal faces, different as soon
        as a word of it differs (a drawing of the face is kept by it)."""
        return tuple(tuple(value) if isinstance(value, list) else value
                     for value in (getattr(self, f.name) for f in fields(self)))

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


# The kinds whose cards a player plays (a declared kind is like one of them), and those a player uses.
PLAYED_KINDS = ("hand_card", "drawn_card")
USED_KINDS = ("command", "trait_ability", "weapon")


def speaker_for(declaration: A.Declaration, settings: Known | None = None, ruleset: Ruleset | None = None) -> Speaker:
    """Who says `declaration`'s face: its params' values known, its args named, `self` as the
    player holding it reads it ("your <piece>") or, for what is heard for every piece, "the <piece>"."""
    from ..model.values import constant_value

    known: Known = dict(settings or {})
    for param in declaration.clauses_of(A.Param):
        try:
            known[param.name] = constant_value(param.value)
        except ValueError:
            pass
    speaker = Speaker(ruleset, known)
    actor = speaker.actor
    base = ruleset.words.base_kind(declaration.kind) if ruleset is not None else declaration.kind
    speaker.self_words = f"your {actor}" if (base or declaration.kind) in PLAYED_KINDS + USED_KINDS else f"the {actor}"
    for arg in declaration.clauses_of(A.Arg):
        type_name = arg.type.name if isinstance(arg.type, A.NamedType) else arg.name
        # What a player uses is given its args by the player's choice; a procedure, by its caller.
        chosen = (base or declaration.kind) in PLAYED_KINDS + USED_KINDS and arg.name != "target"
        speaker.bound[arg.name] = "the chosen " + words_of(type_name) if chosen else "the " + words_of(arg.name)
    return speaker


def _declared(ruleset: Ruleset | None, kind: str, ident: str) -> str:
    """The name of the declaration of `kind` with this id, else the id in words."""
    declaration = ruleset.declaration(kind, ident) if ruleset is not None else None
    return declaration.name if declaration is not None and declaration.name else words_of(ident)


def script_face(item: ScriptItem, settings: Known | None = None, ruleset: Ruleset | None = None) -> CardFace:
    """`item`'s face; `ruleset`, where given, names its kind (`kind_title`) and the game's words."""
    d = item.declaration
    speaker = speaker_for(d, settings, ruleset)
    base = (ruleset.words.base_kind(d.kind) if ruleset is not None else None) or d.kind
    verb = "Play" if base in PLAYED_KINDS else "Use" if base in USED_KINDS else ""
    face = CardFace(d.id, d.kind, d.name, _property_text(d, "text"), origin=f"{item.origin.file}:{item.origin.line}",
                    title=kind_title(d.kind, ruleset) if ruleset is not None else None, pack=item.origin.pack)
    face.flavor = _property_text(d, "flavor")
    tags = d.property("tags")
    face.tags = [words_of(v.value if isinstance(v, A.Str) else v.id) for v in (tags.values if tags else ())
                 if isinstance(v, (A.Str, A.Name))]
    lines = face.lines
    face.costs = [(speaker.noun(i.amount), i.resource) for c in d.clauses_of(A.Cost) for i in c.items]
    if face.costs:
        lines.append("Cost: " + ", ".join(f"{amount} {resource}" for amount, resource in face.costs))
    for window in d.clauses_of(A.Window):
        who = {"self": f", for your own {speaker.actor}", "opponent": f", for an opponent's {speaker.actor}"}
        lines.append(f"{verb or 'Use'}: {_declared(ruleset, 'window', window.name)}{who.get(window.by or 'any', '')}")
        speaker.bind(ruleset.words.windows.get(window.name, {}) if ruleset is not None else {})
    for requirement in d.clauses_of(A.Requires):
        refusal = f" (otherwise: \u201c{requirement.message}\u201d)" if requirement.message else ""
        when = f"{verb} only when" if verb else "Only when"
        lines.append(f"{when} {speaker.condition(requirement.condition)}{refusal}.")
    for roll in d.clauses_of(A.Roll):
        spec = roll.spec
        if isinstance(spec, A.OpposedRoll):
            lines.append(f"Roll: {roll.kind} at {speaker.noun(spec.level)} against {spec.against}")
        elif isinstance(spec, A.ThresholdRoll):
            lines.append(f"Roll: a d6, {spec.target} or more")
        else:
            lines.append("Roll: automatic success")
    for effect in d.clauses_of(A.Effect):
        lines.append("Effect:")
        lines.extend(speaker.block(effect.body, 1))
    for on in d.clauses_of(A.On):
        lines.append(f"{OUTCOMES.get(on.outcome, 'On ' + on.outcome)}:")
        lines.extend(speaker.block(on.body, 1))
    for when_clause in d.clauses_of(A.When):
        event = _declared(ruleset, "event", when_clause.event)
        outer = dict(speaker.bound)
        speaker.bind(ruleset.words.events.get(when_clause.event, {}) if ruleset is not None else {})
        condition = f", if {speaker.condition(when_clause.condition)}" if when_clause.condition is not None else ""
        lines.append(f"When {event[:1].lower() + event[1:]}{condition}:")
        lines.extend(speaker.block(when_clause.body, 1))
        speaker.bound = outer
    if d.kind == "card":
        lines[:0] = card_lines(d)
        face.assumed = _property_text(d, "assumed")
    if d.kind == "weapon":
        # A property's value is a word of its own (`type ranged`), not a name to look up.
        numbers = [f"{p.name} {words_of(p.values[0].id) if isinstance(p.values[0], A.Name) else speaker.noun(p.values[0])}"
                   for p in d.clauses_of(A.Property)
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
    from ..model.values import constant_value

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
    from ..content.barge_checks import BOARD_SIZE, starting_squares

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
    costs = ", ".join(f"{Speaker(ruleset).noun(i.amount)} {i.resource}" for c in declaration.clauses_of(A.Cost) for i in c.items)
    text = _property_text(declaration, "text")
    return declaration.name + (f" ({costs})" if costs else "") + (f": {text}" if text else "")


def data_face(item: DataItem, ruleset: Ruleset | None = None) -> CardFace:
    data = item.data
    face = CardFace(item.id, item.type, str(data.get("name", item.id)),
                    str(data.get("flavor") or data.get("description") or "") or None,
                    origin=f"{item.origin.file}:{item.origin.line}", pack=item.origin.pack)
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
        speaker = Speaker(ruleset)
        face.lines.append("Objects: " + ", ".join(f"{n} {speaker.name(t)}" for t, n in sorted(counts.items())))
        if data.get("hazards"):
            face.lines.append("Hazards, left to right: " + ", ".join(_declared(ruleset, "hazard", h) for h in data["hazards"]))
        face.figure = barge_grid(data, ruleset)
    return face


def card_types(ruleset: Ruleset) -> list[str]:
    """Every value `all_faces` takes as a kind: each declaration kind, each data type (also
    without its plural `s`), whether or not the loaded packs hold any of it."""
    from ..model.ruleset import DATA_TYPES
    from ..syntax.ast_nodes import DECLARATION_KINDS

    data_types = sorted(set(DATA_TYPES) | set(ruleset.data))
    return sorted(set(DECLARATION_KINDS) | set(ruleset.scripts) | set(data_types) | {t.rstrip("s") for t in data_types})


def all_faces(ruleset: Ruleset, kind: str | None = None) -> list[CardFace]:
    """The face of every item of the ruleset (of one `kind`, where given: a declaration kind, or a
    data type, also without its plural `s`), by kind and id. The faces are worked out once per
    ruleset and shared by every call: read them, never change them."""
    return [face for face, kinds in ruleset.derived("card_faces", lambda: _faces_of(ruleset))
            if kind is None or kind in kinds]


def _faces_of(ruleset: Ruleset) -> tuple[tuple[CardFace, frozenset[str]], ...]:
    """Every face, by kind and id, with the kinds `all_faces` finds it by."""
    faces: list[tuple[CardFace, frozenset[str]]] = []
    for script_kind, items in ruleset.scripts.items():
        faces.extend((script_face(item, dict(ruleset.settings), ruleset), frozenset({script_kind}))
                     for item in items.values())
    for data_type, data_items in ruleset.data.items():
        faces.extend((data_face(item, ruleset), frozenset({data_type, data_type.rstrip("s")}))
                     for item in data_items.values())
    return tuple(sorted(faces, key=lambda found: (found[0].kind, found[0].id)))


def show(ruleset: Ruleset, ident: str) -> list[tuple[CardFace, str | None]]:
    """Every item with this id: its face and, for scripts, its canonical script text. Worked out
    once per ruleset and id (the content browser shows them at every run of its page): the faces
    are shared, read them, never change them."""
    shown: dict[str, tuple[tuple[CardFace, str | None], ...]] = ruleset.derived("shown_items", dict)
    found = shown.get(ident)
    if found is None:
        found = tuple(_shown(ruleset, item) for item in ruleset.find(ident))
        if found:  # kept for the ids the ruleset holds only, so the ids asked for cannot grow it
            shown[ident] = found
    return list(found)


def _shown(ruleset: Ruleset, item: ScriptItem | DataItem) -> tuple[CardFace, str | None]:
    if isinstance(item, ScriptItem):
        return script_face(item, dict(ruleset.settings), ruleset), print_declaration(item.declaration)
    return data_face(item, ruleset), None
