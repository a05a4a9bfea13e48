"""The engine and agents compiled to C with mypyc, used wherever a build of exactly these sources exists.

A bout is Python calls all the way down (hundreds of thousands of them), and mypyc turns the same
type-hinted modules into C extensions that make those calls about twice as fast, with the same
behaviour: the golden logs are byte-identical on both (`make test` plays them on each).

`make native` (`python -m nexus_dsl.native build`) compiles the modules of `NATIVE_PACKAGES` into
`build/native/<key>/` beside the package, where the key is a digest of every source of the package and
of the Python that runs them. Importing the engine (or the agents) looks for the build under the key
of the sources as they are now: when it is there, an import hook loads the compiled modules in place of
their sources; after any edit, under another Python, or with no build at all, the sources run as
they are, so a stale build is never used.

NEXUS_NATIVE=0 never uses a build; NEXUS_NATIVE=1 requires one (importing the engine without a fresh
build is an error that says how to make one); unset, a fresh build is used when there is one.

`make native` asks for a profile-guided build (`build --profile-guided`): gcc compiles the modules
once instrumented, that build plays the training bouts (`TRAINING`), and gcc compiles them again
with the record of where those bouts spent their time, laying the hot paths out for it. The bouts
are the same, only faster.
"""

from __future__ import annotations

import copy
import importlib.abc
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence

from . import shipped
from .cache import digest

ENV_VAR = "NEXUS_NATIVE"

#: The packages whose modules are compiled (their `__init__` modules stay Python: they are where the
#: import hook is installed from). Everything a bout runs through, and nothing that pickles or
#: reflects on its own classes (the syntax tree, the ruleset, the workbench).
NATIVE_PACKAGES = ("nexus_dsl/engine", "nexus_dsl/engine/primitives", "nexus_dsl/agents")

#: The modules left as Python though they sit in those packages: the fingerprint reads generator
#: frames, which compiled generators do not have.
PYTHON_ONLY = frozenset({"nexus_dsl/engine/fingerprint.py"})

#: The name of the shared library that holds the compiled code of every module (each module's own
#: extension only points into it).
GROUP = "nexus_dsl_native"

#: The file a profile-guided build holds beside `COMPLETE` (`build(profile_guided=True)`).
PROFILED = "PROFILED"

#: gcc's flags for every build, beside mypyc's own. The compiled modules' functions call one another
#: by name (`CPyDef_...`) at nearly every step; compiled into a shared library, such a call must
#: otherwise allow for another library loaded first taking the name over, so it goes through the
#: library's table of procedures and is never inlined. No other library defines these names.
#: Measured on the engine's profile-guided build: about 5% more bouts per CPU second, either agent.
GCC_FLAGS = ("-fno-semantic-interposition", "-fno-plt")

#: What a profile-guided build plays to record where the engine spends its time: bouts of the base
#: game (a random barge, motivations and lanistas drawn, as a designer's batch plays them) and of
#: NEXUS Pirates, with both agents, 2 and 4 players: (pack, agent, players, bouts, drawn).
TRAINING: tuple[tuple[str, str, int, int, bool], ...] = (
    ("base", "random", 2, 40, True), ("base", "heuristic", 2, 16, True), ("base", "heuristic", 4, 4, True),
    ("base", "random", 4, 12, True), ("nexus_pirates", "heuristic", 2, 6, False),
    ("nexus_pirates", "random", 2, 6, False),
)
#: The first seed of the training bouts: far from the seeds the benchmarks and tests play, so that a
#: build is not tuned to the very bouts it is measured on.
TRAINING_SEED = 100_001

_PACKAGE_ROOT = shipped.package_folder().parent  # the folder that holds `nexus_dsl/`


class NativeBuildMissing(ImportError):
    """NEXUS_NATIVE=1 and no build of the sources as they are now."""


@dataclass(frozen=True)
class NativeStatus:
    """Whether the compiled modules are in use, and why (for `nexus --version` and the bench)."""

    in_use: bool
    reason: str

    def __str__(self) -> str:
        return self.reason


def native_sources(root: Path = _PACKAGE_ROOT) -> list[Path]:
    """The source files compiled, relative to `root`, in a fixed order."""
    found = []
    for package in NATIVE_PACKAGES:
        for path in sorted((root / package).glob("*.py")):
            relative = path.relative_to(root)
            if path.name != "__init__.py" and relative.as_posix() not in PYTHON_ONLY:
                found.append(relative)
    return found


def _package_sources(root: Path) -> list[Path]:
    return sorted((root / "nexus_dsl").rglob("*.py"))


def build_key(root: Path = _PACKAGE_ROOT) -> str:
    """A digest of every source of the package (a compiled module may rely on what another module
    declares) and of the Python and platform the extensions are built for."""
    parts: list[str | bytes] = [sys.implementation.cache_tag or "", sysconfig.get_config_var("EXT_SUFFIX") or "",
                                *NATIVE_PACKAGES, *sorted(PYTHON_ONLY)]
    for path in _package_sources(root):
        parts += [path.relative_to(root).as_posix(), path.read_bytes()]
    return digest(*parts)[:20]


def _stat_signature(root: Path) -> str:
    """The sources' names, sizes and modification times: unchanged, the sources are those a build
    was last found fresh for, known without reading them (a few stats instead of a digest)."""
    parts = [sys.implementation.cache_tag or ""]
    for path in _package_sources(root):
        stat = path.stat()
        parts.append(f"{path.relative_to(root).as_posix()} {stat.st_size} {stat.st_mtime_ns}")
    return digest(*parts)


def fresh_build(root: Path = _PACKAGE_ROOT) -> Path | None:
    """The complete build of the sources as they are now, if there is one."""
    builds = root / "build" / "native"
    if not builds.is_dir():
        return None
    signature = _stat_signature(root)
    for build in builds.iterdir():
        seen = build / "SEEN"
        if seen.is_file() and seen.read_text() == signature and (build / "COMPLETE").is_file():
            return build
    build = builds / build_key(root)
    if not (build / "COMPLETE").is_file():
        return None
    try:  # remembered for the next process; a read-only tree just digests every time
        (build / "SEEN").write_text(signature)
    except OSError:
        pass
    return build


def _extensions(build: Path) -> dict[str, Path]:
    """Each compiled module of a build by its dotted name (the shared library included)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = {}
    for path in build.rglob("*"):
        for suffix in suffixes:
            if path.name.endswith(suffix):
                relative = path.relative_to(build).as_posix()[: -len(suffix)]
                found[relative.replace("/", ".")] = path
                break
    return found


class _NativeFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules of one build before the sources are looked for."""

    def __init__(self, modules: dict[str, Path]):
        self.modules = modules

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        found = self.modules.get(fullname)
        if found is None:
            return None
        return importlib.util.spec_from_file_location(fullname, found)


_status: NativeStatus | None = None


def use_native_build() -> NativeStatus:
    """Install the import hook for a fresh build, once per process, before any compiled module is
    imported (the engine's and the agents' `__init__` call this first)."""
    global _status
    if _status is None:
        _status = _install()
    return _status


def _install(root: Path = _PACKAGE_ROOT) -> NativeStatus:
    choice = os.environ.get(ENV_VAR, "").strip()
    if choice == "0":
        return NativeStatus(False, f"sources ({ENV_VAR}=0)")
    build = fresh_build(root)
    modules = _extensions(build) if build is not None else {}
    if not modules:
        if choice == "1":
            raise NativeBuildMissing(f"{ENV_VAR}=1 but no compiled build of these sources under {root / 'build' / 'native'}: "
                                     f"run {build_command()}")
        return NativeStatus(False, f"sources (no compiled build of these sources: {build_command()})")
    already = sorted(name for name in modules if name in sys.modules)
    if already:  # imported from source before the hook: mixing the two would not work
        return NativeStatus(False, f"sources ({already[0]} was imported before the compiled build could be used)")
    sys.meta_path.insert(0, _NativeFinder(modules))
    assert build is not None
    kind = "compiled, profile-guided" if (build / PROFILED).is_file() else "compiled"
    return NativeStatus(True, f"{kind} ({build.relative_to(root)})")


def build_command() -> str:
    """How to make a build where the package is: the checkout's make target, or the module itself for
    an installed package (which has no Makefile)."""
    command = "python -m nexus_dsl.native build"
    return f"`make native` ({command})" if shipped.is_checkout() else f"`{command}` (needs the [native] extra)"


def build(jobs: int = 2, root: Path = _PACKAGE_ROOT, profile_guided: bool = False) -> Path:
    """Compile the native modules with mypyc into `build/native/<key>/` and return that folder; a
    build that is already there is kept (a plain one is made again when a profile-guided one is asked
    for). The build is made aside and moved in whole, so a build cut short is never used.
    `profile_guided`: compiled twice by gcc around a run of the training bouts (`_profile_guided`);
    where that cannot be done, the build is made plainly and stderr says why."""
    from mypyc.build import mypycify  # imported here: mypy is needed only to build

    key = build_key(root)
    target = root / "build" / "native" / key
    if (target / "COMPLETE").is_file() and (not profile_guided or (target / PROFILED).is_file()):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=target.parent))
    here = Path.cwd()
    profiled = False
    try:
        # mypyc names each module by its path from the folder it runs in, and takes every module it
        # finds there for the program's own: it runs in a copy of the package alone, since the folder
        # that holds an installed package is site-packages, whose other modules it would refuse
        # ("mypy_extensions.py shadows library module").
        sources = work / "src"
        shutil.copytree(root / "nexus_dsl", sources / "nexus_dsl",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "_shipped"))
        os.chdir(sources)
        extensions = mypycify([path.as_posix() for path in native_sources(root)], opt_level="3",
                              group_name=GROUP, target_dir=str(work / "c"))
        flags = build_flags()
        if profile_guided:
            profiled = _profile_guided(extensions, work, jobs, lambda lib: _train(lib, root), flags)
        if not profiled:
            _compile(extensions, work, jobs, flags)
    finally:
        os.chdir(here)
    (work / "lib" / "COMPLETE").write_text(key + "\n")
    if profiled:
        (work / "lib" / PROFILED).write_text("trained on " + ", ".join(
            f"{bouts} {agent} {players}-player bouts of {pack}" for pack, agent, players, bouts, _ in TRAINING) + "\n")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(work / "lib", target)
    shutil.rmtree(work, ignore_errors=True)
    _prune(target.parent, keep=target)
    return target


def _compile(extensions: list[Any], work: Path, jobs: int, flags: Sequence[str] = (),
             link_flags: Sequence[str] = (), again: bool = False) -> None:
    """Compile mypyc's extensions into `work/lib` (objects in `work/objects`), with `flags` after
    each extension's own compiler arguments and `link_flags` after its linker arguments; `again`
    compiles every file even when its object is newer (a second pass with other flags)."""
    from setuptools import Distribution  # type: ignore[import-untyped]

    # Copies with the flags added, so that mypyc's extensions keep their own arguments for a next pass.
    flagged = []
    for extension in extensions:
        copied = copy.copy(extension)
        copied.extra_compile_args = [*extension.extra_compile_args, *flags]
        copied.extra_link_args = [*extension.extra_link_args, *link_flags]
        flagged.append(copied)
    distribution = Distribution({"name": GROUP, "ext_modules": flagged})
    command = distribution.get_command_obj("build_ext")
    command.build_lib = str(work / "lib")
    command.build_temp = str(work / "objects")
    command.parallel = jobs
    command.force = again
    distribution.run_command("build_ext")


def build_flags() -> tuple[str, ...]:
    """The flags every build adds to mypyc's: `GCC_FLAGS` where the compiler is gcc, none elsewhere."""
    return GCC_FLAGS if compiler_is_gcc() else ()


def compiler_is_gcc() -> bool:
    """Whether the compiler extensions are built with is gcc (the profile flags are gcc's)."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
    try:
        answer = subprocess.run([*compiler.split()[:1], "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    first = answer.stdout.splitlines()[0] if answer.stdout else ""
    return answer.returncode == 0 and "gcc" in first.lower() and "clang" not in answer.stdout.lower()


def _profile_guided(extensions: list[Any], work: Path, jobs: int, train: Callable[[Path], None],
                    flags: Sequence[str] = ()) -> bool:
    """Compile `extensions` instrumented, `train` on the instrumented modules in `work/lib` (run where
    they are imported), then compile again with the profile they wrote, `flags` added to both
    compiles; whether that was done. Any failure (not gcc, a gcc too old for these flags, the
    training failing or writing no profile) leaves `work` as it was before the first compile, said
    on stderr, for a plain build."""
    if not compiler_is_gcc():
        print("native build: the compiler is not gcc, so the build is made without a profile", file=sys.stderr)
        return False
    profile = work / "profile"
    try:
        _compile(extensions, work, jobs, [*flags, f"-fprofile-generate={profile}"], [f"-fprofile-generate={profile}"])
        train(work / "lib")
        if not any(profile.rglob("*.gcda")):
            raise RuntimeError("the training bouts wrote no profile")
        # Partial training: what the bouts never ran is still optimised for speed, not for size.
        _compile(extensions, work, jobs, [*flags, f"-fprofile-use={profile}", "-fprofile-partial-training",
                                          "-Wno-missing-profile"], again=True)
    except Exception as error:  # noqa: BLE001 - any failure of the profiled steps falls back to a plain build
        print(f"native build: the profile-guided build failed ({error}); building without a profile", file=sys.stderr)
        for part in ("lib", "objects", "profile"):
            shutil.rmtree(work / part, ignore_errors=True)
        return False
    return True


def _train(lib: Path, root: Path) -> None:
    """Play the training bouts on the instrumented modules in `lib`, in a process of its own."""
    path = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-m", "nexus_dsl.native", "train", str(lib)], cwd=root,
                          env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"the training bouts failed: {(done.stderr or done.stdout).strip()[-500:]}")


def play_training_bouts(lib: Path) -> int:
    """Play the training bouts (`TRAINING`) on the compiled modules in `lib` (a build, or one being
    made), in this process, before anything of the engine is imported; how many were played. A bout
    the engine fails on ends the training (a profile of failures would lay out the wrong paths)."""
    global _status
    modules = _extensions(lib)
    if not modules:
        raise NativeBuildMissing(f"no compiled modules in {lib}")
    sys.meta_path.insert(0, _NativeFinder(modules))
    _status = NativeStatus(True, f"compiled, being trained ({lib})")
    from .engine.setup import RANDOM_ITEM, RANDOM_LAYOUT
    from .sim.batch import BoutSpec, play_one

    played = 0
    for pack, agent, players, bouts, drawn in TRAINING:
        drawn_items = (RANDOM_ITEM,) * players if drawn else ()
        for seed in range(TRAINING_SEED, TRAINING_SEED + bouts):
            result = play_one(BoutSpec(seed, players, (pack,), (agent,), barge=RANDOM_LAYOUT if drawn else None,
                                       motivations=drawn_items, lanistas=drawn_items))
            if result.error is not None:
                raise RuntimeError(f"training bout {seed} of {pack} failed: {result.error.splitlines()[0]}")
            played += 1
    return played


def _prune(builds: Path, keep: Path, kept: int = 3) -> None:
    """Remove all but the newest few builds (each is a few megabytes; old keys are never used again)."""
    others = sorted((p for p in builds.iterdir() if p.is_dir() and p != keep and not p.name.startswith(".")),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[kept - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["build"] and arguments[1:] in ([], ["--profile-guided"]):
        print(build(profile_guided=arguments[1:] == ["--profile-guided"]))
        return 0
    if arguments[:1] == ["status"]:
        print(use_native_build())
        return 0
    if arguments[:1] == ["train"] and len(arguments) == 2:
        # Through the package's own module (run as `-m`, this file is another one, `__main__`), so
        # that the engine's imports find the status it sets.
        from nexus_dsl import native

        print(f"played {native.play_training_bouts(Path(arguments[1]))} training bouts")
        return 0
    print("usage: python -m nexus_dsl.native build [--profile-guided] | status | train BUILD_FOLDER", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
