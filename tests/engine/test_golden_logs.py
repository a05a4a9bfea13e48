"""Bouts stay exact: `nexus play --seed N --log F` writes, for seeds 1 to 50 with 2 and with 4
players, the very event log recorded in `tests/golden/play_logs.json` (a SHA-256 of each log file).

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
from pathlib import Path

import pytest

from nexus_dsl.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "play_logs.json"
SEEDS = range(1, 51)
PLAYERS = (2, 4)


def log_digest(players: int, seed: int, folder: Path) -> str:
    """The SHA-256 of the log `nexus play` writes for this bout."""
    log = folder / f"p{players}_{seed}.jsonl"
    code = main(["play", "--seed", str(seed), "--players", str(players), "--log", str(log), "--quiet"])
    assert code == 0, f"nexus play --seed {seed} --players {players} exited {code}"
    return hashlib.sha256(log.read_bytes()).hexdigest()


def key(players: int, seed: int) -> str:
    return f"{players} players, seed {seed}"


@pytest.mark.parametrize("players", PLAYERS)
def test_every_bout_logs_exactly_what_was_recorded(players: int, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
    changed = [seed for seed in SEEDS if log_digest(players, seed, tmp_path) != recorded[key(players, seed)]]
    capsys.readouterr()  # the one-line summaries
    assert not changed, f"with {players} players, the logs of seeds {changed} differ from tests/golden/play_logs.json"


def record(folder: Path) -> None:
    digests = {key(players, seed): log_digest(players, seed, folder) for players in PLAYERS for seed in SEEDS}
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
