"""The details of saving: modes kept, history byte for byte, names a user types (hostile or too
long) and what the operating system refuses turned into a `StoreError` that says nothing was saved,
symbolic links refused wherever they are (the file, a folder, the pack, the history folder, the
lock), leftovers of killed saves cleaned (only stale ones), and no write outside the store."""

from __future__ import annotations

import errno
import os
import re
import time
from pathlib import Path
from typing import Iterator

import pytest

from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.workbench import barge_edit, store
from nexus_dsl.workbench.authoring import template
from nexus_dsl.workbench.playtest import (PERSON, PlaySession, PlaySettings, SessionError, SessionNameError,
                                          read_session, session_file)
from nexus_dsl.workbench.store import StoreError, open_for_edit
from nexus_dsl.content.loader import cached_ruleset as _cached_ruleset

# The base game, whose packs declare the kinds of card its templates are asked for (`influence`).
BASE_RULES = _cached_ruleset(("base",))

REPOSITORY = Path(__file__).resolve().parents[2]
GOOD_INFLUENCE = template("influence", "tipped_scales", "Tipped Scales", BASE_RULES)
SECRET = "the outside file: never read, never written\n"


@pytest.fixture
def house(content_root: Path) -> Path:
    return store.create_pack(content_root, "my_house", "House Rule: Mine", "house_rules", ["base"])


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the content root, holding a file a link may point at."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "target.yaml").write_text(SECRET)
    return folder


@pytest.fixture
def umask() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o7777


def leftovers(folder: Path) -> list[str]:
    places = [folder, folder / store.HISTORY_FOLDER]
    return [p.name for place in places if place.is_dir() for p in place.iterdir() if store.TEMPORARY.fullmatch(p.name)]


# ---------------------------------------------------------------- modes
@pytest.mark.parametrize("original", [0o644, 0o640, 0o664, 0o600])
def test_a_save_keeps_the_mode_of_the_file_and_its_history_copy_too(house: Path, original: int, umask) -> None:
    path = house / "cards.nexus"
    path.write_text("# first\n")
    path.chmod(original)
    saved = store.save(path, "# second\n", open_for_edit(path).fingerprint, check=False)
    assert mode(path) == original
    assert mode(saved.backup) == original
    store.save_draft(path, "draft")
    store.draft_path(path).chmod(original)
    store.save_draft(path, "draft two")
    assert mode(store.draft_path(path)) == original


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_mode_the_umask_gives_any_new_file(house: Path, tmp_path: Path, mask: int,
                                                               expected: int) -> None:
    previous = os.umask(mask)
    try:
        store.save(house / "cards.nexus", "# new\n", store.ABSENT, check=False)
        store.save_draft(house / "other.nexus", "draft")
        session = PlaySession(PlaySettings(seats=(PERSON, PERSON)), ruleset=cached_ruleset(("base",)))
        session_path = session.save(session_file(tmp_path / "sessions", "modes"))
        folder = store.create_pack(house.parents[1], "fresh_pack", "Fresh", "expansion", ["base"])
    finally:
        os.umask(previous)
    assert mode(house / "cards.nexus") == expected
    assert mode(store.draft_path(house / "other.nexus")) == expected
    assert mode(session_path) == expected
    assert mode(folder / "pack.yaml") == expected


# ---------------------------------------------------------------- history, byte for byte
NOT_UTF8 = b"# caf\xe9 in Latin-1, \xff\xfe and a lone \x80\r\nrule x \"X\" {}\n"


def test_the_history_copy_of_a_file_that_is_not_utf8_is_its_original_bytes(house: Path) -> None:
    path = house / "cards.nexus"
    path.write_bytes(NOT_UTF8)
    with pytest.raises(store.NotEditableError) as refused:  # never edited as text with replacement characters ...
        open_for_edit(path)
    assert (refused.value.diagnostics[0].line, refused.value.diagnostics[0].column) == (1, 6)
    saved = store.save(path, GOOD_INFLUENCE, store.fingerprint_of(path), check=False)
    assert saved.backup.read_bytes() == NOT_UTF8  # ... and kept exactly when a whole new text replaces it
    store.draft_path(path).write_bytes(NOT_UTF8)
    store.save_draft(path, "a draft")
    assert store.history_of(store.draft_path(path))[-1].read_bytes() == NOT_UTF8
    store.save_draft(path, "a second draft")
    assert store.discard_draft(path)
    assert store.history_of(store.draft_path(path))[-1].read_text() == "a second draft"


def test_history_is_ordered_by_time_and_counter(house: Path) -> None:
    path = house / "cards.nexus"
    history = house / store.HISTORY_FOLDER
    history.mkdir()
    for name in ("cards.nexus.20240101T000000000000Z-10", "cards.nexus.20240101T000000000000Z-2",
                 "cards.nexus.20240101T000000000000Z", "cards.nexus.20231231T235959999999Z",
                 "cards.nexus.draft.20200101T000000000000Z", ".cards.nexus.lock"):
        (history / name).write_text(name)
    assert [p.name[len("cards.nexus."):] for p in store.history_of(path)] == [
        "20231231T235959999999Z", "20240101T000000000000Z", "20240101T000000000000Z-2",
        "20240101T000000000000Z-10"]


# ---------------------------------------------------------------- names a user types
LONG = "x" * 300


@pytest.mark.parametrize("pack_id", [LONG, "a" * 65, "base\n", "my_pack\n", "\nbase", "Base", "my-pack", "", "a/b",
                                     "..", "caf\u00e9", "x\x00y"])
def test_pack_ids_that_cannot_name_a_folder_are_a_store_error(content_root: Path, pack_id: str) -> None:
    with pytest.raises(StoreError) as refused:
        store.create_pack(content_root, pack_id, "A Pack", "house_rules", ["base"])
    assert "pack id" in str(refused.value)
    with pytest.raises(StoreError):
        store.safe_path(content_root, pack_id, "cards.nexus")
    assert sorted(p.name for p in content_root.iterdir() if not p.name.startswith(".")) == ["base"]


@pytest.mark.parametrize("name", [
    LONG + ".nexus", "cards/" + "y" * 121 + ".nexus", "/".join(["f"] * 120) + ".nexus", "cards.nexus\n",
    "cards\n/x.nexus", "\ncards.nexus", "cards.nexus\r", "cards.nexus ", "x.nexus\t", "a/\u2215b.nexus",
    "x.nex\u0000us", "con.nexus/..", "x.yaml/.", "%2e%2e/x.nexus", "~/x.nexus", "x..nexus",
])
def test_file_names_that_cannot_be_used_are_a_store_error(content_root: Path, name: str) -> None:
    with pytest.raises(StoreError) as refused:
        store.safe_path(content_root, "base", name)
    message = str(refused.value)
    assert message and len(message) < 300  # a sentence, not the name pasted back whole


@pytest.mark.parametrize("name", [LONG, "x" * 81, "evening\n", "\nevening", "../escape", "a/b", ".hidden", "",
                                  " padded", "padded ", "caf\u00e9", "x\x00", "-dash"])
def test_session_names_that_cannot_be_used_are_a_store_error(tmp_path: Path, name: str) -> None:
    with pytest.raises(SessionNameError) as refused:
        session_file(tmp_path, name)
    assert isinstance(refused.value, StoreError) and isinstance(refused.value, ValueError)
    assert "nothing was saved" in str(refused.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("length", [250, 300])
def test_a_name_the_file_system_refuses_is_a_store_error_keeping_the_text(house: Path, length: int) -> None:
    path = house / ("x" * length + ".nexus")
    with pytest.raises(StoreError) as refused:
        store.save(path, GOOD_INFLUENCE, store.ABSENT, check=False)
    assert "was not saved" in str(refused.value) and "too long" in str(refused.value)
    assert refused.value.text == GOOD_INFLUENCE
    assert leftovers(house) == []


# ---------------------------------------------------------------- what the operating system refuses
REFUSALS = [(errno.ENOSPC, "the disk is full"), (errno.EACCES, "permission denied"),
            (errno.EROFS, "read-only"), (errno.EDQUOT, "quota")]


@pytest.mark.parametrize("code, words", REFUSALS)
@pytest.mark.parametrize("failing", ["creating the temporary", "fsync", "rename"])
def test_what_the_system_refuses_is_a_store_error_and_the_file_stays(house: Path, monkeypatch, code: int,
                                                                      words: str, failing: str) -> None:
    path = house / "cards.nexus"
    path.write_text("# on disk\n")
    opened = open_for_edit(path)
    refusal = OSError(code, os.strerror(code))

    def refuse(real):
        def call(*args, **kwargs):
            if failing != "creating the temporary" or args[1] & os.O_EXCL:
                raise refusal
            return real(*args, **kwargs)
        return call

    name = {"creating the temporary": "open", "fsync": "fsync", "rename": "replace"}[failing]
    monkeypatch.setattr(store.os, name, refuse(getattr(os, name)))
    with pytest.raises(StoreError) as refused:
        store.save(path, "# mine\n", opened.fingerprint, check=False)
    monkeypatch.undo()
    message = str(refused.value)
    assert "cards.nexus was not saved" in message and words in message
    assert refused.value.text == "# mine\n"  # the work is on the error
    assert path.read_text() == "# on disk\n"
    assert leftovers(house) == []
    store.save(path, "# mine\n", opened.fingerprint, check=False)  # once the disk is fine again
    assert path.read_text() == "# mine\n"


def test_a_save_waiting_too_long_for_another_is_a_store_error(house: Path, monkeypatch) -> None:
    path = house / "cards.nexus"
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.05)
    path.write_text("# on disk\n")
    with store.file_lock(path):  # another save holds the file
        started = time.monotonic()
        with pytest.raises(StoreError, match="another save of it has not finished"):
            store.save(path, "# mine\n", open_for_edit(path).fingerprint, check=False)
        assert time.monotonic() - started < 5
    assert path.read_text() == "# on disk\n"


def test_invalid_content_keeps_the_text_on_the_error(house: Path) -> None:
    base = cached_ruleset(("base",))
    with pytest.raises(store.InvalidContentError) as refused:
        store.save_declaration(house / "cards.nexus", "influence broken {", store.ABSENT, context=base)
    assert refused.value.text == "influence broken {"


# ---------------------------------------------------------------- symbolic links, wherever they are
def test_a_symlinked_barges_file_is_refused_and_the_outside_file_untouched(content_root: Path, house: Path,
                                                                           outside: Path) -> None:
    (house / "barges.yaml").symlink_to(outside / "target.yaml")
    with pytest.raises(StoreError, match="symbolic link"):
        barge_edit.barges_path(content_root, "my_house")
    draft = barge_edit.BargeDraft(id="yard", name="Yard")
    base = cached_ruleset(("base",))
    for root in (content_root, None):  # with the content root given, and with the file's pack as root
        with pytest.raises(StoreError, match="symbolic link"):
            barge_edit.save_barge(draft, house / "barges.yaml", store.ABSENT, context=base, content_root=root)
        with pytest.raises(StoreError, match="symbolic link"):
            barge_edit.save_barge(draft, house / "barges.yaml", store.ABSENT, overwrite=True, context=base,
                                  content_root=root)
    assert (outside / "target.yaml").read_text() == SECRET
    assert not (house / store.HISTORY_FOLDER).exists() or not any((house / store.HISTORY_FOLDER).iterdir())


def test_a_symlinked_target_is_refused_even_when_it_points_inside_the_pack(house: Path) -> None:
    (house / "real.nexus").write_text("# real\n")
    (house / "alias.nexus").symlink_to(house / "real.nexus")
    with pytest.raises(StoreError, match="symbolic link"):
        store.save(house / "alias.nexus", "# through the alias\n", open_for_edit(house / "real.nexus").fingerprint,
                   check=False)
    assert (house / "real.nexus").read_text() == "# real\n" and (house / "alias.nexus").is_symlink()


def test_a_symlinked_folder_is_refused(content_root: Path, house: Path, outside: Path) -> None:
    (house / "cards").symlink_to(outside, target_is_directory=True)
    with pytest.raises(StoreError):
        store.safe_path(content_root, "my_house", "cards/new.nexus")
    for root in (content_root, None):
        with pytest.raises(StoreError, match="symbolic link|outside"):
            store.save(house / "cards" / "new.nexus", "# new\n", store.ABSENT, check=False, content_root=root)
        with pytest.raises(StoreError):
            store.save_draft(house / "cards" / "new.nexus", "# new\n", content_root=root)
    assert sorted(p.name for p in outside.iterdir()) == ["target.yaml"]


def test_a_symlinked_pack_or_kind_folder_is_refused(content_root: Path, outside: Path) -> None:
    pack = outside / "evil"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: evil\nname: Evil\nversion: 0.1.0\nkind: house_rules\nbuilds_on: [base]\n")
    (content_root / "house-rules").mkdir()
    (content_root / "house-rules" / "evil").symlink_to(pack, target_is_directory=True)
    with pytest.raises(StoreError):
        store.safe_path(content_root, "evil", "cards.nexus")
    with pytest.raises(StoreError):
        store.save(content_root / "house-rules" / "evil" / "cards.nexus", "# x\n", store.ABSENT, check=False,
                   content_root=content_root)
    (content_root / "expansions").symlink_to(outside, target_is_directory=True)
    with pytest.raises(StoreError):
        store.create_pack(content_root, "new_expansion", "New", "expansion", ["base"])
    assert sorted(p.name for p in outside.iterdir()) == ["evil", "target.yaml"]
    assert sorted(p.name for p in pack.iterdir()) == ["pack.yaml"]


def test_a_symlinked_history_folder_or_lock_is_refused(house: Path, outside: Path) -> None:
    path = house / "cards.nexus"
    path.write_text("# on disk\n")
    (house / store.HISTORY_FOLDER).symlink_to(outside, target_is_directory=True)
    with pytest.raises(StoreError, match="not a plain folder"):
        store.save(path, "# mine\n", open_for_edit(path).fingerprint, check=False)
    (house / store.HISTORY_FOLDER).unlink()
    (house / store.HISTORY_FOLDER).mkdir()
    store.lock_path(path).symlink_to(outside / "target.yaml")
    with pytest.raises(StoreError, match="symbolic link"):
        store.save(path, "# mine\n", open_for_edit(path).fingerprint, check=False)
    assert path.read_text() == "# on disk\n"
    assert sorted(p.name for p in outside.iterdir()) == ["target.yaml"]
    assert (outside / "target.yaml").read_text() == SECRET


def test_reading_for_edit_is_confined_too(house: Path, outside: Path) -> None:
    (house / "lanistas.yaml").symlink_to(outside / "target.yaml")
    with pytest.raises(StoreError) as refused:
        open_for_edit(house / "lanistas.yaml")
    assert SECRET.strip() not in str(refused.value) and "was not opened" in str(refused.value)
    store.draft_path(house / "cards.nexus").symlink_to(outside / "target.yaml")
    with pytest.raises(StoreError):
        store.load_draft(house / "cards.nexus")
    with pytest.raises(StoreError):
        store.save_draft(house / "cards.nexus", "# mine\n")
    with pytest.raises(StoreError):
        store.discard_draft(house / "cards.nexus")
    assert (outside / "target.yaml").read_text() == SECRET


def test_a_symlinked_session_file_is_neither_read_nor_written(tmp_path: Path, outside: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    path = session_file(sessions, "evening")
    path.symlink_to(outside / "target.yaml")
    with pytest.raises(SessionError):
        read_session(path)
    session = PlaySession(PlaySettings(seats=(PERSON, PERSON)), ruleset=cached_ruleset(("base",)))
    with pytest.raises(StoreError, match="symbolic link"):
        session.save(path)
    assert (outside / "target.yaml").read_text() == SECRET


def test_something_other_than_a_file_in_the_way_is_refused_at_once(house: Path) -> None:
    os.mkfifo(house / "cards.nexus")  # opening a pipe to read it would wait for a writer forever
    started = time.monotonic()
    with pytest.raises(StoreError, match="not a plain file"):
        store.save(house / "cards.nexus", "# mine\n", store.ABSENT, check=False)
    with pytest.raises(StoreError):
        open_for_edit(house / "cards.nexus")
    (house / "folder.nexus").mkdir()
    with pytest.raises(StoreError, match="folder"):
        store.save(house / "folder.nexus", "# mine\n", store.ABSENT, check=False)
    assert time.monotonic() - started < 5


# ---------------------------------------------------------------- leftovers: only the stale ones
def test_a_save_removes_stale_temporaries_of_its_folder_but_not_those_of_a_live_save(house: Path) -> None:
    history = store.history_folder(house)
    stale = [house / ".cards.nexus.0123456789abcdef.tmp", house / ".lanistas.yaml.fedcba9876543210.tmp",
             history / ".cards.nexus.00000000000000aa.tmp"]
    live = house / ".busy.nexus.0000000000000bbb.tmp"
    not_ours = [house / ".cards.nexus.tmp", house / ".cards.nexus.0123.tmp", house / "notes.0123456789abcdef.tmp"]
    for path in stale + [live] + not_ours:
        path.write_text("left behind")
    with store.file_lock(house / "busy.nexus"):  # a save of busy.nexus is under way
        store.save(house / "cards.nexus", "# new\n", store.ABSENT, check=False)
        assert [p for p in stale + [live] + not_ours if p.exists()] == [live] + not_ours
    store.save(house / "cards.nexus", "# newer\n", open_for_edit(house / "cards.nexus").fingerprint, check=False)
    assert [p for p in [live] + not_ours if p.exists()] == not_ours


def test_a_half_made_pack_is_removed_by_the_next_new_pack(content_root: Path) -> None:
    half = content_root / "house-rules" / ".lost_pack.0123456789abcdef.tmp"
    half.mkdir(parents=True)
    (half / "pack.yaml").write_text("id: lost_pack\n")
    store.create_pack(content_root, "next_pack", "Next", "house_rules", ["base"])
    assert not half.exists()
    assert sorted(p.name for p in (content_root / "house-rules").iterdir()) == ["next_pack"]


# ---------------------------------------------------------------- no write outside the store
WRITES = re.compile(r"write_text|write_bytes|os\.replace|os\.rename|atomic_write|shutil\.|mkstemp|\.unlink\(|"
                    r"os\.open\(|\bopen\([^)]*['\"][wax+]|\.mkdir\(|os\.remove|rmtree|\.touch\(|os\.link|symlink_to")


def test_the_store_is_the_only_writer_in_the_workbench_and_the_editor() -> None:
    """Every write of the workbench and the editor goes through `store` (and so `confine_write`)."""
    sources = [*(REPOSITORY / "nexus_dsl" / "workbench").rglob("*.py"), *(REPOSITORY / "editor").rglob("*.py")]
    writers = [f"{path.relative_to(REPOSITORY)}:{number}: {line.strip()}"
               for path in sources if path.name != "store.py"
               for number, line in enumerate(path.read_text().splitlines(), 1) if WRITES.search(line)]
    assert writers == []


def test_a_conflict_shows_what_keeping_mine_would_change(tmp_path):
    path = tmp_path / "rules.nexus"
    path.write_text('rule a "A" {\n    text "one"\n}\n\nrule b "B" {\n    text "theirs"\n}\n')
    opened = store.open_for_edit(path)
    path.write_text(path.read_text().replace("one", "one, edited elsewhere"))
    with pytest.raises(store.ConflictError) as raised:
        store.save_declaration(path, 'rule b "B" {\n    text "mine"\n}\n', opened.fingerprint)
    diff = store.overwrite_diff(raised.value, script=True)
    assert diff.startswith("--- rules.nexus (on disk)\n+++ rules.nexus (with yours)\n")
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("---", "+++"))]
    assert changed == ['-    text "theirs"', '+    text "mine"']  # the other edit stays: only b changes
    path.unlink()
    with pytest.raises(store.ConflictError) as deleted:
        store.save_declaration(path, 'rule b "B" {\n    text "mine"\n}\n', opened.fingerprint)
    assert '+    text "mine"' in store.overwrite_diff(deleted.value, script=True)
