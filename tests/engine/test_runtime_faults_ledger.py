"""Every coin moves through the ledger: no engine code changes a pile of coins directly.

The piles are the game's shared piles (the base game's crowd), each player's piles (each lanista's
cred), each helot's overall and location conditions, each counter a piece holds (the base game's
Turning Point Counter), and the reserve (`drawn`, the conserved total: the base game's box). Only the ledger
(`Ledger._pile_add`, called by `_move_coins`) changes them during a bout; the bout's setup
fills them once. A pile that would leave the number limit stops the script that moves the coins.
"""

from __future__ import annotations

import ast
from pathlib import Path

from nexus_dsl import Action, Bout, cached_ruleset, load_ruleset
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup

ENGINE = Path(__file__).resolve().parents[2] / "nexus_dsl" / "engine"
PILES = {"piles", "overall", "drawn"}  # a shared pile, a player's, a condition, the reserve
# The ledger itself, and the setup that fills the piles before the first coin moves.
ALLOWED = {"_pile_add", "initial_state"}
# A state's, piece's or player's constructor gives the new object the piles it is made with (a copy's
# are the original's; `copy_from` makes a copy into one already there): no coin moves.
CONSTRUCTORS = {("state.py", "__init__"), ("state.py", "copy_from")}


def _changes_a_pile(node: ast.AST) -> bool:
    targets: list[ast.AST] = []
    if isinstance(node, ast.AugAssign):
        targets = [node.target]
    elif isinstance(node, ast.Assign):
        targets = list(node.targets)
    for target in targets:
        for part in ast.walk(target):
            if isinstance(part, ast.Attribute) and part.attr in PILES:
                return True
            if isinstance(part, ast.Subscript) and isinstance(part.value, ast.Attribute) and part.value.attr == "locations":
                return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
            "add", "clear", "discard", "remove", "pop", "update"):
        owner = node.func.value  # a counter's numbers: `piece.counters[name]`
        return (isinstance(owner, ast.Subscript) and isinstance(owner.value, ast.Attribute)
                and owner.value.attr == "counters")
    return False


def test_no_engine_code_changes_a_pile_outside_the_ledger():
    offenders = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function.name in ALLOWED:
                continue
            if (path.name, function.name) in CONSTRUCTORS:
                continue
            inner = {id(n) for f in ast.walk(function) if f is not function and isinstance(f, ast.FunctionDef)
                     for n in ast.walk(f)}
            for node in ast.walk(function):
                if id(node) not in inner and _changes_a_pile(node):
                    offenders.append(f"{path.name}:{node.lineno} in {function.name}")
    assert offenders == []


def _counter_bout(tmp_path: Path, effect: str, crowd: int = 5) -> Bout:
    pack = tmp_path / "counter_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: counter_pack\nname: Counter\nversion: 1.0.0\nkind: house_rules\nbuilds_on: [base]\n")
    (pack / "probe.nexus").write_text(f'command probe "Probe" {{\n    group fame\n    text "x"\n    cost 0 AP\n'
                                      f'    effect {{\n        {effect}\n    }}\n}}\n')
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, counters={"tp_counter": [1, 2]}),
                              PieceSetup("blue", "north", Square(4, 2), Direction.S)],
                      phase="command", active="red", piles={"crowd": crowd})
    return Bout(load_ruleset(["base", str(pack)]), setup, seed=1, strict_ledger=True)


def test_marking_the_counter_takes_a_coin_from_the_crowd_through_the_ledger(tmp_path):
    bout = _counter_bout(tmp_path, "mark_counter self tp_counter 5")
    events = bout.apply(Action.make("command", "red", "probe"))
    coins = [e.data for e in events if e.type == "coins"]
    assert coins == [{"amount": 1, "source": "crowd", "dest": "tp_counter:red", "reason": "turning point 5"}]
    assert bout.state.pieces["red"].counters["tp_counter"] == {1, 2, 5} and bout.state.piles["crowd"] == 4
    assert bout.state.coins_in_play() == bout.state.drawn


def test_with_the_crowd_empty_the_counter_coin_comes_from_the_box(tmp_path):
    bout = _counter_bout(tmp_path, "mark_counter self tp_counter 5", crowd=0)
    drawn = bout.state.drawn
    events = bout.apply(Action.make("command", "red", "probe"))
    assert [e.data["source"] for e in events if e.type == "coins"] == ["box"]
    assert bout.state.drawn == drawn + 1 and bout.state.coins_in_play() == bout.state.drawn


def test_collecting_the_counter_moves_its_coins_through_the_ledger(tmp_path):
    bout = _counter_bout(tmp_path, "collect_counter self tp_counter to crowd")
    events = bout.apply(Action.make("command", "red", "probe"))
    coins = [e.data for e in events if e.type == "coins"]
    assert coins == [{"amount": 2, "source": "tp_counter:red", "dest": "crowd", "reason": "probe"}]
    assert bout.state.pieces["red"].counters["tp_counter"] == set() and bout.state.piles["crowd"] == 7
    assert bout.state.coins_in_play() == bout.state.drawn


def test_counter_coins_collected_into_the_box_leave_the_bout(tmp_path):
    bout = _counter_bout(tmp_path, "collect_counter self tp_counter to box")
    drawn = bout.state.drawn
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.state.drawn == drawn - 2 and bout.state.coins_in_play() == bout.state.drawn


def test_a_seeded_bout_logs_a_coin_move_for_every_change_of_the_piles():
    """Replaying the coins events alone from the starting piles gives the final piles."""
    bout = Bout(cached_ruleset(("base",)), _standard(), seed=6, strict_ledger=True)
    from nexus_dsl import make_agent
    from nexus_dsl.engine.bout import next_action

    start, first = _piles(bout), len(bout.log)
    agents = {label: make_agent("heuristic") for label in bout.state.pieces}
    while bout.pending is not None:
        bout.apply(next_action(bout, agents))
    replayed = dict(start)
    for event in bout.log[first:]:
        if event.type == "coins":
            replayed[event.data["source"]] = replayed.get(event.data["source"], 0) - event.data["amount"]
            replayed[event.data["dest"]] = replayed.get(event.data["dest"], 0) + event.data["amount"]
    final = _piles(bout)
    assert {k: v for k, v in replayed.items() if k != "box"} == {k: v for k, v in final.items() if k != "box"}
    assert start["box"] - replayed["box"] == bout.state.drawn - start["box_drawn"]


def _standard() -> BoutSetup:
    from nexus_dsl.engine.setup import standard_setup

    return standard_setup()


def _piles(bout: Bout) -> dict[str, int]:
    piles = {"crowd": bout.state.piles["crowd"], "box": 0, "box_drawn": bout.state.drawn}
    for label, helot in bout.state.pieces.items():
        piles[f"cred:{label}"] = bout.state.players[label].piles["cred"]
        piles[f"overall:{label}"] = helot.overall
        piles[f"tp_counter:{label}"] = len(helot.counters["tp_counter"])
        for location, coins in helot.locations.items():
            piles[f"location:{label}:{location}"] = coins
    return piles
