"""The editor's server process: Streamlit's own command line (`python -m nexus_dsl.editor_host run
editor/app.py ...` takes what `python -m streamlit run ...` takes), with the first page's work begun
beside it.

Streamlit imports the editor and loads its packs only when the first tab's first run asks for them,
which leaves a designer who opens the editor watching a spinner for a second or more. Here a thread
does that work while the server starts and the browser loads Streamlit's page: it imports the
editor's modules and loads the packs a new tab opens on (`editor/warm_up.py`), into the very caches
the page reads. It changes nothing the page would not: a run that asks for those packs before they
are loaded waits for that load rather than starting another (`workbench.packs.load_packs`), and
anything that fails here is left for the page to meet and show.
"""

from __future__ import annotations

import importlib
import sys
import threading
from pathlib import Path


def warm_up(app: Path) -> None:
    """Import the editor as its script does (the folder above `editor/` on the path) and run its
    warm-up; never raises."""
    try:
        folder = str(app.resolve().parents[1])
        if folder not in sys.path:
            sys.path.insert(0, folder)
        importlib.import_module("editor.warm_up").run()
    except Exception:  # noqa: BLE001 - only a head start: the page does the same work and reports its problems
        pass


def main() -> None:
    arguments = sys.argv[1:]
    if arguments[:1] == ["run"] and len(arguments) > 1:
        threading.Thread(target=warm_up, args=(Path(arguments[1]),), name="editor-warm-up", daemon=True).start()
    from streamlit.web import cli

    sys.argv = ["streamlit", *arguments]
    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
