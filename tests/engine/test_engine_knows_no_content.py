"""The engine knows mechanisms only: no command, ability, hazard or card id appears in its code,
and every word of the language's vocabulary is implemented (and nothing more)."""

from __future__ import annotations

import re
from pathlib import Path

from nexus_dsl import Bout, cached_ruleset, standard_setup
from nexus_dsl import vocabulary as V

PACKAGE = Path(__file__).resolve().parents[2] / "nexus_dsl"
CONTENT_IDS = {
    # commands (IDS.md)
    "move_forward", "move_backward", "move_left", "move_right", "stand_up", "liberate", "backflip", "sidestep",
    "wild_attack", "standard_attack", "focused_attack", "grapple", "feint", "combo", "clinch", "drag", "throw",
    "takedown", "crush", "aim_wild", "aim_standard", "aim_focused", "mend", "stop_drop_and_roll", "gloating",
    "knock_over_brazier", "destroy_crate", "draw_weapon", "store_weapon", "drop_weapon",
    # trait abilities
    "im_still_standing", "merely_a_flesh_wound", "perseverance", "counterattack", "combo_breaker", "elusive",
    "unshackled", "push", "haymaker", "hurdle", "tripping", "tunnel_vision", "turn_crowd", "win_them_over",
    "talk_shit", "jack_of_all_traits", "cant_fool_me", "made_you_look",
    # hazards, motivations
    "floor_saw", "floor_spikes", "brazier", "hoarder", "famished", "supremacist", "zealot",
}


def test_engine_code_names_no_content_id():
    offenders = []
    for path in sorted((PACKAGE / "engine").rglob("*.py")):
        text = path.read_text()
        for ident in CONTENT_IDS:
            if re.search(rf"\b{ident}\b", text):
                offenders.append(f"{path.name}: {ident}")
    assert offenders == []


def test_every_vocabulary_word_is_implemented_and_nothing_else():
    bout = Bout(cached_ruleset(("base",)), standard_setup(), seed=0)
    assert set(bout.interpreter.primitives) == set(V.PRIMITIVES)
    assert set(bout.interpreter.functions) == set(V.FUNCTIONS)
    assert set(V.FUNCTION_RESULTS) == set(V.FUNCTIONS)


def test_no_python_eval_or_unsafe_yaml_anywhere():
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"\b(eval|exec)\(", text), path
        assert not re.search(r"yaml\.load\(", text), path
        if path.name != "dice.py":
            assert not re.search(r"^\s*(import random|from random import)", text, re.M), path
