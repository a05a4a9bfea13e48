"""The playtest's choices on a board: click your piece, then a square or an opponent, and the
commands that apply there appear with their costs; a command's further choices follow one step at a
time (a body location on a figure, a number of further attacks counted up, any other value as a
button), the total cost shown. What aims at nothing on the board stays a button beside it.

A choice is never taken inside a widget's callback: the callback leaves a request, and the page's
next run takes it under a "working…" sign (`take_request`), asking first where the choice is
costly (`play_prompts.warnings_before`). Everything shown is `nexus_dsl.workbench` (`board_choices`,
`play_prompts`, `body_figure`); this module only draws it and keeps what was clicked.
"""

from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from editor import state
from editor.board_view import board_view, clicked
from nexus_dsl.engine.actions import Action
from nexus_dsl.errors import RulesError
from nexus_dsl.workbench import playtest
from nexus_dsl.workbench.board_choices import BoardChoices, Offer, piece_target
from nexus_dsl.workbench.body_figure import FIGURE_GROUP, body_figure_svg, location_of_target, location_target
from nexus_dsl.workbench.play_prompts import control_help, keep_prompt, warnings_before

BOARD = "pt_board"
FIGURE = "pt_figure"
REQUEST = "pt_request"  # (viewer, action) chosen, taken at the start of the next run
CONFIRM = "pt_confirm"  # (viewer, action, log length) warned about: the same choice again goes ahead
PICKED = "pt_picked"  # what was clicked for the decision at `log length`: piece, target, offer, steps
PIECE_PREFIX = piece_target("")  # what every piece's target starts with
CHOICES_PLACE = "choices"  # where the messages about a choice are flashed: beside the choices


# ---------------------------------------------------------------- taking a choice
def choose(viewer: str, action: Action) -> None:
    """A widget's callback: leave the choice for the next run (`take_request`)."""
    st.session_state[REQUEST] = (viewer, action)


def take_request(session: playtest.PlaySession, after: Callable[[playtest.PlaySession, int], None]) -> None:
    """Take the choice a click left, if any, under a working sign: asked first where it is costly,
    refused with the engine's words where it no longer stands; `after(session, log length before)`
    once it is applied (the page saves the session and keeps where the new dice start)."""
    request = st.session_state.pop(REQUEST, None)
    if request is None:
        return
    viewer, action = request
    with st.spinner("Working…"):
        _take(session, viewer, action, after)


def _take(session: playtest.PlaySession, viewer: str, action: Action,
          after: Callable[[playtest.PlaySession, int], None]) -> None:
    if session.fault is not None:  # e.g. a button left over from before the fault
        state.flash("error", "The bout stopped on a script fault: no further action is accepted.", CHOICES_PLACE)
        return
    buttons = session.buttons(viewer)
    chosen = next((button for button in buttons if button.action == action), None)
    if chosen is None:
        state.flash("warning", "That option is no longer available.", CHOICES_PLACE)
        return
    warnings = warnings_before(session, viewer, chosen, buttons)
    if warnings and st.session_state.get(CONFIRM) != (viewer, action, session.log_length):
        st.session_state[CONFIRM] = (viewer, action, session.log_length)
        state.flash("warning", "Before you go: " + "; ".join(warnings) + ". Choose it again to go ahead anyway.",
                    CHOICES_PLACE)
        return
    st.session_state.pop(CONFIRM, None)
    before = session.log_length
    try:
        session.apply(chosen)
        session.advance_agents()
    except RulesError as error:
        state.flash("error", playtest.refusal_message(error), CHOICES_PLACE)
        return
    st.session_state.pop(PICKED, None)
    after(session, before)


def asked_already(viewer: str, action: Action, session: playtest.PlaySession) -> bool:
    return st.session_state.get(CONFIRM) == (viewer, action, session.log_length)


def choice_label(button: playtest.OptionButton, viewer: str, session: playtest.PlaySession) -> str:
    """A button's words, its cost, and `anyway` once the page asked about it."""
    label = button.label + (f" — {button.cost_text}" if button.cost_text else "")
    return label + (" — anyway" if asked_already(viewer, button.action, session) else "")


# ---------------------------------------------------------------- what was clicked
def picked(session: playtest.PlaySession) -> dict[str, Any]:
    """The clicks made in the pending decision (forgotten once the bout moves on)."""
    current = st.session_state.get(PICKED)
    if not current or current.get("at") != session.log_length:
        current = {"at": session.log_length, "piece": None, "target": None, "offer": None, "steps": {}}
        st.session_state[PICKED] = current
    return current


def new_click(key: str) -> str | None:
    """The target of a click on the picture `key` not taken yet."""
    click = clicked(key)
    return None if click is None else click.target


def take_board_click(session: playtest.PlaySession, choices: BoardChoices) -> None:
    """A click on the board: one's own piece selects it; a target of the selected piece (or of the
    only piece that has it) selects the target and shows what applies there."""
    target = new_click(BOARD)
    if target is None:
        return
    chosen = picked(session)
    pieces = choices.pieces()
    own = next((piece for piece in pieces if piece_target(piece) == target), None)
    if own is not None:
        chosen.update(piece=own, target=None, offer=None, steps={})
        return
    having = [piece for piece in pieces if target in choices.targets(piece)]
    if chosen["piece"] not in having:
        chosen["piece"] = having[0] if len(having) == 1 else chosen["piece"]
    if chosen["piece"] in having:
        chosen.update(target=target, offer=None, steps={})
    else:
        state.flash("info", "Nothing to do there: click your piece, then one of the marked squares or pieces.",
                    CHOICES_PLACE)


def pick_offer(at: int, command: str) -> None:
    current = st.session_state.get(PICKED) or {}
    if current.get("at") == at:
        current.update(offer=command, steps={})


def pick_step(at: int, step: str, value: Any) -> None:
    current = st.session_state.get(PICKED) or {}
    if current.get("at") == at:
        current["steps"] = {**current["steps"], step: value}


def back(at: int, to: str) -> None:
    """Undo the last click: `offer` forgets the command chosen, `target` the target too."""
    current = st.session_state.get(PICKED) or {}
    if current.get("at") == at:
        current.update(offer=None, steps={})
        if to == "target":
            current["target"] = None


# ---------------------------------------------------------------- drawing
def board(session: playtest.PlaySession, svg: str, choices: BoardChoices | None) -> None:
    """The board, clickable where a click means something now."""
    if choices is None:  # nothing to decide here now: a picture only
        board_view(svg, key=BOARD)
        return
    chosen = picked(session)
    own = [piece_target(piece) for piece in choices.pieces()]
    acting = [chosen["piece"]] if chosen["piece"] else choices.pieces()
    targets = list(dict.fromkeys(target for piece in acting for target in choices.targets(piece)))
    selected = [target for target in (piece_target(chosen["piece"]) if chosen["piece"] else None, chosen["target"])
                if target]
    # Where a click leads somewhere is tinted: a square to go to, a piece to act on.
    marks = {target: "danger" if target.startswith(PIECE_PREFIX) else "reach"
             for target in targets if target not in selected}
    board_view(svg, key=BOARD, selectable=own + [t for t in targets if t not in own], selected=selected, marks=marks)


def choices_panel(session: playtest.PlaySession, viewer: str, choices: BoardChoices) -> None:
    """The right-hand column: the deal to keep from, or what the clicks so far lead to, then the
    options beside the board."""
    state.show_flashes(CHOICES_PLACE)
    if keep_panel(session, viewer):
        return
    chosen = picked(session)
    if choices.pieces() and chosen["target"] is None:
        what = "a marked square or piece" if chosen["piece"] else "your piece, then a marked square or piece"
        st.caption(f"On the board: click {what}.")
    elif choices.pieces():
        offers_panel(session, viewer, choices, chosen)
    beside_panel(session, viewer, choices)


def offers_panel(session: playtest.PlaySession, viewer: str, choices: BoardChoices, chosen: dict[str, Any]) -> None:
    offers = choices.offers(chosen["piece"], chosen["target"])
    where = chosen["target"].split(":", 1)[1]
    st.markdown(f"**{chosen['piece']} → {where.replace(',', ', ')}**")
    at = session.log_length
    offer = next((o for o in offers if o.command == chosen["offer"]), None)
    if offer is None:
        for index, item in enumerate(offers):
            single = item.chosen_action({})
            if single is not None:  # nothing more to choose: the click takes it
                st.button(choice_label(single, viewer, session), key=f"pt_offer_{index}", on_click=choose,
                          args=(viewer, single.action), width="stretch")
            else:
                st.button(f"{item.title}… — {item.cost_range()}", key=f"pt_offer_{index}", on_click=pick_offer,
                          args=(at, item.command), width="stretch")
        st.button("Back", key="pt_back", on_click=back, args=(at, "target"))
        return
    steps_panel(session, viewer, offer, chosen["steps"])
    st.button("Back", key="pt_back", on_click=back, args=(at, "offer"))


def steps_panel(session: playtest.PlaySession, viewer: str, offer: Offer, steps: dict[str, Any]) -> None:
    """The choices of one command after the target, one at a time, each offering only what some
    legal action still has; the total cost of what is chosen so far."""
    at = session.log_length
    shown = ", ".join(f"{name.replace('_', ' ')}: {_value_words(session, value)}" for name, value in steps.items())
    st.markdown(f"**{offer.title}**" + (f" ({shown})" if shown else ""))
    step = offer.next_step(steps)
    if step is None:
        action = offer.chosen_action(steps)
        if action is not None:
            st.button(choice_label(action, viewer, session), key="pt_go", on_click=choose, args=(viewer, action.action),
                      type="primary", width="stretch")
        return
    values = offer.values(step, steps)
    locations = session.ruleset.words.group(FIGURE_GROUP)
    if values and all(isinstance(v, str) and v in locations for v in values):
        location = location_of_target(new_click(FIGURE) or "")
        if location in values:  # clicked on the figure: that step is taken, on to the next
            steps[step] = location
            steps_panel(session, viewer, offer, steps)
            return
        st.caption(f"Choose the {step.replace('_', ' ')} on the figure.")
        board_view(body_figure_svg(session.ruleset, values), key=FIGURE,
                   selectable=[location_target(v) for v in values])
        return
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values) and len(steps) + 1 == len(offer.steps):
        count_panel(session, viewer, offer, steps, step, sorted(values))
        return
    for index, value in enumerate(values):
        st.button(_value_words(session, value), key=f"pt_step_{index}", on_click=pick_step, args=(at, step, value))


COUNT = "pt_count"  # the number counted up so far: (log length, offer, count)


def count_panel(session: playtest.PlaySession, viewer: str, offer: Offer, steps: dict[str, Any], step: str,
                values: list[int]) -> None:
    """The last choice a number (a combo's further attacks): start at the least, add one at a time
    while a legal action has one more, and see the total cost of the whole."""
    at = session.log_length
    kept = st.session_state.get(COUNT)
    count = kept[2] if kept and kept[:2] == (at, offer.command) and kept[2] in values else values[0]
    action = offer.chosen_action({**steps, step: count})
    words = step.replace("_", " ")
    st.markdown(f"{words.capitalize()}: **{count}**" + (f" — total {action.cost_text}" if action and action.cost_text else ""))
    columns = st.columns(2)
    if count + 1 in values:
        columns[0].button(f"Add another ({count + 1} {words})", key="pt_more", on_click=_count, args=(at, offer.command, count + 1))
    if count - 1 in values:
        columns[1].button(f"One fewer ({count - 1})", key="pt_fewer", on_click=_count, args=(at, offer.command, count - 1))
    if action is not None:
        st.button(choice_label(action, viewer, session), key="pt_go", on_click=choose, args=(viewer, action.action),
                  type="primary", width="stretch")


def _count(at: int, command: str, count: int) -> None:
    st.session_state[COUNT] = (at, command, count)


def beside_panel(session: playtest.PlaySession, viewer: str, choices: BoardChoices) -> None:
    """The options that aim at nothing on the board, as buttons with their costs; a control named
    after a declaration says what it is."""
    index = 0
    for group in choices.beside:
        st.markdown(f"*{group.title}*")
        helped: set[str] = set()
        for button in group.buttons:
            st.button(choice_label(button, viewer, session), key=f"pt_option_{index}", on_click=choose,
                      args=(viewer, button.action), width="stretch")
            index += 1
            explained = control_help(session, button.action)
            if explained and explained not in helped:
                helped.add(explained)
                st.caption(explained)


def keep_panel(session: playtest.PlaySession, viewer: str) -> bool:
    """A deal to keep cards from: how many, each card's face, in an order that stays put."""
    prompt = keep_prompt(session, viewer)
    if prompt is None:
        return False
    st.markdown(f"**Keep {prompt.remaining} more of these cards** ({prompt.total} in all"
                + (f"; kept: {', '.join(face.name for face in prompt.kept)}" if prompt.kept else "") + ")")
    for face, button in prompt.offered:
        with st.container(border=True):
            st.markdown(f"**{face.name}**" + (f" — {face.prose}" if face.prose else ""))
            if face.lines:
                st.caption("  \n".join(face.lines))
            st.button(f"Keep {face.name}", key=f"pt_keep_{face.id}", on_click=choose, args=(viewer, button.action))
    return True


def _value_words(session: playtest.PlaySession, value: Any) -> str:
    if isinstance(value, str):
        declaration = session.ruleset.declaration("stat", value)
        return declaration.name if declaration is not None else value.replace("_", " ")
    return str(value)

