"""Why a line of the log happened: the piece of the test run and the playtest pages where the
designer chooses one line of a bout's log and sees, below it, the reason in one sentence, the script
statements under way when the line was written (each declaration by kind and name, its file and
line, the script's line itself and the values its effect was given), the dice the line rolled, and
a button that opens the declaration it happened because of (and each other one under way) in the
card editor.

The lines are `explain.LogLine`s (a line's words beside its event, which keeps the causes of an
explained bout): the choices show each line with the declaration it happened because of
(`LogLine.tag`, read from the kept causes alone), and only the chosen line is explained
(`explain.explain`, which reads the script's text), so a log of hundreds of lines stays quick. A
search box above the choice narrows the lines to those holding its words (a card's name finds the
lines it caused), and the choice offers at most `MOST_OFFERED` of them, the nearest the log's end
first when it reads newest first, so a whole bout's log (a thousand lines and more) never reaches
the browser as one list to filter at each key. Its keys start with the page's prefix (`tr_why`,
`pt_why`; the search box's is the prefix with `_find`)."""

from __future__ import annotations

from typing import Sequence

import streamlit as st

from editor import state, widgets
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench.explain import Because, Explanation, LogLine, explain

PLACEHOLDER = "Choose a line to see why it happened"
MOST_OFFERED = 150


def line_choice(line: LogLine) -> str:
    """A line as the choices show it: its number in the log, its words and, when a declaration made
    it happen, that declaration (`12: blue's Swagger is now 3  ← turning point Fan Favourite`)."""
    tag = line.tag
    return f"{line.seq}: {line.text.strip()}" + (f"  ← {tag}" if tag else "")


def matching(log: Sequence[LogLine], words: str) -> list[LogLine]:
    """The lines of `log` whose choice (words and cause) holds every word of `words`, in any case."""
    wanted = words.casefold().split()
    return [line for line in log if all(word in line_choice(line).casefold() for word in wanted)]


def log_explainer(rules: Ruleset, log: Sequence[LogLine], key: str, *, newest_first: bool = False,
                  label: str = "Why did it happen? Choose a line of the log") -> Explanation | None:
    """The choice of a line of `log` (`rules`: the ruleset the bout was played with) and, once a line
    is chosen, why it happened. `key` is the choice's Session State key; the page's buttons take
    `key` as their prefix. Returns the explanation shown, if any."""
    if not log:
        st.caption("No line of the log to explain yet.")
        return None
    lines = {line.seq: line for line in log}
    words = st.text_input("Find lines holding", key=f"{key}_find", placeholder="a card's name, a helot, a word",
                          help="Only the lines holding every word (in any case) are offered below.")
    found = matching(log, words)
    order = [line.seq for line in (reversed(found) if newest_first else found)]
    offered = order[:MOST_OFFERED]
    if key in st.session_state and st.session_state[key] not in offered:
        del st.session_state[key]  # a line of another step, another bout or another search: nothing is chosen now
    if len(order) > len(offered):
        st.caption(f"{len(order)} lines {'match' if words.strip() else 'in all'}: the "
                   f"{'newest' if newest_first else 'first'} {len(offered)} are offered; find words to narrow them.")
    elif not order:
        st.caption(f"No line holds “{words.strip()}”.")
    chosen = st.selectbox(label, offered, index=None, key=key, placeholder=PLACEHOLDER,
                          format_func=lambda seq: line_choice(lines[seq]))
    if chosen is None:
        return None
    explanation = explain(lines[chosen].event, rules, root=state.content_root())
    show_explanation(rules, explanation, key)
    return explanation


def show_explanation(rules: Ruleset, explanation: Explanation, key: str) -> None:
    """One line explained: the reason, the chain of statements (outermost first), the dice and the
    buttons opening the declarations in the card editor."""
    st.info(f"**Why:** {explanation.reason}")
    if explanation.causes:
        st.markdown("**The script under way** (outermost first)")
        for number, cause in enumerate(explanation.causes, start=1):
            because = "  ← it happened because of this" if cause is explanation.main else ""
            st.markdown(f"{number}. **{cause.label}**, `{cause.where}`{because}")
            st.code(cause.text or cause.effect, language=None)
            if cause.values:
                st.caption(f"`{cause.effect}` was given: {', '.join(cause.values)}")
    if explanation.dice:
        st.markdown(f"**Dice:** {', '.join(explanation.dice)}")
    else:
        st.caption("No dice were rolled for this line.")
    for number, cause in enumerate(openable(explanation)):
        widgets.open_declaration_button(rules, str(cause.kind), str(cause.ident), key=f"{key}_open_{number}",
                                        label=f"Open {cause.name or cause.ident} in the card editor",
                                        primary=cause is explanation.main)


def openable(explanation: Explanation) -> list[Because]:
    """The declarations the card editor can open, the one the line happened because of first, each once."""
    first = [explanation.main] if explanation.main is not None else []
    seen: set[tuple[str | None, str | None]] = set()
    found = []
    for cause in [*first, *explanation.causes]:
        if cause.openable and (cause.kind, cause.ident) not in seen:
            seen.add((cause.kind, cause.ident))
            found.append(cause)
    return found
