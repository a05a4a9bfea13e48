"""Timing windows opened by scripts: `open_window <window>` offers every helot, the acting one first,
the abilities and cards usable in a window content declares, with the names it binds taken from the
script, and `into` tells the script whether a use prevented what the window was about."""

from __future__ import annotations

from pathlib import Path

from support import write_pack

from nexus_dsl import Action, Bout, load_ruleset
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup

PLEA = '''window plea "A Plea" {
    text "A helot pleads with the crowd; an opponent may turn a deaf ear."
    arg pleader: helot
}

influence deaf_ear "A Deaf Ear" {
    text "Play when an opponent pleads: the crowd does not hear it."
    window plea by opponent
    effect {
        mark self "heard" with pleader
        prevent
    }
}

command plead "Plead" {
    group fame
    cost 0 AP
    effect {
        let pleader = self
        open_window plea into refused
        mark self "refused" with refused
    }
}
'''


def pleading(tmp_path: Path) -> Bout:
    pack = write_pack(tmp_path / "plea", "plea", {"plea.nexus": PLEA}, builds_on="[base]")
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6, hand=[]),
                              PieceSetup("blue", "north", Square(4, 2), Direction.S, hand=["deaf_ear"])],
                      phase="command", active="red")
    bout = Bout(load_ruleset(["base", str(pack)]), setup, seed=1)
    bout.apply(Action.make("command", "red", "plead"))
    return bout


def test_a_window_a_script_opens_offers_its_uses_and_says_whether_one_prevented_it(tmp_path: Path) -> None:
    bout = pleading(tmp_path)
    assert bout.pending is not None and (bout.pending.actor, bout.pending.kind) == ("blue", "window:plea")
    card = next(o for o in bout.pending.options if o.kind == "card")
    bout.apply(card)
    red, blue = bout.state.pieces["red"], bout.state.pieces["blue"]
    assert red.marks["refused"] is True and blue.marks["heard"] is red and blue.hand == []


def test_a_window_no_one_uses_is_not_prevented(tmp_path: Path) -> None:
    bout = pleading(tmp_path)
    assert bout.pending is not None
    bout.apply(next(o for o in bout.pending.options if o.kind == "pass"))
    assert bout.state.pieces["red"].marks["refused"] is False and bout.state.pieces["blue"].hand == ["deaf_ear"]
