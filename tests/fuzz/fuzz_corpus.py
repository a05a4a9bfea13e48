"""The fuzzing corpus (the project's real content) and the seeded inputs made from it.

Three kinds of input:
- `script`: a rule script from `content/**/*.nexus`;
- `data`: a YAML data file of one of the types a pack holds: the `pack.yaml` manifest, barges,
  lanistas, motivations, objects (`model.ruleset.DATA_TYPES`); each type is drawn equally often,
  so the five manifests are fuzzed as much as the one lanistas file;
- `scenario`: a rules scenario from `tests/scenarios/` (run by `nexus_dsl.scenario`).

`make_input(kind, number)` is a pure function of its arguments: the same kind and number give the
same file, byte for byte, on every machine (the generator is seeded with a string, which Python
hashes with SHA-512, not with the per-process hash seed).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from fuzz_mutators import SCRIPT_MUTATORS, YAML_MUTATORS, Corpus, mutate

from nexus_dsl.content.loader import MANIFEST, SCRIPT_SUFFIX, YAML_SUFFIXES, is_set_aside
from nexus_dsl.model.ruleset import DATA_TYPES
from nexus_dsl.scenario import is_pack_file

REPOSITORY = Path(__file__).resolve().parents[2]
CONTENT = REPOSITORY / "content"
SCENARIOS = REPOSITORY / "tests" / "scenarios"
KINDS = ("script", "data", "scenario")
PACK_TYPE = "pack"
DATA_FILE_TYPES = (PACK_TYPE, *sorted(DATA_TYPES))


@dataclass(frozen=True)
class CorpusFile:
    path: Path  # the original file
    relative: str  # where it sits in its pack (`barges.yaml`, `commands/melee.nexus`) or scenario folder
    text: str

    @property
    def shown(self) -> str:
        return str(self.path.relative_to(REPOSITORY))


@dataclass(frozen=True)
class FuzzInput:
    """One mutated file, reproducible from `kind` and `number` alone."""

    kind: str
    number: int
    source: CorpusFile
    data_type: str | None  # for `data`: pack, barges, lanistas, motivations or objects
    steps: tuple[str, ...]
    data: bytes

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.number}"

    def describe(self) -> str:
        """How to replay this input and what was done to it."""
        lines = [f"input {self.kind} #{self.number} (replay: make_input({self.kind!r}, {self.number}) in tests/fuzz/"
                 f"fuzz_corpus.py, or `python tests/fuzz/fuzz_campaign.py replay {self.kind} {self.number}`)",
                 f"  from {self.source.shown}" + (f" (type {self.data_type})" if self.data_type else "")]
        lines += [f"  {index}. {step}" for index, step in enumerate(self.steps, 1)]
        return "\n".join(lines)


def _pack_folder_of(path: Path) -> Path:
    for folder in path.parents:
        if (folder / MANIFEST).is_file():
            return folder
    raise ValueError(f"{path} is in no pack")


def data_type_of(path: Path) -> str | None:
    """The type of a YAML file in a pack, as the loader decides it (folder name, then file stem)."""
    if path.name == MANIFEST:
        return PACK_TYPE
    for candidate in (path.parent.name, path.stem):
        if candidate in DATA_TYPES:
            return candidate
    return None


def _read(path: Path, relative_to: Path) -> CorpusFile:
    return CorpusFile(path, str(path.relative_to(relative_to)), path.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def script_corpus() -> tuple[CorpusFile, ...]:
    paths = sorted(p for p in CONTENT.rglob(f"*{SCRIPT_SUFFIX}") if not is_set_aside(p, CONTENT))
    return tuple(_read(p, _pack_folder_of(p)) for p in paths)


@lru_cache(maxsize=1)
def data_corpus() -> dict[str, tuple[CorpusFile, ...]]:
    """Every YAML file of the content packs, by type."""
    by_type: dict[str, list[CorpusFile]] = {t: [] for t in DATA_FILE_TYPES}
    for path in sorted(p for p in CONTENT.rglob("*") if p.suffix in YAML_SUFFIXES and not is_set_aside(p, CONTENT)):
        data_type = data_type_of(path)
        if data_type is not None:
            by_type[data_type].append(_read(path, _pack_folder_of(path)))
    return {t: tuple(files) for t, files in by_type.items()}


@lru_cache(maxsize=1)
def scenario_corpus() -> tuple[CorpusFile, ...]:
    paths = sorted(p for p in SCENARIOS.rglob("*") if p.suffix in YAML_SUFFIXES and not is_pack_file(p))
    return tuple(_read(p, SCENARIOS) for p in paths)


def generator(kind: str, number: int) -> random.Random:
    return random.Random(f"nexus-fuzz:{kind}:{number}")


def make_input(kind: str, number: int) -> FuzzInput:
    """The `number`-th mutated input of a kind."""
    rng = generator(kind, number)
    if kind == "script":
        files = script_corpus()
        data_type = None
        mutators = SCRIPT_MUTATORS
    elif kind == "data":
        data_type = rng.choice(DATA_FILE_TYPES)
        files = data_corpus()[data_type]
        mutators = YAML_MUTATORS
    elif kind == "scenario":
        files = scenario_corpus()
        data_type = None
        mutators = YAML_MUTATORS
    else:
        raise ValueError(f"unknown input kind {kind!r}; one of {', '.join(KINDS)}")
    source = rng.choice(files)
    mutated = mutate(rng, source.text, Corpus(tuple(f.text for f in files)), mutators)
    return FuzzInput(kind, number, source, data_type, mutated.steps, mutated.data)
