"""The limits on what content may be: how big, how deep, how many.

Packs come from strangers. Every layer that reads content (the file reader, the YAML loader, the
parser, the checker, schema validation) honours the same numbers, so a hostile file is refused early
with a positioned error instead of exhausting time or memory in a later layer. The numbers are far
above anything real content needs (the base box's largest file is about 10 KB, its deepest script
nests 15 levels as the parser counts them, its longest identifier has 30 characters); docs/security.md lists each one with where
it is enforced.

The engine's run-time budgets (steps per script, trigger depth, the largest number a script may
compute) are the `Limits` of `engine.interpreter`, per Ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InputLimits:
    """Bounds on one content file and on one pack."""

    max_file_bytes: int = 512 * 1024  # one script or YAML file; also a saved playtest session (10-25 KB a bout)
    max_pack_bytes: int = 8 * 1024 * 1024  # every content file of one pack together
    max_pack_files: int = 1_000  # content files in one pack
    max_identifier_length: int = 64  # ids, names of states, params, bindings
    max_string_length: int = 4_000  # a quoted string: a display name, a card's text
    max_depth: int = 32  # nesting of blocks and expressions in a script; of lists and mappings in YAML and JSON
    max_declarations_per_file: int = 500  # declarations in one script file
    max_items_per_file: int = 1_000  # items in one YAML data file
    max_yaml_aliases: int = 100  # `*alias` uses in one YAML file (each expands to a copy of its anchor)
    max_yaml_nodes: int = 100_000  # scalars, lists and mappings in one YAML file, aliases expanded


#: The limits every loader uses unless it is handed others (tests hand smaller ones).
INPUT_LIMITS = InputLimits()

#: The largest number a script may write or compute, either sign; beyond it a number is refused by
#: the parser (as a literal) or stops the script (as a result), never grown without bound.
MAX_NUMBER = 999_999_999
