"""Hypothesis strategies for syntax trees the parser can produce.

Every strategy here builds `nexus_dsl.syntax.ast_nodes` values that are *reachable*: some rule-script
text parses to exactly that tree. That is what makes `parse(print(d)) == d` a fair property. The
restrictions mirror the grammar (`nexus_dsl/grammar/nexus.lark`):

- names match `[A-Za-z_][A-Za-z0-9_]*`, are not keywords, and do not start with `SD` (which could
  read as an SDS level);
- `Num` is never negative (`-3` parses as `Neg(Num(3))`), and `+x` is never generated (the parser
  folds a unary plus away);
- the right side of `is` / `is not` is always a `Name`;
- positional action arguments are simple values only (names, literals, SDS levels, calls,
  attribute and index chains); everything else goes after a preposition;
- `ThresholdRoll.target` is at least 1 (the `4+` token starts with 1-9);
- text contains no control characters except a newline (which the printer escapes).
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

from nexus_dsl import vocabulary as V
from nexus_dsl.syntax import ast_nodes as A
from support import base_words

GRAMMAR = Path(__file__).resolve().parents[2] / "nexus_dsl" / "grammar" / "nexus.lark"


def grammar_keywords() -> frozenset[str]:
    """Every quoted word of the grammar: the words a name can never be."""
    text = re.sub(r"//[^\n]*", "", GRAMMAR.read_text(encoding="utf-8"))
    return frozenset(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', text))


KEYWORDS = grammar_keywords()

BINARY_OPS = ("+", "-", "*", "/", "and", "or")
COMPARE_OPS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
STATE_OPS = ("is", "is not")
PREPOSITIONS = ("by", "to", "from", "at", "into", "with", "for", "against")


def is_valid_name(text: str) -> bool:
    return (
        re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text) is not None
        and text not in KEYWORDS
        and not text.startswith("SD")
    )


_VOCABULARY_WORDS = sorted(
    w
    for w in {
        *V.PRIMITIVES, *V.FUNCTIONS, *base_words().events, *base_words().windows, *V.PIECE_ATTRIBUTES, *V.ROLL_NAMES,
        *base_words().stats, *base_words().states, *V.RESOURCES, *V.COMPASS, *V.RELATIVE, *base_words().piles,
        "self", "target", "opponent", "attack", "defense", "success", "failure", "check",
    }
    if is_valid_name(w)
)

# Mostly random identifiers, sometimes a real word of the language (and keyword look-alikes such as
# `Command` or `rules`, which are names because keywords are exact and case-sensitive).
names = st.one_of(
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,7}", fullmatch=True),
    st.sampled_from(_VOCABULARY_WORDS),
    st.sampled_from(sorted(KEYWORDS)).map(lambda k: k.capitalize()),
    st.sampled_from(sorted(KEYWORDS)).map(lambda k: k + "s"),
).filter(is_valid_name)

_TEXT_ALPHABET = st.one_of(
    st.characters(blacklist_categories=("Cc", "Cs", "Cf", "Co", "Cn", "Zl", "Zp")),
    st.sampled_from(['"', "\\", "\n", "#", ";", "{", "}"]),
)

# Any printable text, including quotes, backslashes and newlines.
text = st.text(_TEXT_ALPHABET, max_size=20)

numbers = st.one_of(st.integers(0, 12), st.integers(0, 10**9 - 1))  # the parser takes at most 9 digits


# ---------------------------------------------------------------- expressions
def _leaves(name_strategy: st.SearchStrategy[str] = names) -> st.SearchStrategy[A.Expr]:
    return st.one_of(
        st.builds(A.Num, value=numbers),
        st.builds(A.Str, value=text),
        st.builds(A.Bool, value=st.booleans()),
        st.just(A.NoneLit()),
        st.builds(A.ScaleLevel, level=st.integers(-3, 3)),
        st.builds(A.Name, id=name_strategy),
    )


def _calls(children: st.SearchStrategy[A.Expr]) -> st.SearchStrategy[A.Call]:
    kwargs = st.lists(st.builds(A.KeywordArg, name=names, value=children), max_size=2).map(tuple)
    return st.builds(A.Call, func=names, args=st.lists(children, max_size=3).map(tuple), kwargs=kwargs)


def _extend(children: st.SearchStrategy[A.Expr]) -> st.SearchStrategy[A.Expr]:
    return st.one_of(
        st.builds(A.ListLit, items=st.lists(children, max_size=3).map(tuple)),
        st.builds(A.Attr, obj=children, name=names),
        st.builds(A.Index, obj=children, index=children),
        _calls(children),
        st.builds(A.Neg, operand=children),
        st.builds(A.Not, operand=children),
        st.builds(A.Binary, op=st.sampled_from(BINARY_OPS), left=children, right=children),
        st.builds(A.Compare, op=st.sampled_from(COMPARE_OPS), left=children, right=children),
        st.builds(A.Compare, op=st.sampled_from(STATE_OPS), left=children, right=st.builds(A.Name, id=names)),
    )


expressions: st.SearchStrategy[A.Expr] = st.recursive(_leaves(), _extend, max_leaves=10)


def _simple_extend(children: st.SearchStrategy[A.Expr]) -> st.SearchStrategy[A.Expr]:
    """Attribute and index chains over simple values (the index itself may be any expression)."""
    return st.one_of(
        st.builds(A.Attr, obj=children, name=names),
        st.builds(A.Index, obj=children, index=expressions),
    )


# What may stand as a positional argument of an action (grammar rule `action_arg`).
simple_values: st.SearchStrategy[A.Expr] = st.recursive(
    st.one_of(_leaves(), _calls(expressions)), _simple_extend, max_leaves=3
)


# ---------------------------------------------------------------- statements
def _preps() -> st.SearchStrategy[tuple[A.PrepArg, ...]]:
    return st.lists(
        st.builds(A.PrepArg, prep=st.sampled_from(PREPOSITIONS), value=expressions), max_size=3
    ).map(tuple)


actions = st.builds(A.Action, verb=names, args=st.lists(simple_values, max_size=3).map(tuple), preps=_preps())
lets = st.builds(A.Let, name=names, value=expressions)


def _blocks(statements: st.SearchStrategy[A.Stmt]) -> st.SearchStrategy[A.Block]:
    return st.lists(statements, max_size=3).map(lambda s: A.Block(statements=tuple(s)))


def _compound(statements: st.SearchStrategy[A.Stmt]) -> st.SearchStrategy[A.Stmt]:
    block = _blocks(statements)
    branch = st.builds(A.Branch, condition=expressions, body=block)
    return st.one_of(
        st.builds(A.If, branches=st.lists(branch, min_size=1, max_size=3).map(tuple), otherwise=st.none() | block),
        st.builds(A.ForEach, var=names, iterable=expressions, body=block),
        st.builds(A.Repeat, count=expressions, body=block),
    )


statements: st.SearchStrategy[A.Stmt] = st.recursive(st.one_of(actions, lets), _compound, max_leaves=6)
blocks = _blocks(statements)


# ---------------------------------------------------------------- clauses and declarations
arg_types = st.one_of(
    st.builds(A.NamedType, name=names),
    st.builds(A.ChoiceType, options=st.lists(names, min_size=1, max_size=4).map(tuple)),
    st.builds(A.RangeType, name=names, low=numbers, high=numbers),
)

roll_specs = st.one_of(
    st.builds(A.OpposedRoll, level=expressions, against=names),
    st.builds(A.ThresholdRoll, target=st.integers(1, 10**6)),
    st.just(A.AutomaticRoll()),
)

clauses = st.one_of(
    st.builds(A.Property, name=names, values=st.lists(expressions, min_size=1, max_size=3).map(tuple)),
    st.builds(A.Cost, items=st.lists(st.builds(A.CostItem, amount=expressions, resource=names), min_size=1, max_size=3).map(tuple)),
    st.builds(A.Requires, condition=expressions, message=st.none() | text),
    st.builds(A.Roll, kind=names, spec=roll_specs),
    st.builds(A.On, outcome=names, body=blocks),
    st.builds(A.When, event=names, condition=st.none() | expressions, body=blocks),
    st.builds(A.Window, name=names, by=st.none() | names),
    st.builds(A.Param, name=names, value=expressions),
    st.builds(A.Arg, name=names, type=arg_types),
    st.builds(A.Effect, body=blocks),
)

declarations = st.builds(
    A.Declaration,
    kind=st.sampled_from(A.DECLARATION_KINDS),
    id=names,
    name=text,
    clauses=st.lists(clauses, max_size=5).map(tuple),
)

# Token soup for fuzzing the parser: words and symbols of the language in random order.
FUZZ_TOKENS = sorted(KEYWORDS) + [
    "x", "target", "self", "AP", "4+", "SD", "-SDS", "+2SDS", "0", "12", '"text"', '"a\\"b"',
    "{", "}", "(", ")", "[", "]", ",", ";", ":", ".", "..", "=", "==", "!=", "<", "<=", ">", ">=",
    "+", "-", "*", "/", "\n", "# comment\n", "$", "'", "\\",
]
token_soup = st.lists(st.sampled_from(FUZZ_TOKENS), max_size=40).map(" ".join)
