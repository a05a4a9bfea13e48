"""`nexus cards` and `nexus show`: content as players read it, generated from the scripts."""

from __future__ import annotations

import json

from nexus_dsl.cli import main


def test_show_gives_rules_text_script_and_origin(capsys):
    assert main(["show", "haymaker"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Haymaker — Trait Ability (haymaker)")
    assert "Cost: 5 PHYS" in out
    assert "- The attack does 4 more damage." in out  # the param's value, not its name
    assert "defined at content/base/abilities/physicality.nexus:" in out
    assert 'trait_ability haymaker "Haymaker" {' in out


def test_show_an_unknown_id_suggests_one(capsys):
    assert main(["show", "standrd_attack"]) == 2  # an unknown id: bad input
    assert "did you mean `standard_attack`" in capsys.readouterr().err


def test_show_an_id_of_a_pack_not_loaded_says_which_pack_holds_it(capsys):
    assert main(["show", "laced_waterskin"]) == 2
    err = capsys.readouterr().err
    assert "nothing with the id `laced_waterskin` in base" in err
    assert ("it is in pack `poison_gallery`, not loaded: nexus show laced_waterskin --packs base,poison_gallery"
            in err)
    assert main(["show", "laced_waterskin", "--packs", "base,poison_gallery"]) == 0
    assert capsys.readouterr().out.startswith("Laced Waterskin")


def test_cards_by_type_in_every_format(capsys):
    assert main(["cards", "--type", "command", "--format", "json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    ids = {c["id"] for c in cards}
    assert {"standard_attack", "stand_up", "combo", "aim_focused"} <= ids
    assert all(c["kind"] == "command" for c in cards)
    attack = next(c for c in cards if c["id"] == "standard_attack")
    assert "Cost: 2 AP" in attack["rules"] and "Roll: attack at SD against defense" in attack["rules"]
    assert main(["cards", "--type", "weapon", "--format", "markdown"]) == 0
    assert "### Shield" in capsys.readouterr().out
    assert main(["cards", "--type", "objects"]) == 0
    assert "Pillar — Object (pillar)" in capsys.readouterr().out
