"""The `nexus` command line: check, fmt, play, scenario.

A user's mistake is always a positioned message and a non-zero exit, never a traceback. An option
that names content (a type, a barge, an agent) names something that exists, or the command stops
with a suggestion. A bout stopped by a script fault prints the fault, positioned in its script.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .errors import NexusError, did_you_mean, format_all

if TYPE_CHECKING:
    from .sim.backends import Backend


def _err(message: str) -> None:
    print(message, file=sys.stderr)


def _known(what: str, value: str, known: Sequence[str]) -> None:
    """Stop with a usage error unless `value` is one of `known` (with a suggestion when one is close)."""
    if value in known:
        return
    hint = did_you_mean(value, known)
    raise ValueError(f"unknown {what} `{value}`" + (f" ({hint})" if hint else "") + f"; choose from {', '.join(known)}")


# `--layout` names one of the game's board layouts; `--barge` is the base game's name for the same.
LAYOUT_HELP = "a board layout's id (the base game's barges), or `random`: a d8 picks one (pg.38)"


def _check_options(ruleset: Any, layout: str | None = None, agents: Sequence[str] = ()) -> None:
    """The content and agents the options name must exist in the loaded packs (a board layout named
    by the game's word for one, among the items of its layouts data kind)."""
    from .agents.base import AGENT_NAMES
    from .engine.setup import RANDOM_LAYOUT

    for agent in agents:
        _known("agent", agent, AGENT_NAMES)
    if layout is not None and layout != RANDOM_LAYOUT:
        game = ruleset.game
        _known(game.layout_word, layout, sorted(ruleset.data.get(game.layouts, {}) if game.layouts else ()))


# ---------------------------------------------------------------- check
def cmd_check(args: argparse.Namespace) -> int:
    from .validate_files import check_paths

    paths = args.paths or [str(_default_content())]
    report = check_paths(paths, tuple(args.packs.split(",")))
    if args.format == "json":
        print(json.dumps({"ok": report.ok, "checked": report.checked,
                          "errors": [d.to_json() for d in report.diagnostics]}, indent=2))
    else:
        if not report.ok:
            errors = report.errors
            print(format_all(report.diagnostics, report.sources))
            _err(f"\n{len(errors)} error{'s' if len(errors) != 1 else ''} "
                 f"in {len({d.file for d in errors})} file(s)")
        else:
            print(f"ok: {len(report.checked)} checked ({', '.join(report.checked)})")
            if report.diagnostics:  # warnings only: shown after the verdict, which they do not change
                print(format_all(report.diagnostics, report.sources))
    return 0 if report.ok else 1


def _default_content() -> Path:
    from .content.loader import default_content_root

    return default_content_root()


# ---------------------------------------------------------------- fmt
def _fmt_targets(raw_paths: Sequence[str]) -> tuple[list[tuple[Path, Path]], int]:
    """Each script to format with its root, the folder it is read and written under: the folder
    named on the command line, or a file's own folder; and how many paths named nothing."""
    targets: list[tuple[Path, Path]] = []
    missing = 0
    for raw in raw_paths:
        path = Path(raw)
        if path.is_dir():
            targets.extend((found, path) for found in sorted(path.rglob("*.nexus")))
        elif path.exists() or path.is_symlink():  # a link is reported by the read, not skipped
            targets.append((path, path.parent))
        else:
            _err(f"{raw}: error: no such file or folder")
            missing += 1
    return targets, missing


def _fmt_one(path: Path, root: Path, check: bool) -> str:
    """Format one script: `unchanged`, `changed` (written, or only reported with `check`) or
    `failed` (its problems printed, the file left as it was).

    The file is read once, confined to `root` and bounded (`files.read_content_bytes`); it is
    written the way the editor saves (`workbench.store.save`): under the file's lock, atomically,
    keeping its mode and its previous version in `.history/`, never through a symbolic link nor
    outside `root`, and only if the file still holds the very bytes that were formatted (their
    fingerprint is compared under the lock), so an edit made meanwhile is never overwritten."""
    from .files import decode_content, read_content_bytes
    from .syntax.printer import format_source
    from .workbench.store import ConflictError, StoreError, fingerprint_of_data, save

    file = str(path)
    try:  # confined to `root`, bounded, UTF-8: a positioned error, and the file's text never shown
        data = read_content_bytes(path, root, file)
        source = decode_content(data, file)
    except NexusError as error:
        print(format_all(error.diagnostics))
        return "failed"
    try:
        formatted = format_source(source, file)
    except NexusError as error:
        print(format_all(error.diagnostics, {file: source}))
        return "failed"
    if formatted == source:
        return "unchanged"
    if check:
        print(f"would reformat {path}")
        return "changed"
    try:
        save(path, formatted, fingerprint_of_data(data), check=False, root=root)
    except ConflictError:
        print(f"{path}: error: {path.name} was not saved: it changed while being formatted; run `nexus fmt` again")
        return "failed"
    except StoreError as error:
        print(f"{path}: error: {error}")
        return "failed"
    print(f"reformatted {path}")
    return "changed"


def cmd_fmt(args: argparse.Namespace) -> int:
    """Format every script named (folders: every `*.nexus` below them). A file that cannot be read,
    parsed or written is reported and left alone; the others are still formatted."""
    targets, missing = _fmt_targets(args.paths)
    results = [_fmt_one(path, root, args.check) for path, root in targets]
    changed = results.count("changed")
    if args.check and changed:
        _err(f"{changed} file(s) would be reformatted")
    return 1 if missing or "failed" in results or (args.check and changed) else 0


# ---------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace) -> int:
    from .agents import make_agent
    from .content.loader import load_ruleset
    from .engine.bout import Bout, next_action
    from .engine.setup import standard_setup
    from .narrate import GameTerms, describe, summary

    ruleset = load_ruleset(args.packs.split(","))
    agent_names = args.agents.split(",")
    _check_options(ruleset, args.layout, agent_names)
    setup = standard_setup(players=_players(ruleset, args.players), layout=args.layout)
    labels = [h.label for h in setup.pieces]
    agents = {label: make_agent(agent_names[i % len(agent_names)], seed=args.seed * 31 + i) for i, label in enumerate(labels)}
    bout = Bout(ruleset, setup, seed=args.seed, explain=args.explain)
    terms = GameTerms.of(ruleset)
    printed = 0
    while True:
        if not args.quiet:
            for event in bout.log[printed:]:
                line = describe(event, terms)
                if line:
                    print(line)
                if args.explain:
                    _print_why(event, ruleset, terms)
        printed = len(bout.log)
        if bout.pending is None:
            break
        bout.apply(next_action(bout, agents))
    if args.log:
        with open(args.log, "w", encoding="utf-8") as out:
            for record in bout.events_json():
                out.write(json.dumps(record) + "\n")
    print(summary(bout))
    if bout.fault is not None:
        _err(bout.fault.format(ruleset.sources.get(bout.fault.file)))
        return 1
    return 0


def _print_why(event: Any, ruleset: Any, terms: Any) -> None:
    """Below a line of `nexus play --explain`: why it happened, indented under it."""
    from .workbench.explain import explain

    for text in explain(event, ruleset, terms).lines():
        print(f"          {text}")


def _players(ruleset: Any, asked: int | None) -> int:
    """The number of players asked for; else the fewest the game is played by; else 2."""
    if asked is not None:
        return asked
    return min(ruleset.game.players) if ruleset.game.players else 2


# ---------------------------------------------------------------- simulate
def _backend(args: argparse.Namespace) -> Backend:
    """The backend `--backend` and `--address` name (`sim/backends.py`); Ray is imported only for `ray`."""
    from .sim.backends import backend_named

    return backend_named(args.backend, args.address)


def _add_backend_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--workers", type=int, default=None,
                         help="workers: processes, or Ray workers (default: one per core of the machine or cluster)")
    command.add_argument("--backend", choices=("local", "ray"), default="local",
                         help="where the bouts are played: processes of this machine (default), or a Ray cluster "
                              "(needs `pip install 'nexus_dsl[cluster]'`; see docs/cluster.md)")
    command.add_argument("--address", default=None, metavar="ADDR",
                         help="the Ray cluster to play on, e.g. 10.0.0.5:6379 (default: a local Ray instance)")


def _batch_command(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A command that plays a batch: a backend that cannot play (Ray not installed, a cluster out of
    reach) is a message and exit status 1."""
    def guarded(args: argparse.Namespace) -> int:
        from .sim.backends import BackendError  # imported with the batch code, never before a command needs it

        try:
            return run(args)
        except BackendError as error:
            _err(f"nexus: {error}")
            return 1
    return guarded


def cmd_simulate(args: argparse.Namespace) -> int:
    from .content.loader import cached_ruleset
    from .sim.batch import BoutSpec, run_batch, settle_heap, summarise

    backend = _backend(args)
    ruleset = cached_ruleset(tuple(args.packs.split(",")))
    settle_heap()  # this process now plays bouts and nothing else (forked workers inherit the frozen heap)
    _check_options(ruleset, args.layout, args.agents.split(","))
    specs = [BoutSpec(seed=args.seed + i, players=_players(ruleset, args.players), packs=tuple(args.packs.split(",")),
                      agents=tuple(args.agents.split(",")), barge=args.layout) for i in range(args.bouts)]
    results = []
    for done, result in enumerate(run_batch(specs, workers=args.workers, backend=backend), start=1):
        results.append(result)
        if not args.quiet and (done % max(1, args.bouts // 20) == 0 or done == args.bouts):
            print(f"\r{done}/{args.bouts} bouts", end="", file=sys.stderr, flush=True)
    if not args.quiet:
        print(file=sys.stderr)
    summary = summarise(results)
    for line in summary.lines():
        print(line)
    return 0 if not summary.errors and not summary.faults and not summary.unbalanced else 1


# ---------------------------------------------------------------- balance
def cmd_balance(args: argparse.Namespace) -> int:
    from .content.loader import load_ruleset
    from .sim.balance import markdown, run_balance
    from .sim.batch import fault_lines

    backend = _backend(args)
    packs = tuple(args.packs.split(","))
    ruleset = load_ruleset(list(packs))

    def progress(done: int, total: int) -> None:
        if not args.quiet and (done % max(1, total // 50) == 0 or done == total):
            print(f"\r{done}/{total} bouts", end="", file=sys.stderr, flush=True)

    report = run_balance(ruleset, packs, args.bouts, args.seed, workers=args.workers, progress=progress,
                         backend=backend)
    if not args.quiet:
        print(file=sys.stderr)
    command = f"nexus balance --bouts {args.bouts} --seed {args.seed} --packs {args.packs}" + (
        f" --out {args.out}" if args.out else "")
    page = markdown(report, ruleset, command)
    if args.out:
        Path(args.out).write_text(page, encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        print(page, end="")
    for result in report.errors[:10]:
        first = (result.error or "").splitlines()[0]
        _err(f"engine error (seed {result.seed}): {first}")
    if report.faults:
        _err(f"{len(report.faults)} bout(s) stopped by a script fault:")
        for line in fault_lines(report.faults):
            _err(line)
    if report.dominant:
        _err(f"a motivation wins more than 60% of its bouts against the field: {', '.join(report.dominant)}")
    return 1 if report.errors or report.faults or report.dominant else 0


# ---------------------------------------------------------------- cards
def cmd_cards(args: argparse.Namespace) -> int:
    from .cards import all_faces, card_types
    from .content.loader import load_ruleset

    ruleset = load_ruleset(args.packs.split(","))
    if args.type is not None:
        _known("content type", args.type, card_types(ruleset))
    faces = all_faces(ruleset, args.type)
    if args.format == "json":
        print(json.dumps([f.to_json() for f in faces], indent=2))
    elif args.format == "markdown":
        print("\n".join(f.markdown() for f in faces))
    else:
        print("\n\n".join(f.text() for f in faces))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from .cards import show
    from .content.loader import load_ruleset

    ruleset = load_ruleset(args.packs.split(","))
    found = show(ruleset, args.id)
    if not found:
        from .errors import did_you_mean

        from .content.loader import default_content_root
        from .workbench.packs import packs_holding

        known = {i for items in ruleset.scripts.values() for i in items} | {i for items in ruleset.data.values() for i in items}
        hint = did_you_mean(args.id, known)
        _err(f"nexus: nothing with the id `{args.id}` in {', '.join(ruleset.pack_ids)}" + (f" ({hint})" if hint else ""))
        elsewhere = [pack for pack, ids in packs_holding(args.id, default_content_root(), ruleset.pack_ids).items()
                     if args.id in ids]
        if elsewhere:
            _err(f"  it is in pack {', '.join(f'`{pack}`' for pack in elsewhere)}, not loaded: "
                 f"nexus show {args.id} --packs {args.packs},{elsewhere[0]}")
        return 1
    for face, script in found:
        print(face.text())
        print(f"  defined at {face.origin}")
        if script:
            print()
            print(script)
    return 0


# ---------------------------------------------------------------- scenario
def cmd_scenario(args: argparse.Namespace) -> int:
    from .scenario import ScenarioError, run_paths, snapshot_of

    if args.action == "snapshot":
        if len(args.paths) != 1:
            _err("nexus scenario snapshot takes exactly one FILE")
            return 2
        try:
            print(json.dumps(snapshot_of(args.paths[0], args.tree), indent=2, sort_keys=True))
        except ScenarioError as error:
            _err(f"FAIL {args.paths[0]}: {error}")
            return 1
        return 0
    results = run_paths(args.paths, args.tree)
    for result in results:
        print(result.report())
    passed = sum(r.passed for r in results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if results and passed == len(results) else 1


# ---------------------------------------------------------------- editor
def cmd_editor(args: argparse.Namespace) -> int:
    from .editor_launch import default_address, run_editor

    return run_editor(args.address or default_address(), args.port)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"`{text}` is not a port number (1 to 65535)")
    return port


# ---------------------------------------------------------------- version
class _VersionAction(argparse.Action):
    """`--version`: the package's version, the engine in use (compiled or sources) and where the
    shipped data is read from; worked out only when asked, so that other commands pay nothing."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from . import __version__, shipped
        from .native import use_native_build

        layout = "a checkout" if shipped.is_checkout() else "the installed package"
        print(f"nexus_dsl {__version__}\nengine: {use_native_build()}\n"
              f"shipped content: {shipped.content_folder()} ({layout})")
        parser.exit()


# ---------------------------------------------------------------- entry point
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nexus", description="Design, check and play NEXUS Arena Combat System content.")
    parser.add_argument("--version", action=_VersionAction,
                        help="print the version, the engine in use (compiled or sources) and where the shipped "
                             "content is, and exit")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="validate packs, folders or single files")
    check.add_argument("paths", nargs="*", help="packs, folders of packs, .nexus or .yaml files (default: content/)")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--packs", default="base", help="packs a single script file is checked against")
    check.set_defaults(run=cmd_check)

    fmt = sub.add_parser("fmt", help="rewrite rule scripts in canonical form (comments are kept)")
    fmt.add_argument("--check", action="store_true", help="only report files that would change")
    fmt.add_argument("paths", nargs="+")
    fmt.set_defaults(run=cmd_fmt)

    play = sub.add_parser("play", help="play one bout in the terminal")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--agents", default="heuristic,heuristic", help="comma-separated agents, one per player")
    play.add_argument("--players", type=int, default=None, choices=(2, 3, 4),
                      help="how many play (default: the fewest the game is played by, else 2)")
    play.add_argument("--packs", default="base")
    play.add_argument("--layout", "--barge", dest="layout", default=None, help=LAYOUT_HELP)
    play.add_argument("--log", default=None, help="write the event log as JSON lines to FILE")
    play.add_argument("--quiet", action="store_true", help="print only the one-line summary")
    play.add_argument("--explain", action="store_true",
                      help="under each line, why it happened: the script declarations and lines under way, with "
                           "their values and the dice rolled (and a `cause` list on each line of --log)")
    play.set_defaults(run=cmd_play)

    cards = sub.add_parser("cards", help="list the loaded content as players read it")
    cards.add_argument("--type", default=None, help="a kind of declaration (command, trait_ability, hazard, weapon, rule, "
                                                    "... or one the packs declare, such as the base game's turning_point "
                                                    "and influence) or of data (barges, lanistas, motivations, objects)")
    cards.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    cards.add_argument("--packs", default="base")
    cards.set_defaults(run=cmd_cards)

    show = sub.add_parser("show", help="one item: its rules text, its script and where it is defined")
    show.add_argument("id")
    show.add_argument("--packs", default="base")
    show.set_defaults(run=cmd_show)

    simulate = sub.add_parser("simulate", help="play many seeded bouts and summarise them")
    simulate.add_argument("--bouts", type=int, default=100)
    simulate.add_argument("--seed", type=int, default=0, help="the first seed; bout i uses seed + i")
    simulate.add_argument("--players", type=int, default=None, choices=(2, 3, 4),
                          help="how many play (default: the fewest the game is played by, else 2)")
    simulate.add_argument("--agents", default="heuristic")
    simulate.add_argument("--packs", default="base")
    simulate.add_argument("--layout", "--barge", dest="layout", default=None, help=LAYOUT_HELP)
    _add_backend_options(simulate)
    simulate.add_argument("--quiet", action="store_true")
    simulate.set_defaults(run=_batch_command(cmd_simulate))

    balance = sub.add_parser("balance", help="the balance baseline: many seeded bouts over every barge, "
                                                   "motivation and lanista pairing, as a markdown table")
    balance.add_argument("--bouts", type=int, default=2000)
    balance.add_argument("--seed", type=int, default=1, help="the first seed; bout i uses seed + i")
    balance.add_argument("--packs", default="base")
    balance.add_argument("--out", default=None, help="write the table to FILE (default: print it)")
    _add_backend_options(balance)
    balance.add_argument("--quiet", action="store_true")
    balance.set_defaults(run=_batch_command(cmd_balance))

    scenario = sub.add_parser("scenario", help="run rules scenarios or print a scenario's final state")
    scenario.add_argument("action", choices=("run", "snapshot"))
    scenario.add_argument("paths", nargs="+")
    scenario.add_argument("--tree", default=None, metavar="FOLDER",
                          help="the folder tree the scenarios' test packs may be loaded from (default: the folder "
                               "named, or a file's own folder)")
    scenario.set_defaults(run=cmd_scenario)

    editor = sub.add_parser("editor", help="serve the browser editor (Streamlit: the `editor` extra)")
    editor.add_argument("--address", default=None,
                        help="the address to listen on (default: $NEXUS_EDITOR_ADDRESS, else 127.0.0.1: this machine "
                             "only; anyone who can reach another can read and write the content)")
    editor.add_argument("--port", type=_port, default=8501, help="the port to listen on (default: 8501)")
    editor.set_defaults(run=cmd_editor)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except NexusError as error:
        print(format_all(error.diagnostics), file=sys.stderr)
        return 1
    except ValueError as error:  # bad option values (e.g. an unknown agent name)
        _err(f"nexus: {error}")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
