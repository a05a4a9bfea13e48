"""`nexus --version` (the version stated once, in the package) and `nexus editor` (Streamlit on
the editor's script, with or without the `editor` extra)."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

import nexus_dsl
from nexus_dsl import editor_launch
from nexus_dsl.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_version_names_the_package_the_engine_and_the_shipped_content(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"nexus_dsl {nexus_dsl.__version__}"
    assert lines[1].startswith("engine: ") and ("sources" in lines[1] or "compiled" in lines[1])
    assert lines[2] == f"shipped content: {ROOT / 'content'} (a checkout)"


def test_the_version_is_stated_once_in_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "nexus_dsl.__version__"}
    assert nexus_dsl.__version__.count(".") == 2


def test_the_package_says_it_is_typed() -> None:
    assert (ROOT / "nexus_dsl" / "py.typed").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["nexus_dsl"]


def test_editor_without_streamlit_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(editor_launch, "streamlit_installed", lambda: False)
    assert main(["editor"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == ("nexus editor: the editor needs Streamlit, which is not installed here: "
                           "pip install 'nexus_dsl[editor]'")


class FakeStreamlit:
    """Stands in for the Streamlit process: records its command, exits at once with 0."""

    commands: list[list[str]] = []

    def __init__(self, command: list[str], **_: Any):
        FakeStreamlit.commands.append(command)

    def wait(self) -> int:
        return 0


@pytest.fixture
def fake_streamlit(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    FakeStreamlit.commands = []
    monkeypatch.setattr(subprocess, "Popen", FakeStreamlit)
    monkeypatch.delenv(editor_launch.ADDRESS_ENV, raising=False)
    return FakeStreamlit.commands


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_editor_serves_the_editor_script_on_this_machine_by_default(fake_streamlit: list[list[str]],
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["editor"]) == 0
    [command] = fake_streamlit
    assert command[1:4] == ["-m", "nexus_dsl.editor_host", "run"] and Path(command[4]) == ROOT / "editor" / "app.py"
    assert option(command, "--server.address") == "127.0.0.1" and option(command, "--server.port") == "8501"
    assert option(command, "--server.headless") == "true"
    assert capsys.readouterr().err == ""


def test_editor_shared_on_a_network_is_asked_for_and_warned_about(fake_streamlit: list[list[str]],
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["editor", "--address", "0.0.0.0", "--port", "8600"]) == 0
    assert option(fake_streamlit[-1], "--server.address") == "0.0.0.0"
    assert option(fake_streamlit[-1], "--server.port") == "8600"
    assert capsys.readouterr().err.startswith("WARNING: the editor listens on 0.0.0.0: anyone who can reach port 8600")
    monkeypatch.setenv(editor_launch.ADDRESS_ENV, "0.0.0.0")
    assert main(["editor"]) == 0
    assert option(fake_streamlit[-1], "--server.address") == "0.0.0.0"


def test_editor_refuses_a_port_that_is_not_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["editor", "--port", "99999"])
    assert stopped.value.code == 2
    assert "argument --port: `99999` is not a port number (1 to 65535)" in capsys.readouterr().err
