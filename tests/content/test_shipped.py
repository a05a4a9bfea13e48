"""Where the shipped data is (`nexus_dsl/shipped.py`): a checkout reads its own folders, so edits
show at once and messages keep naming `content/base/...`; an installed wheel reads the copies it
carries in `nexus_dsl/_shipped/` (the wheel itself is tried in tests/package/test_wheel.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from nexus_dsl import shipped
from nexus_dsl.schema.validate import SCHEMA_DIR
from nexus_dsl.syntax.parser import GRAMMAR_FILE

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_lookups() -> Iterator[None]:
    """The lookups forgotten before and after the test (kept here: the test may replace them)."""
    lookups = (shipped.package_folder, shipped.data_folder)
    for lookup in lookups:
        lookup.cache_clear()
    yield
    for lookup in lookups:
        lookup.cache_clear()


def test_a_checkout_reads_the_repository_folders() -> None:
    assert shipped.is_checkout()
    assert shipped.package_folder() == ROOT / "nexus_dsl"
    assert shipped.content_folder() == ROOT / "content"
    assert shipped.schemas_folder() == SCHEMA_DIR == ROOT / "schemas"
    assert shipped.editor_app() == ROOT / "editor" / "app.py"
    assert shipped.grammar_file() == GRAMMAR_FILE == ROOT / "nexus_dsl" / "grammar" / "nexus.lark"
    assert GRAMMAR_FILE.is_file()


def test_an_installed_wheel_reads_the_copies_inside_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               fresh_lookups: None) -> None:
    package = tmp_path / "site-packages" / "nexus_dsl"
    for name in shipped.DATA_FOLDERS:
        (package / shipped.SHIPPED_FOLDER / name).mkdir(parents=True)
    monkeypatch.setattr(shipped, "package_folder", lambda: package)
    assert not shipped.is_checkout()
    assert shipped.content_folder() == package / "_shipped" / "content"
    assert shipped.schemas_folder() == package / "_shipped" / "schemas"
    assert shipped.editor_app() == package / "_shipped" / "editor" / "app.py"
    assert shipped.grammar_file() == package / "grammar" / "nexus.lark"


def test_only_the_shipped_folders_are_named() -> None:
    with pytest.raises(ValueError, match="no shipped data folder named `tests`"):
        shipped.data_folder("tests")  # type: ignore[arg-type]


def test_a_package_that_is_not_a_folder_is_refused_clearly(monkeypatch: pytest.MonkeyPatch,
                                                           fresh_lookups: None) -> None:
    class InsideAZip:
        def __str__(self) -> str:
            return "/somewhere/nexus.zip/nexus_dsl/"

    monkeypatch.setattr(shipped.resources, "files", lambda package: InsideAZip())
    with pytest.raises(shipped.ShippedDataError, match="not installed as a folder on disk"):
        shipped.package_folder()
