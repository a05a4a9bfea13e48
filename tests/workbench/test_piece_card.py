"""A piece's card: its place, condition and holdings, traits, locations and states by the names the
packs give them."""

from __future__ import annotations

from nexus_dsl.workbench.piece_card import name_of, piece_card
from nexus_dsl.workbench.testrun import HelotView


def helot(**changes) -> HelotView:
    values = dict(label="red", motivation=None, lanista=None, status="fighting", overall=40,
                  locations={"head": 5, "left_upper": 3}, cred=2, states=("prone", "bleeding"), weapon=None,
                  traits={"WILL": 3, "DEFT": 1}, ap=4, mp=2, at=(3, 6), facing="NE", influence=())
    values.update(changes)
    return HelotView(**values)


def test_the_card_reads_in_the_packs_own_names(base):
    card = piece_card(base, helot())
    assert card.label == "red" and card.status == "fighting"
    assert card.traits == (("Willpower", 3), ("Deftness", 1))
    assert card.locations == (("Head", 5), (name_of(base, "left_upper"), 3))
    assert name_of(base, "left_upper") != "left_upper"
    assert card.states == (name_of(base, "prone"), name_of(base, "bleeding"))
    facts = dict(card.facts)
    assert facts["At"] == "[3, 6], facing NE" and facts["Overall condition"] == "40"
    assert facts["Points"] == "4 AP, 2 MP" and facts["Weapon"] == "none" and facts["Hand"] == "none"
    assert "Motivation" not in facts


def test_a_data_item_is_named_by_its_name(base):
    motivation = next(iter(base.data["motivations"]))
    lanista = next(iter(base.data["lanistas"]))
    facts = dict(piece_card(base, helot(motivation=motivation, lanista=lanista)).facts)
    assert facts["Motivation"] == base.data_item("motivations", motivation)["name"] != motivation
    assert facts["Lanista"] == base.data_item("lanistas", lanista)["name"]


def test_what_it_holds_is_named_and_an_unknown_id_reads_as_words(base):
    influence = next(iter(base.scripts["influence"]))
    card = piece_card(base, helot(influence=(influence,), states=("made_up_state",)))
    assert dict(card.facts)["Hand"] == base.declaration("influence", influence).name
    assert card.states == ("made up state",)

