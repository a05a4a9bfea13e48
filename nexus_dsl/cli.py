"""The `nexus` command line: check, fmt, play, cards, show, simulate, balance, print, scenario.

A user's mistake is always a positioned message and a non-zero exit, never a traceback. An option
that names content (a type, a barge, an agent) names something that exists, or the command stops
with a suggestion. A bout stopped by a script fault prints the fault, positioned in its script.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Sequence

from .commands.exits import EPILOG, CommandError, ExitCode, UsageError
from .commands.forcing import add_forcing_options, bout_settings
from .commands.options import (FORMATS_HELP, LAYOUT_HELP, PLAYERS_HELP, NexusParser, add_backend_options, backend,
                               check_options, known, packs_of, players, positive)
from .errors import NexusError, format_all


def _err(message: str) -> None:
    print(message, file=sys.stderr)


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
    if any(d.code == "content/not_found" for d in report.diagnostics):
        return ExitCode.USAGE  # a path named that is not there: the command line's mistake, not the content's
    return ExitCode.OK if report.ok else ExitCode.PROBLEMS


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
    if missing:
        return ExitCode.USAGE  # a path named that is not there (the others were still formatted)
    return ExitCode.PROBLEMS if "failed" in results or (args.check and changed) else ExitCode.OK


# ---------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace) -> int:
    from .content.loader import load_ruleset
    from .engine.bout import Bout, next_action, on_demand_actors
    from .narrate import GameTerms, describe, summary
    from .sim.batch import spec_agents, spec_setup

    packs = packs_of(args.packs)
    ruleset = load_ruleset(list(packs))
    check_options(ruleset, args.layout, args.agents.split(","))
    # The bout the test run plays with these settings: the same setup, agents and forced cards.
    spec = bout_settings(args, ruleset, players(ruleset, args.players), packs, args.seed).bout_spec()
    setup = spec_setup(spec)
    agents = spec_agents(spec, [h.label for h in setup.pieces])
    bout = Bout(ruleset, setup, seed=args.seed, explain=args.explain, options_on_demand=on_demand_actors(agents))
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
        return ExitCode.PROBLEMS
    return ExitCode.OK


def _print_why(event: Any, ruleset: Any, terms: Any) -> None:
    """Below a line of `nexus play --explain`: why it happened, indented under it."""
    from .workbench.explain import explain

    for text in explain(event, ruleset, terms).lines():
        print(f"          {text}")


# ---------------------------------------------------------------- simulate
def _batch_command(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A command that plays a batch: a backend that cannot play (Ray not installed, a cluster out of
    reach) is a message and exit status 1."""
    def guarded(args: argparse.Namespace) -> int:
        from .sim.backends import BackendError  # imported with the batch code, never before a command needs it

        try:
            return run(args)
        except BackendError as error:
            raise CommandError(str(error)) from None
    return guarded


def cmd_simulate(args: argparse.Namespace) -> int:
    from .commands.progress import progress_bar
    from .content.loader import cached_ruleset
    from .sim.batch import run_batch, settle_heap, summarise

    where = backend(args)
    packs = packs_of(args.packs)
    ruleset = cached_ruleset(packs)
    settle_heap()  # this process now plays bouts and nothing else (forked workers inherit the frozen heap)
    check_options(ruleset, args.layout, args.agents.split(","))
    settings = bout_settings(args, ruleset, players(ruleset, args.players), packs, args.seed)
    specs = [settings.bout_spec(seed=args.seed + i) for i in range(args.bouts)]
    results = []
    with progress_bar(args.bouts, quiet=args.quiet) as progress:
        for result in run_batch(specs, workers=args.workers, backend=where):
            results.append(result)
            progress(len(results), args.bouts)
    summary = summarise(results)
    if args.format == "json":
        from .commands.reports import print_json

        print_json(summary.to_json())
    else:
        for line in summary.lines():
            print(line)
    failed = summary.errors or summary.faults or summary.unbalanced
    return ExitCode.PROBLEMS if failed else ExitCode.OK


# ---------------------------------------------------------------- balance
def cmd_balance(args: argparse.Namespace) -> int:
    from .commands.progress import progress_bar
    from .content.loader import load_ruleset
    from .files import write_atomically
    from .sim.balance import markdown, run_balance
    from .sim.batch import fault_lines

    where = backend(args)
    packs = packs_of(args.packs)
    ruleset = load_ruleset(list(packs))
    if not ruleset.data_items("motivations") or not ruleset.data_items("lanistas"):
        raise UsageError(f"a balance baseline pairs motivations and lanistas; packs {args.packs} hold "
                         f"{'none of either' if not ruleset.data_items('motivations') else 'no lanistas'}")
    with progress_bar(args.bouts, quiet=args.quiet) as progress:
        report = run_balance(ruleset, packs, args.bouts, args.seed, workers=args.workers, progress=progress,
                             backend=where)
    if args.format == "json":
        page = json.dumps(report.to_json(), indent=2) + "\n"
    else:
        command = f"nexus balance --bouts {args.bouts} --seed {args.seed} --packs {args.packs}" + (
            f" --out {args.out}" if args.out else "")
        page = markdown(report, ruleset, command)
    if args.out:  # written all at once, as every file this tool writes: a failure leaves no partial page
        write_atomically(Path(args.out), page.encode("utf-8"), mode=None)
        _err(f"wrote {args.out}")
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
    return ExitCode.PROBLEMS if report.errors or report.faults or report.dominant else ExitCode.OK


# ---------------------------------------------------------------- cards
def cmd_cards(args: argparse.Namespace) -> int:
    from .cards import all_faces, card_types
    from .content.loader import load_ruleset

    ruleset = load_ruleset(args.packs.split(","))
    if args.type is not None:
        known("content type", args.type, card_types(ruleset))
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

    ruleset = load_ruleset(list(packs_of(args.packs)))
    found = show(ruleset, args.id)
    if not found:
        raise UsageError(_not_found(args, ruleset))
    if args.format == "json":
        from .commands.reports import print_json, shown_json

        print_json(shown_json(found))
        return ExitCode.OK
    for face, script in found:
        print(face.text())
        print(f"  defined at {face.origin}")
        if script:
            print()
            print(script)
    return ExitCode.OK


def _not_found(args: argparse.Namespace, ruleset: Any) -> str:
    """An id the loaded packs do not hold: the closest one they do, and the packs under the content
    root that hold it, with the command that loads them."""
    from .content.loader import default_content_root
    from .errors import did_you_mean
    from .workbench.packs import packs_holding

    ids = {i for items in ruleset.scripts.values() for i in items} | {i for items in ruleset.data.values() for i in items}
    hint = did_you_mean(args.id, ids)
    message = f"nothing with the id `{args.id}` in {', '.join(ruleset.pack_ids)}" + (f" ({hint})" if hint else "")
    elsewhere = [pack for pack, held in packs_holding(args.id, default_content_root(), ruleset.pack_ids).items()
                 if args.id in held]
    if elsewhere:
        message += (f"\n  it is in pack {', '.join(f'`{pack}`' for pack in elsewhere)}, not loaded: "
                    f"nexus show {args.id} --packs {args.packs},{elsewhere[0]}")
    return message


# ---------------------------------------------------------------- print
def _listed(option: str | None) -> list[str]:
    """A comma-separated option as its items (none when not given)."""
    return [item for item in (option or "").split(",") if item]


def _check_packs(packs: Sequence[str]) -> None:
    """Every pack asked for is one under the content root (by id) or a pack folder, else a usage
    error with a suggestion: checked before loading, so a typo is exit 2, as any other bad option."""
    from .content.loader import MANIFEST, default_content_root, discover_packs

    available = discover_packs(default_content_root())
    for pack in packs:
        if pack not in available and not (Path(pack) / MANIFEST).is_file():
            known("pack", pack, sorted(available))


def _output_problem(out: Path) -> str | None:
    """Why `--out` cannot be written, checked before anything is drawn."""
    if out.is_dir():
        return f"{out} is a folder: name the PDF file to write"
    if not out.parent.is_dir():
        return f"no folder {out.parent} to write {out.name} into"
    return None


def cmd_print(args: argparse.Namespace) -> int:
    """Card faces nine to a page with crop marks and barge schematics one a page, as one PDF, written
    all at once (a temporary file renamed over `--out`): a failure leaves no partial file."""
    from .content.loader import load_ruleset
    from .files import write_atomically
    from .workbench.card_svg import PAGE_SIZES
    from .workbench.print_job import PrintChoiceError, choose
    from .workbench.print_pdf import PrintUnavailable, pdf_of

    out = Path(args.out)
    problem = _output_problem(out)
    if problem:
        _err(f"nexus: {problem}")
        return ExitCode.USAGE
    packs = _listed(args.packs)
    try:
        _check_packs(packs)
        ruleset = load_ruleset(packs)
        printout = choose(ruleset, _listed(args.cards), _listed(args.kinds),
                          None if args.barges is None else _listed(args.barges))
    except PrintChoiceError as error:
        _err(f"nexus: {error}")
        return ExitCode.USAGE
    pages = printout.pages(ruleset, PAGE_SIZES[args.page])
    try:
        document = pdf_of(pages, title=f"Print and play: {', '.join(ruleset.pack_ids)}")
        write_atomically(out, document, mode=None)
    except PrintUnavailable as error:
        _err(f"nexus: {error}")
        return ExitCode.PROBLEMS
    except OSError as error:
        _err(f"nexus: {out} was not written: {error.strerror or error}")
        return ExitCode.PROBLEMS
    sheets = len(pages) - len(printout.barges)
    print(f"wrote {out}: {len(pages)} page(s), {len(printout.faces)} card(s) on {sheets} sheet(s) of nine, "
          f"{len(printout.barges)} barge(s)")
    return ExitCode.OK


# ---------------------------------------------------------------- scenario
def cmd_scenario(args: argparse.Namespace) -> int:
    from .scenario import ScenarioError, run_paths, snapshot_of

    if args.action == "snapshot":
        if len(args.paths) != 1:
            raise UsageError("nexus scenario snapshot takes exactly one FILE")
        try:
            print(json.dumps(snapshot_of(args.paths[0], args.tree), indent=2, sort_keys=True))
        except ScenarioError as error:
            _err(f"FAIL {args.paths[0]}: {error}")
            return ExitCode.PROBLEMS
        return ExitCode.OK
    results = run_paths(args.paths, args.tree)
    passed = sum(r.passed for r in results)
    if args.format == "json":
        from .commands.reports import print_json, scenarios_json

        print_json(scenarios_json(results))
    else:
        for result in results:
            print(result.report())
        print(f"{passed} passed, {len(results) - passed} failed")
    return ExitCode.OK if results and passed == len(results) else ExitCode.PROBLEMS


# ---------------------------------------------------------------- editors
def cmd_grammar(args: argparse.Namespace) -> int:
    """The TextMate grammar of rule scripts, generated from the Lark grammar (`nexus_dsl/textmate.py`)."""
    from .files import write_atomically
    from .textmate import textmate_json

    text = textmate_json()
    if args.out:
        write_atomically(Path(args.out), text.encode("utf-8"), mode=None)
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return ExitCode.OK


def cmd_lsp(args: argparse.Namespace) -> int:
    """The language server, on standard input and output (`nexus_dsl/lsp/`, docs/editors.md)."""
    try:
        from .lsp.server import serve
    except ImportError as error:  # the `lsp` extra is not installed
        _err(f"nexus lsp: {error.name or error} is missing: install the `lsp` extra (pip install 'nexus_dsl[lsp]')")
        return ExitCode.PROBLEMS  # as `nexus editor` without its extra, and a backend that cannot play
    serve()
    return ExitCode.OK


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
    from .commands.ab import add_ab_command

    parser = NexusParser(prog="nexus", description="Design, check and play NEXUS Arena Combat System content.",
                         epilog=EPILOG, formatter_class=_EpilogFormatter)
    parser.add_argument("--version", action=_VersionAction,
                        help="print the version, the engine in use (compiled or sources) and where the shipped "
                             "content is, and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = sub.add_parser("check", help="validate packs, folders or single files")
    check.add_argument("paths", nargs="*", help="packs, folders of packs, .nexus or .yaml files (default: content/)")
    check.add_argument("--format", choices=("text", "json"), default="text", help=FORMATS_HELP)
    check.add_argument("--packs", default="base", help="packs a single script file is checked against")
    check.set_defaults(run=cmd_check)

    fmt = sub.add_parser("fmt", help="rewrite rule scripts in canonical form (comments are kept)")
    fmt.add_argument("--check", action="store_true", help="only report files that would change; write nothing")
    fmt.add_argument("paths", nargs="+", help="rule scripts, or folders: every *.nexus below them")
    fmt.set_defaults(run=cmd_fmt)

    play = sub.add_parser("play", help="play one bout in the terminal")
    play.add_argument("--seed", type=int, default=0, help="the bout's seed: the same seed plays the same bout")
    play.add_argument("--agents", default="heuristic,heuristic", help="comma-separated agents, cycled over the players")
    play.add_argument("--players", type=int, default=None, choices=(2, 3, 4), help=PLAYERS_HELP)
    play.add_argument("--packs", default="base", help="the packs loaded, comma-separated, in layering order")
    play.add_argument("--layout", "--barge", dest="layout", default=None, help=LAYOUT_HELP)
    add_forcing_options(play)
    play.add_argument("--log", default=None, metavar="FILE", help="write the event log as JSON lines to FILE "
                                                                  "(default: no log)")
    play.add_argument("--quiet", action="store_true", help="print only the one-line summary")
    play.add_argument("--explain", action="store_true",
                      help="under each line, why it happened: the script declarations and lines under way, with "
                           "their values and the dice rolled (and a `cause` list on each line of --log)")
    play.set_defaults(run=cmd_play)

    cards = sub.add_parser("cards", help="list the loaded content as players read it")
    cards.add_argument("--type", default=None, help="a kind of declaration (command, trait_ability, hazard, weapon, rule, "
                                                    "... or one the packs declare, such as the base game's turning_point "
                                                    "and influence) or of data (barges, lanistas, motivations, objects) "
                                                    "(default: every kind)")
    cards.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                       help="text, markdown, or json: one JSON document on stdout")
    cards.add_argument("--packs", default="base", help="the packs loaded, comma-separated, in layering order")
    cards.set_defaults(run=cmd_cards)

    show = sub.add_parser("show", help="one item: its rules text, its script and where it is defined")
    show.add_argument("id", help="the id of a declaration or data item")
    show.add_argument("--packs", default="base", help="the packs loaded, comma-separated, in layering order")
    show.add_argument("--format", choices=("text", "json"), default="text", help=FORMATS_HELP)
    show.set_defaults(run=cmd_show)

    simulate = sub.add_parser("simulate", help="play many seeded bouts and summarise them, win rates and draws "
                                               "with 95%% intervals")
    simulate.add_argument("--bouts", type=positive, default=100, help="how many bouts to play")
    simulate.add_argument("--seed", type=int, default=0, help="the first seed; bout i uses seed + i")
    simulate.add_argument("--players", type=int, default=None, choices=(2, 3, 4), help=PLAYERS_HELP)
    simulate.add_argument("--agents", default="heuristic", help="comma-separated agents, cycled over the players")
    simulate.add_argument("--packs", default="base", help="the packs loaded, comma-separated, in layering order")
    simulate.add_argument("--layout", "--barge", dest="layout", default=None, help=LAYOUT_HELP)
    add_forcing_options(simulate)
    add_backend_options(simulate)
    simulate.add_argument("--format", choices=("text", "json"), default="text", help=FORMATS_HELP)
    simulate.add_argument("--quiet", action="store_true", help="no progress bar (none is drawn off a terminal either)")
    simulate.set_defaults(run=_batch_command(cmd_simulate))

    balance = sub.add_parser("balance", help="the balance baseline: many seeded bouts over every barge, "
                                             "motivation and lanista pairing, as a markdown table")
    balance.add_argument("--bouts", type=positive, default=2000, help="how many bouts to play")
    balance.add_argument("--seed", type=int, default=1, help="the first seed; bout i uses seed + i")
    balance.add_argument("--packs", default="base", help="the packs loaded, comma-separated, in layering order")
    balance.add_argument("--out", default=None, metavar="FILE", help="write the report to FILE (default: print it)")
    add_backend_options(balance)
    balance.add_argument("--format", choices=("markdown", "json"), default="markdown",
                         help="the markdown page, or json: one JSON document (on stdout, or in --out)")
    balance.add_argument("--quiet", action="store_true", help="no progress bar (none is drawn off a terminal either)")
    balance.set_defaults(run=_batch_command(cmd_balance))

    printing = sub.add_parser("print", help="print-and-play: card faces nine to a page with crop marks, barge "
                                             "schematics one a page, as a PDF")
    printing.add_argument("--packs", default="base", help="comma-separated packs to load (default: base)")
    printing.add_argument("--cards", default=None, metavar="ID,...",
                          help="the items to print, by id (default: with no --kinds either, every card players handle: "
                               "commands, trait abilities, hazards, weapons, drawn and hand cards, a game's cards, "
                               "lanistas, motivations)")
    printing.add_argument("--kinds", default=None, metavar="KIND,...",
                          help="print every item of these kinds, as `nexus cards --type` names them (turning_point, "
                               "influence, rule, lanistas, ...), besides any --cards")
    printing.add_argument("--barges", nargs="?", const="all", default=None, metavar="ID,...",
                          help="also print barge schematics, one a page: every barge of the packs, or those named "
                               "(alone, without --cards or --kinds, only the barges are printed)")
    printing.add_argument("--page", choices=("a4", "letter"), default="a4", help="the paper size (default: a4)")
    printing.add_argument("--out", required=True, metavar="FILE", help="the PDF file to write (replaced whole)")
    printing.set_defaults(run=cmd_print)
    add_ab_command(sub)
    sub.choices["ab"].set_defaults(run=_batch_command(sub.choices["ab"].get_default("run")))

    scenario = sub.add_parser("scenario", help="run rules scenarios or print a scenario's final state")
    scenario.add_argument("action", choices=("run", "snapshot"),
                          help="run: check every scenario; snapshot: print one scenario's final state as JSON")
    scenario.add_argument("paths", nargs="+", help="scenario files, or folders of them (snapshot: one file)")
    scenario.add_argument("--tree", default=None, metavar="FOLDER",
                          help="the folder tree the scenarios' test packs may be loaded from (default: the folder "
                               "named, or a file's own folder)")
    scenario.add_argument("--format", choices=("text", "json"), default="text",
                          help="run's report: " + FORMATS_HELP)
    scenario.set_defaults(run=cmd_scenario)

    grammar = sub.add_parser("grammar", help="print the TextMate grammar of rule scripts, generated from the Lark grammar")
    grammar.add_argument("--textmate", action="store_true", required=True,
                         help="the TextMate (.tmLanguage.json) form, the only one there is")
    grammar.add_argument("--out", default=None, help="write it to FILE (default: print it)")
    grammar.set_defaults(run=cmd_grammar)

    lsp = sub.add_parser("lsp", help="the language server for rule scripts, on standard input and output "
                                     "(docs/editors.md)")
    lsp.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default and only way)")
    lsp.set_defaults(run=cmd_lsp)

    editor = sub.add_parser("editor", help="serve the browser editor (Streamlit: the `editor` extra)")
    editor.add_argument("--address", default=None,
                        help="the address to listen on (default: $NEXUS_EDITOR_ADDRESS, else 127.0.0.1: this machine "
                             "only; anyone who can reach another can read and write the content)")
    editor.add_argument("--port", type=_port, default=8501, help="the port to listen on (default: 8501)")
    editor.set_defaults(run=cmd_editor)
    return parser


class _EpilogFormatter(argparse.RawDescriptionHelpFormatter):
    """`nexus --help`: the exit status table printed as it is written."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status (see `commands/exits.py`, and the epilog of `nexus --help`)."""
    args = build_parser().parse_args(argv)  # a usage mistake: argparse prints it and exits 2
    try:
        return int(args.run(args))
    except CommandError as error:
        if error.message:
            _err(f"nexus: {error.message}")
        if error.diagnostics:
            _err(format_all(error.diagnostics, error.sources))
        return error.exit_code
    except NexusError as error:  # the packs or scripts a command was given do not load: positioned, the input's
        _err(format_all(error.diagnostics))
        return ExitCode.USAGE
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        sys.stderr.close()
        return ExitCode.OK
    except Exception:  # noqa: BLE001 — anything else is a bug of nexus: say so, with what to report
        _err(f"nexus: internal error (a bug; please report it with the command line and this traceback):\n"
             f"{traceback.format_exc()}")
        return ExitCode.INTERNAL


if __name__ == "__main__":
    sys.exit(main())
