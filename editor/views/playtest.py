"""Playtest: hot seat for 2-4 people, or people against the agents. On a board a turn is played on
the drawn board: click your piece, then a square or an opponent, and the commands that apply there
appear with their costs, their further choices one at a time (a body location on a figure, a combo's
attacks counted up); the rest are buttons beside the board (`editor.playtest_choices`). The board
and the last dice stay in a column beside the choices, each choice is taken under a working sign,
and a costly one (points left unspent, cards left unplayed, a dear cost in condition) asks first.
The deal shows the cards to keep by their faces. The dice are shown as they fall, and
influence hands are shown only to the player whose view is chosen; between two people's turns a
handover step keeps every hand hidden until the next person says the screen is theirs, so no one
sees another's hand by accident. The session is saved after every action (per user, outside the
content) and resumed from the `session` query parameter. A game played without a board (NEXUS
Pirates) shows its zones instead, as the player whose view it is sees them (its own hand's cards,
the other hands as counts), its choices in the game's words, and a log that tells no hidden card.
Any line of the log can be chosen to see why it happened, traced to the script line that wrote it,
and that declaration opened in the card editor (`editor/log_explainer.py`). A script fault (during anyone's turn, an agent's too) ends the play: the page shows the positioned
fault instead of options, and the saved session keeps it. Everything is
`nexus_dsl.workbench.playtest`; pictures are `.board_svg`."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from editor import playtest_choices as choices
from editor import state, widgets
from editor.log_explainer import log_explainer
from nexus_dsl.agents.base import AGENT_NAMES
from nexus_dsl.errors import NexusError
from nexus_dsl.workbench import playtest, store, table
from nexus_dsl.workbench.board_choices import board_choices
from nexus_dsl.workbench.board_svg import bout_svg
from nexus_dsl.workbench.testrun import player_counts
from nexus_dsl.workbench.packs import load_packs

SESSION = "pt_session"
NAME = "pt_name"
DICE_FROM = "pt_dice_from"
QUERY = "session"
NOBODY = "(nobody: hands hidden)"
HANDED_TO = "pt_handed_to"  # the person the screen was last handed to (hot seat)
WHY = "pt_why"  # the line of the log chosen to be explained
SHOWN_LINES = 60  # the log shows its last lines; every line can be explained
SEATS = (playtest.PERSON, *AGENT_NAMES)
KEPT = ("pt_players", "pt_seed", "pt_barge", "pt_new_name",
        *(f"pt_{what}_{index}" for what in ("seat", "motivation") for index in range(4)))


def session_path(name: str) -> Path:
    return playtest.session_file(state.sessions_dir(), name)


# ---------------------------------------------------------------- opening and saving
def open_session(name: str) -> playtest.PlaySession | None:
    """The saved session `name`, replayed with the packs it was played with. The file is read the
    way it will be written back (`playtest.read_session`: confined to the sessions folder, bounded);
    whatever it holds, a problem is shown on the page, never a traceback."""
    try:
        path = session_path(name)
        data, fingerprint = playtest.read_session(path)  # bounded; a malformed file is a SessionError
        settings = playtest.session_settings(data, str(path))
        root = Path(settings.content_root) if settings.content_root else state.content_root()
        loaded = load_packs(list(settings.packs), root)
        if loaded.ruleset is None:
            st.error(f"The packs of session `{name}` no longer load.")
            widgets.show_diagnostics(loaded.diagnostics[:5], with_file=True)
            return None
        return playtest.PlaySession.from_json(data, loaded.ruleset, str(path), fingerprint)
    except store.StoreError as error:  # a name that cannot name a session file
        st.error(f"Session `{name}` cannot be opened: {error}")
    except playtest.SessionError as error:
        st.error(f"Session `{name}` cannot be opened or resumed: {error}")
    except NexusError as error:
        st.error(f"Session `{name}` cannot be resumed: {error}")
    return None


def current_session() -> playtest.PlaySession | None:
    """The session named in the URL, kept in memory between runs (replayed from disk after a reload)."""
    name = st.query_params.get(QUERY)
    if not name:
        return None
    if st.session_state.get(NAME) != name or st.session_state.get(SESSION) is None:
        session = open_session(name)
        st.session_state[SESSION], st.session_state[NAME] = session, name
        st.session_state[DICE_FROM] = session.log_length if session else 0
    return st.session_state.get(SESSION)


def save(session: playtest.PlaySession) -> None:
    """Save after an action; a session played on meanwhile elsewhere is not overwritten."""
    name = st.session_state[NAME]
    try:
        session.save(session_path(name))
    except store.ConflictError:
        state.flash("error", f"Session `{name}` was not saved: it was played on in another window since. "
                             f"Leave it and resume it to go on from what was saved there.")
    except store.StoreError as error:
        state.flash("error", f"Session `{name}` was not saved: {error}")


def start_session() -> None:
    rules, players = state.ruleset(), int(st.session_state.get("pt_players", 2))
    name = (st.session_state.get("pt_new_name") or "").strip()
    seats = tuple(st.session_state.get(f"pt_seat_{i}", playtest.PERSON) for i in range(players))
    boardless = rules is not None and not table.has_board(rules)
    # A game without a board has no barge, motivations or lanistas, whatever a NEXUS session left chosen.
    motivations = () if boardless else tuple(widgets.optional(st.session_state.get(f"pt_motivation_{i}", widgets.RANDOM_ITEM))
                                             for i in range(players))
    lanistas = () if boardless else tuple(widgets.optional(st.session_state.get(f"pt_lanista_{i}", widgets.RANDOM_ITEM))
                                          for i in range(players))
    barge = None if boardless else widgets.barge_setting(st.session_state.get("pt_barge", widgets.RANDOM_LAYOUT))
    try:
        path = session_path(name)
        settings = playtest.PlaySettings(seats=seats, packs=tuple(state.selected_packs()), barge=barge,
                                         motivations=motivations, lanistas=lanistas if any(lanistas) else (),
                                         seed=int(st.session_state.get("pt_seed", 0)),
                                         content_root=str(state.content_root()))
        session = playtest.PlaySession(settings, ruleset=rules)
        session.advance_agents()
        session.save(path)
    except store.ConflictError:
        state.flash("error", f"There is already a session named `{name}`: resume it, or choose another name.")
        return
    except (ValueError, NexusError, store.StoreError) as error:
        state.flash("error", f"The session cannot start: {error}")
        return
    st.session_state[SESSION], st.session_state[NAME] = session, name
    st.session_state[DICE_FROM] = 0
    st.session_state[HANDED_TO] = None
    st.query_params[QUERY] = name


def resume() -> None:
    # Read when the click is handled, not bound when the button was drawn: a session chosen and
    # Resume clicked reach the server in one run, and the choice drawn last would be the one before.
    name = st.session_state.get("pt_saved")
    if name:
        st.session_state[SESSION] = None
        st.query_params[QUERY] = name


def leave() -> None:
    st.session_state[SESSION] = None
    st.session_state[NAME] = None
    st.query_params.pop(QUERY, None)


def acted(session: playtest.PlaySession, before: int) -> None:
    """After a choice was applied: the new dice start where the log stood, and the session is saved."""
    st.session_state[DICE_FROM] = before
    save(session)


# ---------------------------------------------------------------- the new-session form
def new_session_form(rules) -> None:
    st.subheader("New session")
    boardless = not table.has_board(rules)
    counts = player_counts(rules) if boardless else [2, 3, 4]
    if st.session_state.get("pt_players") not in counts:
        st.session_state["pt_players"] = counts[0]
    top = st.columns(4)
    players = top[0].selectbox("Players", counts, key="pt_players")
    top[1].number_input("Seed", min_value=0, step=1, key="pt_seed")
    if boardless:
        top[2].caption("No board: no barge, motivations or lanistas.")
    else:
        top[2].selectbox("Barge", widgets.barge_choices(rules), key="pt_barge", format_func=widgets.named(rules, ["barges"]))
    st.session_state.setdefault("pt_new_name", "hot seat")
    top[3].text_input("Session name", key="pt_new_name")
    motivations = widgets.item_choices(rules, "motivations")
    lanistas = widgets.item_choices(rules, "lanistas")
    columns = st.columns(players)
    for index in range(players):
        with columns[index]:
            st.session_state.setdefault(f"pt_seat_{index}", playtest.PERSON if index == 0 else "heuristic")
            st.selectbox(f"Seat {index + 1}", SEATS, key=f"pt_seat_{index}",
                         format_func=lambda s: "a person" if s == playtest.PERSON else f"{s} agent")
            if not boardless:
                st.selectbox("Motivation", motivations, key=f"pt_motivation_{index}",
                             format_func=widgets.named(rules, ["motivations"]))
                st.selectbox("Lanista", lanistas, key=f"pt_lanista_{index}", format_func=widgets.named(rules, ["lanistas"]))
    st.button("Start the session", on_click=start_session, key="pt_start", type="primary")
    saved = playtest.list_sessions(state.sessions_dir())
    if saved:
        left, right = st.columns([3, 1])
        left.selectbox("Or resume a saved session", saved, key="pt_saved")
        right.button("Resume", on_click=resume, key="pt_resume")


# ---------------------------------------------------------------- playing
def hand_over(label: str) -> None:
    st.session_state[HANDED_TO] = label
    st.session_state["pt_viewer"] = label


def handover_due(session: playtest.PlaySession, pending: playtest.Pending | None) -> bool:
    """In a game played by two people or more on one screen, the next person's hand is shown only
    once the screen is theirs (while the view follows whoever must decide)."""
    if pending is None or not pending.person or len(session.people()) < 2:
        return False
    return st.session_state.get("pt_follow", True) and st.session_state.get(HANDED_TO) != pending.actor


def awaiting_handover(session: playtest.PlaySession, pending: playtest.Pending | None) -> bool:
    """Until the next person says the screen is theirs, the page shows what every player sees."""
    if pending is None or not handover_due(session, pending):
        return False
    st.warning(f"{pending.actor}'s turn: hand the screen to {pending.actor}. Their hand stays hidden until then.")
    st.button(f"I am {pending.actor}: show my hand", key="pt_hand_over", on_click=hand_over, args=(pending.actor,),
              type="primary")
    return True


def choose_viewer(session: playtest.PlaySession, pending: playtest.Pending | None) -> str | None:
    people = session.people()
    follow = st.toggle("The view follows whoever must decide", value=True, key="pt_follow")
    if follow and awaiting_handover(session, pending):
        st.session_state["pt_viewer"] = NOBODY
        return None
    if follow and pending is not None and pending.person:
        st.session_state["pt_viewer"] = pending.actor
    if st.session_state.get("pt_viewer") not in people + [NOBODY]:
        st.session_state["pt_viewer"] = people[0] if people else NOBODY
    viewer = st.selectbox("Whose view (only this player's hand is shown)", people + [NOBODY], key="pt_viewer")
    return None if viewer == NOBODY else viewer


def helots_table(visible: dict, session: playtest.PlaySession, viewer: str | None) -> None:
    card_name = widgets.named(session.ruleset, session.ruleset.words.hand_kinds)
    rows = []
    for label in session.labels:
        helot = visible[label]
        hand = ", ".join(card_name(card) for card in helot["influence"]) \
            if label == viewer and helot["influence"] is not None else f"{helot['influence_count']} card(s), hidden"
        rows.append({"helot": label, "seat": visible["seats"][label], "status": helot["status"],
                     "overall": helot["overall"], "cred": helot.get("cred"), "AP": helot["ap"], "MP": helot["mp"],
                     "states": ", ".join(helot["states"]), "weapon": helot["weapon"] or "", "hand": hand})
    st.dataframe(pd.DataFrame(rows), hide_index=True)


def table_options(session: playtest.PlaySession, viewer: str | None, pending: playtest.Pending | None) -> None:
    """A game without a board: the viewer's options as buttons, grouped, in the game's words."""
    if not has_options(session, viewer, pending):
        return
    assert viewer is not None
    st.markdown(f"**{viewer}, your options**")
    state.show_flashes(choices.CHOICES_PLACE)
    st.markdown(OPTION_STYLE, unsafe_allow_html=True)
    index = 0
    for group in session.options(viewer):
        st.markdown(f"*{group.title}*")
        columns = st.columns(3)
        for button in group.buttons:
            columns[index % 3].button(choices.choice_label(button, viewer, session), key=f"pt_option_{index}",
                                      on_click=choices.choose, args=(viewer, button.action), width="stretch")
            index += 1


def has_options(session: playtest.PlaySession, viewer: str | None, pending: playtest.Pending | None) -> bool:
    """Whether the viewer has something to decide; else says who decides."""
    if pending is None or handover_due(session, pending):
        return False
    if viewer is None:
        st.info("Choose whose view this is to see their options.")
        return False
    if not session.buttons(viewer):
        st.info(f"{viewer} has nothing to decide now; {pending.actor} decides ({pending.kind}).")
        return False
    return True


# An option's words and its cost are read in full: the buttons wrap their text instead of cutting it.
OPTION_STYLE = """<style>
[class*="st-key-pt_"] button * {white-space: normal; overflow: visible; text-overflow: clip;}
</style>"""


def dice_table(dice: list[playtest.DiceShown]) -> pd.DataFrame:
    """One row per roll (the dice of one purpose in one event): whose, what for, the dice, and
    what they came to."""
    rows: dict[tuple[int, str], dict[str, object]] = {}
    for die in dice:
        row = rows.setdefault((die.seq, die.purpose), {"who": die.actor or "", "for": die.purpose, "dice": [],
                                                       "means": [], "came to": die.summary})
        row["dice"].append(die.value)
        if die.meaning:
            row["means"].append(die.meaning)
    return pd.DataFrame([{**row, "dice": " ".join(str(v) for v in row["dice"]), "means": ", ".join(row["means"])}
                         for row in rows.values()])


def play(rules, session: playtest.PlaySession) -> None:
    choices.take_request(session, acted)  # a choice clicked on the last run, under a working sign
    pending = session.pending_decision()
    top = st.columns([3, 1])
    top[0].subheader(f"Session `{st.session_state[NAME]}`")
    top[1].button("Leave the session", on_click=leave, key="pt_leave")
    if session.fault is not None:
        widgets.script_fault(session.ruleset, session.fault, session.fault_declaration, session.fault_text() or "",
                             key="pt_open_fault")
    elif pending is None:
        outcome = session.bout.outcome
        st.success(f"The bout is over: {widgets.outcome_text(outcome) if session.has_board else widgets.outcome_text(outcome, rules)}")
    else:
        who = "a person" if pending.person else f"the {pending.seat} agent"
        when = "Cycle" if session.has_board else "Round"
        st.caption(f"{when} {session.bout.state.cycle}: {pending.actor} ({who}) decides: {pending.kind}")
    viewer = choose_viewer(session, pending)
    state.show_flashes()
    if not session.has_board:
        table_options(session, viewer, pending)
        play_table(rules, session, viewer)
        return
    arranged = board_choices(session, viewer) if viewer is not None and pending is not None \
        and not handover_due(session, pending) else None
    if arranged is not None:
        choices.take_board_click(session, arranged)
    visible = session.visible_state(viewer)
    board, side = st.columns([3, 2])
    with board:  # the board and the last dice stay in view beside the choices
        choices.board(session, bout_svg(visible, rules), arranged)
        dice_panel(session, visible)
    with side:
        if arranged is not None and has_options(session, viewer, pending):
            assert viewer is not None and pending is not None
            st.markdown(f"**{viewer}, your move** ({pending.kind})")
            choices.choices_panel(session, viewer, arranged)
    helots_table(visible, session, viewer)
    log_panel(rules, session.log())


def log_panel(rules, log) -> None:
    """The log's last lines, and why any line of it happened (the newest lines first)."""
    with st.expander("Log, and why each line happened", expanded=False):
        st.text("\n".join(line.text for line in log[-SHOWN_LINES:]))
        log_explainer(rules, log, WHY, newest_first=True,
                      label="Why did it happen? Choose a line (newest first)")


def dice_panel(session: playtest.PlaySession, visible: dict) -> None:
    st.markdown("**Dice as they fell**")
    dice = session.dice_since(st.session_state.get(DICE_FROM, 0))
    if dice:
        st.dataframe(dice_table(dice), hide_index=True)
    else:
        st.caption("no dice since the last action")
    for pile, coins in (visible.get("piles") or {}).items():  # the shared piles (the base game's crowd)
        st.markdown(f"**{pile.replace('_', ' ').capitalize()}:** {coins} coins")


def play_table(rules, session: playtest.PlaySession, viewer: str | None) -> None:
    """A game without a board: the zones as `viewer` sees them, each player's score, the log as the
    viewer may read it."""
    visible = session.visible_state(viewer)
    seen = "what every player sees" if viewer is None else f"{viewer}'s view"
    st.markdown(f"**The table** ({seen})")
    st.html(table.table_html(table.table_zones(visible, rules, table.EVERYTHING), rules))
    st.dataframe(pd.DataFrame(table.player_rows(rules, visible["players"], visible["seats"])), hide_index=True)
    log_panel(rules, session.seen_log(viewer))


def render() -> None:
    st.title("Playtest")
    state.keep_widgets(*KEPT)
    session = current_session()
    if session is None:
        rules = widgets.require_ruleset()
        state.show_flashes()
        new_session_form(rules)
    else:
        play(session.ruleset, session)
    state.remember_widgets(*KEPT)


render()
