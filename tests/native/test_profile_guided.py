"""A profile-guided build (`native.build(profile_guided=True)`, `make native`): compiled once
instrumented, trained on what it is to run, compiled again with the profile the training wrote; and
a plain build wherever that cannot be done. Shown on a one-module program compiled the way the
engine is (mypyc, then `native._compile`), which takes seconds where the engine takes minutes; the
engine's own training bouts are played on its compiled build in test_compiled_engine.py."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nexus_dsl import native

pytestmark = pytest.mark.timeout(600)

TOY = '''
def collatz_steps(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
'''
RUN_TOY = "import toy_profiled as toy; print(toy.__file__); print(toy.collatz_steps(27))"


def _toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], Path]:
    """mypyc's extension of the one-module program, and the folder a build of it is made in."""
    from mypyc.build import mypycify

    (tmp_path / "toy_profiled.py").write_text(TOY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # as `native.build` does: mypyc names the module by its path from here
    work = tmp_path / "work"
    return mypycify(["toy_profiled.py"], opt_level="3", target_dir=str(work / "c")), work


def _run_toy(lib: Path) -> subprocess.CompletedProcess[str]:
    """The program run from its build, in a folder where its source is not."""
    return subprocess.run([sys.executable, "-c", RUN_TOY], cwd=lib, env={**os.environ, "PYTHONPATH": str(lib)},
                          capture_output=True, text=True, timeout=120, check=True)


def _hot_sections(work: Path) -> bool:
    """Whether gcc laid any function out as hot: it does so only from a profile."""
    objects = list((work / "objects").rglob("*.o"))
    assert objects
    return any(b".text.hot" in path.read_bytes() for path in objects)


def test_a_profile_guided_build_is_compiled_again_with_what_its_training_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    extensions, work = _toy(tmp_path, monkeypatch)
    trained: list[str] = []

    def train(lib: Path) -> None:
        trained.append(_run_toy(lib).stdout)

    assert native._profile_guided(extensions, work, 1, train)
    # The training ran the instrumented build, which wrote its profile when it ended.
    module, steps = trained[0].split()
    assert Path(module).parent == work / "lib" and module.endswith(".so") and steps == "111"
    profile = work / "profile"
    assert list(profile.rglob("*.gcda"))
    # The build left in the folder is the second: it runs, and records nothing when it does.
    for recorded in profile.rglob("*.gcda"):
        recorded.unlink()
    assert _run_toy(work / "lib").stdout.split()[1] == "111"
    assert not list(profile.rglob("*.gcda"))
    assert _hot_sections(work)  # compiled with the profile


def test_a_training_that_fails_leaves_the_folder_for_a_plain_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    extensions, work = _toy(tmp_path, monkeypatch)

    def train(lib: Path) -> None:
        raise RuntimeError("the training bouts failed: no base pack")

    assert not native._profile_guided(extensions, work, 1, train)
    assert "the profile-guided build failed (the training bouts failed: no base pack)" in capsys.readouterr().err
    assert not any((work / part).exists() for part in ("lib", "objects", "profile"))
    native._compile(extensions, work, 1)  # what `native.build` does next
    assert _run_toy(work / "lib").stdout.split()[1] == "111"
    assert not _hot_sections(work)


def _compiler(folder: Path, says: str) -> Path:
    """A program that answers `--version` as a compiler would."""
    program = folder / "cc"
    program.write_text(f"#!/bin/sh\necho '{says}'\n", encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


def test_the_profile_is_asked_of_gcc_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CC", f"{_compiler(tmp_path, 'gcc (Debian 12.2.0-14) 12.2.0')} -pthread")
    assert native.compiler_is_gcc()
    monkeypatch.setenv("CC", str(_compiler(tmp_path, "Apple clang version 15.0.0 (clang-1500.3.9.4)")))
    assert not native.compiler_is_gcc()
    work = tmp_path / "work"
    assert not native._profile_guided([], work, 1, lambda lib: None)
    assert "the compiler is not gcc" in capsys.readouterr().err
    assert not work.exists()  # nothing compiled
    monkeypatch.setenv("CC", str(tmp_path / "no_such_compiler"))
    assert not native.compiler_is_gcc()


def test_every_build_is_compiled_with_gccs_flags_for_calls_within_the_library(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    extensions, work = _toy(tmp_path, monkeypatch)
    native._compile(extensions, work, 1, native.build_flags())
    assert _run_toy(work / "lib").stdout.split()[1] == "111"
    # gcc writes the flags an object was compiled with into its debugging information (mypyc compiles
    # with -g1), so the objects show which they were given.
    objects = list((work / "objects").rglob("*.o"))
    assert objects and all(all(flag.encode() in path.read_bytes() for flag in native.GCC_FLAGS) for path in objects)


def test_gccs_flags_are_given_to_gcc_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", str(_compiler(tmp_path, "gcc (GCC) 13.2.1 20231205")))
    assert native.build_flags() == native.GCC_FLAGS
    monkeypatch.setenv("CC", str(_compiler(tmp_path, "clang version 17.0.6")))
    assert native.build_flags() == ()


def test_a_build_is_made_again_only_when_it_lacks_the_profile_asked_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`native.build`'s choices, its compiling steps replaced by ones that leave a module file."""
    import shutil

    import mypyc.build

    shutil.copytree(Path(native.__file__).parent, tmp_path / "nexus_dsl",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    steps: list[str] = []
    flags_given: list[Any] = []  # what each compiling step was handed besides mypyc's flags

    def compiled(extensions: list[Any], work: Path, jobs: int, flags: Any = (), *rest: Any, **again: Any) -> None:
        steps.append("plain")
        flags_given.append(flags)
        (work / "lib").mkdir(parents=True, exist_ok=True)

    def profiled(succeeds: bool) -> Any:
        def step(extensions: list[Any], work: Path, jobs: int, train: Any, flags: Any = ()) -> bool:
            steps.append("profiled" if succeeds else "profile failed")
            flags_given.append(flags)
            if succeeds:
                (work / "lib").mkdir(parents=True)
            return succeeds
        return step

    monkeypatch.setattr(native, "build_flags", lambda: ("-fsome-flag",))
    # The root of an installed package is site-packages, with other libraries' modules beside it.
    (tmp_path / "mypy_extensions.py").write_text("", encoding="utf-8")
    mypyc_ran_in: list[set[str]] = []

    def mypycify(paths: list[str], **options: Any) -> list[Any]:
        # mypyc runs where the package alone is, with the paths of the modules it compiles from there.
        mypyc_ran_in.append({path.name for path in Path.cwd().iterdir()})
        assert all(Path(path).is_file() for path in paths) and Path.cwd() != tmp_path
        return []

    monkeypatch.setattr(mypyc.build, "mypycify", mypycify)
    monkeypatch.setattr(native, "_compile", compiled)
    monkeypatch.setattr(native, "_profile_guided", profiled(True))
    plain = native.build(root=tmp_path)
    assert steps == ["plain"] and (plain / "COMPLETE").is_file() and not (plain / native.PROFILED).exists()
    assert native.build(root=tmp_path) == plain and steps == ["plain"]  # kept
    assert native.build(root=tmp_path, profile_guided=True) == plain  # made again, with a profile
    assert steps == ["plain", "profiled"] and "trained on 40 random 2-player bouts of base" in (
        plain / native.PROFILED).read_text()
    assert native.build(root=tmp_path, profile_guided=True) == plain  # kept
    assert native.build(root=tmp_path) == plain and steps == ["plain", "profiled"]  # a profiled one serves as well
    shutil.rmtree(plain)
    monkeypatch.setattr(native, "_profile_guided", profiled(False))
    assert native.build(root=tmp_path, profile_guided=True) == plain
    assert steps[2:] == ["profile failed", "plain"] and not (plain / native.PROFILED).exists()
    assert flags_given == [("-fsome-flag",)] * 4  # every step, plain or profiled, was given the build's flags
    assert mypyc_ran_in == [{"nexus_dsl"}] * 3
