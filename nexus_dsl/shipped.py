"""Where the data shipped with the package is: the grammar, the JSON Schemas, the content (the base
game, its expansions, its house rules, the other games) and the browser editor.

Two layouts hold them, and this module is the only place that knows either:

- an installed wheel carries `content/`, `schemas/` and `editor/` as package data inside the
  package, in `nexus_dsl/_shipped/` (copied there when the wheel is built: `setup.py`);
- a checkout (the sources on `PYTHONPATH`, or an editable install) has no `_shipped/` folder: the
  repository's own folders beside the package are read, so an edit shows at once and messages
  keep naming `content/base/...`.

Everything is found through `importlib.resources`, from the package's own location; a package
that is not a folder on disk (imported from a zip file) cannot serve files to the loader, the
editor or Streamlit, and is refused with a clear message.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal

PACKAGE = "nexus_dsl"
#: The folder of the package that holds a wheel's copies of the repository's data folders.
SHIPPED_FOLDER = "_shipped"
#: The repository's data folders that a wheel carries.
DATA_FOLDERS = ("content", "schemas", "editor")

DataFolder = Literal["content", "schemas", "editor"]


class ShippedDataError(RuntimeError):
    """The package's data cannot be read as files (the package is not a folder on disk)."""


@lru_cache(maxsize=1)
def package_folder() -> Path:
    """The folder of the `nexus_dsl` package, resolved as the loader's messages have always named it."""
    found = resources.files(PACKAGE)
    if not isinstance(found, Path):
        raise ShippedDataError(f"{PACKAGE} is not installed as a folder on disk ({found}): install it from "
                               "its wheel or a checkout, not as a zip file")
    return found.resolve()


@lru_cache(maxsize=None)
def data_folder(name: DataFolder) -> Path:
    """`content`, `schemas` or `editor`: the wheel's copy when the package is installed from one,
    else the checkout's folder beside the package."""
    if name not in DATA_FOLDERS:
        raise ValueError(f"no shipped data folder named `{name}`; choose from {', '.join(DATA_FOLDERS)}")
    inside = package_folder() / SHIPPED_FOLDER / name
    if inside.is_dir():
        return inside
    return package_folder().parent / name


def is_checkout() -> bool:
    """Whether the data is read from a checkout's folders rather than from a wheel's copies."""
    return not (package_folder() / SHIPPED_FOLDER).is_dir()


def content_folder() -> Path:
    """The content that ships: the default content root."""
    return data_folder("content")


def schemas_folder() -> Path:
    return data_folder("schemas")


def editor_app() -> Path:
    """The Streamlit script of the browser editor."""
    return data_folder("editor") / "app.py"


def grammar_file() -> Path:
    """The rule-script grammar, package data of `nexus_dsl/grammar/` in every layout."""
    return package_folder() / "grammar" / "nexus.lark"
