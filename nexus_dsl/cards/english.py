"""Rules text in the game's own English, generated from a declaration's script.

`Speaker` turns expressions, conditions and statements into sentences a player reads, filling the
templates of `phrases.py` with the game's own names: a declared state, stat, pile, event, window,
command or procedure by its declaration's name, an object by its data's name, a piece by the game's
word for one (`piece_word`). Every expression has a reading, so no script syntax reaches a face;
a word no table knows is said by its own words, never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from .. import vocabulary as V
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from ..syntax.printer import sds_text
from .phrases import (ATTRIBUTE_CONDITIONS, ATTRIBUTE_NOUNS, COMPARISONS, FUNCTION_PHRASES, OPERATORS,
                      PRIMITIVE_PHRASES, Phrase)

# The numbers a card's params and the rules' settings stand for, substituted while rendering so a
# player reads "4 more damage" rather than a param's name.
Known = dict[str, Any]  # name -> the constant it stands for

# The declaration kinds whose names a script's bare word may stand for, in the order looked up.
# An object (objects data) is looked up after the game's words and before the cards, so a hazard
# sharing an object's id (a hazard of braziers) leaves the object its own name.
WORD_KINDS = ("state", "stat", "pile", "zone", "event", "window", "procedure")
CARD_KINDS = ("command", "trait_ability", "hazard", "weapon", "hand_card", "drawn_card", "card")

_OPTIONAL = re.compile(r"\[([^\[\]|]*)(?:\|([^\[\]]*))?\]")
_FIELD = re.compile(r"\{(\w+)(?::(\w+))?\}")
# A field of a template is an expression to put in words, or words already made.
Field = A.Expr | str | None


def words_of(ident: str) -> str:
    """An identifier as words: `left_upper` -> `left upper`, `to_` -> `to`."""
    return ident.strip("_").replace("_", " ")


def possessive(words: str) -> str:
    if words == "you":
        return "your"
    return words + ("'" if words.endswith("s") else "'s")


def with_article(words: str, article: str) -> str:
    if words.startswith(("the ", "a ", "an ", "your ", "every ", "that ")):
        return words
    if article == "the":
        return "the " + words
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


def sentence(text: str) -> str:
    """`text` as a sentence: its first letter a capital, a full stop at its end."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", ":", "!", "?")) else text + "."


def constant_int(expr: A.Expr) -> int | None:
    """The whole number a literal (a number, a scale level or a negated one) stands for."""
    if isinstance(expr, A.Num):
        return expr.value
    if isinstance(expr, A.ScaleLevel):
        return expr.level
    if isinstance(expr, A.Neg):
        inner = constant_int(expr.operand)
        return -inner if inner is not None else None
    return None


def substitute(expr: A.Expr, known: Known) -> A.Expr:
    """`expr` with each name of a known whole number or flag replaced by its value."""
    if isinstance(expr, A.Name) and expr.id in known:
        value = known[expr.id]
        if isinstance(value, bool):
            return A.Bool(value=value)
        if isinstance(value, int):
            return A.Num(value=value) if value >= 0 else A.Neg(operand=A.Num(value=-value))
        return expr
    if isinstance(expr, A.Binary):
        return A.Binary(op=expr.op, left=substitute(expr.left, known), right=substitute(expr.right, known))
    if isinstance(expr, A.Compare):
        return A.Compare(op=expr.op, left=substitute(expr.left, known), right=substitute(expr.right, known))
    if isinstance(expr, A.Neg):
        return A.Neg(operand=substitute(expr.operand, known))
    if isinstance(expr, A.Not):
        return A.Not(operand=substitute(expr.operand, known))
    if isinstance(expr, A.Call):
        return A.Call(func=expr.func, args=tuple(substitute(a, known) for a in expr.args), kwargs=expr.kwargs)
    return expr


def deny(template: str) -> str:
    """The denial of a membership template: `there is {x:a}` becomes `there is no {x}`, `is` `is not`."""
    found = re.match(r"there is \{(\w+):a\}", template)
    if found:
        return f"there is no {{{found.group(1)}}}" + template[found.end():]
    return template.replace(" is ", " is not ", 1)


@dataclass
class Speaker:
    """Says a declaration's script in words. `self_words` is who `self` is on this face ("your
    piece" on a card a player uses, "the piece" on a rule heard for every piece)."""

    ruleset: Ruleset | None = None
    known: Known = field(default_factory=dict)
    self_words: str = "your piece"
    # The names bound on this face (its args, lets, loop variables, `into` names), with their words.
    bound: dict[str, str] = field(default_factory=dict)

    def bind(self, names: Mapping[str, str] | list[str]) -> None:
        """Names an event or a window binds, each said as `the <name>` (who acts stays `self`)."""
        for name in names:
            if name != "self":
                self.bound[name] = "the " + words_of(name)

    # ------------------------------------------------------------ the game's names
    @property
    def actor(self) -> str:
        return self.ruleset.game.actor_word if self.ruleset is not None else "piece"

    def declared_name(self, ident: str) -> str | None:
        """The name the packs give `ident`: a declaration's, else an object's."""
        if self.ruleset is None:
            return None
        for kind in WORD_KINDS:
            declaration = self.ruleset.declaration(kind, ident)
            if declaration is not None and declaration.name:
                return declaration.name
        data = self.ruleset.data_item("objects", ident)
        if data is not None:
            return str(data.get("name") or words_of(ident))
        for kind in CARD_KINDS:
            declaration = self.ruleset.declaration(kind, ident)
            if declaration is not None and declaration.name:
                return declaration.name
        return None

    def _owned_pile(self) -> str | None:
        owned = self.ruleset.words.owned_piles if self.ruleset is not None else ()
        return self.declared_name(owned[0]) if owned else None

    def name(self, ident: str, type_hint: str = "") -> str:
        if ident == "self":
            pile = self._owned_pile() if type_hint == "pile" else None
            return f"your {pile}" if pile and self.self_words.startswith("your ") else self.self_words
        if ident in self.bound:
            return self.bound[ident]
        value = self.known.get(ident)
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, str):
            return words_of(value)
        declared = self.declared_name(ident)
        if declared is not None:
            return ("the " + declared[4:]) if declared.startswith("The ") else declared
        if any(ident in members for members in V.ENUM_TYPES.values()):
            return words_of(ident)
        return "the " + words_of(ident)

    def attribute(self, name: str) -> str:
        declared = self.declared_name(name) if name not in ATTRIBUTE_NOUNS else None
        return declared or ATTRIBUTE_NOUNS.get(name) or words_of(name)

    def _hold_names(self) -> tuple[str, str]:
        hold = self.ruleset.words.hold if self.ruleset is not None else None
        return (hold.holding, hold.held_by) if hold is not None else ("holding", "held_by")

    # ------------------------------------------------------------ values
    def noun(self, expr: A.Expr, type_hint: str = "") -> str:
        """A value in words, as a noun phrase."""
        expr = substitute(expr, self.known)
        if isinstance(expr, A.Num):
            return str(expr.value)
        if isinstance(expr, A.Neg):
            return "-" + self.noun(expr.operand)
        if isinstance(expr, A.Str):
            return f"\u201c{expr.value.replace('_', ' ')}\u201d"
        if isinstance(expr, A.Bool):
            return "true" if expr.value else "false"
        if isinstance(expr, A.NoneLit):
            return "no one"
        if isinstance(expr, A.ScaleLevel):
            return sds_text(expr.level)
        if isinstance(expr, A.Name):
            words = self.name(expr.id, type_hint)
            owned = self._owned_pile() if type_hint == "pile" and expr.id != "self" else None
            # A piece where a pile is wanted stands for its player's first pile ("that piece's Cred").
            if owned and (self.ruleset is None or expr.id not in self.ruleset.words.piles):
                return f"{possessive(words)} {owned}"
            return words
        if isinstance(expr, A.ListLit):
            return self.listing([self.noun(item, type_hint) for item in expr.items])
        if isinstance(expr, A.Attr):
            return self._attr_noun(expr)
        if isinstance(expr, A.Index):
            return f"entry {self.noun(expr.index)} of {self.noun(expr.obj)}"
        if isinstance(expr, A.Call):
            return self.call(expr)
        if isinstance(expr, A.Binary) and expr.op not in ("and", "or"):
            return f"{self.noun(expr.left)} {OPERATORS[expr.op]} {self.noun(expr.right)}"
        return self.condition(expr)

    def listing(self, items: list[str]) -> str:
        if len(items) <= 1:
            return items[0] if items else "nothing"
        return ", ".join(items[:-1]) + " and " + items[-1]

    def _attr_noun(self, expr: A.Attr) -> str:
        owner = self.noun(expr.obj)
        holding, held_by = self._hold_names()
        if expr.name == holding:
            return f"the {self.actor} {owner} is {words_of(holding)}"
        if expr.name == held_by:
            return f"the {self.actor} {owner} is {words_of(held_by)}"
        if expr.name in (self.ruleset.words.owned_piles if self.ruleset is not None else ()) and owner == self.self_words \
                and owner.startswith("your "):
            return f"your {self.attribute(expr.name)}"
        return f"{possessive(owner)} {self.attribute(expr.name)}"

    def call(self, expr: A.Call, negate: bool = False) -> str:
        phrase = FUNCTION_PHRASES.get(expr.func)
        signature = V.FUNCTIONS.get(expr.func)
        if phrase is None or signature is None:
            args = self.listing([self.noun(a) for a in expr.args]) if expr.args else ""
            return words_of(expr.func) + (f" of {args}" if args else "")
        template = (phrase.holds_not or f"it is not so that {phrase.text}") if negate else phrase.text
        said = self.fill(template, {str(i): arg for i, arg in enumerate(expr.args)}, dict(enumerate(signature.positional)))
        named = [f"{words_of(k.name)} {self.noun(k.value)}" for k in expr.kwargs]
        return said + (f" ({', '.join(named)})" if named else "")

    # ------------------------------------------------------------ conditions
    def condition(self, expr: A.Expr, negate: bool = False) -> str:
        """A condition in words; `negate` says its denial."""
        expr = substitute(expr, self.known)
        if isinstance(expr, A.Not):
            return self.condition(expr.operand, not negate)
        if isinstance(expr, A.Binary) and expr.op in ("and", "or"):
            op = expr.op if not negate else ("or" if expr.op == "and" else "and")
            return f"{self._part(expr.left, op, negate)} {op} {self._part(expr.right, op, negate)}"
        if isinstance(expr, A.Compare):
            return self._compare(expr, negate)
        if isinstance(expr, A.Call) and expr.func in FUNCTION_PHRASES:
            return self.call(expr, negate)
        if isinstance(expr, A.Attr) and expr.name in ATTRIBUTE_CONDITIONS:
            yes, no = ATTRIBUTE_CONDITIONS[expr.name]
            return (no if negate else yes).format(self.noun(expr.obj))
        if isinstance(expr, A.Bool):
            return "never" if expr.value == negate else "always"
        if isinstance(expr, A.Name) and expr.id not in ("self",) and self.declared_name(expr.id) is None:
            words = words_of(expr.id)
            return f"not {words}" if negate else words
        words = self.noun(expr)
        return f"{words} does not hold" if negate else f"{words} holds"

    def _part(self, expr: A.Expr, op: str, negate: bool) -> str:
        """One side of `and`/`or`, bracketed in words where it mixes the other."""
        text = self.condition(expr, negate)
        inner = expr.operand if isinstance(expr, A.Not) else expr
        if isinstance(inner, A.Binary) and inner.op in ("and", "or"):
            inner_op = inner.op if not (negate ^ isinstance(expr, A.Not)) else ("or" if inner.op == "and" else "and")
            if inner_op != op:
                return f"either {text}" if inner_op == "or" else f"both {text}"
        return text

    def _compare(self, expr: A.Compare, negate: bool) -> str:
        yes, no = COMPARISONS[expr.op]
        verb = no if negate else yes
        if expr.op in ("in", "not in") and isinstance(expr.right, A.Call):
            phrase = FUNCTION_PHRASES.get(expr.right.func)
            if phrase is not None and phrase.member:
                denied = negate != (expr.op == "not in")
                template = deny(phrase.member) if denied else phrase.member
                fields: dict[str, Field] = {str(i): arg for i, arg in enumerate(expr.right.args)}
                fields["item"] = expr.left
                fields["it"] = self.noun(expr.right)
                return self.fill(template, fields, dict(enumerate(V.FUNCTIONS[expr.right.func].positional)))
        if isinstance(expr.left, A.Call) and expr.left.func == "count" and expr.left.args \
                and (some := self._some(expr.op, constant_int(expr.right))) is not None:
            any_at_all = some != negate
            return f"there is {'at least one of' if any_at_all else 'none of'} {self.noun(expr.left.args[0])}"
        if isinstance(expr.right, A.Bool) and expr.op in ("==", "!="):
            return self.condition(expr.left, negate != ((expr.op == "==") != expr.right.value))
        if isinstance(expr.right, A.NoneLit) and expr.op in ("==", "!="):
            return self._none_test(expr.left, (expr.op == "==") != negate)
        return f"{self.noun(expr.left)} {verb} {self.noun(expr.right)}"

    @staticmethod
    def _some(op: str, number: int | None) -> bool | None:
        """Whether `count(x) <op> <number>` asks for some of x (True) or none (False); None: neither."""
        if (op, number) in ((">", 0), (">=", 1), ("!=", 0)):
            return True
        if (op, number) in (("==", 0), ("<", 1), ("<=", 0)):
            return False
        return None

    def _none_test(self, expr: A.Expr, is_none: bool) -> str:
        """`x == none` in words: `there is no victim`, `your piece is holding no one`."""
        holding, held_by = self._hold_names()
        if isinstance(expr, A.Attr) and expr.name in (holding, held_by):
            return f"{self.noun(expr.obj)} is {words_of(expr.name)} {'no one' if is_none else 'someone'}"
        if isinstance(expr, A.Attr):
            return f"{self.noun(expr.obj)} has {'no' if is_none else 'a'} {self.attribute(expr.name)}"
        words = self.noun(expr)
        words = words[4:] if words.startswith("the ") else words
        return f"there is {'no ' + words if is_none else with_article(words, 'a')}"

    # ------------------------------------------------------------ templates
    def fill(self, template: str, fields: Mapping[str, Field], types: Mapping[int | str, str]) -> str:
        """`template` with its fields in words (see phrases.py), each read as the type it stands
        for (a positional by its index, a preposition by its name); optional parts only where given."""
        given = {**fields, "self": self.self_words, "actor": self.actor}

        def present(text: str) -> bool:
            return all(given.get(match.group(1)) is not None for match in _FIELD.finditer(text))

        def optional(match: re.Match[str]) -> str:
            return match.group(1) if present(match.group(1)) else (match.group(2) or "")

        def value(match: re.Match[str]) -> str:
            name, form = match.group(1), match.group(2) or ""
            raw = given.get(name)
            type_hint = types.get(int(name) if name.isdigit() else name, "")
            if form == "owned":  # this field's thing, of the owner in field 0: "your piece's X", "the chosen X of ..."
                words, owner = self._form(raw, "", type_hint), self._form(given.get("0"), "", types.get(0, ""))
                return f"{words} of {owner}" if words.startswith(("the ", "a ")) else f"{possessive(owner)} {words}"
            return self._form(raw, form, type_hint)

        return _FIELD.sub(value, _OPTIONAL.sub(optional, template))

    def _form(self, raw: Field, form: str, type_hint: str) -> str:
        if raw is None:
            return ""
        if isinstance(raw, str):
            words = raw
        elif form in ("coins", "more", "change", "level"):
            return self._amount(raw, form)
        else:
            words = self.noun(raw, type_hint)
        if form == "way" and not any(isinstance(raw, A.Name) and raw.id in members for members in V.ENUM_TYPES.values()):
            return ("in " if "direction" in words else "toward ") + words
        if form == "bare" and isinstance(raw, A.Str):
            return words_of(raw.value)
        if form == "pos":
            return possessive(words)

        if form in ("a", "the"):
            return with_article(words, form)
        return words

    def _amount(self, expr: A.Expr, form: str) -> str:
        number = constant_int(substitute(expr, self.known))
        words = self.noun(expr)
        if form == "level":
            return sds_text(number) if number is not None else words
        if form == "coins":
            return f"{words} coin" if number == 1 else f"{words} coins"
        if number is None:
            return f"{words} more" if form == "more" else f"changes by {words}"
        if form == "more":
            return f"{number} more" if number >= 0 else f"{-number} less"
        return f"rises by {number}" if number >= 0 else f"falls by {-number}"

    # ------------------------------------------------------------ statements
    def action(self, action: A.Action) -> str:
        """One effect as a sentence."""
        template = PRIMITIVE_PHRASES.get(action.verb)
        signature = V.PRIMITIVES.get(action.verb)
        if template is None or signature is None:
            return sentence(self._procedure(action))
        fields: dict[str, Field] = {str(i): arg for i, arg in enumerate(action.args)}
        types: dict[int | str, str] = dict(enumerate(signature.positional))
        types.update(signature.preps)
        for prep in action.preps:
            if prep.prep == "into" and isinstance(prep.value, A.Name):
                fields["into"] = words_of(prep.value.id)
            else:
                fields[prep.prep] = prep.value
        return sentence(self.fill(template, fields, types))

    def _procedure(self, action: A.Action) -> str:
        """A run of a declared procedure (or a verb no table knows): its name, then what it is given."""
        name = self.declared_name(action.verb) or words_of(action.verb)
        given = [self.noun(a) for a in action.args] + [f"{p.prep} {self.noun(p.value)}" for p in action.preps]
        return f"{name}: {self.listing(given)}" if given else name

    def block(self, block: A.Block, depth: int = 0) -> list[str]:
        lines: list[str] = []
        pad = "  " * depth
        for stmt in block.statements:
            if isinstance(stmt, A.Action):
                lines.append(f"{pad}- {self.action(stmt)}")
            elif isinstance(stmt, A.If):
                for index, branch in enumerate(stmt.branches):
                    head = "If" if index == 0 else "Otherwise, if"
                    lines.append(f"{pad}- {head} {self.condition(branch.condition)}:")
                    lines.extend(self.block(branch.body, depth + 1))
                if stmt.otherwise is not None:
                    lines.append(f"{pad}- Otherwise:")
                    lines.extend(self.block(stmt.otherwise, depth + 1))
            elif isinstance(stmt, A.ForEach):
                lines.append(f"{pad}- {self._loop_head(stmt)}:")
                lines.extend(self.block(stmt.body, depth + 1))
            elif isinstance(stmt, A.Repeat):
                lines.append(f"{pad}- {self._repeat_head(stmt.count)}:")
                lines.extend(self.block(stmt.body, depth + 1))
            elif isinstance(stmt, A.Let):
                self.bound.setdefault(stmt.name, "the " + words_of(stmt.name))
                lines.append(f"{pad}- {sentence(f'{self.bound[stmt.name]} is {self.noun(stmt.value)}')}")
            elif isinstance(stmt, A.Set):
                lines.append(f"{pad}- {sentence(f'{self.name(stmt.name)} is now {self.noun(stmt.value)}')}")
        return lines

    def _repeat_head(self, count: A.Expr) -> str:
        number = constant_int(substitute(count, self.known))
        return f"Repeat {number} times" if number is not None else f"Repeat as many times as {self.noun(count)}"

    def _loop_head(self, stmt: A.ForEach) -> str:
        """`For every piece` (a short loop name, said by what it goes over), else `For every square
        among your piece's three forward squares`."""
        iterable = self.noun(stmt.iterable)
        phrase: Phrase | None = FUNCTION_PHRASES.get(stmt.iterable.func) if isinstance(stmt.iterable, A.Call) else None
        each = phrase.each.format(actor=self.actor) if phrase is not None and phrase.each else ""
        if len(stmt.var.strip("_")) <= 2:
            noun = each or "one"
            self.bound[stmt.var] = f"that {noun}"
            return f"For {iterable}" if iterable.startswith("every ") else f"For every {noun} among {iterable}"
        self.bound[stmt.var] = "the " + words_of(stmt.var)
        return f"For every {words_of(stmt.var)} among {iterable}"
