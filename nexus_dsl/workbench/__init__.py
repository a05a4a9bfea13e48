"""The editor's package API: everything the designer's workbench does, with no rules of its own, one
module per concern, imported by name (`from nexus_dsl.workbench import batch`). The package itself
imports none of them: a page pays only for the modules it uses (the statistics of `batch` take most
of a second to import, which the first page should not wait for).

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
