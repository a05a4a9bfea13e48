"""Widgets more than one page uses: the sidebar, diagnostics, script faults, card faces and pictures."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import streamlit as st

from nexus_dsl.engine.setup import RANDOM_ITEM, RANDOM_LAYOUT
from nexus_dsl.errors import Diagnostic
from nexus_dsl.workbench import packs as packs_api
from nexus_dsl.workbench.authoring import card_face_html

from . import navigation, state

# What only the pages that play bouts use (the engine's bouts, the narration, the test run) is
# imported where it is used: the first page, which every new session opens on, runs without them.


# Choices of the bout-setting forms (Test run, Playtest). By default a bout is the real game: each
# helot's motivation and lanista drawn with the bout's dice (players take them from the box, pg.5-7;
# `random`) and a barge the d8 picks (pg.38). A helot may also have none ("none" is a plain helot,
# not a random one), and a bout may be played on an empty barge.
NONE = "(none)"
NO_BARGE = "(empty barge)"


def optional(choice: str) -> str | None:
    return None if choice == NONE else choice


def item_choices(rules, kind: str) -> list[str]:
    """A motivation's or a lanista's choices: drawn at random (the default), none, or one by id."""
    return [RANDOM_ITEM, NONE, *sorted(rules.data.get(kind, {}))]


def named(rules, kinds: Sequence[str]):
    """A dropdown's format for ids of these kinds (script declarations or data items): `Name (id)`,
    so the choices read as the cards and items do while the id scripts use stays in view. Other
    choices ("random", "(none)") are shown as they are."""
    names: dict[str, str] = {}
    for kind in kinds:
        for ident, item in rules.data.get(kind, {}).items():
            names.setdefault(ident, str(item.data.get("name") or ident))
        for ident, script in rules.scripts.get(kind, {}).items():
            names.setdefault(ident, script.declaration.name or ident)

    def shown(choice: str) -> str:
        name = names.get(choice)
        return f"{name} ({choice})" if name and name != choice else choice

    return shown


def barge_choices(rules) -> list[str]:
    """A barge's choices: one the d8 picks (the default), an empty barge, or one by id."""
    return [RANDOM_LAYOUT, NO_BARGE, *sorted(rules.data.get("barges", {}))]


def barge_setting(choice: str | None) -> str | None:
    """The barge a settings object takes: an id, "random", or None for the empty barge."""
    return None if choice in (None, NO_BARGE) else choice


def counted(count: int, noun: str) -> str:
    """`1 problem`, `3 problems`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def diagnostic_text(diagnostic: Diagnostic) -> str:
    """`line L, column C: message (hint)`: the position first, as the designer looks for it."""
    where = f"line {diagnostic.line}, column {diagnostic.column}: " if diagnostic.line else ""
    hint = f" — {diagnostic.hint}" if diagnostic.hint else ""
    return f"{where}{diagnostic.message}{hint}"


def not_saved_text(error: Exception, what: str = "Not saved") -> str:
    """A refused save as the flash says it: the store's own words when they already say what was not
    saved, else `Not saved: ...` before them."""
    message = str(error)
    return message if "was not saved" in message else f"{what}: {message}"


def show_diagnostics(diagnostics: Sequence[Diagnostic], *, with_file: bool = False) -> None:
    """Errors in red, warnings in yellow, one line each."""
    for diagnostic in diagnostics:
        text = diagnostic_text(diagnostic)
        if with_file and diagnostic.file:
            text = f"{diagnostic.file}: {text}"
        (st.error if diagnostic.severity == "error" else st.warning)(text)


def overwrite_diff(diff: str) -> None:
    """A save's conflict: what keeping yours would change in the file as it is on disk now."""
    st.markdown("What keeping yours would change in the file on disk (`-` theirs, `+` yours):")
    st.code(diff, language="diff")


def card(face, flavor: str | None = None) -> None:
    """A card face as players read it."""
    st.html(card_face_html(face, flavor))


def picture(svg: str) -> None:
    """An SVG picture from the workbench, drawn inline. Not `st.html`: its sanitiser removes SVG."""
    # The SVG has a viewBox, so it scales down to the column's width with its legend in view.
    st.markdown('<style>.nexus-picture svg{max-width:100%;height:auto}</style>'
                f'<div class="nexus-picture">{svg}</div>', unsafe_allow_html=True)


def sidebar() -> None:
    """The content root and the packs loaded for every page."""
    with st.sidebar:
        st.header("Content")
        # A new tab opens on the root and packs chosen last (`remembered`), unless $NEXUS_CONTENT_ROOT
        # names a root.
        if state.ROOT_KEY not in st.session_state:
            st.session_state[state.ROOT_KEY] = state.first_root()
        st.text_input("Content root", key=state.ROOT_KEY, on_change=state.remember_choice,
                      help=f"Where packs are found (default: ${state.CONTENT_ROOT_ENV}, else the content that ships; "
                           "the root and packs chosen last are remembered for the next visit).")
        root = state.content_root()
        if not root.is_dir():
            st.error(f"{root} is not a folder")
            return
        summaries = packs_api.available_packs(root)
        ids = [p.id for p in summaries]
        if state.PACKS_KEY in st.session_state:
            # A pack removed from disk (or another root) cannot stay selected.
            st.session_state[state.PACKS_KEY] = [p for p in st.session_state[state.PACKS_KEY] if p in ids]
        else:
            st.session_state[state.PACKS_KEY] = state.first_packs(root, ids)
        by_id = {p.id: p for p in summaries}
        st.multiselect("Packs loaded", ids, key=state.PACKS_KEY, on_change=state.remember_choice,
                       format_func=lambda i: f"{by_id[i].name} ({by_id[i].kind})",
                       help="Base, expansions, house rules and your own packs; the packs they build on come along.")
        st.button("Reload everything", on_click=packs_api.clear_cache,
                  help="Forget the cached rulesets (files changed on disk are picked up anyway).")
        with st.spinner("Loading the packs…"):  # the first load of a fresh server takes seconds
            result = state.loaded()
        if result.ok:
            rules = result.ruleset
            count = sum(len(items) for items in rules.scripts.values()) + sum(len(i) for i in rules.data.values())
            st.caption(f"{count} items from {', '.join(p.id for p in rules.packs)}")
        else:
            st.error("The packs did not load:")
        show_diagnostics([d for d in result.diagnostics if d.severity == "error"][:10], with_file=True)


def require_ruleset():
    """The loaded ruleset; stops the page with a message when there is none."""
    rules = state.ruleset()
    if rules is None:
        st.warning("Choose packs that load (see the sidebar) to use this page.")
        st.stop()
    return rules


def pack_folder(pack_id: str) -> Path | None:
    for summary in state.available():
        if summary.id == pack_id:
            return summary.folder
    return None


def outcome_text(outcome, rules=None) -> str:
    """How a bout ended, in words: why, who won, and the cred piles (in a game played without a
    board, given its `rules`: each player's score, in the game's word for it, and no crowd)."""
    from nexus_dsl.narrate import GameTerms
    from nexus_dsl.workbench.table import has_board

    termination = getattr(getattr(outcome, "termination", None), "value", str(getattr(outcome, "termination", "")))
    winner = getattr(outcome, "winner", None)
    totals = getattr(outcome, "totals", {}) or {}
    piles = ", ".join(f"{label} {cred}" for label, cred in totals.items())
    shared = getattr(outcome, "piles", None) or {}  # each shared pile's coins (the crowd's)
    # With no winner the bout is a draw (e.g. the crowd's pile beat every helot's).
    verdict = f"winner: {winner}" if winner else "no winner (a draw)"
    if rules is not None and not has_board(rules):
        return f"{termination.replace('_', ' ')}; {verdict}; {GameTerms.of(rules).score}: {piles}"
    return (f"{termination.replace('_', ' ')}; {verdict}; cred: {piles}"
            + "".join(f", {pile} {coins}" for pile, coins in shared.items()))


def no_board(rules, lacks: str) -> bool:
    """On a page that means something only for NEXUS Arena's board and dice: when the loaded game is
    played without a board, say plainly what it `lacks` (and how to use the page), and return True
    so the page draws nothing more."""
    from nexus_dsl.workbench.table import has_board
    from nexus_dsl.workbench.testrun import game_name

    if rules is None or has_board(rules):
        return False
    st.info(f"The loaded game, {game_name(rules)}, is played without a board: it has {lacks}. "
            "Load a game played on a board (the base pack, NEXUS Arena) in the sidebar to use this page.")
    return True


# Where a page shows a bout stopped by a script fault, the state it draws is the engine's rolled-back one.
FAULT_STATE_NOTE = ("The board and the figures below show the state before the action that faulted (the "
                    "bout as set up, when it faulted before any): the engine put everything back as it was.")


def script_fault(rules, fault: Diagnostic, declaration, text: str, key: str) -> None:
    """A bout stopped by a script fault, in place of its outcome: the positioned diagnostic with its
    script line and caret, what the state shown is, and the faulting declaration (the bout's
    `fault_declaration`) to open in the card editor. `rules` is the ruleset the bout was played with."""
    st.error(f"The bout stopped on a script fault: {fault.location()}: {fault.message}")
    st.code(text, language=None)
    st.caption(FAULT_STATE_NOTE)
    open_fault_button(rules, declaration, key)


def open_fault_button(rules, declaration, key: str) -> None:
    """A button opening the declaration whose script faulted in the card editor, when the packs loaded
    in the sidebar hold that very declaration (the card editor opens items of the loaded packs)."""
    from nexus_dsl.workbench.testrun import faulting_item

    item = faulting_item(rules, declaration)
    if item is not None:
        open_declaration_button(rules, item.declaration.kind, item.declaration.id, key)


def open_declaration_button(rules, kind: str, ident: str, key: str, label: str | None = None,
                            primary: bool = False) -> None:
    """A button opening the script declaration `kind` `ident` of `rules` (the ruleset a bout was
    played with) in the card editor. Shown when the packs loaded in the sidebar hold that very item,
    from the same file (the card editor opens items of the loaded packs); else a note says which
    pack to load."""
    item = rules.scripts.get(kind, {}).get(ident)
    if item is None:
        return
    loaded = state.ruleset()
    same = loaded.scripts.get(kind, {}).get(ident) if loaded is not None else None
    if same is None or same.origin != item.origin:
        st.caption(f"Load pack `{item.origin.pack}` in the sidebar to open {kind.replace('_', ' ')} `{ident}` "
                   "in the card editor.")
        return
    label = label or f"Open {kind.replace('_', ' ')} `{ident}` in the card editor"
    if st.button(label, key=key, type="primary" if primary else "secondary"):
        navigation.open_in_editor(kind, ident)
