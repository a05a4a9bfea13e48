"""One variable chooses the content root, `NEXUS_CONTENT_ROOT`, for the command line and the editor
alike; unset, the content that ships is read. `NEXUS_CONTENT`, the earlier name, still works when
the new one is unset, and says once that it is deprecated."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from nexus_dsl.cli import main
from nexus_dsl.content import root as content_root
from nexus_dsl.content.loader import default_content_root

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_root_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NEXUS_CONTENT_ROOT", raising=False)
    monkeypatch.delenv("NEXUS_CONTENT", raising=False)
    monkeypatch.setattr(content_root, "_warned", False)


def test_unset_it_is_the_content_that_ships(recwarn: pytest.WarningsRecorder) -> None:
    assert default_content_root() == ROOT / "content"
    assert not recwarn.list


def test_the_variable_chooses_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                 recwarn: pytest.WarningsRecorder) -> None:
    monkeypatch.setenv("NEXUS_CONTENT_ROOT", str(tmp_path))
    monkeypatch.setenv("NEXUS_CONTENT", str(tmp_path / "elsewhere"))  # the earlier name is then ignored
    assert default_content_root() == tmp_path
    assert not recwarn.list


def test_the_earlier_name_still_works_and_warns_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NEXUS_CONTENT", str(tmp_path))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert default_content_root() == tmp_path
        assert default_content_root() == tmp_path
    assert [str(w.message) for w in caught] == ["NEXUS_CONTENT is deprecated: set NEXUS_CONTENT_ROOT instead"]
    assert caught[0].category is FutureWarning


def test_nexus_check_reads_the_chosen_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "mine"
    pack.mkdir()
    (pack / "pack.yaml").write_text('id: mine\nname: "Mine"\nversion: "1.0.0"\nkind: house_rules\nbuilds_on: []\n')
    (pack / "rules.nexus").write_text('state dazed "Dazed" {\n    badge "D"\n}\n')
    monkeypatch.setenv("NEXUS_CONTENT_ROOT", str(tmp_path))
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: 1 checked (") and str(pack) in out
