"""The wheel carries the repository's data folders inside the package.

`content/`, `schemas/` and `editor/` stay where they are in the repository (tests, docs and every
diagnostic name `content/base/...`); building a wheel copies them into the package as
`nexus_dsl/_shipped/`, where `nexus_dsl/shipped.py` finds them with `importlib.resources`. An
editable install copies nothing: the checkout's own folders are read, so edits show at once.
Everything else about the build is in pyproject.toml.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: Must match nexus_dsl/shipped.py (which setup.py cannot import before the build).
SHIPPED = ("nexus_dsl", "_shipped")
DATA_FOLDERS = ("content", "schemas", "editor")
#: What a checkout may hold that is no part of the data: the editor's saved earlier versions,
#: drafts, byte code, editor and OS leftovers.
LEFT_OUT = (".*", "__pycache__", "*.pyc", "*.draft")


def _shipped_files(folder: Path) -> list[Path]:
    """The files under `folder` to ship, relative to it, skipping anything `LEFT_OUT` at any depth."""
    found = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.is_file() and not any(fnmatch.fnmatch(part, pattern) for part in relative.parts for pattern in LEFT_OUT):
            found.append(relative)
    return found


class BuildWithShippedData(build_py):
    """build_py, plus the data folders copied under `nexus_dsl/_shipped/` of the build (not in an
    editable install: there the checkout is read in place)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for name in DATA_FOLDERS:
            source = HERE / name
            target = Path(self.build_lib, *SHIPPED, name)
            for relative in _shipped_files(source):
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                self.copy_file(str(source / relative), str(target / relative))


setup(cmdclass={"build_py": BuildWithShippedData})
