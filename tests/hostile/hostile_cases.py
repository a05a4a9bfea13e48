"""The hostile-input catalogue: one case per class of attack (more where a class has several shapes).

A case is data: the files to write (and links to make) in a fresh folder, the entry point to hand
them to, and any checks beyond the common ones. Every case also has a trivial input of the same
shape (a small valid file, pack or scenario; for the largest file the limits allow, the same file
without its error), which the same child process runs first: the case is measured as CPU time and
peak memory over that baseline.

The common verdict (tests/hostile/test_hostile_inputs.py): refused (at least one error), every error
positioned (line and column at least 1), no traceback, at most 1 s of CPU and 100 MB of memory over
the trivial input.

Entry points (tests/hostile/hostile_child.py): `check` (`validate_files.check_paths`, then the text of
`nexus check` from `cli.main`), `load` (`content.loader.load_ruleset_collecting`), `load_packs`
(`workbench.packs.load_packs`), `validate_item` (`workbench.authoring.validate_item` with base
loaded), `scenario` (`scenario.run_paths`) and `bout` (the pack loaded on base, then a short seeded
bout, which must stop on a positioned script fault unless the pack was refused statically).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Union

from nexus_dsl.limits import INPUT_LIMITS

MB = 1024 * 1024
Content = Union[str, bytes, Callable[[], Union[str, bytes]]]
Result = Mapping[str, Any]  # what the child reports (see hostile_child.measure)
Check = Callable[[Result, Mapping[str, bytes]], list[str]]  # (result, hostile files) -> problems


@dataclass(frozen=True)
class Layout:
    """Files (relative path -> content) and symbolic links (relative path -> relative target)."""

    files: Mapping[str, Content]
    links: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Case:
    id: str
    group: str  # the class of attack
    entry: str  # check, load, load_packs, validate_item, scenario or bout
    target: str  # the path handed to the entry point (relative to the case's folder)
    hostile: Layout
    trivial: Layout
    pack: str | None = None  # load_packs: the pack id asked for
    kind: str | None = None  # validate_item: the content type
    checks: tuple[Check, ...] = ()


def content_bytes(content: Content) -> bytes:
    value = content() if callable(content) else content
    return value.encode("utf-8") if isinstance(value, str) else value


# ---------------------------------------------------------------- small valid inputs
TRIVIAL_SCRIPT = 'rule trivial_rule "Trivial" {\n    param trivial_setting = 1\n}\n'
TRIVIAL_LANISTA = "- id: trivial_lanista\n  name: Trivial\n  influence: 1\n  deception: 1\n  command: 1\n"
TRIVIAL_SCENARIO = """name: "A refused standard attack"
helots:
  red:
    at: [4, 5]
    facing: N
    ap: 2
  blue:
    at: [5, 4]
    facing: S
steps:
  - {helot: red, command: standard_attack}
error: "front-centre"
expect:
  red.ap: 2
"""


def manifest(ident: str, builds_on: tuple[str, ...] = ()) -> str:
    return f"id: {ident}\nname: Pack {ident}\nversion: 1.0.0\nkind: expansion\nbuilds_on: [{', '.join(builds_on)}]\n"


TRIVIAL_PACK = {"pack.yaml": manifest("trivial_pack"), "rules.nexus": TRIVIAL_SCRIPT}
TRIVIAL_BOUT_PACK = {"pack.yaml": manifest("trivial_pack", ("base",)), "rules.nexus": TRIVIAL_SCRIPT}


# ---------------------------------------------------------------- case makers (a few lines each)
def script_check(ident: str, group: str, text: Content, *checks: Check, trivial: Content = TRIVIAL_SCRIPT) -> Case:
    """`nexus check` on one rule script (measured over a one-declaration script unless given another)."""
    return Case(ident, group, "check", "case.nexus", Layout({"case.nexus": text}),
                Layout({"case.nexus": trivial}), checks=checks)


def yaml_check(ident: str, group: str, text: Content, *checks: Check, name: str = "lanistas.yaml") -> Case:
    """`nexus check` on one YAML data file (lanistas unless named otherwise)."""
    return Case(ident, group, "check", name, Layout({name: text}), Layout({name: TRIVIAL_LANISTA}), checks=checks)


def pack_check(ident: str, group: str, files: Mapping[str, Content], *checks: Check,
               links: Mapping[str, str] | None = None, target: str = "pack",
               trivial: Mapping[str, Content] | None = None) -> Case:
    """`nexus check` on a folder: a pack unless `target` says otherwise (file names relative to the
    case folder). The trivial input is a small pack in the same place unless given."""
    trivial = trivial or {f"{target}/{name}": text for name, text in TRIVIAL_PACK.items()}
    return Case(ident, group, "check", target, Layout(files, links or {}), Layout(trivial), checks=checks)


def pack_load(ident: str, group: str, files: Mapping[str, Content], *checks: Check) -> Case:
    """`load_ruleset_collecting([pack])` on the pack folder `pack/`."""
    trivial = {f"pack/{name}": text for name, text in TRIVIAL_PACK.items()}
    return Case(ident, group, "load", "pack", Layout(files), Layout(trivial), checks=checks)


def packs_load(ident: str, group: str, pack: str, files: Mapping[str, Content], *checks: Check,
               links: Mapping[str, str] | None = None) -> Case:
    """The editor's `load_packs([pack], content)` over a content root `content/`; the trivial input is
    a small pack of the same id."""
    trivial = {f"content/{pack}/pack.yaml": manifest(pack), f"content/{pack}/rules.nexus": TRIVIAL_SCRIPT}
    return Case(ident, group, "load_packs", "content", Layout(files, links or {}), Layout(trivial), pack=pack,
                checks=checks)


def item_check(ident: str, group: str, kind: str, text: Content, *checks: Check) -> Case:
    """The editor's `validate_item(kind, text)` with base loaded."""
    trivial = TRIVIAL_SCRIPT if kind == "rule" else TRIVIAL_LANISTA
    return Case(ident, group, "validate_item", "item.txt", Layout({"item.txt": text}), Layout({"item.txt": trivial}),
                kind=kind, checks=checks)


def scenario_run(ident: str, group: str, files: Mapping[str, Content], target: str, *checks: Check) -> Case:
    return Case(ident, group, "scenario", target, Layout(files), Layout({target: TRIVIAL_SCENARIO}), checks=checks)


def bout_run(ident: str, group: str, script: str, *checks: Check) -> Case:
    """A pack building on base with this script: refused statically, or its bout stops on a fault."""
    files = {"pack/pack.yaml": manifest("fault_pack", ("base",)), "pack/rules.nexus": script}
    trivial = {f"pack/{name}": text for name, text in TRIVIAL_BOUT_PACK.items()}
    return Case(ident, group, "bout", "pack", Layout(files), Layout(trivial), checks=checks)


# ---------------------------------------------------------------- extra checks
def never_shows(secret: str) -> Check:
    """The text of a file outside the content must appear nowhere in what the tool says."""

    def check(result: Result, files: Mapping[str, bytes]) -> list[str]:
        said = "\n".join([result["output"], result["cli_output"],
                          *(d["message"] + str(d.get("hint")) for d in result["diagnostics"])])
        return [f"the output shows the outside file's text {secret!r}"] if secret in said else []

    return check


def names_all(*words: str) -> Check:
    def check(result: Result, files: Mapping[str, bytes]) -> list[str]:
        if any(all(w in d["message"] for w in words) for d in errors(result)):
            return []
        return [f"no error names all of {', '.join(words)}"]

    return check


def blames(*names: str) -> Check:
    """Each named file gets an error of its own: one bad file does not stop the others being checked."""

    def check(result: Result, files: Mapping[str, bytes]) -> list[str]:
        blamed = {d["file"] for d in errors(result)}
        return [f"no error about {name}: it was not checked" for name in names
                if not any(f.endswith(name) for f in blamed)]

    return check


def error_at(name: str, line: int, column: int) -> Check:
    def check(result: Result, files: Mapping[str, bytes]) -> list[str]:
        if any(d["file"].endswith(name) and (d["line"], d["column"]) == (line, column) for d in errors(result)):
            return []
        found = [(d["line"], d["column"]) for d in errors(result) if d["file"].endswith(name)]
        return [f"expected an error at {name}:{line}:{column}, found errors at {found}"]

    return check


def excerpt_shows_named_line(name: str) -> Check:
    """Under each error in `name`, the excerpt shows the line the error names (lines by `\\n`)."""

    def check(result: Result, files: Mapping[str, bytes]) -> list[str]:
        source = files[name].decode("utf-8", "replace").lstrip("\ufeff").split("\n")
        printed = result["cli_output"].split("\n")
        named = [d for d in errors(result) if d["file"].endswith(name) and 1 <= d["line"] <= len(source)]
        problems = [] if named else [f"no error names a line of {name}: there is no excerpt to judge"]
        for d in named:
            expected = f"{d['line']:>5} | {source[d['line'] - 1].expandtabs(4)}"
            if expected not in printed:
                shown = [p for p in printed if re.match(rf"\s*{d['line']} \| ", p)]
                problems.append(f"the excerpt of {name}:{d['line']} should be {expected!r}, shows {shown!r}")
        return problems

    return check


def errors(result: Result) -> list[Mapping[str, Any]]:
    return [d for d in result["diagnostics"] if d.get("severity", "error") == "error"]


# ---------------------------------------------------------------- hostile content
def alias_bomb_lanista(levels: int = 9, width: int = 9) -> str:
    """Nine nested alias levels, each repeating the one below nine times: 9**9 leaves, under 500 bytes."""
    lines = ["- id: bomb", "  name: Bomb", "  influence: 1", "  deception: 1", "  command: 1",
             f"  l0: &a0 [{','.join(['x'] * width)}]"]
    lines += [f"  l{i}: &a{i} [{','.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def alias_bomb_scenario() -> str:
    bomb = alias_bomb_lanista().split("\n", 5)[5].replace("  l", "l")  # the anchored lines, unindented
    return f"{bomb}{TRIVIAL_SCENARIO}"


def lanista_with(key: str, value: str) -> str:
    """A valid lanista with one key's value replaced (written as given: tags, odd scalars)."""
    fields = {"id": "vask", "name": "Vask", "influence": "2", "deception": "0", "command": "4", key: value}
    return "".join(f"{'- ' if i == 0 else '  '}{k}: {v}\n" for i, (k, v) in enumerate(fields.items()))


def block_nesting(depth: int) -> str:
    nested = "".join(f"\n{'  ' * (level + 2)}- x{level}:" for level in range(depth))
    return lanista_with("name", "Deep") + f"  extra:{nested} end\n"


def nested_ifs(depth: int) -> str:
    opening = "".join(f"{'    ' * (level + 2)}if true {{\n" for level in range(depth))
    closing = "".join(f"{'    ' * (level + 2)}}}\n" for level in reversed(range(depth)))
    return (f'rule deep_ifs "Deep" {{\n    when round_starts {{\n{opening}'
            f"{'    ' * (depth + 2)}transfer 1 from crowd to self\n{closing}    }}\n}}\n")


def param_rule(ident: str, value: str) -> str:
    return f'rule {ident} "Hostile" {{\n    param {ident} = {value}\n}}\n'


def repeated_to(size: int, piece: Callable[[int], str]) -> Callable[[], str]:
    """Pieces `piece(0)`, `piece(1)`, ... until the text is at least `size` characters."""

    def build() -> str:
        parts, total, index = [], 0, 0
        while total < size:
            parts.append(piece(index))
            total += len(parts[-1])
            index += 1
        return "".join(parts)

    return build


def attack_command(index: int) -> str:
    """A valid command with every kind of clause (the README's standard attack), numbered."""
    return (f'command attack_{index} "Attack {index}" {{\n    group melee\n    tags attack\n    targets opponent\n'
            f'    cost 2 AP\n    requires target in front_center(self) else "the target must stand in front"\n'
            f"    roll attack SD vs defense\n    on success {{\n"
            f"        damage target by margin + damage_bonus at random_location()\n    }}\n}}\n")


def many_declarations(count: int) -> Callable[[], str]:
    """`count` valid declarations."""
    return lambda: "".join(attack_command(i) for i in range(count))


def many_declarations_and_one_error(count: int) -> Callable[[], str]:
    """`count` valid declarations, the last one naming something unknown (so the file is refused)."""

    def build() -> str:
        text = many_declarations(count)()
        return text[: text.rindex("damage_bonus")] + "damage_bonuss" + text[text.rindex("damage_bonus") + 12:]

    return build


def round_start_rule(ident: str, body: str) -> str:
    return f'rule {ident} "Fault" {{\n    when round_starts {{\n        {body}\n    }}\n}}\n'


def fame_command(ident: str, cost: str) -> str:
    return (f'command {ident} "Fault" {{\n    group fame\n    cost {cost}\n    effect {{\n'
            f"        transfer 1 from crowd to self\n    }}\n}}\n")


SECRET = "OUTSIDE-SECRET-7f3a9c"
SECRET_SCRIPT = f'rule leak "Leak" {{\n    param leak = "{SECRET}" {SECRET}\n}}\n'
SECRET_YAML = f"- id: leak\n  name: {SECRET}\n  influence: [{SECRET}\n"
ODD_LINE_BREAKS = {"u2028": "\u2028", "u2029": "\u2029", "nel": "\x85", "vt": "\x0b", "ff": "\x0c"}


def script_after_odd_break(character: str) -> str:
    return (f'rule excerpt_rule "Excerpt" {{\n    # a comment holding a {character} line break\n'
            "    param excerpt_setting = (1 +\n}\n")


def yaml_after_odd_break(character: str) -> str:
    """The character inside a quoted name on line 2; the error (a word for a number) on line 3."""
    return lanista_with("name", f'"Va{character}sk"').replace("influence: 2", "influence: many")


def cycle_packs(prefix: str) -> dict[str, str]:
    return {f"{prefix}/cycle_north/pack.yaml": manifest("cycle_north", ("cycle_south",)),
            f"{prefix}/cycle_north/rules.nexus": TRIVIAL_SCRIPT.replace("trivial", "north"),
            f"{prefix}/cycle_south/pack.yaml": manifest("cycle_south", ("cycle_north",)),
            f"{prefix}/cycle_south/rules.nexus": TRIVIAL_SCRIPT.replace("trivial", "south")}


# ---------------------------------------------------------------- the catalogue
ALIASES = "1 YAML alias bombs"
MALFORMED = "2 malformed YAML"
NESTING = "3 nesting in scripts"
SIZE = "4 size"
RUNTIME = "5 valid scripts that fault at run time"
CONFINEMENT = "6 confinement"
EXCERPTS = "7 excerpts"
CYCLE = "8 builds_on cycle"

CASES: tuple[Case, ...] = (
    # 1. alias bombs and recursive aliases
    yaml_check("alias_bomb_in_a_data_file", ALIASES, alias_bomb_lanista()),
    packs_load("alias_bomb_in_a_pack", ALIASES, "bomb_pack",
               {"content/bomb_pack/pack.yaml": manifest("bomb_pack"), "content/bomb_pack/lanistas.yaml":
                alias_bomb_lanista()}),
    item_check("alias_bomb_in_the_editor", ALIASES, "lanista", alias_bomb_lanista()),
    scenario_run("alias_bomb_in_a_scenario", ALIASES, {"bomb.yaml": alias_bomb_scenario()}, "bomb.yaml"),
    yaml_check("recursive_alias_list", ALIASES, lanista_with("name", "&r [*r]")),
    yaml_check("recursive_alias_mapping", ALIASES,
               "- &m {id: rec, name: Rec, influence: 1, deception: 1, command: 1, itself: *m}\n"),
    # A merge key copies a large anchored mapping: the copy must cost time linear in its size.
    yaml_check("a_large_merged_mapping", ALIASES,
               lambda: "- &b\n" + "".join(f"  k{i}: {{v: {i}}}\n" for i in range(6_000)) + "- <<: *b\n  own: 1\n"),
    # 2. malformed YAML
    yaml_check("tag_bool_maybe", MALFORMED, lanista_with("id", "!!bool maybe")),
    yaml_check("tag_timestamp_not_a_date", MALFORMED, lanista_with("name", "!!timestamp notadate")),
    yaml_check("tag_float_n_colon", MALFORMED, lanista_with("influence", "!!float n:")),
    yaml_check("integer_of_4301_digits", MALFORMED, lanista_with("influence", "9" * 4301)),
    yaml_check("control_character", MALFORMED, lanista_with("name", "Va\x01sk")),
    yaml_check("block_nesting_too_deep", MALFORMED, block_nesting(200)),
    yaml_check("flow_nesting_too_deep", MALFORMED, lanista_with("name", "[" * 100_000 + "]" * 100_000)),
    yaml_check("empty_data_file", MALFORMED, ""),
    pack_check("empty_manifest", MALFORMED, {"pack/pack.yaml": "", "pack/rules.nexus": TRIVIAL_SCRIPT}),
    pack_check("comment_only_manifest", MALFORMED, {"pack/pack.yaml": "# nothing but a comment\n",
                                                    "pack/rules.nexus": TRIVIAL_SCRIPT}),
    yaml_check("invalid_utf8", MALFORMED, lanista_with("name", "Va").encode() + b"\xff\xfe sk\n"),
    yaml_check("bom_inside_the_file", MALFORMED, lanista_with("name", "Vask").replace("  name", "\ufeffname")),
    yaml_check("bom_at_the_start_keeps_positions", MALFORMED, "\ufeff" + lanista_with("id", "[not, an, id]"),
               error_at("lanistas.yaml", 1, 3)),
    yaml_check("python_object_apply_tag", MALFORMED,
               lanista_with("name", '!!python/object/apply:os.system ["echo pwned"]')),
    yaml_check("python_name_tag", MALFORMED, lanista_with("name", "!!python/name:os.system")),
    pack_check("undecodable_file_among_good_ones", MALFORMED,
               {"folder/lanistas.yaml": b"- id: x\n  name: \xff\n",
                "folder/motivations.yaml": "- id: m\n  name: M\n  bogus_key: 1\n",
                "folder/rules.nexus": round_start_rule("r", "transfer 1 from crowd to selff")},
               blames("lanistas.yaml", "motivations.yaml", "rules.nexus"), target="folder",
               trivial={"folder/lanistas.yaml": TRIVIAL_LANISTA, "folder/motivations.yaml": "- id: m\n  name: M\n",
                        "folder/rules.nexus": round_start_rule("r", "transfer 1 from crowd to self")}),
    pack_load("undecodable_script_in_a_pack_among_good_ones", MALFORMED,
              {"pack/pack.yaml": manifest("mixed_pack"), "pack/a_bad.nexus": b'rule a "\xff" {\n}\n',
               "pack/b_good.nexus": 'rule b "B" {\n    param b_value = nowhere_defined\n}\n'},
              blames("a_bad.nexus", "b_good.nexus")),
    pack_load("recursive_alias_in_a_loaded_pack", ALIASES,
              {"pack/pack.yaml": manifest("recursive_pack"), "pack/lanistas.yaml": lanista_with("name", "&r [*r]")}),
    # 3. nesting in scripts
    script_check("sixty_nested_ifs", NESTING, nested_ifs(60)),
    script_check("a_hundred_nots", NESTING, param_rule("many_nots", "not " * 100 + "true")),
    script_check("a_hundred_thousand_parentheses", NESTING,
                 param_rule("deep_parens", "(" * 100_000 + "1" + ")" * 100_000)),
    script_check("a_sum_of_ten_thousand_terms", NESTING, param_rule("long_sum", "+".join(["1"] * 10_000))),
    # 4. size
    script_check("ten_megabytes_of_valid_declarations", SIZE,
                 repeated_to(10 * MB, lambda i: f'rule r{i} "R{i}" {{\n    param p{i} = {i}\n}}\n')),
    yaml_check("ten_megabytes_of_list_items", SIZE,
               repeated_to(10 * MB, lambda i: TRIVIAL_LANISTA.replace("trivial_lanista", f"l{i}"))),
    script_check("a_ten_megabyte_identifier", SIZE, lambda: f'rule {"a" * (10 * MB)} "X" {{\n}}\n'),
    script_check("a_hundred_thousand_character_identifier", SIZE,
                 param_rule("a" * 100_000, "1")),
    script_check("a_ten_megabyte_comment", SIZE, lambda: "# " + "x" * (10 * MB) + "\n" + TRIVIAL_SCRIPT),
    # The largest file the limits allow is legitimate work whose cost is the parser's speed (measured in
    # benchmarks/, "parse per declaration"); what is hostile here is the error, so the case is measured
    # over the same file without it: one error must not make the largest file cost more to refuse.
    script_check("as_many_valid_declarations_as_a_file_may_hold_and_one_error", SIZE,
                 many_declarations_and_one_error(INPUT_LIMITS.max_declarations_per_file),
                 trivial=many_declarations(INPUT_LIMITS.max_declarations_per_file)),
    script_check("ten_thousand_broken_declarations", SIZE,
                 lambda: "".join(f'command broken_{i} "B" {{\n    cost\n}}\n' for i in range(10_000))),
    # 5. valid scripts that fault at run time
    bout_run("die_with_no_sides", RUNTIME, round_start_rule("fault_die", "transfer die(d8, 0) from crowd to self")),
    bout_run("area_of_negative_radius", RUNTIME,
             round_start_rule("fault_area", "for each s in area(self.square, -1) {\n            mark self \"x\"\n        }")),
    bout_run("negative_cost", RUNTIME, fame_command("fault_cost", "-5 AP")),
    bout_run("a_mark_squared_again_and_again", RUNTIME, round_start_rule(
        "fault_square", 'mark self "big" with 2\n        repeat 40 {\n'
        '            mark self "big" with mark_value(self, "big") * mark_value(self, "big")\n        }')),
    bout_run("a_cost_beyond_the_largest_number", RUNTIME, fame_command("fault_big", "999999999*999999999*999999999 AP")),
    bout_run("nested_repeats_past_the_step_budget", RUNTIME, round_start_rule(
        "fault_steps", "repeat 100 {\n            repeat 100 {\n                repeat 100 {\n"
        "                    mark self \"busy\"\n                }\n            }\n        }")),
    # 6. confinement
    pack_check("script_linked_outside_the_pack", CONFINEMENT,
               {"pack/pack.yaml": manifest("linked_pack"), "outside/secret.nexus": SECRET_SCRIPT},
               never_shows(SECRET), links={"pack/rules.nexus": "../outside/secret.nexus"}),
    pack_check("data_file_linked_outside_the_pack", CONFINEMENT,
               {"pack/pack.yaml": manifest("linked_pack"), "outside/secret.yaml": SECRET_YAML},
               never_shows(SECRET), links={"pack/lanistas.yaml": "../outside/secret.yaml"}),
    packs_load("pack_folder_linked_outside_the_content", CONFINEMENT, "linked_pack",
               {"outside/linked_pack/pack.yaml": manifest("linked_pack"),
                "outside/linked_pack/rules.nexus": SECRET_SCRIPT},
               never_shows(SECRET), links={"content/linked_pack": "../outside/linked_pack"}),
    scenario_run("scenario_naming_a_pack_up_three_folders", CONFINEMENT,
                 {"pack.yaml": manifest("escaped_pack", ("base",)), "rules.nexus": SECRET_SCRIPT,
                  "scenarios/a/b/escape.yaml": TRIVIAL_SCENARIO.replace("helots:", "packs: [base, ../../..]\nhelots:")},
                 "scenarios/a/b/escape.yaml", never_shows(SECRET)),
    # 7. excerpts after characters some tools take for line breaks
    *(script_check(f"script_excerpt_after_{name}", EXCERPTS, script_after_odd_break(character),
                   excerpt_shows_named_line("case.nexus")) for name, character in ODD_LINE_BREAKS.items()),
    *(yaml_check(f"yaml_excerpt_after_{name}", EXCERPTS, yaml_after_odd_break(character),
                 excerpt_shows_named_line("lanistas.yaml"), error_at("lanistas.yaml", 3, 3))
      for name, character in ODD_LINE_BREAKS.items() if name in ("u2028", "nel")),
    # 8. a two-pack builds_on cycle
    packs_load("builds_on_cycle_in_the_editor", CYCLE, "cycle_north", cycle_packs("content"),
               names_all("cycle_north", "cycle_south")),
    pack_check("builds_on_cycle_checked", CYCLE, cycle_packs("packs"), names_all("cycle_north", "cycle_south"),
               target="packs", trivial={f"packs/trivial_pack/{name}": text for name, text in TRIVIAL_PACK.items()}),
)

BY_ID: dict[str, Case] = {case.id: case for case in CASES}
assert len(BY_ID) == len(CASES), "case ids must be unique"
