"""The base box's components as content (rulebook pg.2-6)."""

from __future__ import annotations

from nexus_dsl import Bout, cached_ruleset, make_agent, play, standard_setup


def test_eight_lanistas_including_the_rulebooks_sample_card():
    lanistas = cached_ruleset(("base",)).data_items("lanistas")
    assert len(lanistas) == 8
    assert any((card["influence"], card["deception"], card["command"]) == (2, 0, 4) for card in lanistas)  # pg.6 sample card
    assert all(card["name"] and card["flavor"] for card in lanistas)
    # No lanista dominates: nobody is best at everything, and the weighted totals stay close.
    weight = lambda card: 1.5 * card["influence"] + 2 * card["deception"] + card["command"]  # noqa: E731
    assert max(map(weight, lanistas)) - min(map(weight, lanistas)) <= 2


def test_lanistas_give_their_command_tokens_and_deception_and_bouts_play():
    ruleset = cached_ruleset(("base",))
    setup = standard_setup(profiles=["grask_hollowmouth", "tibbet_kreen"])
    bout = Bout(ruleset, setup, seed=4)
    red, blue = bout.state.players["red"].stats, bout.state.players["blue"].stats
    assert (red["command_tokens"], red["deception"]) == (5, 1)
    assert (blue["command_tokens"], blue["deception"]) == (2, 2)
    played = play(ruleset, standard_setup(profiles=["grask_hollowmouth", "tibbet_kreen"]),
                  {"red": make_agent("heuristic"), "blue": make_agent("heuristic")}, seed=4)
    assert played.state.ended and played.outcome is not None


def test_the_box_counts():
    """Pg.2-3: 8 lanista cards, 4 motivation cards, 14 weapon cards, 24 influence cards, 25 Turning
    Point cards, 4 hazard cards (one per hazard miniature type) and the barge schematics a d8 picks."""
    ruleset = cached_ruleset(("base",))
    # A hazard card goes with a hazard miniature: its id names an object type. (Pulled into the
    # Hazard is a shared rule of the hazards, written as a hazard script, not a card of the box.)
    hazard_cards = [h for h in ruleset.declarations("hazard") if h.id in ruleset.data.get("objects", {})]
    counts = {
        "lanistas": len(ruleset.data_items("lanistas")),
        "motivations": len(ruleset.data_items("motivations")),
        "weapons": len(ruleset.declarations("weapon")),
        "influence": len(ruleset.declarations("influence")),
        "turning_points": len(ruleset.declarations("turning_point")),
        "hazards": len(hazard_cards),
        "barges": len(ruleset.data_items("barges")),
    }
    assert counts == {"lanistas": 8, "motivations": 4, "weapons": 14, "influence": 24, "turning_points": 25,
                      "hazards": 4, "barges": 8}
    assert {m["id"] for m in ruleset.data_items("motivations")} == {"hoarder", "famished", "supremacist", "zealot"}
    assert {h.id for h in hazard_cards} == {"brazier", "crate", "floor_saw", "floor_spikes"}


def test_every_card_has_a_name_flavour_and_rules_text():
    ruleset = cached_ruleset(("base",))
    objects = ruleset.data.get("objects", {})
    for kind in ("weapon", "influence", "turning_point", "hazard"):
        for declaration in ruleset.declarations(kind):
            if kind == "hazard" and declaration.id not in objects:
                continue  # a shared hazard rule, not a hazard card
            assert declaration.name, declaration.id
            for prop in ("text", "flavor"):
                assert declaration.property(prop) is not None, f"{kind} {declaration.id} has no {prop}"


def test_card_texts_state_the_numbers_their_scripts_use():
    """Text and behaviour never drift apart: every number a card's script takes from its `param`s
    is printed in the card's text (SDS levels are read as words, e.g. +SDS, and are left out);
    the cost is printed from the script itself (`nexus show`)."""
    import re

    from nexus_dsl.model.values import constant_value
    from nexus_dsl.syntax import ast_nodes as A

    ruleset = cached_ruleset(("base",))
    gifts = {g for m in ruleset.data_items("motivations") for g in (*m.get("abilities", ()), m.get("talent"))}
    cards = [d for kind in ("influence", "turning_point", "weapon") for d in ruleset.declarations(kind)]
    cards += [d for kind in ("trait_ability", "rule") for d in ruleset.declarations(kind) if d.id in gifts]
    drifted = []
    for card in cards:
        text = card.property("text").values[0].value
        numbers = set(re.findall(r"\d+", text))
        for param in card.clauses_of(A.Param):
            if isinstance(param.value, A.ScaleLevel):
                continue
            try:
                value = constant_value(param.value)
            except ValueError:
                continue
            if isinstance(value, int) and not isinstance(value, bool) and str(abs(value)) not in numbers:
                drifted.append(f"{card.id}: {param.name} = {value}")
        if card.kind == "weapon":  # the card's own numbers: damage, durability, ammo, range, AP to draw...
            for prop in card.clauses_of(A.Property):
                value = prop.values[0] if prop.values else None
                if prop.name in ("damage", "block", "durability", "ammo", "optimal", "draw", "store") \
                        and isinstance(value, A.Num) and value.value and str(value.value) not in numbers:
                    drifted.append(f"{card.id}: {prop.name} {value.value}")
    assert not drifted
