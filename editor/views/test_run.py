"""Test run: one bout stepped through command by command (the board, conditions, piles, states,
the dice and the log of each step), a seed replayed, cards forced onto the Turning Point deck or
into a hand; and batch mode, many bouts with charts, and an A/B comparison with and without the new
content. A game played without a board (NEXUS Pirates) shows its zones in place of the board, seen
by the designer or by one of its players, its players' scores, and places chosen cards in its zones
before the deal. Any line of a step's log (or of the whole log so far) can be chosen to see why it
happened, traced to the script line that wrote it, and that declaration opened in the card editor
(`editor/log_explainer.py`). A bout stopped by a script fault shows the positioned fault where its outcome would be, and a
batch lists its faulted bouts by seed, apart from engine errors. Everything is
`nexus_dsl.workbench.testrun` and `.batch`; the board is the board view component, where a click on
a piece shows its card (`editor/board_view/bout_board.py`)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace

import pandas as pd
import streamlit as st

from editor import state, widgets
from editor.board_view.bout_board import bout_board
from editor.charts import CRED_BIN, LENGTH_BIN, SCORE_BIN, difference_chart, fault_table, histogram, win_chart
from editor.log_explainer import log_explainer
from nexus_dsl.agents.base import AGENT_NAMES
from nexus_dsl.errors import NexusError
from nexus_dsl.sim.backends import BackendError, backend_named
from nexus_dsl.workbench import ab_verdict, batch, sequential, table, testrun
from nexus_dsl.workbench.explain import LogLine
from nexus_dsl.workbench.packs import load_packs

STEPPER = "tr_stepper"
STEPS = "tr_steps"
REPORT = "tr_report"
COMPARISON = "tr_comparison"
BOARD = "tr_board"
WHY = "tr_why"  # the line of the log chosen to be explained
WHY_SCOPE = "tr_why_scope"
THIS_STEP, WHOLE_LOG = "this step", "every step so far"
# One worker process per core (None). In a process running threads, such as this server,
# `sim.batch` starts its workers from a fork server, which load the saved packs themselves.
WORKERS = None
KEPT = ("tr_players", "tr_barge", "tr_seed", "tr_stack", "tr_deal_to", "tr_deal_cards", "tr_deal_mode",
        "tr_bouts", "tr_watch", "tr_backend", "tr_ray_address", "tr_ab_without", "tr_place_zone", "tr_place_owner",
        "tr_place_cards", "tr_seen_by",
        *(f"tr_{what}_{index}" for what in ("motivation", "lanista", "agent") for index in range(4)))


# ---------------------------------------------------------------- settings
def player_settings(rules, players: int) -> tuple[list, list, list]:
    motivations = widgets.item_choices(rules, "motivations")
    lanistas = widgets.item_choices(rules, "lanistas")
    motivation_name, lanista_name = widgets.named(rules, ["motivations"]), widgets.named(rules, ["lanistas"])
    chosen_m, chosen_l, chosen_a = [], [], []
    columns = st.columns(players)
    for index, label in enumerate(testrun.PLAYER_LABELS[:players]):
        with columns[index]:
            st.markdown(f"**{label}**")
            chosen_m.append(widgets.optional(st.selectbox("Motivation", motivations, key=f"tr_motivation_{index}",
                                                          format_func=motivation_name)))
            chosen_l.append(widgets.optional(st.selectbox("Lanista", lanistas, key=f"tr_lanista_{index}",
                                                          format_func=lanista_name)))
            chosen_a.append(st.selectbox("Agent", AGENT_NAMES, key=f"tr_agent_{index}"))
    return chosen_m, chosen_l, chosen_a


def forced_cards(rules, labels: tuple[str, ...]) -> tuple[list[str], dict[str, tuple[str, ...]], str]:
    st.markdown("**Force a card**")
    turning_points = sorted(rules.scripts.get("turning_point", {}))
    influence = sorted(rules.scripts.get("influence", {}))
    stack = st.multiselect("Stack on the Turning Point deck (top card first)", turning_points, key="tr_stack",
                           format_func=widgets.named(rules, ["turning_point"]))
    left, middle, right = st.columns([1, 2, 1])
    if st.session_state.get("tr_deal_to") not in labels:
        st.session_state["tr_deal_to"] = labels[0]
    to = left.selectbox("Deal into the hand of", labels, key="tr_deal_to")
    cards = middle.multiselect("Influence cards", influence, key="tr_deal_cards",
                               format_func=widgets.named(rules, ["influence"]))
    mode = right.radio("Dealt cards", testrun.DEAL_MODES, key="tr_deal_mode", horizontal=True,
                       format_func=lambda m: {"add": "besides the kept ones", "replace": "as the whole hand"}[m])
    return stack, ({to: tuple(cards)} if cards else {}), mode


def agent_settings(players: int) -> list[str]:
    """A game without pieces asks only who plays each seat: an agent."""
    chosen = []
    columns = st.columns(players)
    for index, label in enumerate(testrun.PLAYER_LABELS[:players]):
        with columns[index]:
            st.markdown(f"**{label}**")
            chosen.append(st.selectbox("Agent", AGENT_NAMES, key=f"tr_agent_{index}"))
    return chosen


def placed_cards(rules, players: int) -> tuple[tuple[str, str | None, tuple[str, ...]], ...]:
    """Cards put in one zone before the setup deals (taken out of the others first), as a
    scenario's table would hold them."""
    st.markdown("**Force cards into a zone**")
    zones = list(rules.words.zones)
    cards = sorted(d.id for d in rules.declarations("card"))
    if not zones or not cards:
        st.caption("The loaded game has no zones or cards to place.")
        return ()
    # Choices kept from other packs (another game's zones and cards) cannot stay chosen.
    if st.session_state.get("tr_place_zone") not in zones:
        st.session_state["tr_place_zone"] = zones[0]
    if "tr_place_cards" in st.session_state:
        st.session_state["tr_place_cards"] = [c for c in st.session_state["tr_place_cards"] if c in cards]
    left, middle, right = st.columns([1, 1, 2])
    zone = left.selectbox("Zone", zones, key="tr_place_zone", format_func=lambda z: table.zone_name(rules, z))
    owners = testrun.zone_owners(rules, players, zone)
    owner = None
    if owners:
        if st.session_state.get("tr_place_owner") not in owners:
            st.session_state["tr_place_owner"] = owners[0]
        owner = middle.selectbox("Whose", owners, key="tr_place_owner")
    chosen = right.multiselect("Cards (top first)", cards, key="tr_place_cards",
                               format_func=lambda c: f"{c} ({table.label_of(rules, c)})")
    st.caption("The setup deals around the cards placed; a zone it only fills when empty (such as the "
               "Nexus) is then left as placed, as a scenario's table would be.")
    return ((zone, owner, tuple(chosen)),) if chosen else ()


def boardless_settings_form(rules) -> testrun.TestRunSettings:
    """A game without a board: how many play (as the game allows), the seed, the agents, placed cards."""
    counts = testrun.player_counts(rules)
    if st.session_state.get("tr_players") not in counts:
        st.session_state["tr_players"] = counts[0]
    top = st.columns(3)
    players = top[0].selectbox("Players", counts, key="tr_players")
    seed = top[1].number_input("Seed", min_value=0, step=1, key="tr_seed")
    top[2].caption(f"{testrun.game_name(rules)} has no board: no barge, motivations or lanistas.")
    agents = agent_settings(players)
    return testrun.TestRunSettings(
        packs=tuple(state.selected_packs()), motivations=(None,) * players, agents=tuple(agents), seed=int(seed),
        place_cards=placed_cards(rules, players), content_root=str(state.content_root()))


def settings_form(rules) -> testrun.TestRunSettings:
    if not table.has_board(rules):
        return boardless_settings_form(rules)
    if st.session_state.get("tr_players") not in (2, 3, 4):
        st.session_state["tr_players"] = 2
    top = st.columns(3)
    players = top[0].selectbox("Players", [2, 3, 4], key="tr_players")
    barge = top[1].selectbox("Barge", widgets.barge_choices(rules), key="tr_barge",
                             format_func=widgets.named(rules, ["barges"]))
    seed = top[2].number_input("Seed", min_value=0, step=1, key="tr_seed")
    motivations, lanistas, agents = player_settings(rules, players)
    stack, dealt, mode = forced_cards(rules, testrun.PLAYER_LABELS[:players])
    return testrun.TestRunSettings(
        packs=tuple(state.selected_packs()), barge=widgets.barge_setting(barge),
        motivations=tuple(motivations), lanistas=tuple(lanistas) if any(lanistas) else (), agents=tuple(agents),
        seed=int(seed), stack_turning_points=tuple(stack), deal_influence=dealt, deal_mode=mode,
        content_root=str(state.content_root()))


# ---------------------------------------------------------------- stepping
def start(settings: testrun.TestRunSettings) -> None:
    try:
        stepper = testrun.Stepper(settings, state.ruleset())
    except NexusError as error:
        state.flash("error", f"The bout cannot start: {error}")
        return
    st.session_state[STEPPER] = stepper
    # A bout can stop before its first decision (a rule param the engine cannot use): that step is
    # shown at once, since there is nothing left to press Step for.
    st.session_state[STEPS] = [stepper.step()] if stepper.finished else []


def step(to_end: bool = False) -> None:
    stepper = st.session_state.get(STEPPER)
    if stepper is None or stepper.finished:
        return
    try:
        views = stepper.steps_to_end() if to_end else [stepper.step()]
    except NexusError as error:
        state.flash("error", f"The engine stopped: {error}")
        return
    st.session_state[STEPS].extend(views)


def condition_table(view: testrun.StepView) -> pd.DataFrame:
    """Each helot's condition: overall and per body location, one column each."""
    rows = []
    for label, helot in view.pieces.items():
        row: dict[str, object] = {"helot": label, "status": helot.status, "overall": helot.overall}
        row.update({location.replace("_", " "): value for location, value in helot.locations.items()})
        rows.append(row)
    return pd.DataFrame(rows)


def helot_table(view: testrun.StepView) -> pd.DataFrame:
    """Everything else a player's panel shows: motivation, lanista, cred, states, weapon, traits,
    points, place, facing and the influence hand."""
    rows = []
    for label, helot in view.pieces.items():
        rows.append({
            "helot": label, "motivation": helot.motivation or "—", "lanista": helot.lanista or "—",
            "cred": helot.cred, "states": ", ".join(helot.states), "weapon": helot.weapon or "",
            "traits": ", ".join(f"{k} {v}" for k, v in helot.traits.items()), "AP": helot.ap, "MP": helot.mp,
            "at": f"[{helot.at[0]}, {helot.at[1]}]", "facing": helot.facing, "influence": ", ".join(helot.influence),
        })
    return pd.DataFrame(rows)


def seen_by(view: testrun.StepView) -> str | None:
    """Whose eyes the table is seen with: the designer's (every card) or one player's."""
    everyone = "everything (the designer)"
    choices = [everyone, *view.players]
    if st.session_state.get("tr_seen_by") not in choices:
        st.session_state["tr_seen_by"] = everyone
    chosen = st.radio("Seen by", choices, key="tr_seen_by", horizontal=True,
                      help="A player sees only the cards it may: another player's hand and face-down zones as counts.")
    return table.EVERYTHING if chosen == everyone else chosen


def step_log(step: testrun.StepView, viewer: str | None) -> tuple[LogLine, ...]:
    """A step's log, each line beside its event: every line for the designer, a player's as that
    player may read it (the cards it cannot see moving told as `a card`)."""
    stepper = st.session_state.get(STEPPER)
    if viewer is table.EVERYTHING or stepper is None:
        return step.log
    return stepper.seen_log(step, viewer)


def why_panel(rules, log: tuple[LogLine, ...], whole: list[LogLine]) -> None:
    """Why a line of this step's log (or of the whole log so far) happened."""
    st.markdown("**Why did it happen?**")
    scope = st.radio("Lines of", [THIS_STEP, WHOLE_LOG], key=WHY_SCOPE, horizontal=True,
                     label_visibility="collapsed")
    log_explainer(rules, log if scope == THIS_STEP else whole, WHY,
                  label=f"A line of {scope}")


def show_step(rules, view: testrun.StepView, history: list[testrun.StepView]) -> None:
    """One step: `rules` is the ruleset the bout is played with (the stepper's)."""
    waiting = view.waiting_for
    boardless = not table.has_board(rules)
    st.subheader(f"Step {view.index}: {view.headline}")
    where = f"Round {view.cycle}; " if boardless else f"Cycle {view.cycle}; active: {view.active or '—'}; crowd {view.crowd} cred; "
    st.caption(where + (f"waiting for {waiting.actor}: {waiting.kind}" if waiting else "the bout is over"))
    if view.fault is not None:
        widgets.script_fault(rules, view.fault, view.fault_declaration, testrun.fault_text(rules, view.fault),
                             key="tr_open_fault")
    elif view.outcome is not None:
        st.success(f"The bout is over: {widgets.outcome_text(view.outcome, rules)}")
    board, details = st.columns([3, 2])
    viewer = table.EVERYTHING
    with board:
        if boardless:
            viewer = seen_by(view)
            st.html(table.table_html(table.table_zones(view.snapshot, rules, viewer), rules))
        else:
            bout_board(rules, view.snapshot, view.pieces, key=BOARD)
    with details:
        st.markdown("**Dice of this step**")
        if view.dice:
            st.dataframe(pd.DataFrame([{"whose": d.whose or "", "for": d.purpose, "d": d.sides, "rolled": d.value,
                                        "means": d.meaning or "", "in": d.event} for d in view.dice]),
                         hide_index=True)
        else:
            st.caption("no dice")
        st.markdown("**What happened**")
        log = step_log(view, viewer)
        st.text("\n".join(line.text for line in log) or "(nothing)")
    whole = [line for earlier in history for line in (log if earlier is view else step_log(earlier, viewer))]
    why_panel(rules, log, whole)
    if boardless:
        st.markdown("**Players**")
        st.dataframe(pd.DataFrame(table.player_rows(rules, view.snapshot.get("players", {}))), hide_index=True)
    else:
        st.markdown("**Condition**")
        st.dataframe(condition_table(view), hide_index=True)
        st.markdown("**Panels**")
        st.dataframe(helot_table(view), hide_index=True)
    with st.expander("The whole log so far"):
        st.text("\n".join(line.text for line in whole))


def step_panel(rules, settings: testrun.TestRunSettings) -> None:
    buttons = st.columns(3)
    # Started in the run that handles the click, with the settings as the form reads them in it: a
    # callback would get the settings drawn in the run before, and a seed typed just before Start is
    # clicked reaches the server in the same run as the click.
    if buttons[0].button("Start (replay the seed)", key="tr_start", type="primary"):
        start(settings)
    stepper = st.session_state.get(STEPPER)
    over = stepper is None or stepper.finished
    buttons[1].button("Step", on_click=step, key="tr_step", disabled=over)
    buttons[2].button("Run to the end", on_click=step, kwargs={"to_end": True}, key="tr_finish", disabled=over,
                      help="Every step to the end of the bout, each counted and kept as Step would")
    state.show_flashes()
    history = st.session_state.get(STEPS) or []
    if stepper is None:
        st.info("Start a bout, then step through it.")
    elif not history:
        st.info(f"Seed {stepper.settings.seed} set up; press Step.")
    else:
        show_step(stepper.ruleset, history[-1], history)


# ---------------------------------------------------------------- batches
def progress_bar(text: str):
    bar = st.progress(0.0, text=text)
    return lambda done, total: bar.progress(done / total, text=f"{text}: {done} of {total} bouts")


def watched_ids(rules, settings: testrun.TestRunSettings) -> list[str]:
    """The forced cards, always followed, and whatever else the designer picks."""
    forced = list(settings.stack_turning_points) + [c for cards in settings.deal_influence.values() for c in cards]
    options = sorted({*rules.scripts.get("influence", {}), *rules.scripts.get("turning_point", {}),
                      *rules.scripts.get("trait_ability", {})} - set(forced))
    if forced:
        st.caption(f"Following the forced cards: {', '.join(forced)}")
    if not options:  # a game without NEXUS's cards and abilities has nothing of them to follow
        return forced
    if "tr_watch" in st.session_state:
        st.session_state["tr_watch"] = [i for i in st.session_state["tr_watch"] if i in options]
    extra = st.multiselect("Also follow these cards and abilities", options, key="tr_watch",
                           format_func=widgets.named(rules, ["influence", "turning_point", "trait_ability"]))
    return list(dict.fromkeys(forced + [i for i in extra if i in options]))


def backend_choice():
    """Where the batches are played: this machine's processes (the default), or a Ray cluster
    (docs/cluster.md), to which the packs' files are sent with each batch. Raises `BackendError`
    when Ray is asked for and not installed."""
    where = st.radio("Play batches on", ["this machine", "a Ray cluster"], key="tr_backend", horizontal=True)
    if where == "this machine":
        return None
    address = st.text_input("Ray cluster address (empty: a local Ray instance)", key="tr_ray_address",
                            placeholder="host:6379").strip()
    return backend_named("ray", address or None)


def without_settings(settings: testrun.TestRunSettings, dropped_pack: str | None, rules
                     ) -> tuple[testrun.TestRunSettings, object] | None:
    """Settings A of an A/B test, with their ruleset: without the forced cards, or also without one
    pack (and any forced card only that pack defines). None when nothing would load without it."""
    plain = replace(settings, stack_turning_points=(), deal_influence={}, place_cards=())
    if dropped_pack is None:
        return plain, rules
    packs = tuple(p for p in settings.packs if p != dropped_pack)
    loaded = load_packs(list(packs), state.content_root())
    if not packs or loaded.ruleset is None:
        return None
    return replace(plain, packs=packs), loaded.ruleset


@dataclass(frozen=True)
class ComparisonShown:
    """An A/B comparison as the page keeps it: the comparison, the new content it followed, the
    smallest change that matters, and the sequential run when it kept playing until clear."""

    comparison: batch.Comparison
    changed: list[str]
    smallest: float
    run: sequential.SequentialComparison | None = None


def ab_options(bouts: int) -> tuple[float, int | None]:
    """The smallest change of a win rate that matters (a share), and the limit of bouts per side
    when the comparison is to keep playing until its answer is clear (None: `bouts` and no more)."""
    left, middle, right = st.columns(3)
    st.session_state.setdefault("tr_ab_smallest", 5)
    smallest = left.number_input("Smallest change that matters (win-rate points)", min_value=1, max_value=50,
                                 step=1, key="tr_ab_smallest")
    until_clear = middle.checkbox("Keep playing until the answer is clear", key="tr_ab_until_clear",
                                  help="Plays the bouts above per side at each look, and stops as soon as a change, "
                                       "or the absence of one that matters, is shown. The test stays valid "
                                       "however early it stops (an always-valid sequential test).")
    st.session_state.setdefault("tr_ab_limit", 2000)
    limit = right.number_input("At most this many bouts per side", min_value=1, max_value=20000, step=100,
                               key="tr_ab_limit", disabled=not until_clear)
    return int(smallest) / 100, max(int(limit), bouts) if until_clear else None


def watched_view(report: batch.BatchReport) -> None:
    """How often each followed card or ability was played or drawn, and what followed it."""
    st.markdown("**The followed cards and abilities**")
    rows = [{"id": w.id, "bouts": w.bouts, "played": w.played, "drawn": w.drawn, "damage": w.damage,
             "hits": w.hits, "cred gained": w.cred_gained, "cred lost": w.cred_lost, "crowd": w.crowd_change,
             "users won": f"{w.user_win_rate.share:.0%}",
             "states added": ", ".join(f"{k} x{n}" for k, n in sorted(w.states_added.items()))}
            for w in report.watched.values()]
    table = pd.DataFrame(rows)
    st.dataframe(table, hide_index=True)
    st.bar_chart(table.set_index("id")[["played", "drawn"]])
    for summary in report.watched.values():
        st.markdown(f"- {summary.line()}")


def problems_view(report: batch.BatchReport, side: str = "") -> None:
    """The bouts left out of the figures: engine errors (the engine's problem) and, apart, script
    faults (the content's), each by seed so it can be replayed step by step."""
    for seed, message in report.errors[:10]:
        st.error(f"{side}seed {seed}: engine error: {message}")
    if report.faults:
        st.markdown(f"**{side}Script faults: {widgets.counted(len(report.faults), 'bout')} stopped** "
                    "(left out of the figures; replay a seed in Step through one bout)")
        st.dataframe(fault_table(report.faults), hide_index=True)


def report_view(report: batch.BatchReport) -> None:
    st.markdown(f"**{report.bouts} bouts**, seeds {report.settings.seed}..{report.settings.seed + report.bouts - 1}; "
                f"{widgets.counted(len(report.errors), 'engine error')}, "
                f"{widgets.counted(len(report.faults), 'script fault')}; draws {report.draws.share:.1%}")
    problems_view(report)
    if not report.finished:
        st.warning("No bout played to its end, so there are no figures to show.")
        return
    rows = []
    for label, rate in report.wins.items():
        low, high = rate.interval()
        rows.append({"player" if report.with_crowd else "side": label, "wins": rate.wins, "bouts": rate.bouts, "win rate": rate.share,
                     "95% low": low, "95% high": high})
    wins = pd.DataFrame(rows)
    st.dataframe(wins.style.format({"win rate": "{:.1%}", "95% low": "{:.1%}", "95% high": "{:.1%}"}), hide_index=True)
    st.altair_chart(win_chart(wins.rename(columns={"side": "player"})), width="stretch")
    cred, cycles = st.columns(2)
    # The crowd's pile gathers far more than any player's, and its bars would squash theirs: it
    # gets a chart of its own.
    standings = {pile: values for pile, values in report.cred.items() if pile != batch.CROWD}
    with cred:
        who, width, unit = ("per player", CRED_BIN, "cred") if report.with_crowd else ("per side", SCORE_BIN, "point")
        st.markdown(f"**Final {report.score} (bouts per {width}-{unit} bin, {who})**")
        chart = histogram(standings, width, f"final {report.score}")
        if chart is not None:
            st.altair_chart(chart, width="stretch")
        crowd = report.cred.get(batch.CROWD) if report.with_crowd else None
        if crowd:
            st.markdown(f"**The crowd's final cred (bouts per {CRED_BIN}-cred bin)**")
            crowd_chart = histogram({batch.CROWD: crowd}, CRED_BIN, "crowd's final cred")
            if crowd_chart is not None:
                st.altair_chart(crowd_chart, width="stretch")
    with cycles:
        lengths = report.cycles
        median = f", median {statistics.median(lengths):g}" if lengths else ""
        cycles_word = "Command Cycles" if report.with_crowd else report.length
        st.markdown(f"**Bout length (bouts per number of {cycles_word}{median})**")
        chart = histogram({"bouts": lengths}, LENGTH_BIN, cycles_word)
        if chart is not None:
            st.altair_chart(chart, width="stretch")
    if report.watched:
        watched_view(report)


def comparison_view(comparison: batch.Comparison) -> None:
    first = comparison.b.settings.seed
    st.markdown(f"**{comparison.b.bouts} bouts each**, the same seeds {first}..{first + comparison.b.bouts - 1} "
                "for A and B; a difference is significant when its p-value is under 0.05.")
    for side, report in (("A", comparison.a), ("B", comparison.b)):
        st.markdown(f"{side}: {widgets.counted(len(report.finished), 'bout')} played to the end, "
                    f"{widgets.counted(len(report.errors), 'engine error')}, "
                    f"{widgets.counted(len(report.faults), 'script fault')}")
        problems_view(report, f"{side}: ")
    if not comparison.a.finished or not comparison.b.finished:
        st.warning("A or B has no bout played to its end, so there is nothing to compare.")
        return
    rows = [{"figure": d.name, "A": d.shown(d.a), "B": d.shown(d.b), "B − A": d.shown(d.difference, signed=True),
             "95% CI": f"{d.shown(d.interval[0], signed=True)} to {d.shown(d.interval[1], signed=True)}",
             "p-value": f"{d.p_value:.3g}", "verdict": d.verdict, "test": d.test} for d in comparison.differences]
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    rates, means = st.columns(2)
    with rates:
        st.markdown("**Win and draw rates: B − A with 95% intervals**")
        st.altair_chart(difference_chart([*comparison.wins.values(), comparison.draws], percent=True),
                        width="stretch")
    with means:
        st.markdown(f"**Mean final {comparison.b.score}: B − A with 95% intervals**")
        st.altair_chart(difference_chart(list(comparison.cred.values()), percent=False), width="stretch")
    for line in comparison.lines():
        st.markdown(f"- {line}")


def batch_panel(rules, settings: testrun.TestRunSettings) -> None:
    st.session_state.setdefault("tr_bouts", 50)
    bouts = st.number_input("Bouts", min_value=1, max_value=5000, step=10, key="tr_bouts")
    watched = watched_ids(rules, settings)
    extra = [p for p in settings.packs if p != "base"]
    dropped = st.selectbox("A/B: A is these settings without", ["the forced cards"] + extra, key="tr_ab_without",
                           format_func=lambda p: p if p == "the forced cards" else f"pack {p} (and the forced cards)")
    try:
        backend = backend_choice()
    except BackendError as error:
        st.error(str(error))
        return
    left, right = st.columns(2)
    if left.button("Run the batch", key="tr_run_batch", type="primary"):
        try:
            st.session_state[REPORT] = batch.run_batch(settings, int(bouts), progress_bar("Playing"),
                                                       workers=WORKERS, watched=watched, ruleset=rules, backend=backend)
        except (NexusError, ValueError, BackendError) as error:
            st.error(f"The batch cannot run: {error}")
    smallest, limit = ab_options(int(bouts))
    if right.button("A/B compare", key="tr_run_ab"):
        without = without_settings(settings, None if dropped == "the forced cards" else dropped, rules)
        if without is None:
            st.error("Without that pack nothing would load.")
        else:
            settings_a, rules_a = without
            changed = ab_verdict.new_content(rules_a, rules, settings.forced_cards)
            followed = list(dict.fromkeys([*watched, *changed]))
            try:
                if limit is None:
                    comparison = batch.compare(settings_a, settings, int(bouts), progress_bar("Comparing"),
                                               workers=WORKERS, watched=followed, ruleset_a=rules_a, ruleset_b=rules,
                                               backend=backend)
                    st.session_state[COMPARISON] = ComparisonShown(comparison, changed, smallest)
                else:
                    run = sequential.compare_until_clear(settings_a, settings, int(bouts), limit, smallest,
                                                         progress_bar("Comparing until clear"), workers=WORKERS,
                                                         watched=followed, ruleset_a=rules_a, ruleset_b=rules,
                                                         backend=backend)
                    st.session_state[COMPARISON] = ComparisonShown(run.comparison, changed, smallest, run)
            except (NexusError, ValueError, BackendError) as error:
                st.error(f"The comparison cannot run: {error}")
    report = st.session_state.get(REPORT)
    if report is not None:
        st.subheader("Batch results")
        report_view(report)
    shown = st.session_state.get(COMPARISON)
    if shown is not None:
        st.subheader("A/B: A without, B with")
        if shown.comparison.a.finished and shown.comparison.b.finished:
            st.info(ab_verdict.verdict(shown.comparison, shown.changed, shown.smallest))
        if shown.run is not None:
            st.markdown(shown.run.sentence())
        comparison_view(shown.comparison)


def render() -> None:
    st.title("Test run")
    rules = widgets.require_ruleset()
    state.keep_widgets(*KEPT)
    # Collapsible, so that stepping through a bout keeps its buttons and the board in one view.
    with st.expander("Bout settings: barge, players, seed, forced cards", expanded=True):
        st.caption(f"Packs: {', '.join(state.selected_packs())} (choose them in the sidebar)")
        settings = settings_form(rules)
    problems = testrun.settings_problems(settings, rules)
    if problems:
        widgets.show_diagnostics(problems)
    else:
        stepping, batches = st.tabs(["Step through one bout", "Batch and A/B"])
        with stepping:
            step_panel(rules, settings)
        with batches:
            batch_panel(rules, settings)
    state.remember_widgets(*KEPT)


render()
