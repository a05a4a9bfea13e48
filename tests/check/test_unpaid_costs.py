"""A card played as soon as it is drawn is paid for only when its effect offers to escape it
(`offer_negation`): a cost on such a card with no such offer is never paid, and `nexus check` and
the editor warn of it, without refusing the card."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import write_pack

from nexus_dsl import cached_ruleset, check_script_text
from nexus_dsl.cli import main
from nexus_dsl.content.loader import load_ruleset_collecting
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.validate_files import card_warnings

UNPAID = '''turning_point pickpocket "Pickpocket" {
    text "Lose 2 cred to the crowd."
    cost 2 CUNN
    effect {
        transfer 2 from self to crowd
    }
}
'''

# The offer made two procedures down: the card runs `escape_or_pay`, which runs `offer_escape`.
OFFERED_THROUGH_PROCEDURES = '''procedure offer_escape "Offer the Escape" {
    arg piece: piece
    effect {
        offer_negation piece
    }
}

procedure escape_or_pay "Escape or Pay" {
    arg piece: piece
    effect {
        offer_escape piece
        if not has_mark(piece, "negated") {
            transfer 2 from piece to crowd
        }
    }
}

turning_point pickpocket "Pickpocket" {
    text "Lose 2 cred to the crowd, unless your lanista pays 2 CUNN."
    cost 2 CUNN
    effect {
        escape_or_pay self
    }
}
'''


def test_the_base_game_pays_every_cost_on_its_drawn_cards() -> None:
    base = cached_ruleset(("base",))
    costly = [item.declaration for item in base.scripts["turning_point"].values() if item.declaration.clauses_of(A.Cost)]
    assert len(costly) >= 9  # the cards a lanista may negate (rulebook pg.14)
    assert card_warnings(base) == []


def test_a_cost_nobody_pays_is_a_warning_at_the_cost() -> None:
    (warning,) = check_script_text(UNPAID, "pickpocket.nexus", cached_ruleset(("base",)))
    assert (warning.code, warning.severity, warning.line, warning.column, warning.end_column) == (
        "check/unpaid_cost", "warning", 3, 5, 9)
    assert "never offers to pay it" in warning.message
    assert warning.hint is not None and "`offer_negation <piece>`" in warning.hint


def test_an_offer_made_in_a_procedure_the_card_runs_pays_the_cost() -> None:
    assert check_script_text(OFFERED_THROUGH_PROCEDURES, "pickpocket.nexus", cached_ruleset(("base",))) == []


def test_a_card_kept_in_hand_is_paid_when_played() -> None:
    influence = UNPAID.replace("turning_point", "influence").replace('    text "Lose', '    window before_rolls\n    text "Lose')
    assert check_script_text(influence, "pickpocket.nexus", cached_ruleset(("base",))) == []


def test_nexus_check_of_a_pack_warns_and_still_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = write_pack(tmp_path / "thieves", "thieves", {"turning_points/pickpocket.nexus": UNPAID}, builds_on="[base]")
    ruleset, diagnostics = load_ruleset_collecting(["base", str(pack)])
    assert ruleset is not None and diagnostics == []  # a warning never stops a pack from loading
    assert main(["check", str(pack)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: 1 checked")
    assert "pickpocket.nexus:3:5: warning: nobody pays the cost of this turning_point" in out
