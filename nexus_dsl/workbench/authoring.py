"""Authoring one item at a time: templates, duplicates, validation in context, card previews, forms.

Every content type is covered: the script kinds (the language's built-in kinds, and those the loaded
packs declare with `kind`, such as the base game's influence and turning_point: `kinds_of`) and the
YAML data kinds (lanista, motivation, barge, object_type). An item
is always edited as text — script text for scripts, a YAML mapping for data — and validated the way
the loader would validate it, in the context of the loaded packs with the item replacing any item
of the same id. Diagnostics are positioned relative to the item's own text.
"""

from __future__ import annotations

import dataclasses
import html
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Mapping

import yaml
from cachetools import LRUCache

from ..cards import ASSUMED_MARK, CardFace, data_face, script_face
from ..content.barge_checks import barge_problems
from ..content.loader import SCRIPT_SUFFIX, internal_error
from ..errors import Diagnostic, NexusError, did_you_mean, source_lines
from ..model.ruleset import DataItem, Origin, Ruleset, ScriptItem, freeze_mapping, thaw
from ..schema import compose_yaml, load_yaml_with_positions, validate
from ..syntax import ast_nodes as A
from ..syntax.parser import parse
from ..syntax.printer import CommentQueue, print_declaration, print_module, quote
from ..validate_files import check_script_module
from .store import last_line

ITEM_FILE = "<item>"
# The language's built-in kinds; the loaded packs may declare more (`kinds_of`).
SCRIPT_KINDS = A.DECLARATION_KINDS
# YAML kinds by schema name -> the data type (and list file name) the loader files them under.
DATA_KINDS = {"lanista": "lanistas", "motivation": "motivations", "barge": "barges", "object_type": "objects"}
KINDS = SCRIPT_KINDS + tuple(DATA_KINDS)
# The folder of its pack a new declaration's script file goes to, by kind (the base pack's layout,
# the kinds it declares included).
SCRIPT_FOLDERS: dict[str, str] = {"command": "commands", "trait_ability": "abilities", "hazard": "hazards",
                                  "turning_point": "turning_points", "influence": "influence", "weapon": "weapons",
                                  "rule": "rules", "state": "states", "stat": "stats", "pile": "piles",
                                  "event": "events", "window": "windows", "zone": "zones",
                                  "game": "game", "turn": "game", "card": "cards", "kind": "kinds"}
SCRIPT_FIELDS = ("id", "name", "flavor", "text", "cost", "window", "tags")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class AuthoringError(ValueError):
    """A request the authoring functions cannot serve (an unknown kind or id), in plain words."""


@dataclass
class Validation:
    """The verdict on one item: positioned diagnostics and, when valid, its card face."""

    kind: str
    ident: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    face: CardFace | None = None
    flavor: str | None = None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors


def kinds_of(ruleset: Ruleset | None) -> tuple[str, ...]:
    """The content types an item may be of: the script kinds in view of `ruleset` (the built-in
    ones, then those its packs declare with `kind`), then the YAML data kinds."""
    scripts = ruleset.words.kinds_in_view if ruleset is not None else SCRIPT_KINDS
    return (*scripts, *DATA_KINDS)


def _check_kind(kind: str, ruleset: Ruleset | None = None) -> None:
    kinds = kinds_of(ruleset)
    if kind not in kinds:
        raise AuthoringError(f"unknown content type `{kind}`; one of: {', '.join(kinds)}")


def _check_form_kind(kind: str) -> None:
    """A form edits a script of any kind (its text says which it is) or a YAML item of a data kind."""
    if not isinstance(kind, str) or not _IDENTIFIER.match(kind):
        raise AuthoringError(f"unknown content type `{kind}`; one of: {', '.join(KINDS)}")


def is_script_kind(kind: str) -> bool:
    """Whether an item of `kind` is a script (any kind but the YAML data kinds: packs declare kinds)."""
    return kind not in DATA_KINDS


def declaration_file(kind: str, ident: str) -> str:
    """The file, relative to its pack's folder, that a new `kind` declaration `ident` is saved to by
    default. A kind missing from `SCRIPT_FOLDERS` still gets a folder of its own: its plural."""
    return f"{SCRIPT_FOLDERS.get(kind, kind + 's')}/{ident}{SCRIPT_SUFFIX}"


# ---------------------------------------------------------------- templates
_SCRIPT_TEMPLATES = {
    "command": '''command {id} {name} {{
    group melee
    tags melee
    flavor "One line of colour from the arena."
    text "Attack a helot in one of your three forward squares: on a success, 2 damage to overall condition."
    targets opponent
    param extra_damage = 2
    cost 2 AP
    requires target in front_arc(self) else "the target must stand in one of your three forward squares"
    roll attack SD vs defense
    on success {{
        damage target by extra_damage
    }}
}}
''',
    "trait_ability": '''trait_ability {id} {name} {{
    tags physicality
    flavor "One line of colour from the arena."
    text "Play when your helot has declared an attack, before the dice are rolled: your helot is +SDS to attack."
    param bonus = +SDS
    cost 2 PHYS
    window before_rolls by self
    requires self.fighting else "your helot is down"
    effect {{
        slide_roll attack by bonus
    }}
}}
''',
    "hazard": '''hazard {id} {name} {{
    activation duplicate
    flavor "One line of colour from the arena."
    text "On a Turning Point Roll Duplicate, every helot still fighting takes 1 damage to overall condition, paid to the crowd."
    param hazard_damage = 1
    when turning_point_duplicate {{
        for each h in pieces() {{
            if h.fighting {{
                damage h by hazard_damage to crowd
            }}
        }}
    }}
}}
''',
    "drawn_card": '''drawn_card {id} {name} {{
    tags crowd
    flavor "One line of colour from the arena."
    text "Every helot still fighting takes 2 damage to overall condition, paid to the crowd."
    param crowd_damage = 2
    effect {{
        for each h in pieces() {{
            if h.fighting {{
                damage h by crowd_damage to crowd
            }}
        }}
    }}
}}
''',
    "hand_card": '''hand_card {id} {name} {{
    tags bribe
    flavor "One line of colour from the arena."
    text "Play when your helot has declared an attack, before the dice are rolled: your helot is +SDS to attack."
    param bribe_bonus = +SDS
    cost 1 cred
    window before_rolls by self
    requires self.fighting else "your helot is down"
    effect {{
        slide_roll attack by bribe_bonus
    }}
}}
''',
    "weapon": '''weapon {id} {name} {{
    type one_handed
    damage 2
    durability 3
    draw 1
    store 1
    flavor "One line of colour from the arena."
    text "A one-handed weapon: +2 damage to melee attacks. It breaks after 3 defended attacks. Draw 1 AP, store 1 AP."
}}
''',
    "rule": '''rule {id} {name} {{
    flavor "One line of colour from the arena."
    text "Describe the rule, numbers included."
    param {id}_amount = 1
}}
''',
    "state": '''state {id} {name} {{
    flavor "One line of colour from the arena."
    text "What a helot in this state can and cannot do, and how it ends."
}}
''',
    "stat": '''stat {id} {name} {{
    group location
    start 10
    text "A body location of its own: where damage can land, with the condition it starts with."
}}
''',
    "card": '''card {id} {name} {{
    text "What the card is: its fields (a number, a word or text each) are read by `card_value`."
    value 1
}}
''',
    "pile": '''pile {id} {name} {{
    text "What the coins in this pile stand for, and who moves them in and out."
}}
''',
    "event": '''event {id} {name} {{
    text "When it happens: a script raises it with `signal`, and `when` clauses listen to it."
    arg self: helot
}}
''',
    "window": '''window {id} {name} {{
    text "The moment it opens, and whom it is about."
    arg self: helot
}}
''',
    "zone": '''zone {id} {name} {{
    holds influence
    drawn kept
    text "What the deck holds and who draws from it: rules draw with `draw {id} for <helot>`."
}}
''',
    "procedure": '''procedure {id} {name} {{
    text "What it does to the helots it is given: rules run it with `{id} <helot> <number>`."
    arg victim: helot
    arg amount: number
    effect {{
        damage victim by amount
    }}
}}
''',
    # A game of a pack that builds on another overrides that pack's game by its id; a new game is
    # for a pack of its own (`builds_on: []`) or for a pack whose packs declare none.
    "game": '''game {id} {name} {{
    text "How the game is won: a side stands by its lanistas' cred, and a procedure of no args gives the verdict."
    score cred
    verdict most_cred
}}
''',
    # A kind of card of the pack's own, named after a built-in kind of card.
    "kind": '''kind {id} {name} {{
    like hand_card
    text "A card kept in a hand and played in a timing window: a zone holding it keeps the cards drawn from it."
}}
''',
    "turn": '''turn {id} {name} {{
    text "A piece's turn: the events that mark it, how long it lasts, and what opens it."
    starts round_starts
    ends round_ends
    over round_over
    length 1
    effect {{
        allocate_points self
    }}
}}
''',
}

_DATA_TEMPLATES = {
    "lanista": '''id: {id}
name: {name}
flavor: "One line of colour from the arena."
influence: 2
deception: 1
command: 2
''',
    "motivation": '''id: {id}
name: {name}
description: "What drives this helot, and how it fights."
flavor: "One line of colour from the arena."
advantages: {{PHYS: 2, INST: 2, WILL: 1}}
abilities: [jack_of_all_traits]
''',
    "barge": '''id: {id}
name: {name}
description: "What makes this barge different."
objects:
  - {{type: pillar, at: [3, 3]}}
  - {{type: pillar, at: [6, 6]}}
  - {{type: pillar, at: [3, 6]}}
  - {{type: pillar, at: [6, 3]}}
hazards: [brazier, floor_spikes]
''',
    "object_type": '''id: {id}
name: {name}
description: "What the piece is and what it does on the barge."
blocks: true
cover: true
''',
}


def template(kind: str, ident: str, name: str, ruleset: Ruleset | None = None) -> str:
    """A valid starting text for a new item of this kind (it validates against the base pack). A
    kind the packs of `ruleset` declare starts from the template of the built-in kind it is like."""
    _check_kind(kind, ruleset)
    if not _IDENTIFIER.match(ident or ""):
        raise AuthoringError(f"`{ident}` is not a usable id: use snake_case letters, digits and `_`")
    like = ruleset.words.base_kind(kind) if ruleset is not None else kind
    if like is not None and like != kind and like in _SCRIPT_TEMPLATES:  # written with the declared kind's word
        return kind + _SCRIPT_TEMPLATES[like].format(id=ident, name=quote(name))[len(like):]
    if kind in _SCRIPT_TEMPLATES:
        return _SCRIPT_TEMPLATES[kind].format(id=ident, name=quote(name))
    if kind not in _DATA_TEMPLATES:
        raise AuthoringError(f"kind `{kind}` is like no kind of card: declare it `like hand_card` or `like drawn_card`")
    return _DATA_TEMPLATES[kind].format(id=ident, name=_yaml_scalar(name))


def _yaml_scalar(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=10**6, allow_unicode=True, sort_keys=False).strip().removesuffix("...").strip()


# ---------------------------------------------------------------- duplicates
def kind_of(ruleset: Ruleset, ident: str) -> str | None:
    """The content type of the item with this id (the first found, scripts before data)."""
    for item in ruleset.find(ident):
        if isinstance(item, ScriptItem):
            return item.declaration.kind
        return {v: k for k, v in DATA_KINDS.items()}.get(item.type)
    return None


def duplicate(ruleset: Ruleset, ident: str, new_ident: str, new_name: str) -> str:
    """The existing item's source (canonical for scripts) under a new id and name."""
    found = ruleset.find(ident)
    if not found:
        raise AuthoringError(f"nothing with id `{ident}` in the loaded packs"
                             + (f"; {hint}" if (hint := did_you_mean(ident, _all_ids(ruleset))) else ""))
    if not _IDENTIFIER.match(new_ident or ""):
        raise AuthoringError(f"`{new_ident}` is not a usable id: use snake_case letters, digits and `_`")
    item = found[0]
    if isinstance(item, ScriptItem):
        declaration = dataclasses.replace(item.declaration, id=new_ident, name=new_name)
        return print_declaration(declaration)
    data = thaw(item.data)
    data["id"] = new_ident
    data["name"] = new_name
    return dump_item(data)


def _all_ids(ruleset: Ruleset) -> set[str]:
    ids = {i for items in ruleset.scripts.values() for i in items}
    return ids | {i for items in ruleset.data.values() for i in items}




def dump_item(data: Mapping[str, Any]) -> str:
    """A data item as YAML in the packs' house style: one key a line, short lists and mappings
    inline, lists of mappings (a barge's objects) one entry a line."""
    lines = []
    for key, value in data.items():
        lines.append(_key_text(key, value))
    return "\n".join(lines) + "\n"


def _key_text(key: str, value: Any) -> str:
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return f"{key}:\n" + "\n".join(f"  - {_yaml_scalar(v)}" for v in value)
    return f"{key}: {_yaml_scalar(value)}"


# ---------------------------------------------------------------- validation
def validate_item(kind: str, text: str, packs_ruleset: Ruleset | None) -> Validation:
    """Parse, check, schema-validate and cross-check one item in the context of the loaded packs
    (the item replacing any item with the same id). Never raises: an unknown kind, any text (YAML
    is loaded within the limits of `limits.py`) and even a fault of the tool come back as diagnostics."""
    kinds = kinds_of(packs_ruleset)
    if kind not in kinds:
        return Validation(str(kind), None, [_problem("authoring/unknown_kind", f"unknown content type `{kind}`",
                                                     hint="one of: " + ", ".join(kinds))])
    try:
        if is_script_kind(kind):
            return _validate_script(kind, text, packs_ruleset)
        return _validate_data(kind, text, packs_ruleset)
    except NexusError as error:
        return Validation(kind, None, list(error.diagnostics))
    except Exception as error:  # noqa: BLE001 - documented never to raise: the editor shows it as a problem
        return Validation(kind, None, [internal_error(ITEM_FILE, error)])


#: Verdicts kept per ruleset, on the texts checked last: the card editor's page runs again at every
#: click, mostly on a text it has checked already (and a pause in typing often mends what it broke).
KEPT_VERDICTS = 16
_VERDICTS_LOCK = threading.Lock()  # a ruleset is shared by the editor's sessions, served from threads


def checked_item(kind: str, text: str, packs_ruleset: Ruleset | None) -> Validation:
    """`validate_item`, kept for the ruleset and the very text (and kind) checked: the verdict is
    shared, read it, never change it."""
    if packs_ruleset is None:
        return validate_item(kind, text, None)
    kept: LRUCache[tuple[str, str], Validation] = packs_ruleset.derived(
        "item_verdicts", lambda: LRUCache(maxsize=KEPT_VERDICTS))
    with _VERDICTS_LOCK:
        verdict = kept.get((kind, text))
    if verdict is None:
        verdict = validate_item(kind, text, packs_ruleset)
        with _VERDICTS_LOCK:
            kept[(kind, text)] = verdict
    return verdict


def _problem(code: str, message: str, line: int = 1, column: int = 1, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, ITEM_FILE, line, column, hint=hint)


def _validate_script(kind: str, text: str, ruleset: Ruleset | None) -> Validation:
    declarations = parse(text, ITEM_FILE).declarations
    if len(declarations) != 1:
        return Validation(kind, None, [_problem("authoring/one_item", f"write exactly one {kind} (found {len(declarations)})")])
    declaration = declarations[0]
    if declaration.kind != kind:
        return Validation(kind, declaration.id, [_problem(
            "authoring/wrong_kind", f"this is a {declaration.kind}, not a {kind}",
            declaration.pos.line, declaration.pos.column, hint=f"start the declaration with `{kind}`")])
    # Checked and schema-validated as `nexus check` does a lone file (a declared kind's as its like's).
    diagnostics = check_script_module(A.Module(declarations=(declaration,), file=ITEM_FILE), ITEM_FILE, ruleset)
    result = Validation(kind, declaration.id, diagnostics, flavor=_property_string(declaration, "flavor"))
    if result.ok:
        settings = dict(ruleset.settings) if ruleset is not None else {}
        pack = ruleset.packs[-1].id if ruleset is not None and ruleset.packs else ""
        result.face = script_face(ScriptItem(declaration, Origin(pack, ITEM_FILE, declaration.pos.line)), settings,
                                  ruleset)
    return result


def _property_string(declaration: A.Declaration, name: str) -> str | None:
    prop = declaration.property(name)
    if prop and prop.values and isinstance(prop.values[0], A.Str):
        return prop.values[0].value
    return None


def _validate_data(kind: str, text: str, ruleset: Ruleset | None) -> Validation:
    data, positions = load_yaml_with_positions(text, ITEM_FILE)
    prefix: tuple = ()
    if isinstance(data, list) and len(data) == 1:
        data, prefix = data[0], (0,)
    if not isinstance(data, dict):
        return Validation(kind, None, [_problem("authoring/not_a_mapping", f"a {kind} is a YAML mapping of keys (id, name, ...)")])
    own = {path[len(prefix):]: at for path, at in positions.items() if path[:len(prefix)] == prefix}
    ident = data.get("id") if isinstance(data.get("id"), str) else None
    diagnostics = validate(data, kind, file=ITEM_FILE, locate=own.get)
    result = Validation(kind, ident, diagnostics, flavor=data.get("flavor") if isinstance(data.get("flavor"), str) else None)
    if diagnostics:
        return result
    line = (own.get(()) or own.get(("id",)) or (1, 1))[0]
    pack = ruleset.packs[-1].id if ruleset is not None and ruleset.packs else ""
    item = DataItem(DATA_KINDS[kind], ident or "", freeze_mapping(dict(data)), Origin(pack, ITEM_FILE, line), own)
    result.diagnostics += _cross_references(kind, item, ruleset)
    if result.ok:
        result.face = data_face(item, ruleset)
    return result


def _cross_references(kind: str, item: DataItem, ruleset: Ruleset | None) -> list[Diagnostic]:
    if ruleset is None:
        return []
    data, at = item.data, item.positions
    problems: list[Diagnostic] = []

    def dangling(path: tuple, what: str, name: str, known: set[str]) -> None:
        line, column = at.get(path) or (item.origin.line, 1)
        problems.append(_problem("content/dangling_reference", f"{kind} `{item.id}` names unknown {what} `{name}`",
                                 line, column, did_you_mean(name, known)))

    if kind == "motivation":
        abilities = set(ruleset.scripts.get("trait_ability", {}))
        for index, ability in enumerate(data.get("abilities") or []):
            if ability not in abilities:
                dangling(("abilities", index), "trait ability", ability, abilities)
        talents = abilities | set(ruleset.scripts.get("rule", {}))
        talent = data.get("talent")
        if talent and talent not in talents:
            dangling(("talent",), "talent", talent, talents)
    elif kind == "barge":
        object_types = set(ruleset.data.get("objects", {}))
        hazards = set(ruleset.scripts.get("hazard", {}))
        for index, obj in enumerate(data.get("objects") or []):
            if obj["type"] not in object_types:
                dangling(("objects", index, "type"), "object type", obj["type"], object_types)
        for index, hazard in enumerate(data.get("hazards") or []):
            if hazard not in hazards:
                dangling(("hazards", index), "hazard", hazard, hazards)
        if not problems:
            problems += barge_problems(data, ruleset, file=ITEM_FILE, line=item.origin.line, locate=at.get)
    return problems


# ---------------------------------------------------------------- card preview
_CARD_STYLE = ("font-family:Georgia,serif;max-width:26em;border:2px solid #5b4636;border-radius:10px;"
               "padding:0.8em 1em;background:#f7f0e1;color:#2b2118;margin:0.5em 0")
_LINE_STYLES = {
    "head": "font-size:1.25em;font-weight:bold;margin:0",
    "kind": "font-size:0.85em;text-transform:uppercase;letter-spacing:0.05em;color:#7a5c3e;margin:0 0 0.4em 0",
    "cost": "font-weight:bold;color:#8a2c1d;margin:0.2em 0",
    "text": "margin:0.5em 0",
    "rules": "font-family:system-ui,sans-serif;font-size:0.85em;margin:0.4em 0;padding-left:1.1em",
    "flavor": "font-style:italic;color:#6b5a48;border-top:1px solid #cdbb9a;margin-top:0.6em;padding-top:0.4em",
    "figure": "font-family:monospace;font-size:0.8em;line-height:1.2;margin:0.4em 0",
    "id": "font-family:monospace;font-size:0.75em;color:#8c7a66",
    "assumed": "font-size:0.8em;border:1px dashed #b5651d;border-radius:6px;background:#fff4d6;color:#7a3e00;"
               "padding:0.3em 0.5em;margin:0.5em 0 0 0",
}


def card_face_html(face: CardFace, flavor: str | None = None) -> str:
    """The card as players read it — name, type, cost, the designer's text, the generated rules
    lines and the flavour — as a self-contained HTML snippet (inline CSS, everything escaped)."""
    esc = html.escape
    kind = face.kind_title
    parts = [f'<div class="nexus-card" style="{_CARD_STYLE}">',
             f'<p style="{_LINE_STYLES["head"]}">{esc(face.name)}</p>',
             f'<p style="{_LINE_STYLES["kind"]}">{esc(kind)} · <span style="{_LINE_STYLES["id"]}">{esc(face.id)}</span></p>']
    costs = [line for line in face.lines if line.startswith("Cost: ")]
    for line in costs:
        parts.append(f'<p style="{_LINE_STYLES["cost"]}">{esc(line)}</p>')
    if face.prose:
        parts.append(f'<p style="{_LINE_STYLES["text"]}">{esc(face.prose)}</p>')
    rules = [line for line in face.lines if not line.startswith("Cost: ")]
    if rules:
        items = "".join(f'<li style="list-style:none;white-space:pre-wrap">{esc(line)}</li>' for line in rules)
        parts.append(f'<ul style="{_LINE_STYLES["rules"]}">{items}</ul>')
    if face.figure:
        parts.append(f'<pre style="{_LINE_STYLES["figure"]}">{esc(chr(10).join(face.figure))}</pre>')
    if face.assumed:
        parts.append(f'<p class="nexus-assumed" style="{_LINE_STYLES["assumed"]}">&#9888; {esc(ASSUMED_MARK)}: '
                     f'{esc(face.assumed)}</p>')
    if flavor and flavor != face.prose:
        parts.append(f'<p style="{_LINE_STYLES["flavor"]}">{esc(flavor)}</p>')
    parts.append("</div>")
    return "\n".join(parts)


# ---------------------------------------------------------------- form fields
def fields_of(kind: str, text: str) -> dict[str, Any]:
    """The values a form edits. Scripts: id, name, flavor, text, cost (`2 AP, 1 cred`), window
    (`before_rolls by self`) and tags (a list). YAML kinds: every key. Raises NexusError on text
    that does not parse."""
    _check_form_kind(kind)
    if not is_script_kind(kind):
        data, _ = load_yaml_with_positions(text, ITEM_FILE)
        if not isinstance(data, dict):
            raise AuthoringError(f"a {kind} is a YAML mapping of keys (id, name, ...)")
        return thaw(data)
    declaration = _single_declaration(text)
    cost = declaration.clauses_of(A.Cost)
    window = declaration.clauses_of(A.Window)
    tags = declaration.property("tags")
    return {
        "id": declaration.id,
        "name": declaration.name,
        "flavor": _property_string(declaration, "flavor") or "",
        "text": _property_string(declaration, "text") or "",
        "cost": _cost_text(cost[0]) if cost else "",
        "window": (window[0].name + (f" by {window[0].by}" if window[0].by else "")) if window else "",
        "tags": [_tag_text(v) for v in tags.values] if tags else [],
    }


def _single_declaration(text: str) -> A.Declaration:
    declarations = parse(text, ITEM_FILE).declarations
    if len(declarations) != 1:
        raise AuthoringError(f"the text holds {len(declarations)} declarations; edit one at a time")
    return declarations[0]


def _cost_text(cost: A.Cost) -> str:
    from ..syntax.printer import print_expr

    return ", ".join(f"{print_expr(i.amount)} {i.resource}" for i in cost.items)


def _tag_text(value: A.Expr) -> str:
    if isinstance(value, A.Str):
        return value.value
    if isinstance(value, A.Name):
        return value.id
    from ..syntax.printer import print_expr

    return print_expr(value)


def apply_fields(kind: str, text: str, fields: Mapping[str, Any]) -> str:
    """The item's text with the form's values written in. Only the keys given change; for scripts
    the text is reprinted canonically with its comments, for YAML the other lines stay as written.
    An empty cost, window, flavor, text or tags removes the clause; a YAML value of None removes the key."""
    _check_form_kind(kind)
    if not is_script_kind(kind):
        return _apply_yaml_fields(text, fields)
    unknown = set(fields) - set(SCRIPT_FIELDS)
    if unknown:
        raise AuthoringError(f"a form edits {', '.join(SCRIPT_FIELDS)}; not {', '.join(sorted(unknown))}")
    module = parse(text, ITEM_FILE)
    if len(module.declarations) != 1:
        raise AuthoringError(f"the text holds {len(module.declarations)} declarations; edit one at a time")
    declaration = module.declarations[0]
    clauses = list(declaration.clauses)
    if "id" in fields:
        if not _IDENTIFIER.match(str(fields["id"])):
            raise AuthoringError(f"`{fields['id']}` is not a usable id: use snake_case letters, digits and `_`")
        declaration = dataclasses.replace(declaration, id=str(fields["id"]))
    if "name" in fields:
        declaration = dataclasses.replace(declaration, name=str(fields["name"]))
    for name in ("flavor", "text"):
        if name in fields:
            value = str(fields[name] or "")
            _set_clause(clauses, lambda c, n=name: isinstance(c, A.Property) and c.name == n,
                        A.Property(name=name, values=(A.Str(value=value),)) if value else None, _after_properties)
    if "tags" in fields:
        tags = [str(t).strip() for t in (fields["tags"] or []) if str(t).strip()]
        values = tuple(A.Name(id=t) if _IDENTIFIER.match(t) else A.Str(value=t) for t in tags)
        _set_clause(clauses, lambda c: isinstance(c, A.Property) and c.name == "tags",
                    A.Property(name="tags", values=values) if values else None, lambda cs: 0)
    if "cost" in fields:
        new = _parsed_clause(f"cost {fields['cost']}", A.Cost) if str(fields["cost"] or "").strip() else None
        _set_clause(clauses, lambda c: isinstance(c, A.Cost), new, _after_setup)
    if "window" in fields:
        new = _parsed_clause(f"window {fields['window']}", A.Window) if str(fields["window"] or "").strip() else None
        _set_clause(clauses, lambda c: isinstance(c, A.Window), new, _after_setup)
    declaration = dataclasses.replace(declaration, clauses=tuple(clauses))
    return print_module(A.Module(declarations=(declaration,)), CommentQueue.scan(text))


def _set_clause(clauses: list, matches, new: Any, where) -> None:
    """Replace the first matching clause (keeping its position, so its comments stay with it),
    remove it when `new` is None, or insert `new` where `where(clauses)` says."""
    for index, clause in enumerate(clauses):
        if matches(clause):
            if new is None:
                del clauses[index]
            else:
                clauses[index] = dataclasses.replace(new, pos=clause.pos)
            return
    if new is not None:
        clauses.insert(where(clauses), new)


def _after_properties(clauses: list) -> int:
    indexes = [i for i, c in enumerate(clauses) if isinstance(c, A.Property)]
    return indexes[-1] + 1 if indexes else 0


def _after_setup(clauses: list) -> int:
    indexes = [i for i, c in enumerate(clauses) if isinstance(c, (A.Property, A.Param, A.Arg, A.Cost, A.Window))]
    return indexes[-1] + 1 if indexes else 0


def _parsed_clause(source: str, cls: type) -> Any:
    """One clause parsed from a form's value, with no source position (it is new text)."""
    declaration = parse(f'rule form_value "form" {{\n    {source}\n}}\n', "<form>").declarations[0]
    found = declaration.clauses_of(cls)
    if len(declaration.clauses) != 1 or not found:
        raise AuthoringError(f"`{source}` is not a single {cls.__name__.lower()} clause")
    return dataclasses.replace(found[0], pos=A.NO_POS)


def _apply_yaml_fields(text: str, fields: Mapping[str, Any]) -> str:
    try:
        document, locate = compose_yaml(text, ITEM_FILE)
    except NexusError:
        raise AuthoringError("the item is not readable YAML; fix it before using the form") from None
    if document is not None and not isinstance(document, yaml.MappingNode):
        raise AuthoringError("a data item is a YAML mapping of keys (id, name, ...)")
    lines = source_lines(text, keepends=True)  # the lines `locate` counts
    spans: dict[str, tuple[int, int]] = {}  # a key's lines, as a slice of `lines`
    if document is not None:
        for key, value in document.value:
            if isinstance(key, yaml.ScalarNode):
                spans[key.value] = (locate(key)[0] - 1, max(last_line(key, locate), last_line(value, locate)))
    appended: list[str] = []
    for key in sorted(fields, key=lambda k: -spans.get(k, (-1, -1))[0]):
        value = fields[key]
        new = [] if value is None else [_key_text(key, thaw(value)) + "\n"]
        if key in spans:
            start, end = spans[key]
            lines[start:end] = new
        elif new:
            appended.extend(new)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return "".join(lines) + "".join(appended)
