"""Canonical form: declarations as plain JSON-able values, and back.

This is the shape that JSON Schema validates (`schemas/*.schema.json`), that `--format json`
prints, and that tools such as the editor can read without knowing Lark. The mapping is lossless
for everything but source positions: `from_canonical(to_canonical(d)) == d`.

Expressions: a name is a bare string, a number a JSON integer, `true`/`false`/`none` are JSON
literals; everything else is a one-key-tagged object (`{"str": ...}`, `{"sds": -1}`,
`{"call": "f", "args": [...], "kwargs": [{"name": .., "value": ..}]}`, `{"op": "+", "left": .., "right": ..}`, ...).
"""

from __future__ import annotations

from typing import Any

from . import ast_nodes as A

Json = Any


# ---------------------------------------------------------------- expressions
def expr_to_json(e: A.Expr) -> Json:
    if isinstance(e, A.Num):
        return e.value
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Bool):
        return e.value
    if isinstance(e, A.NoneLit):
        return None
    if isinstance(e, A.Str):
        return {"str": e.value}
    if isinstance(e, A.ScaleLevel):
        return {"sds": e.level}
    if isinstance(e, A.ListLit):
        return {"list": [expr_to_json(i) for i in e.items]}
    if isinstance(e, A.Attr):
        return {"attr": e.name, "of": expr_to_json(e.obj)}
    if isinstance(e, A.Index):
        return {"index": expr_to_json(e.index), "of": expr_to_json(e.obj)}
    if isinstance(e, A.Call):
        return {
            "call": e.func,
            "args": [expr_to_json(a) for a in e.args],
            "kwargs": [{"name": k.name, "value": expr_to_json(k.value)} for k in e.kwargs],
        }
    if isinstance(e, A.Neg):
        return {"neg": expr_to_json(e.operand)}
    if isinstance(e, A.Not):
        return {"not": expr_to_json(e.operand)}
    if isinstance(e, A.Binary):
        return {"op": e.op, "left": expr_to_json(e.left), "right": expr_to_json(e.right)}
    if isinstance(e, A.Compare):
        return {"compare": e.op, "left": expr_to_json(e.left), "right": expr_to_json(e.right)}
    raise TypeError(f"not an expression: {e!r}")


def expr_from_json(j: Json) -> A.Expr:
    if isinstance(j, bool):
        return A.Bool(value=j)
    if isinstance(j, int):
        return A.Num(value=j)
    if isinstance(j, str):
        return A.Name(id=j)
    if j is None:
        return A.NoneLit()
    if "str" in j:
        return A.Str(value=j["str"])
    if "sds" in j:
        return A.ScaleLevel(level=j["sds"])
    if "list" in j:
        return A.ListLit(items=tuple(expr_from_json(i) for i in j["list"]))
    if "attr" in j:
        return A.Attr(obj=expr_from_json(j["of"]), name=j["attr"])
    if "index" in j:
        return A.Index(obj=expr_from_json(j["of"]), index=expr_from_json(j["index"]))
    if "call" in j:
        return A.Call(
            func=j["call"],
            args=tuple(expr_from_json(a) for a in j.get("args", [])),
            kwargs=tuple(A.KeywordArg(name=k["name"], value=expr_from_json(k["value"])) for k in j.get("kwargs", [])),
        )
    if "neg" in j:
        return A.Neg(operand=expr_from_json(j["neg"]))
    if "not" in j:
        return A.Not(operand=expr_from_json(j["not"]))
    if "op" in j:
        return A.Binary(op=j["op"], left=expr_from_json(j["left"]), right=expr_from_json(j["right"]))
    if "compare" in j:
        return A.Compare(op=j["compare"], left=expr_from_json(j["left"]), right=expr_from_json(j["right"]))
    raise ValueError(f"not a canonical expression: {j!r}")


# ---------------------------------------------------------------- statements
def block_to_json(b: A.Block) -> list[Json]:
    return [stmt_to_json(s) for s in b.statements]


def block_from_json(j: list[Json]) -> A.Block:
    return A.Block(statements=tuple(stmt_from_json(s) for s in j))


def stmt_to_json(s: A.Stmt) -> Json:
    if isinstance(s, A.Action):
        return {"do": s.verb, "args": [expr_to_json(a) for a in s.args],
                "preps": [{"prep": p.prep, "value": expr_to_json(p.value)} for p in s.preps]}
    if isinstance(s, A.Let):
        return {"let": s.name, "value": expr_to_json(s.value)}
    if isinstance(s, A.Set):
        return {"set": s.name, "value": expr_to_json(s.value)}
    if isinstance(s, A.If):
        out: dict[str, Json] = {"if": [{"condition": expr_to_json(b.condition), "then": block_to_json(b.body)} for b in s.branches]}
        if s.otherwise is not None:
            out["else"] = block_to_json(s.otherwise)
        return out
    if isinstance(s, A.ForEach):
        return {"for_each": s.var, "in": expr_to_json(s.iterable), "body": block_to_json(s.body)}
    if isinstance(s, A.Repeat):
        return {"repeat": expr_to_json(s.count), "body": block_to_json(s.body)}
    raise TypeError(f"not a statement: {s!r}")


def stmt_from_json(j: Json) -> A.Stmt:
    if "do" in j:
        return A.Action(
            verb=j["do"],
            args=tuple(expr_from_json(a) for a in j.get("args", [])),
            preps=tuple(A.PrepArg(prep=p["prep"], value=expr_from_json(p["value"])) for p in j.get("preps", [])),
        )
    if "let" in j:
        return A.Let(name=j["let"], value=expr_from_json(j["value"]))
    if "set" in j:
        return A.Set(name=j["set"], value=expr_from_json(j["value"]))
    if "if" in j:
        branches = tuple(A.Branch(condition=expr_from_json(b["condition"]), body=block_from_json(b["then"])) for b in j["if"])
        otherwise = block_from_json(j["else"]) if "else" in j else None
        return A.If(branches=branches, otherwise=otherwise)
    if "for_each" in j:
        return A.ForEach(var=j["for_each"], iterable=expr_from_json(j["in"]), body=block_from_json(j["body"]))
    if "repeat" in j:
        return A.Repeat(count=expr_from_json(j["repeat"]), body=block_from_json(j["body"]))
    raise ValueError(f"not a canonical statement: {j!r}")


# ---------------------------------------------------------------- clauses
def _arg_type_to_json(t: A.ArgType) -> Json:
    if isinstance(t, A.NamedType):
        return {"named": t.name}
    if isinstance(t, A.ChoiceType):
        return {"choice": list(t.options)}
    if isinstance(t, A.SpanType):
        return {"span": t.name, "low": expr_to_json(t.low), "high": expr_to_json(t.high)}
    if isinstance(t, A.ZoneCardType):
        return {"in_zone": t.zone}
    return {"range": t.name, "low": t.low, "high": t.high}


def _arg_type_from_json(j: Json) -> A.ArgType:
    if "named" in j:
        return A.NamedType(name=j["named"])
    if "choice" in j:
        return A.ChoiceType(options=tuple(j["choice"]))
    if "span" in j:
        return A.SpanType(name=j["span"], low=expr_from_json(j["low"]), high=expr_from_json(j["high"]))
    if "in_zone" in j:
        return A.ZoneCardType(zone=j["in_zone"])
    return A.RangeType(name=j["range"], low=j["low"], high=j["high"])


def clause_to_json(c: A.Clause) -> Json:
    if isinstance(c, A.Property):
        return {"clause": "property", "name": c.name, "values": [expr_to_json(v) for v in c.values]}
    if isinstance(c, A.Cost):
        return {"clause": "cost", "items": [{"amount": expr_to_json(i.amount), "resource": i.resource} for i in c.items]}
    if isinstance(c, A.Requires):
        return {"clause": "requires", "condition": expr_to_json(c.condition), "message": c.message}
    if isinstance(c, A.Roll):
        spec = c.spec
        if isinstance(spec, A.OpposedRoll):
            detail: Json = {"opposed": {"level": expr_to_json(spec.level), "against": spec.against}}
        elif isinstance(spec, A.ThresholdRoll):
            detail = {"threshold": spec.target}
        else:
            detail = {"automatic": True}
        return {"clause": "roll", "kind": c.kind, **detail}
    if isinstance(c, A.On):
        return {"clause": "on", "outcome": c.outcome, "body": block_to_json(c.body)}
    if isinstance(c, A.When):
        condition = expr_to_json(c.condition) if c.condition is not None else None
        return {"clause": "when", "event": c.event, "condition": condition, "has_condition": c.condition is not None, "body": block_to_json(c.body)}
    if isinstance(c, A.Window):
        return {"clause": "window", "name": c.name, "by": c.by}
    if isinstance(c, A.Param):
        return {"clause": "param", "name": c.name, "value": expr_to_json(c.value)}
    if isinstance(c, A.Arg):
        return {"clause": "arg", "name": c.name, "type": _arg_type_to_json(c.type)}
    if isinstance(c, A.Effect):
        return {"clause": "effect", "body": block_to_json(c.body)}
    raise TypeError(f"not a clause: {c!r}")


def clause_from_json(j: Json) -> A.Clause:
    kind = j["clause"]
    if kind == "property":
        return A.Property(name=j["name"], values=tuple(expr_from_json(v) for v in j["values"]))
    if kind == "cost":
        return A.Cost(items=tuple(A.CostItem(amount=expr_from_json(i["amount"]), resource=i["resource"]) for i in j["items"]))
    if kind == "requires":
        return A.Requires(condition=expr_from_json(j["condition"]), message=j.get("message"))
    if kind == "roll":
        spec: A.RollSpec
        if "opposed" in j:
            spec = A.OpposedRoll(level=expr_from_json(j["opposed"]["level"]), against=j["opposed"]["against"])
        elif "threshold" in j:
            spec = A.ThresholdRoll(target=j["threshold"])
        else:
            spec = A.AutomaticRoll()
        return A.Roll(kind=j["kind"], spec=spec)
    if kind == "on":
        return A.On(outcome=j["outcome"], body=block_from_json(j["body"]))
    if kind == "when":
        condition = expr_from_json(j["condition"]) if j.get("has_condition", j.get("condition") is not None) else None
        return A.When(event=j["event"], condition=condition, body=block_from_json(j["body"]))
    if kind == "window":
        return A.Window(name=j["name"], by=j.get("by"))
    if kind == "param":
        return A.Param(name=j["name"], value=expr_from_json(j["value"]))
    if kind == "arg":
        return A.Arg(name=j["name"], type=_arg_type_from_json(j["type"]))
    if kind == "effect":
        return A.Effect(body=block_from_json(j["body"]))
    raise ValueError(f"not a canonical clause: {j!r}")


# ---------------------------------------------------------------- declarations
def to_canonical(d: A.Declaration) -> dict[str, Json]:
    return {"kind": d.kind, "id": d.id, "name": d.name, "clauses": [clause_to_json(c) for c in d.clauses]}


def from_canonical(j: dict[str, Json]) -> A.Declaration:
    return A.Declaration(kind=j["kind"], id=j["id"], name=j["name"], clauses=tuple(clause_from_json(c) for c in j["clauses"]))
