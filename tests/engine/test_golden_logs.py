"""Bouts stay exact: `nexus play --seed N --log F` writes, for seeds 1 to 50 of every kind of bout
below, the very event log recorded in `tests/golden/play_logs.json` (a SHA-256 of each log file).
The kinds: the base game with 2 and with 4 players (the heuristic agents on the default barge), the
base game with random agents on a barge the seed draws, and NEXUS Pirates (a card game with no
board) with its heuristic and with random agents.

A change that alters a single event of a single bout fails here, naming the seeds. When a change of
the game is meant to alter bouts (a ruling, a rule fixed), record the logs again and say why in the
commit:

    .venv/bin/python tests/engine/test_golden_logs.py --record [FOLDER]

(with FOLDER, the logs themselves are kept there, to compare line by line with those of a change).
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from nexus_dsl.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "play_logs.json"
SEEDS = range(1, 51)


@dataclass(frozen=True)
class BoutKind:
    """One kind of bout the logs are kept for: its name (the first words of its keys) and the
    options of `nexus play` that make it."""

    name: str
    options: tuple[str, ...]

    def key(self, seed: int) -> str:
        return f"{self.name}, seed {seed}"

    def file(self, seed: int) -> str:
        return f"{self.name.replace(' ', '_').replace(',', '')}_{seed}.jsonl"


KINDS = (
    BoutKind("2 players", ("--players", "2")),
    BoutKind("4 players", ("--players", "4")),
    BoutKind("random agents on a drawn barge, 2 players", ("--players", "2", "--agents", "random,random",
                                                           "--layout", "random")),
    BoutKind("nexus_pirates, 2 players", ("--packs", "nexus_pirates", "--players", "2")),
    BoutKind("nexus_pirates with random agents, 2 players", ("--packs", "nexus_pirates", "--players", "2",
                                                              "--agents", "random,random")),
)


def log_digest(kind: BoutKind, seed: int, folder: Path) -> str:
    """The SHA-256 of the log `nexus play` writes for this bout."""
    log = folder / kind.file(seed)
    code = main(["play", "--seed", str(seed), *kind.options, "--log", str(log), "--quiet"])
    assert code == 0, f"nexus play --seed {seed} {' '.join(kind.options)} exited {code}"
    return hashlib.sha256(log.read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_every_bout_logs_exactly_what_was_recorded(kind: BoutKind, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
    changed = [seed for seed in SEEDS if log_digest(kind, seed, tmp_path) != recorded[kind.key(seed)]]
    capsys.readouterr()  # the one-line summaries
    assert not changed, f"{kind.name}: the logs of seeds {changed} differ from tests/golden/play_logs.json"


def record(folder: Path) -> None:
    digests = {kind.key(seed): log_digest(kind, seed, folder) for kind in KINDS for seed in SEEDS}
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(digests, indent=1) + "\n", encoding="utf-8")
    print(f"recorded {len(digests)} logs in {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--record"] or len(sys.argv) > 3:
        sys.exit(__doc__)
    if len(sys.argv) == 3:
        Path(sys.argv[2]).mkdir(parents=True, exist_ok=True)
        record(Path(sys.argv[2]))
    else:
        import tempfile

        with tempfile.TemporaryDirectory() as scratch:
            record(Path(scratch))
