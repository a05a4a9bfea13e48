"""Saves killed with SIGKILL (kill -9) at any moment: every file stays whole (exactly an old or a new
version, which parses), and the next save removes what the killed one left behind.

Two kinds of kill, 100 of each: from outside, a forked child saving in a loop is killed after a
seeded random delay; from inside, a forked child kills itself just before or just after the n-th
system call of a save (opening, fchmod, fsync, rename, unlink, mkdir), n drawn from a seeded random
generator, while it saves a file, a draft, a data item and a new pack."""

from __future__ import annotations

import itertools
import os
import random
import signal
import time
from pathlib import Path
from typing import Callable

import pytest
import yaml

from nexus_dsl.schema import validate
from nexus_dsl.syntax.parser import parse
from nexus_dsl.workbench import store
from nexus_dsl.workbench.authoring import template
from nexus_dsl.content.loader import cached_ruleset as _cached_ruleset

# The base game, whose packs declare the kinds of card its templates are asked for (`influence`).
BASE_RULES = _cached_ruleset(("base",))

KILLS_FROM_OUTSIDE = 100
KILLS_FROM_INSIDE = 100
SEED = 20_240_917
# The calls a save makes to the system that change or create files; a kill lands next to one of them.
HOOKED = ("open", "fchmod", "fsync", "replace", "rename", "unlink", "mkdir")


def card_version(number: int, filler_lines: int) -> str:
    """A whole rule script: one card, then comment lines so that writing it takes a while."""
    filler = "".join(f"# version {number}, line {line:05d}: the crowd roars and the barge lurches\n"
                     for line in range(filler_lines))
    return template("influence", f"card_{number}", f"Card {number}", BASE_RULES) + filler


CARD_VERSIONS = [card_version(number, lines) for number, lines in enumerate((0, 40, 800, 3000))]
DRAFTS = [f"draft {number}\n" * (1 + 500 * number) for number in range(3)]


@pytest.fixture(scope="module")
def parsed_versions() -> set[str]:
    """Every card version parses (so a file equal to one of them is a parseable file)."""
    for text in CARD_VERSIONS:
        assert parse(text, "cards.nexus").declarations
    return set(CARD_VERSIONS)


@pytest.fixture
def house(content_root: Path) -> Path:
    folder = store.create_pack(content_root, "my_house", "House Rule: Mine", "house_rules", ["base"])
    (folder / "cards.nexus").write_text(CARD_VERSIONS[0])
    (folder / "lanistas.yaml").write_text("# Our lanistas.\n- id: first_one\n  name: First One\n  influence: 1\n"
                                          "  deception: 1\n  command: 1\n")
    return folder


def fork(work: Callable[[], None]) -> int:
    """A child process doing `work`, then leaving without running anything of the test process."""
    pid = os.fork()
    if pid == 0:
        try:
            work()
        finally:
            os._exit(0)
    return pid


CHILD_WAIT = 120  # seconds a child may take to save, however busy the machine


def ended(pid: int) -> int:
    """The status of a child once it ended; one still running after `CHILD_WAIT` seconds is killed and
    fails the test, so that a child stuck in a save never holds the run."""
    deadline = time.monotonic() + CHILD_WAIT
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.005)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError(f"a child process was still saving after {CHILD_WAIT} s")


def killed_by_sigkill(pid: int) -> bool:
    status = ended(pid)
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def leftovers(house: Path) -> list[Path]:
    """Temporary files of saves (in the pack and its history) and half-made pack folders."""
    places = [house, house / store.HISTORY_FOLDER, *(house.parents[1] / kind for kind in store.PACK_KINDS.values())]
    return [p for place in places if place.is_dir() for p in place.iterdir() if store.TEMPORARY.fullmatch(p.name)]


_CHECKED: dict[tuple[str, int, int], bytes] = {}  # history copies never change: each is read once


def kept_versions(path: Path) -> list[bytes]:
    versions = []
    for kept in store.history_of(path):
        facts = os.stat(kept)
        key = (str(kept), facts.st_size, facts.st_mtime_ns)
        if key not in _CHECKED:
            _CHECKED[key] = kept.read_bytes()
        versions.append(_CHECKED[key])
    return versions


def assert_whole(house: Path, cards: set[str], drafts: set[str], lanistas: set[str]) -> None:
    """Every file is exactly one of the versions written to it, its history copies too."""
    card_file = house / "cards.nexus"
    assert card_file.read_text() in cards
    assert {v.decode() for v in kept_versions(card_file)} <= cards
    draft = store.draft_path(card_file)
    if draft.exists():
        assert draft.read_text() in drafts
    assert {v.decode() for v in kept_versions(draft)} <= drafts
    lanista_file = house / "lanistas.yaml"
    assert lanista_file.read_text() in lanistas
    assert {v.decode() for v in kept_versions(lanista_file)} <= lanistas
    for pack in (house.parent).iterdir():
        if not pack.name.startswith("."):  # a pack that is visible at all is whole
            manifest = yaml.safe_load((pack / "pack.yaml").read_text())
            assert validate(manifest, "pack", file="pack.yaml") == []


# ---------------------------------------------------------------- kill -9 from outside
def save_forever(house: Path) -> None:
    card_file = house / "cards.nexus"
    for number in itertools.count():
        store.save(card_file, CARD_VERSIONS[number % len(CARD_VERSIONS)], store.fingerprint_of(card_file),
                   check=False)
        store.save_draft(card_file, DRAFTS[number % len(DRAFTS)])


def test_saves_killed_from_outside_leave_whole_files(house: Path, parsed_versions: set[str]) -> None:
    generator = random.Random(SEED)
    lanistas = {(house / "lanistas.yaml").read_text()}
    for trial in range(KILLS_FROM_OUTSIDE):
        pid = fork(lambda: save_forever(house))
        try:
            time.sleep(generator.uniform(0.0, 0.02))
        finally:
            os.kill(pid, signal.SIGKILL)
        assert killed_by_sigkill(pid)
        assert_whole(house, parsed_versions, set(DRAFTS), lanistas)
        card_file = house / "cards.nexus"
        store.save(card_file, CARD_VERSIONS[trial % 2], store.fingerprint_of(card_file), check=False)
        assert leftovers(house) == []  # the next save removed what the killed one left


# ---------------------------------------------------------------- kill -9 from inside, at a chosen call
def arm(kill_at: int, after: bool) -> None:
    """Make this process kill itself with SIGKILL at its `kill_at`-th hooked call (counting from 0),
    just before the call or just after it."""
    calls = itertools.count()
    for name in HOOKED:
        real = getattr(os, name)

        def hooked(*args, _real=real, **kwargs):
            index = next(calls)
            if index == kill_at and not after:
                os.kill(os.getpid(), signal.SIGKILL)
            try:
                return _real(*args, **kwargs)
            finally:  # after the call, whether it succeeded or raised (mkdir of an existing folder)
                if index == kill_at and after:
                    os.kill(os.getpid(), signal.SIGKILL)

        setattr(os, name, hooked)


OPERATIONS = ("file", "draft", "data item", "new pack")


def operate(house: Path, base, operation: str, number: int) -> None:
    """One of the editor's saves: a whole file, its draft, an item into a data file, a new pack."""
    card_file, lanista_file = house / "cards.nexus", house / "lanistas.yaml"
    if operation == "file":
        store.save(card_file, another(CARD_VERSIONS, card_file, number), store.fingerprint_of(card_file),
                   check=False)
    elif operation == "draft":
        store.save_draft(card_file, another(DRAFTS, store.draft_path(card_file), number))
    elif operation == "data item":
        store.save_data_item(lanista_file, lanista(number), store.fingerprint_of(lanista_file), context=base)
    else:
        store.create_pack(house.parents[1], f"pack_{number}", f"Pack {number}", "house_rules", ["base"])


def another(versions: list[str], path: Path, number: int) -> str:
    """One of `versions` other than the one `path` holds: every save writes."""
    current = path.read_text() if path.exists() else None
    others = [version for version in versions if version != current]
    return others[number % len(others)]


def lanista(number: int) -> str:
    """One of a few lanistas (so the file stays small), its name different at every save."""
    return template("lanista", f"lanista_{number % 3}", f"Lanista {number}")


def calls_made(house: Path, base, operation: str) -> int:
    """How many hooked calls an operation makes (counted in a child, so the hooks stay out of this
    process; the operation's files are written all the same)."""
    counter_read, counter_write = os.pipe()

    def count() -> None:
        calls = itertools.count()
        for name in HOOKED:
            real = getattr(os, name)
            setattr(os, name, lambda *a, _real=real, **k: (next(calls), _real(*a, **k))[1])
        operate(house, base, operation, 10_000)
        os.write(counter_write, str(next(calls)).encode())

    pid = fork(count)
    os.close(counter_write)
    ended(pid)  # the count is a few bytes: the pipe holds it until it is read
    with os.fdopen(counter_read) as answer:
        return int(answer.read())


def test_saves_killed_from_inside_leave_whole_files_and_the_next_save_cleans_up(house: Path, base,
                                                                                 parsed_versions: set[str]) -> None:
    generator = random.Random(SEED)
    lanista_file = house / "lanistas.yaml"
    lanistas = {lanista_file.read_text()}
    calls = {}
    for operation in OPERATIONS:
        calls[operation] = calls_made(house, base, operation)
        lanistas.add(lanista_file.read_text())
    assert min(calls.values()) >= 8
    left_behind = 0
    for trial in range(KILLS_FROM_INSIDE):
        operation = OPERATIONS[trial % len(OPERATIONS)]
        kill_at, after = generator.randrange(calls[operation]), generator.random() < 0.5
        lanistas.add(store.replace_data_item(lanista_file.read_text(), lanista(trial), str(lanista_file)))
        pid = fork(lambda: (arm(kill_at, after), operate(house, base, operation, trial)))
        assert killed_by_sigkill(pid), f"trial {trial}: the child finished before its call {kill_at}"
        assert_whole(house, parsed_versions, set(DRAFTS), lanistas)
        left_behind += bool(leftovers(house))
        # The next save in the folder (of the same file, or of another: the card file) removes every
        # leftover; a new pack removes a half-made one.
        cleaner = {"file": "file", "draft": "file", "data item": "data item", "new pack": "new pack"}[operation]
        lanistas.add(store.replace_data_item(lanista_file.read_text(), lanista(trial + 1000), str(lanista_file)))
        operate(house, base, cleaner, trial + 1000)
        assert leftovers(house) == []
        assert_whole(house, parsed_versions, set(DRAFTS), lanistas)
    assert left_behind >= KILLS_FROM_INSIDE // 10  # the kills did leave temporaries to clean
