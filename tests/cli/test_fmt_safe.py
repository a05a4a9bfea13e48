"""`nexus fmt` reads and writes content the safe way: a file it cannot read (not UTF-8, a symbolic
link out of the folder named) is a positioned error while the other files are still formatted;
files are written through the store (atomic, mode kept, the previous version in `.history/`, never
through a link, never over an edit made meanwhile); `--check` writes nothing."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import nexus_dsl.syntax.printer as printer
from nexus_dsl.cli import main

MESSY = '# my rule\nrule tidy "Tidy" { param x = 1  # one\n  when round_ends { log "a#b" } }\n'
TIDY = '# my rule\nrule tidy "Tidy" {\n    param x = 1  # one\n    when round_ends {\n        log "a#b"\n    }\n}\n'
SECRET = 'rule secret "Secret" { param hidden_value = 42 }\n'


def history(folder: Path, name: str) -> list[Path]:
    return sorted((folder / ".history").glob(f"{name}.*"))


def test_a_file_that_is_not_utf8_is_a_positioned_error_and_the_others_are_formatted(tmp_path, capsys):
    bad = tmp_path / "bad.nexus"
    bad.write_bytes(b'rule bad "Bad" {\n    te\xffxt "x"\n}\n')
    good = tmp_path / "good.nexus"
    good.write_text(MESSY)
    assert main(["fmt", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert f"{bad}:2:7: error: byte 0xff is not UTF-8 text" in out
    assert "Traceback" not in out + err
    assert good.read_text() == TIDY
    assert bad.read_bytes() == b'rule bad "Bad" {\n    te\xffxt "x"\n}\n'


@pytest.fixture
def linked_out(tmp_path: Path) -> tuple[Path, Path]:
    """A folder of scripts holding a symbolic link to a script outside it."""
    outside = tmp_path / "elsewhere" / "secret.nexus"
    outside.parent.mkdir()
    outside.write_text(SECRET)
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "link.nexus").symlink_to(outside)
    (folder / "own.nexus").write_text(MESSY)
    return folder, outside


def test_a_link_out_of_the_folder_is_refused_and_its_target_left_alone(linked_out, capsys):
    folder, outside = linked_out
    before = outside.stat()
    assert main(["fmt", str(folder)]) == 1
    out, _ = capsys.readouterr()
    assert f"{folder / 'link.nexus'}:1:1: error: this file leads outside its folder" in out
    assert "hidden_value" not in out  # the outside file's text is never shown
    assert outside.read_text() == SECRET and outside.stat().st_mtime_ns == before.st_mtime_ns
    assert not (outside.parent / ".history").exists()
    assert (folder / "own.nexus").read_text() == TIDY  # the folder's own file is still formatted


def test_a_link_named_on_the_command_line_is_confined_to_its_own_folder(linked_out, capsys):
    folder, outside = linked_out
    assert main(["fmt", str(folder / "link.nexus")]) == 1
    assert "leads outside its folder" in capsys.readouterr().out
    assert outside.read_text() == SECRET


def test_a_link_inside_the_folder_is_read_but_never_written_through(tmp_path, capsys):
    target = tmp_path / "real.nexus"
    target.write_text(MESSY)
    (tmp_path / "alias.nexus").symlink_to(target)
    assert main(["fmt", str(tmp_path / "alias.nexus")]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'alias.nexus'}: error: " in out and "symbolic link" in out
    assert target.read_text() == MESSY and (tmp_path / "alias.nexus").is_symlink()


def test_a_formatted_file_keeps_its_mode_and_its_previous_version(tmp_path, capsys):
    script = tmp_path / "kept.nexus"
    script.write_text(MESSY)
    script.chmod(0o640)
    assert main(["fmt", str(script)]) == 0
    assert "reformatted" in capsys.readouterr().out
    assert script.read_text() == TIDY
    assert stat.S_IMODE(script.stat().st_mode) == 0o640
    copies = history(tmp_path, "kept.nexus")
    assert len(copies) == 1 and copies[0].read_text() == MESSY
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_check_never_writes(tmp_path, capsys):
    script = tmp_path / "messy.nexus"
    script.write_text(MESSY)
    script.chmod(0o604)
    before = script.stat()
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert f"would reformat {script}" in out and "1 file(s) would be reformatted" in err
    after = script.stat()
    assert script.read_text() == MESSY
    assert (after.st_mtime_ns, after.st_ino, stat.S_IMODE(after.st_mode)) == \
        (before.st_mtime_ns, before.st_ino, 0o604)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messy.nexus"]  # no history, lock or temporary


def test_an_edit_made_while_formatting_is_never_overwritten(tmp_path, capsys, monkeypatch):
    script = tmp_path / "busy.nexus"
    script.write_text(MESSY)
    edited = MESSY.replace("param x = 1", "param x = 2")
    real = printer.format_source

    def format_while_someone_saves(source: str, file: str = "<input>") -> str:
        script.write_text(edited)  # another editor saves between the read and the write
        return real(source, file)

    monkeypatch.setattr(printer, "format_source", format_while_someone_saves)
    assert main(["fmt", str(script)]) == 1
    assert "changed while being formatted" in capsys.readouterr().out
    assert script.read_text() == edited


def test_a_byte_order_mark_is_dropped_with_the_rest_of_the_mess(tmp_path):
    script = tmp_path / "marked.nexus"
    script.write_bytes(b"\xef\xbb\xbf" + MESSY.encode())
    assert main(["fmt", str(script)]) == 0
    assert script.read_bytes() == TIDY.encode()


def test_a_missing_path_is_reported_and_the_others_are_formatted(tmp_path, capsys):
    script = tmp_path / "there.nexus"
    script.write_text(MESSY)
    assert main(["fmt", str(tmp_path / "not-there.nexus"), str(script)]) == 2  # bad input
    assert "not-there.nexus: error: no such file or folder" in capsys.readouterr().err
    assert script.read_text() == TIDY


def test_a_refused_write_is_reported_not_raised(tmp_path, capsys, monkeypatch):
    script = tmp_path / "stuck.nexus"
    script.write_text(MESSY)

    def refuse(*args, **kwargs):  # what a read-only folder or a full disk does to the rename
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    assert main(["fmt", str(script)]) == 1
    assert "stuck.nexus" in capsys.readouterr().out and script.read_text() == MESSY
