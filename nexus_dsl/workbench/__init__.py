"""The editor's package API: everything the designer's workbench does, with no rules of its own.

Authoring half: `packs` (the packs available, loaded and cached), `store` (safe saving: atomic
writes, kept history, conflict detection, drafts, paths confined to the content root),
`authoring` (templates, duplicates, validation and card previews of one item, form fields) and
`highlight` (rule scripts as highlighted HTML with their diagnostics).

Test-run half: `testrun` (one bout stepped through command by command, replayable), `batch` (many
seeded bouts on worker processes, watched cards, A/B comparisons with significance tests) and
`odds` (exact Sliding Dice Scale odds).

Board half: `board_svg` (barge and bout pictures as SVG text), `barge_edit` (a barge being drawn,
checked and saved) and `playtest` (hot-seat bouts, saved and resumed as settings plus actions).
"""

from .authoring import (KINDS, Validation, apply_fields, card_face_html, duplicate, fields_of, template,
                        validate_item)
from .highlight import highlight_html
from .packs import LoadResult, PackInfo, available_packs, load_packs
from .store import (ConflictError, InvalidContentError, Opened, StoreError, create_pack, open_for_edit,
                    safe_path, save, save_data_item, save_declaration, save_draft)
from .batch import BatchReport, Comparison, Difference, WatchedSummary, compare, run_batch
from .odds import MatchupOdds, SideOdds, matchup_odds, odds_table, side_odds, table_markdown
from .testrun import SettingsError, StepView, Stepper, TestRunSettings, settings_problems
from .board_svg import barge_svg, bout_svg
from .barge_edit import BargeDraft, BoxCount, Edit, barges_file, load_barge, placeable_types, save_barge
from .playtest import (PERSON, DiceShown, OptionButton, OptionGroup, Pending, PlaySession, PlaySettings, SessionError,
                       list_sessions, session_file)

__all__ = [
    "KINDS", "Validation", "apply_fields", "card_face_html", "duplicate", "fields_of", "template", "validate_item",
    "highlight_html",
    "LoadResult", "PackInfo", "available_packs", "load_packs",
    "ConflictError", "InvalidContentError", "Opened", "StoreError", "create_pack", "open_for_edit", "safe_path",
    "save", "save_data_item", "save_declaration", "save_draft",
    "BatchReport", "Comparison", "Difference", "WatchedSummary", "compare", "run_batch",
    "MatchupOdds", "SideOdds", "matchup_odds", "odds_table", "side_odds", "table_markdown",
    "SettingsError", "StepView", "Stepper", "TestRunSettings", "settings_problems",
    "barge_svg", "bout_svg",
    "BargeDraft", "BoxCount", "Edit", "barges_file", "load_barge", "placeable_types", "save_barge",
    "PERSON", "DiceShown", "OptionButton", "OptionGroup", "Pending", "PlaySession", "PlaySettings", "SessionError",
    "list_sessions", "session_file",
]
