"""Language reference: every word a script may use, with what it is, how it is written, what it
does and an example, searchable (the entries the code editor's hover shows, from
`nexus_dsl.workbench.reference`). Works with no pack loaded: the language's own words."""

from __future__ import annotations

import streamlit as st

from editor import state
from nexus_dsl.assist import Entry
from nexus_dsl.workbench import reference

OPEN_WITHOUT_SEARCH = ("keyword",)  # the sections shown open before anything is searched for


def entry_markdown(entry: Entry) -> str:
    where = f" · `{entry.where}`" if entry.where else ""
    lines = [f"- **`{entry.word}`** · `{entry.signature}` — *{entry.kind}*{where}"]
    if entry.doc:
        lines.append(f"  {entry.doc}")
    if entry.example:
        lines.append(f"  e.g. `{entry.example}`")
    return "  \n".join(lines)


def render() -> None:
    st.title("Language reference")
    rules = state.ruleset()
    st.caption("Every word of the rule-script language"
               + (" and of the loaded packs" if rules is not None else " (load packs to see their words too)")
               + ". Hover a word in the card editor's code editor to see its entry there; Ctrl+Space completes.")
    query = st.text_input("Search", key="ref_search", placeholder="a word, or words of its meaning: coins pile")
    found = reference.sections(rules, query)
    if not found:
        st.info(f"No word matches “{query}”.")
        return
    count = sum(len(s.entries) for s in found)
    st.caption(f"{count} {'entry' if count == 1 else 'entries'}" + (" found" if query else ""))
    for section in found:
        with st.expander(f"{section.title} ({len(section.entries)})",
                         expanded=bool(query) or section.group in OPEN_WITHOUT_SEARCH):
            st.markdown("\n".join(entry_markdown(entry) for entry in section.entries))


render()
