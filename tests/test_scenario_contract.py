"""The scenario contract's setup keys, snapshot keys and `choices` (shared/contracts/SCENARIOS.md):
what each wrong value reports, and that a scenario that cannot load is a positioned FAIL, never a
traceback. The keys' right values are proved by the scenarios in tests/scenarios/contract/."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from nexus_dsl import cached_ruleset
from nexus_dsl.cli import main
from nexus_dsl.engine.bout import Bout
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.dice import PURPOSES
from nexus_dsl.engine.setup import BoutSetup, PieceSetup, SetupError, standard_setup
from nexus_dsl.limits import INPUT_LIMITS
from nexus_dsl.scenario import ScenarioResult, contract_snapshot, run_paths
from nexus_dsl.vocabulary import PURPOSES as VOCABULARY_PURPOSES

CONTRACT = Path(__file__).parent / "scenarios" / "contract"
DECK = """[announcers_favour, meat_garden_tonic, protection_money, loaded_dice, spotter_in_the_stands, greased_floor,
              counter_bribe, bookmakers_wager, spleen_team_patch_up, gnoem_luck_charm, inc_inspection, crossed_signals,
              dmart_care_package, blackmail_dossier, forged_orders, debt_collector, shiv_in_the_bread, poisoned_blade,
              sand_in_the_eyes, spiked_knuckles, lit_rag, chain_from_the_stands, assassins_contract, poisoned_ration]"""


def run_text(tmp_path: Path, text: str, name: str = "scenario.yaml") -> ScenarioResult:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    [result] = run_paths([path])
    return result


def two_helots(red: str, blue: str = "", steps: str = "steps: []", extra: str = "") -> str:
    """Red at [4, 5] facing N and blue at [4, 4] facing S, unless their keys say otherwise."""
    return (f"name: a scenario\n{extra}helots:\n  red: {{{_placed(red, '[4, 5]', 'N')}}}\n"
            f"  blue: {{{_placed(blue, '[4, 4]', 'S')}}}\n{steps}\n")


def _placed(keys: str, at: str, facing: str) -> str:
    defaults = [f"at: {at}"] * ("at:" not in keys) + [f"facing: {facing}"] * ("facing:" not in keys)
    return ", ".join(defaults + ([keys] if keys else []))


def failure(result: ScenarioResult) -> str:
    assert not result.passed
    assert result.internal_error is None
    return "\n".join(result.mismatches)


# ---------------------------------------------------------------- wrong values of the setup keys
WRONG_SETUPS = [
    # (red's keys, blue's keys, what the FAIL says)
    ('weapon: shiv, weapon_drawn: "yes"', "", 'helots.red.weapon_drawn: expected boolean, got string "yes"'),
    ("weapon_drawn: false", "", "`weapon_drawn` needs a `weapon`"),
    ("weapon: shiv, durability: two", "", 'helots.red.durability: expected integer, got string "two"'),
    ("weapon: shiv, durability: 0", "", "helots.red.durability: 0 is less than the minimum of 1"),
    ("weapon: shiv, durability: 1.5", "", "helots.red.durability: expected integer, got number 1.5"),
    ("weapon: shiv, durability: 5", "", "`durability` left on `shiv` is 1 to 2 (its card's durability), not 5"),
    ("weapon: ranged_weapon, durability: 1", "", "`durability` does not apply to `ranged_weapon`: its card has no durability"),
    ("durability: 1", "", "`durability` needs a `weapon`"),
    ("weapon: ranged_weapon, ammo: -1", "", "helots.red.ammo: -1 is less than the minimum of 1"),
    ("weapon: ranged_weapon, ammo: 4", "", "`ammo` left on `ranged_weapon` is 1 to 3 (its card's ammo), not 4"),
    ("weapon: shiv, ammo: 1", "", "`ammo` does not apply to `shiv`: its card has no ammo"),
    ("ammo: 2", "", "`ammo` needs a `weapon`"),
    ("weapon: shield, protects: knee", "", "helot `red`: `protects: knee` is not a location of the loaded packs (head, chest,"),
    ("weapon: shield, protects: [chest]", "", "helots.red.protects: expected string, got array [\"chest\"]"),
    ("weapon: shiv, protects: chest", "", "`protects` needs a shield that protects a location; `shiv` has no block value"),
    ("weapon: buckler, protects: chest", "", "`buckler` has no block value"),
    ("weapon: shield, weapon_drawn: false, protects: chest", "", "`protects` needs the shield drawn"),
    ("protects: chest", "", "`protects` needs a `weapon`"),
    ("deception: -1", "", "helots.red.deception: -1 is less than the minimum of 0"),
    ("deception: lots", "", 'helots.red.deception: expected integer, got string "lots"'),
    ("status: asleep", "", "helots.red.status: \"asleep\" is not allowed here; one of: fighting, incapacitated, dead"),
    ("status: 3", "", "helots.red.status: 3 is not allowed here; one of: fighting"),
    ("status: fighting, states: [dead]", "", "`states` lists dead, but the helot's status is fighting"),
    ("grappling: green", "", "`grappling: green` names no one of the setup"),
    ("grappling: red", "", "cannot be grappling itself"),
    ("grappling: 7", "", "helots.red.grappling: expected string, got integer 7"),
    ("grappling: blue", "grappling: red", "a holder is held by no one"),
    ("facing: E, grappling: blue", "", "blue must stand in its front-centre square [5, 5], not at [4, 4]"),
    ('influence: "crossed_signals"', "", "helots.red.influence: expected array, got string \"crossed_signals\""),
    ("influence: [no_such_card]", "", "no influence card `no_such_card` in the loaded packs"),
    ("weapon: no_such_weapon", "", "no weapon `no_such_weapon` in the loaded packs"),
    ("states: [armed]", "", "`states` lists armed, but it holds no drawn weapon"),
    ("weapon: shiv, weapon_drawn: false, states: [armed]", "", "`states` lists armed, but it holds no drawn weapon"),
    ("states: [sleepy]", "", "helot `red`: `states` lists sleepy, which no loaded pack declares (states: prone,"),
    ("tp_counter: [1, 1]", "", "helots.red.tp_counter: [1, 1] has non-unique elements; each item may appear only once"),
    ("locations: {knee: 3}", "", "helot `red`: `knee` is not a location of the loaded packs (head, chest,"),
    ("traits: {STR: 3}", "", "helot `red`: `STR` is not a trait of the loaded packs (WILL, INST,"),
    ("seat: middle", "", "helots.red.seat: \"middle\" is not allowed here; one of: south, north, west, east"),
    ("wings: 2", "", "helots.red: unknown key `wings`; allowed keys: seat, motivation"),
    ("motivation: no_such_motivation", "", "no motivation `no_such_motivation` in the loaded packs"),
    ("lanista: no_such_lanista", "", "no lanista `no_such_lanista` in the loaded packs"),
]


@pytest.mark.parametrize(("red", "blue", "message"), WRONG_SETUPS, ids=[w[0] + " | " + w[1] for w in WRONG_SETUPS])
def test_a_wrong_setup_value_fails_with_its_line_and_why(tmp_path: Path, red: str, blue: str, message: str) -> None:
    result = run_text(tmp_path, two_helots(red, blue))
    text = failure(result)
    assert message in text
    assert "scenario.yaml:3:" in text  # red's line: each fault above is red's


def test_a_grappled_helot_is_held_by_one_grappler(tmp_path: Path) -> None:
    result = run_text(tmp_path, """\
        name: two holders
        helots:
          red: {at: [4, 5], facing: N, grappling: blue}
          blue: {at: [4, 4], facing: S}
          green: {at: [4, 3], facing: S, grappling: blue}
        steps: []
        """)
    assert "is held by red and green: only one may hold it" in failure(result)


def test_a_grappled_helot_holds_no_one(tmp_path: Path) -> None:
    result = run_text(tmp_path, """\
        name: a chain of grapples
        helots:
          red: {at: [4, 5], facing: N, grappling: blue}
          blue: {at: [4, 4], facing: N, grappling: green}
          green: {at: [4, 3], facing: S}
        steps: []
        """)
    assert "a holder is held by no one" in failure(result)


def test_every_odd_value_of_every_helot_key_fails_cleanly(tmp_path: Path) -> None:
    """No value of any type in any helot key raises: each run ends in a result, and a failure is
    one line per problem naming the scenario file."""
    odd_values = ["null", "true", "-1", "0", "7", "1000000000000", "x", '""', "[]", "[1, x]", "{}", "{a: 1}", "1.5"]
    keys = ["seat", "motivation", "lanista", "at", "facing", "overall", "locations", "states", "traits", "cred", "ap",
            "mp", "weapon", "tpdm", "tp_counter", "command_tokens", "influence", "weapon_drawn", "durability", "ammo",
            "protects", "deception", "status", "grappling", "ratio", "marks"]
    for key in keys:
        for value in odd_values:
            result = run_text(tmp_path, two_helots(f"weapon: shield, {key}: {value}" if key != "weapon"
                                                   else f"{key}: {value}"))
            assert result.internal_error is None, (key, value, result.mismatches)
            assert all("\n" not in line and "Traceback" not in line for line in result.mismatches), (key, value)
            if not result.passed:
                assert "scenario.yaml" in result.mismatches[0], (key, value, result.mismatches)


def test_every_odd_value_of_every_scenario_key_fails_cleanly(tmp_path: Path) -> None:
    odd_values = ["null", "true", "-1", "7", "x", "[]", "[1, x]", "{}", "{a: 1}", "{red: [1]}", "1.5"]
    keys = ["name", "rulebook", "packs", "seed", "barge", "crowd", "decks", "active", "phase", "dice", "steps",
            "expect", "error", "notes"]
    for key in keys:
        for value in odd_values:
            result = run_text(tmp_path, two_helots("", extra=f"{key}: {value}\n").replace("steps: []\n", "")
                              if key == "steps" else two_helots("", extra=f"{key}: {value}\n"))
            assert result.internal_error is None, (key, value, result.mismatches)
            assert all("\n" not in line and "Traceback" not in line for line in result.mismatches), (key, value)


# ---------------------------------------------------------------- wrong shapes of the scenario itself
WRONG_SCENARIOS = [
    # (text, what the FAIL says)
    ("name: [unclosed\n", "scenario.yaml:2:1: "),  # the YAML reader's own words follow the position
    ("- a list\n", "scenario.yaml:1:1: expected object, got array [\"a list\"]"),
    (two_helots("", extra="seed: many\n"), 'scenario.yaml:2:1: seed: expected integer, got string "many"'),
    (two_helots("", extra="crowd: -3\n"), "crowd: -3 is less than the minimum of 0"),
    (two_helots("", extra="dice: [6, 5]\n"), "dice: expected object or null, got array [6, 5]"),
    (two_helots("", extra="dice: {attack: 6}\n"), "dice.attack: expected array, got integer 6"),
    (two_helots("", extra="dice: {attack: [6, 0]}\n"), "scenario.yaml:2:20: dice.attack[1]: 0 is less than the minimum of 1"),
    (two_helots("", extra="packs: base\n"), "packs: expected array, got string \"base\""),
    (two_helots("", extra="phase: later\n"), "phase: \"later\" is not allowed here; one of: command, cycle"),
    (two_helots("", extra="error: 3\n"), "error: expected boolean or string, got integer 3"),
    (two_helots("", extra="active: green\n"), "`green` is not one of the helots (red, blue)"),
    (two_helots("", extra="barge: [pillar]\n"), "barge: expected object or null, got array [\"pillar\"]"),
    (two_helots("", extra="barge: {objects: [{type: pillar, at: [9, 1]}]}\n"),
     "barge.objects[0].at: [9, 1] is not allowed here; The square is off the 8x8 board"),
    (two_helots("", extra="barge: {objects: [{type: no_such_thing, at: [2, 2]}]}\n"), "no object type `no_such_thing`"),
    (two_helots("", extra="barge: {id: no_such_barge}\n"), "no barge `no_such_barge` in the loaded packs"),
    (two_helots("", extra="decks: {influence: [no_such_card]}\n"), "no influence card `no_such_card` in the loaded packs"),
    (two_helots("", extra="decks: {graveyard: []}\n"), "decks.graveyard: no zone `graveyard` in the loaded packs (zones: turning_point, influence)"),
    (two_helots("", extra="wobble: 1\n"), "unknown key `wobble`; allowed keys: name, rulebook"),
    (two_helots("", steps="steps: {helot: red}"), "steps: expected array or null, got object"),
    (two_helots("", steps="steps:\n  - {command: feint}"), "steps[0]: missing required key `helot`"),
    (two_helots("", steps="steps:\n  - {helot: green, command: feint}"),
     "steps[0].helot: `green` is not one of the helots (red, blue)"),
    (two_helots("", steps="steps:\n  - {helot: red, command: feint, ability: elusive}"),
     "gives one of `command`, `ability`, `card` or `control`, not two"),
    (two_helots("", steps="steps:\n  - {helot: red, command: throw, to: [0, 3]}"),
     "steps[0].to: [0, 3] is not allowed here; The square is off the 8x8 board"),
    (two_helots("", steps="steps:\n  - {helot: red, command: feint, reactions: [elusive]}"),
     "steps[0].reactions[0]: expected object, got string \"elusive\""),
    (two_helots("", steps="steps:\n  - {helot: red, command: feint, target: {a: 1}}"),
     "steps[0].target: expected string or integer or boolean or null or array, got object"),
    (two_helots("", steps="steps: []\nexpect: [red.ap]"), "expect: expected object or null, got array"),
    ("name: a label that hides a snapshot key\nhelots:\n  crowd: {}\n  blue: {}\nsteps: []\n",
     "helots: key \"crowd\" is not allowed here; A helot's label is a name"),
    ("name: no helots\nhelots: {}\nsteps: []\n", "helots: {} should be non-empty"),
]


@pytest.mark.parametrize(("text", "message"), WRONG_SCENARIOS, ids=[m for _, m in WRONG_SCENARIOS])
def test_a_scenario_that_cannot_load_fails_with_a_clear_message(tmp_path: Path, text: str, message: str) -> None:
    assert message in failure(run_text(tmp_path, text))


def test_the_cli_prints_a_load_failure_as_a_fail_line_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(two_helots("weapon: shiv, durability: 9"), encoding="utf-8")
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL a scenario" in out and "`durability` left on `shiv` is 1 to 2" in out and "Traceback" not in out
    assert main(["scenario", "snapshot", str(path)]) == 1


# ---------------------------------------------------------------- choices
SHIELD_DRAW = "weapon: shield, weapon_drawn: false, ap: 1"
NEGATION = """\
    name: a negation
    decks: {turning_point: [crowd_riot]}
    phase: cycle
    helots:
      red: {at: [4, 5], facing: N, tp_counter: [1, 2, 3, 4, 5], traits: {INST: 3}}
      blue: {at: [4, 2], facing: S}
    dice: {trait_die: [4, 3], ratio_die: [6, 3]}
    steps:
      - {helot: red, control: allocate, ratio_to: ap, choices: CHOICES}
    """
KEEPING = """\
    name: a deal
    phase: cycle
    decks: {influence: DECK}
    helots:
      red: {at: [4, 5], facing: N, lanista: ixa_of_the_crypt}
      blue: {at: [4, 2], facing: S}
    dice: {trait_die: [2, 1], ratio_die: [3, 3]}
    steps:
      - {helot: red, control: allocate, ratio_to: ap, choices: CHOICES}
    expect:
      red.influence: [meat_garden_tonic]
    """


def test_a_choice_not_offered_fails_naming_the_options(tmp_path: Path) -> None:
    steps = "steps:\n  - {helot: red, command: draw_weapon, choices: [knee]}"
    text = failure(run_text(tmp_path, two_helots(SHIELD_DRAW, steps=steps)))
    assert ("`choices`: knee is not offered to red at choose:spot; the options are head, chest, midsection, "
            "left_upper, right_upper, left_lower, right_lower") in text
    assert "scenario.yaml:6:5: step 1" in text


def test_a_negation_is_answered_negate_or_pass_only(tmp_path: Path) -> None:
    text = failure(run_text(tmp_path, NEGATION.replace("CHOICES", "[maybe]")))
    assert "`choices`: maybe is not offered to red at negate_card; the options are negate, pass" in text


def test_a_kept_influence_card_must_be_one_of_the_dealt(tmp_path: Path) -> None:
    # Ixa of the Crypt keeps one card of red's twelve, the first twelve of the stacked deck.
    keeping = KEEPING.replace("DECK", DECK)
    text = failure(run_text(tmp_path, keeping.replace("CHOICES", "[debt_collector]")))
    assert ("debt_collector is not offered to red at keep_influence; the options are announcers_favour, "
            "meat_garden_tonic, protection_money, loaded_dice") in text
    assert run_text(tmp_path, keeping.replace("CHOICES", "[meat_garden_tonic]")).passed


def test_an_opponent_is_chosen_by_its_label(tmp_path: Path) -> None:
    scenario = """\
        name: a dart
        decks: {turning_point: [assassins_dart]}
        phase: cycle
        helots:
          red: {at: [4, 5], facing: N, tp_counter: [1, 2, 3, 4, 5]}
          blue: {at: [4, 2], facing: S}
          green: {at: [2, 4], facing: E}
        dice: {trait_die: [2, 1, 1], ratio_die: [6, 3, 2], location: [2]}
        steps:
          - {helot: red, control: allocate, ratio_to: ap, choices: CHOICES}
        """
    text = failure(run_text(tmp_path, scenario.replace("CHOICES", "[red]")))
    options = text.split("red is not offered to red at choose:victim; the options are ")[1]
    assert sorted(options.split(", ")) == ["blue", "green"]


def test_a_choice_decision_without_an_answer_left_fails(tmp_path: Path) -> None:
    steps = "steps:\n  - {helot: red, command: draw_weapon}"
    text = failure(run_text(tmp_path, two_helots(SHIELD_DRAW, steps=steps)))
    assert "red must choose (choose:spot: head, chest, midsection" in text and "no answer left" in text


def test_a_negation_without_an_answer_left_is_declined(tmp_path: Path) -> None:
    scenario = textwrap.dedent(NEGATION.replace("CHOICES", "[]")) + "expect:\n  red.traits.INST: 3\n  red.states: [prone]\n"
    assert run_text(tmp_path, scenario).passed


def test_a_choice_left_over_fails(tmp_path: Path) -> None:
    steps = "steps:\n  - {helot: red, command: draw_weapon, choices: [chest, head]}"
    text = failure(run_text(tmp_path, two_helots(SHIELD_DRAW, steps=steps)))
    assert "`choices` left unanswered: head" in text


@pytest.mark.parametrize(("choices", "message"), [
    ("chest", "steps[0].choices: expected array, got string \"chest\""),
    ("[{a: 1}]", "steps[0].choices[0]: expected string or integer or array, got object"),
    ("[[9, 9]]", "steps[0].choices[0]: [9, 9] is not allowed here; The square is off the 8x8 board"),
    ("[true]", "steps[0].choices[0]: expected string or integer or array, got boolean true"),
])
def test_a_choices_value_of_the_wrong_type_fails_at_load(tmp_path: Path, choices: str, message: str) -> None:
    steps = f"steps:\n  - {{helot: red, command: draw_weapon, choices: {choices}}}"
    assert message in failure(run_text(tmp_path, two_helots(SHIELD_DRAW, steps=steps)))


# ---------------------------------------------------------------- influence: [] is no deal
def test_a_set_hand_keeps_nothing_of_the_deal() -> None:
    assert PieceSetup("red", "south", hand=[]).keep == 0
    assert PieceSetup("red", "south", hand=["crossed_signals"]).keep == 0
    assert PieceSetup("red", "south").keep is None
    assert PieceSetup("red", "south", hand=[], keep=2).keep == 2


@pytest.mark.parametrize(("hand", "first_decision"), [([], "allocate"), (None, "keep_influence")])
def test_an_empty_hand_with_a_lanista_is_not_dealt(hand: list[str] | None, first_decision: str) -> None:
    setup = standard_setup(2)
    red = setup.pieces[0]
    setup.pieces[0] = PieceSetup(red.label, red.seat, red.at, red.facing, profile="pell_marrowgate", hand=hand)
    bout = Bout(cached_ruleset(("base",)), setup, seed=3, forced_dice={"trait_die": [2, 1], "ratio_die": [3, 3]})
    assert bout.pending is not None and bout.pending.kind == first_decision
    assert bout.state.pieces["red"].hand == []


# ---------------------------------------------------------------- the engine's own setup checks
def _setup(**red: object) -> BoutSetup:
    helots = [PieceSetup("red", "south", at=Square(4, 5), facing=Direction.N, **red),  # type: ignore[arg-type]
              PieceSetup("blue", "north", at=Square(4, 4), facing=Direction.S)]
    return BoutSetup(pieces=helots, phase="command")


@pytest.mark.parametrize(("red", "key"), [
    ({"weapon": "shiv", "durability": 3}, "durability"),
    ({"weapon": "shield", "protects": "tail"}, "protects"),
    ({"holding": "nobody"}, "holding"),
    ({"status": "asleep"}, "status"),
    ({"hand": ["no_such_card"]}, "influence"),  # the key is the hand's name in the base game
])
def test_the_engine_refuses_an_impossible_setup_naming_piece_and_key(red: dict[str, object], key: str) -> None:
    with pytest.raises(SetupError) as raised:
        Bout(cached_ruleset(("base",)), _setup(**red))
    assert (raised.value.actor, raised.value.key) == ("red", key)
    assert raised.value.diagnostics[0].message.startswith("`red`: ")


def test_a_grapple_set_up_holds_both_sides() -> None:
    bout = Bout(cached_ruleset(("base",)), _setup(holding="blue"))
    red, blue = bout.state.pieces["red"], bout.state.pieces["blue"]
    assert (red.holding, red.held_by, blue.holding, blue.held_by) == ("blue", None, None, "red")
    assert "grappled" in blue.states and "grappled" not in red.states
    snapshot = bout.snapshot()
    assert (snapshot["red"]["grappling"], snapshot["blue"]["grappler"]) == ("blue", "red")


def test_the_snapshot_has_every_contract_key_for_every_helot() -> None:
    snapshot = contract_snapshot(Bout(cached_ruleset(("base",)), _setup(weapon="shield", protects="head", stats={"deception": 2})))
    keys = {"overall", "locations", "states", "traits", "cred", "ap", "mp", "at", "facing", "weapon", "tpdm",
            "tp_counter", "command_tokens", "influence", "status", "weapon_drawn", "durability", "ammo", "protects",
            "deception", "grappling"}
    assert keys <= set(snapshot["red"]) and keys <= set(snapshot["blue"])
    assert {k: snapshot["red"][k] for k in ("weapon_drawn", "durability", "ammo", "protects", "deception")} == {
        "weapon_drawn": True, "durability": 3, "ammo": None, "protects": "head", "deception": 2}
    assert {k: snapshot["blue"][k] for k in ("weapon_drawn", "durability", "ammo", "protects", "grappling")} == {
        "weapon_drawn": None, "durability": None, "ammo": None, "protects": None, "grappling": None}


def test_the_weapon_card_die_is_a_known_purpose_forced_by_a_contract_scenario() -> None:
    assert "weapon_card" in PURPOSES and "weapon_card" in VOCABULARY_PURPOSES
    assert any("weapon_card:" in path.read_text(encoding="utf-8") for path in CONTRACT.glob("*.yaml"))


# ---------------------------------------------------------------- every key has its contract scenario
@pytest.mark.parametrize("key", ["weapon_drawn", "durability", "ammo", "protects", "deception", "status", "grappling"])
def test_each_new_key_is_set_up_and_expected_by_a_contract_scenario(key: str) -> None:
    texts = [path.read_text(encoding="utf-8") for path in CONTRACT.glob("*.yaml")]
    assert any(f" {key}: " in text.split("steps:")[0] for text in texts), f"no contract scenario sets up `{key}`"
    assert any(f".{key}: " in text.split("expect:")[-1] for text in texts if "expect:" in text), \
        f"no contract scenario expects `{key}`"


def test_each_contract_scenario_cites_the_rulebook_and_passes() -> None:
    results = run_paths([CONTRACT])
    assert len(results) >= 20
    assert [r.report() for r in results if not r.passed] == []
    for path in CONTRACT.glob("*.yaml"):
        assert "\nrulebook: " in path.read_text(encoding="utf-8"), path.name


# ---------------------------------------------------------------- reading scenario files
def test_a_scenario_that_is_a_link_out_of_its_folder_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text(two_helots(""), encoding="utf-8")
    (tmp_path / "scenarios").mkdir()
    link = tmp_path / "scenarios" / "linked.yaml"
    os.symlink(outside, link)
    [result] = run_paths([link])
    assert "leads outside its folder" in failure(result)


def test_a_scenario_that_is_not_utf8_fails_at_its_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: caf\xe9\nhelots: {}\n")
    [result] = run_paths([path])
    assert "latin1.yaml:1:10: byte 0xe9 is not UTF-8 text" in failure(result)


def test_a_scenario_larger_than_a_content_file_may_be_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("name: huge\nnotes: " + "x" * INPUT_LIMITS.max_file_bytes + "\n", encoding="utf-8")
    [result] = run_paths([path])
    assert f"the file is larger than {INPUT_LIMITS.max_file_bytes:,} bytes" in failure(result)


# ---------------------------------------------------------------- packs a scenario may load
def _test_pack(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text("id: tmp_cards\nname: Test cards\nversion: 1.0.0\nkind: expansion\n"
                                      "builds_on: [base]\ndescription: A card for the scenario tests.\n",
                                      encoding="utf-8")
    (folder / "cards.nexus").write_text('influence tmp_card "Test Card" {\n    text "Does nothing."\n'
                                        '    window any_time\n    effect {\n        log "played"\n    }\n}\n',
                                        encoding="utf-8")
    return folder


def _uses_pack(ref: str) -> str:
    return two_helots("influence: [tmp_card]", extra=f"packs: [base, {ref}]\n") + "expect:\n  red.influence: [tmp_card]\n"


def test_a_pack_folder_inside_the_scenarios_folder_is_loaded(tmp_path: Path) -> None:
    _test_pack(tmp_path / "packs" / "cards")
    assert run_text(tmp_path, _uses_pack("packs/cards")).passed


def test_a_pack_beside_the_scenarios_folder_is_loaded_when_the_run_names_the_folder_above(tmp_path: Path) -> None:
    _test_pack(tmp_path / "packs" / "cards")
    path = tmp_path / "rules" / "scenario.yaml"
    path.parent.mkdir()
    path.write_text(_uses_pack("../packs/cards"), encoding="utf-8")
    [from_above] = run_paths([tmp_path])
    assert from_above.passed, from_above.report()
    [on_its_own] = run_paths([path])
    assert "`packs`: `../packs/cards` lies outside the scenario's folder tree" in failure(on_its_own)


def test_the_caller_names_the_tree_a_lone_scenario_may_load_packs_from(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    _test_pack(tmp_path / "packs" / "cards")
    path = tmp_path / "rules" / "scenario.yaml"
    path.parent.mkdir()
    path.write_text(_uses_pack("../packs/cards"), encoding="utf-8")
    [with_tree] = run_paths([path], tree=tmp_path)
    assert with_tree.passed, with_tree.report()
    assert main(["scenario", "run", "--tree", str(tmp_path), str(path)]) == 0
    assert main(["scenario", "snapshot", "--tree", str(tmp_path), str(path)]) == 0
    assert '"tmp_card"' in capsys.readouterr().out
    assert main(["scenario", "run", str(path)]) == 1
    assert "lies outside the scenario's folder tree" in capsys.readouterr().out


def test_the_project_scenarios_load_shared_test_packs_only_from_the_tree_they_are_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = Path(__file__).parent / "scenarios" / "hazards" / "saw_collision.yaml"
    assert "../packs/arena_test" in path.read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # run from elsewhere: only the file's own folder is its tree
    [alone] = run_paths([path])
    assert "`packs`: `../packs/arena_test` lies outside the scenario's folder tree" in failure(alone)
    [in_its_tree] = run_paths([path], tree=path.parents[1])
    assert in_its_tree.passed, in_its_tree.report()
    monkeypatch.chdir(path.parents[3])  # run from the project's folder, which holds it: that is its tree
    [from_the_project] = run_paths([path])
    assert from_the_project.passed, from_the_project.report()


@pytest.mark.parametrize("ref", ["../../elsewhere/cards", "/ABSOLUTE/cards", "linked"])
def test_a_pack_folder_outside_the_scenarios_tree_is_refused(tmp_path: Path, ref: str) -> None:
    pack = _test_pack(tmp_path / "elsewhere" / "cards")
    scenarios = tmp_path / "a" / "b"
    scenarios.mkdir(parents=True)
    os.symlink(pack, scenarios / "linked")
    result = run_text(scenarios, _uses_pack(ref.replace("/ABSOLUTE", str(tmp_path / "elsewhere"))))
    assert "lies outside the scenario's folder tree" in failure(result)


def test_a_folder_without_a_manifest_is_not_a_pack(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert "`packs`: `./empty` is not a pack folder: it holds no pack.yaml" in failure(run_text(tmp_path, _uses_pack("./empty")))


def test_an_unknown_pack_id_fails_with_a_clear_message(tmp_path: Path) -> None:
    assert "no pack `no_such_pack`" in failure(run_text(tmp_path, _uses_pack("no_such_pack")))
