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
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Sequence

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
    return NativeStatus(True, f"compiled ({build.relative_to(root)})")


def build_command() -> str:
    """How to make a build where the package is: the checkout's make target, or the module itself for
    an installed package (which has no Makefile)."""
    command = "python -m nexus_dsl.native build"
    return f"`make native` ({command})" if shipped.is_checkout() else f"`{command}` (needs the [native] extra)"


def build(jobs: int = 2, root: Path = _PACKAGE_ROOT) -> Path:
    """Compile the native modules with mypyc into `build/native/<key>/` and return that folder; a
    build that is already there is kept. The build is made aside and moved in whole, so a build cut
    short is never used."""
    from mypyc.build import mypycify  # imported here: mypy is needed only to build
    from setuptools import Distribution  # type: ignore[import-untyped]

    key = build_key(root)
    target = root / "build" / "native" / key
    if (target / "COMPLETE").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=target.parent))
    here = Path.cwd()
    try:
        os.chdir(root)  # mypyc names each module by its path from here
        extensions = mypycify([path.as_posix() for path in native_sources(root)], opt_level="3",
                              group_name=GROUP, target_dir=str(work / "c"))
        distribution = Distribution({"name": GROUP, "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "objects")
        command.parallel = jobs
        distribution.run_command("build_ext")
    finally:
        os.chdir(here)
    (work / "lib" / "COMPLETE").write_text(key + "\n")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(work / "lib", target)
    shutil.rmtree(work, ignore_errors=True)
    _prune(target.parent, keep=target)
    return target


def _prune(builds: Path, keep: Path, kept: int = 3) -> None:
    """Remove all but the newest few builds (each is a few megabytes; old keys are never used again)."""
    others = sorted((p for p in builds.iterdir() if p.is_dir() and p != keep and not p.name.startswith(".")),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[kept - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["build"]:
        print(build())
        return 0
    if arguments[:1] == ["status"]:
        print(use_native_build())
        return 0
    print("usage: python -m nexus_dsl.native build|status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
