"""Saves racing each other: of several writers (threads, or processes) who opened the same version of
a file, exactly one saves; every other gets `ConflictError` still holding its own text; the winner's
text is on disk and the version they all opened is in `.history`. The same for one item saved into a
file, drafts, new packs and playtest sessions.

A race is run in two steps: every writer opens the file (its own `open_for_edit`, or loads its
session), and once all have, all save at once (threads released by a barrier; processes, forked once
per test and kept for all its trials, released by one write to a pipe they all wait on)."""

from __future__ import annotations

import json
import os
import select
import signal
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import yaml

from nexus_dsl.workbench import store
from nexus_dsl.workbench.authoring import template
from nexus_dsl.workbench.playtest import PERSON, PlaySession, PlaySettings, session_file
from nexus_dsl.workbench.store import ConflictError, StoreError, open_for_edit
from nexus_dsl.content.loader import cached_ruleset as _cached_ruleset

# The base game, whose packs declare the kinds of card its templates are asked for (`influence`).
BASE_RULES = _cached_ruleset(("base",))

WRITERS = 4
TRIALS = 100  # for whole files; the other writers race fewer times each
FEW_TRIALS = 10
WAIT = 120  # seconds a writer may take to open or to save, however busy the machine

Outcome = dict[str, Any]  # {"saved": fingerprint} | {"conflict": your_text, "disk": disk_text} | {"refused": message}
Save = Callable[[], Any]
Prepare = Callable[[int, int], Save]  # (writer, trial) -> that writer's save, its file already opened


def outcome_of(save: Save) -> Outcome:
    """What one writer's save came to, as plain data (it crosses a pipe from a child process)."""
    try:
        saved = save()
    except ConflictError as conflict:
        return {"conflict": conflict.your_text, "disk": conflict.disk_text}
    except StoreError as refused:
        return {"refused": str(refused)}
    except Exception as error:  # reported, so the test fails with what went wrong in the writer
        return {"error": repr(error)}
    return {"saved": getattr(saved, "fingerprint", str(saved))}


class ThreadWriters:
    """Writers as threads of this process, started afresh for every trial."""

    def __init__(self, prepare: Prepare):
        self.prepare = prepare

    def race(self, trial: int) -> list[Outcome]:
        barrier = threading.Barrier(WRITERS)
        outcomes: list[Outcome] = [{} for _ in range(WRITERS)]

        def write(writer: int) -> None:
            try:
                save = self.prepare(writer, trial)
            except Exception as error:  # reported, and the others are let go rather than left waiting
                outcomes[writer] = {"error": repr(error)}
                barrier.abort()
                return
            try:
                barrier.wait(timeout=WAIT)  # everyone has opened the file
            except threading.BrokenBarrierError:
                outcomes[writer] = outcomes[writer] or {"error": "another writer failed before saving"}
                return
            outcomes[writer] = outcome_of(save)

        threads = [threading.Thread(target=write, args=(writer,)) for writer in range(WRITERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=WAIT)
            assert not thread.is_alive(), f"a writer still saving after {WAIT} s"
        return outcomes

    def close(self) -> None:
        pass


def answer_of(answers: Any) -> str:
    """A writer's next line, failing the test rather than waiting for ever on a writer that died or hung."""
    ready, _, _ = select.select([answers], [], [], WAIT)
    assert ready, f"a writer said nothing for {WAIT} s"
    line: str = answers.readline()
    assert line, "a writer ended without answering"
    return line


class ProcessWriters:
    """Writers as forked processes, kept for all the trials of a test: each reads a trial number,
    opens its file, says it is ready, waits for the one shared go signal, saves and answers."""

    def __init__(self, prepare: Prepare):
        self.go_read, self.go_write = os.pipe()
        self.children: list[tuple[int, Any, Any]] = []
        for writer in range(WRITERS):
            command_read, command_write = os.pipe()
            answer_read, answer_write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: never returns into the test run
                try:
                    self.serve(writer, prepare, command_read, answer_write)
                finally:
                    os._exit(0)
            os.close(command_read)
            os.close(answer_write)
            self.children.append((pid, os.fdopen(command_write, "w", buffering=1), os.fdopen(answer_read)))

    def serve(self, writer: int, prepare: Prepare, command_read: int, answer_write: int) -> None:
        commands, answers = os.fdopen(command_read), os.fdopen(answer_write, "w", buffering=1)
        for line in commands:
            save, failed = None, None
            try:
                save = prepare(writer, int(line))
            except Exception as error:  # reported, so the test fails with what went wrong here
                failed = {"error": repr(error)}
            answers.write("ready\n")
            os.read(self.go_read, 1)
            answers.write(json.dumps(failed or outcome_of(save)) + "\n")

    def race(self, trial: int) -> list[Outcome]:
        for _, commands, _ in self.children:
            commands.write(f"{trial}\n")
        for _, _, answers in self.children:
            assert answer_of(answers) == "ready\n"
        os.write(self.go_write, b"g" * WRITERS)  # all at once
        return [json.loads(answer_of(answers)) for _, _, answers in self.children]

    def close(self) -> None:
        for pid, commands, answers in self.children:
            commands.close()
            answers.close()
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(self.go_read)
        os.close(self.go_write)


@pytest.fixture(params=["threads", "processes"])
def writers(request) -> Iterator[Callable[[Prepare], ThreadWriters | ProcessWriters]]:
    made: list[ThreadWriters | ProcessWriters] = []

    def make(prepare: Prepare) -> ThreadWriters | ProcessWriters:
        made.append((ThreadWriters if request.param == "threads" else ProcessWriters)(prepare))
        return made[-1]

    yield make
    for each in made:
        each.close()


def the_one_winner(outcomes: list[Outcome], texts: list[str]) -> int:
    """The index of the only writer who saved; every other got a conflict holding its own text."""
    assert not [o for o in outcomes if "error" in o or "refused" in o], outcomes
    winners = [index for index, outcome in enumerate(outcomes) if "saved" in outcome]
    assert len(winners) == 1, outcomes
    for index, outcome in enumerate(outcomes):
        if index != winners[0]:
            assert outcome["conflict"] == texts[index]  # the loser's work is on the error
    return winners[0]


def no_temporaries(folder: Path) -> bool:
    places = [folder, folder / store.HISTORY_FOLDER]
    return not [p for place in places if place.is_dir() for p in place.iterdir() if store.TEMPORARY.fullmatch(p.name)]


# ---------------------------------------------------------------- whole files
def test_racing_saves_of_one_version_one_wins_and_nothing_is_lost(tmp_path: Path, writers) -> None:
    path = tmp_path / "cards.nexus"
    path.write_bytes(b"# the first version\n")

    def text(writer: int, trial: int) -> str:
        return f"# trial {trial}, writer {writer}\n"

    def prepare(writer: int, trial: int) -> Save:
        opened = open_for_edit(path)
        return lambda: store.save(path, text(writer, trial), opened.fingerprint, check=False)

    race = writers(prepare)
    for trial in range(TRIALS):
        opened_bytes = path.read_bytes()
        texts = [text(writer, trial) for writer in range(WRITERS)]
        outcomes = race.race(trial)
        winner = the_one_winner(outcomes, texts)
        assert path.read_text() == texts[winner]
        assert all(o["disk"] == texts[winner] for i, o in enumerate(outcomes) if i != winner)
        assert store.history_of(path)[-1].read_bytes() == opened_bytes  # the version they all opened is kept
    assert len(store.history_of(path)) == store.HISTORY_KEEP
    assert no_temporaries(tmp_path)


@pytest.fixture
def house(content_root: Path) -> Path:
    return store.create_pack(content_root, "my_house", "House Rule: Mine", "house_rules", ["base"])


def test_racing_data_items_one_wins(house: Path, base, writers) -> None:
    path = house / "lanistas.yaml"
    path.write_text("# Our lanistas.\n- id: first_one\n  name: First One\n  influence: 1\n  deception: 1\n"
                    "  command: 1\n")

    def item(writer: int, trial: int) -> str:
        return template("lanista", f"l_{trial}_{writer}", f"L {trial} {writer}")

    def prepare(writer: int, trial: int) -> Save:
        opened = open_for_edit(path)
        return lambda: store.save_data_item(path, item(writer, trial), opened.fingerprint, context=base)

    race = writers(prepare)
    for trial in range(FEW_TRIALS):
        opened = path.read_text()
        winner = the_one_winner(race.race(trial), [item(writer, trial) for writer in range(WRITERS)])
        ids = [d["id"] for d in yaml.safe_load(path.read_text())]
        assert ids[-1] == f"l_{trial}_{winner}" and len(ids) == trial + 2  # one item added per trial
        assert store.history_of(path)[-1].read_text() == opened
    assert path.read_text().startswith("# Our lanistas.\n")
    assert no_temporaries(house)


def test_racing_declarations_one_wins(house: Path, base, writers) -> None:
    path = house / "cards.nexus"

    def card(writer: int, trial: int) -> str:
        return template("influence", f"card_{trial}_{writer}", f"Card {trial} {writer}", BASE_RULES)

    def prepare(writer: int, trial: int) -> Save:
        opened = open_for_edit(path)
        return lambda: store.save_declaration(path, card(writer, trial), opened.fingerprint, context=base)

    race = writers(prepare)
    for trial in range(FEW_TRIALS):
        opened = path.read_text() if path.exists() else None
        winner = the_one_winner(race.race(trial), [card(writer, trial) for writer in range(WRITERS)])
        text = path.read_text()
        assert f"influence card_{trial}_{winner} " in text
        assert not any(f"influence card_{trial}_{w} " in text for w in range(WRITERS) if w != winner)
        if opened is not None:
            assert store.history_of(path)[-1].read_text() == opened
    assert no_temporaries(house)


def test_racing_drafts_one_wins_and_blind_drafts_are_all_kept(house: Path, writers) -> None:
    path = house / "cards.nexus"
    draft = store.draft_path(path)

    def text(writer: int, trial: int) -> str:
        return f"draft {trial // 2}, writer {writer}, {'opened' if trial % 2 == 0 else 'blind'}\n"

    def prepare(writer: int, trial: int) -> Save:
        if trial % 2 == 0:  # saved as a version of the draft: one is saved, the others are told
            opened = open_for_edit(draft)
            return lambda: store.save_draft(path, text(writer, trial), opened.fingerprint)
        return lambda: store.save_draft(path, text(writer, trial))  # no version: every one is kept

    race = writers(prepare)
    for trial in range(2 * FEW_TRIALS):
        texts = [text(writer, trial) for writer in range(WRITERS)]
        outcomes = race.race(trial)
        if trial % 2 == 0:
            assert draft.read_text() == texts[the_one_winner(outcomes, texts)]
        else:
            assert all("saved" in outcome for outcome in outcomes), outcomes
            kept = [draft.read_text()] + [p.read_text() for p in store.history_of(draft)[-WRITERS:]]
            assert set(texts) <= set(kept)
    assert no_temporaries(house)


def test_racing_new_packs_one_is_made(content_root: Path, writers) -> None:
    kinds = ["house_rules", "expansion"]

    def prepare(writer: int, trial: int) -> Save:
        return lambda: store.create_pack(content_root, f"racing_{trial}", f"Racing {trial} by {writer}",
                                         kinds[writer % 2], ["base"])

    race = writers(prepare)
    for trial in range(FEW_TRIALS):
        outcomes = race.race(trial)
        made = [index for index, outcome in enumerate(outcomes) if "saved" in outcome]
        assert len(made) == 1, outcomes
        assert all("already exists" in o["refused"] for i, o in enumerate(outcomes) if i != made[0]), outcomes
        folders = [p for kind in store.PACK_KINDS.values() for p in (content_root / kind).glob(f"*racing_{trial}*")]
        assert len(folders) == 1  # no second folder, no half-made one
        assert yaml.safe_load((folders[0] / "pack.yaml").read_text())["name"] == f"Racing {trial} by {made[0]}"


def test_racing_playtest_sessions_one_saves(tmp_path: Path, base, writers) -> None:
    path = session_file(tmp_path / "sessions", "evening bout")
    PlaySession(PlaySettings(seats=(PERSON, PERSON), seed=3), ruleset=base).save(path)

    def played(writer: int, trial: int) -> PlaySession:
        """The saved session, opened in one window, and one action (that window's choice) played."""
        session = PlaySession.load(path, base)
        options = session.bout.pending.options
        session.apply(options[(trial + writer) % len(options)])
        return session

    def as_saved(session: PlaySession) -> str:
        return json.dumps(session.to_json(), indent=1, sort_keys=True) + "\n"

    def prepare(writer: int, trial: int) -> Save:
        session = played(writer, trial)
        return lambda: session.save(path)

    race = writers(prepare)
    for trial in range(FEW_TRIALS):
        texts = [as_saved(played(writer, trial)) for writer in range(WRITERS)]
        before = len(PlaySession.load(path, base).actions)
        winner = the_one_winner(race.race(trial), texts)
        assert path.read_text() == texts[winner]
        assert len(PlaySession.load(path, base).actions) == before + 1
    assert no_temporaries(path.parent)


def test_a_new_session_never_overwrites_a_saved_one_of_the_same_name(tmp_path: Path, base) -> None:
    path = session_file(tmp_path, "hot seat")
    saved = PlaySession(PlaySettings(seats=(PERSON, PERSON), seed=1), ruleset=base)
    saved.save(path)
    before = path.read_bytes()
    with pytest.raises(ConflictError):
        PlaySession(PlaySettings(seats=(PERSON, "heuristic"), seed=2), ruleset=base).save(path)
    assert path.read_bytes() == before
    saved.apply(saved.bout.pending.options[0])
    saved.save(path)  # the session that wrote the file goes on saving it
    assert len(PlaySession.load(path, base).actions) == 1
