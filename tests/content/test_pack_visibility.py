"""Each pack sees only the words of the packs it builds on, directly or through others: a state, a
setting or an id that a pack loaded beside it declares is unknown to it, however the packs are
listed; building on that pack makes it known."""

from __future__ import annotations

import shutil
from pathlib import Path

from support import write_pack

from nexus_dsl.content.loader import default_content_root, load_ruleset_collecting

DAZED = 'state dazed "Dazed" {\n    text "Dazed."\n}\n\nrule daze_settings "Daze" {\n    param daze_rounds = 2\n}\n'
USES_DAZED = ('rule dazing "Dazing" {\n    when round_starts if self is not dazed and daze_rounds > 0 {\n'
              '        add_state self dazed\n    }\n}\n')


def two_packs(root: Path, user_builds_on: str) -> None:
    """A content root holding base and two packs: `giver` declares a state and a setting, `user`
    uses both."""
    shutil.copytree(default_content_root() / "base", root / "base")
    write_pack(root / "giver", "giver", {"states.nexus": DAZED}, builds_on="[base]")
    write_pack(root / "user", "user", {"rules.nexus": USES_DAZED}, builds_on=user_builds_on)


def test_a_sibling_pack_s_words_are_unknown(tmp_path: Path) -> None:
    two_packs(tmp_path, "[base]")
    ruleset, diagnostics = load_ruleset_collecting(["base", "giver", "user"], tmp_path)
    assert ruleset is None
    assert [(d.code, d.line, d.column, d.message) for d in diagnostics] == [
        ("check/unknown_name", 2, 38, "unknown state `dazed`"),
        ("check/unknown_name", 2, 48, "unknown name `daze_rounds`"),
        ("check/unknown_name", 3, 24, "unknown state `dazed`"),
    ]
    assert all(d.file.endswith("user/rules.nexus") for d in diagnostics)


def test_building_on_the_pack_makes_its_words_known(tmp_path: Path) -> None:
    two_packs(tmp_path, "[giver]")
    ruleset, diagnostics = load_ruleset_collecting(["user"], tmp_path)  # giver and base come with it
    assert diagnostics == [] and ruleset is not None
    assert "dazed" in ruleset.scripts["state"]
