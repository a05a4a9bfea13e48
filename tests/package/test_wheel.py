"""The built wheel works from anywhere: it is built from the repository's sources, installed with its
runtime dependencies into a fresh virtual environment in a temporary folder, and its `nexus` is run
from yet another folder, where no checkout is in sight. The shipped content, schemas, grammar and
editor come from inside the installed package.

One test, on purpose: it makes a virtual environment and installs the dependencies (from the index,
or pip's cache), which takes a minute or more.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nexus_dsl
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]
#: What the wheel is built from: the package, the data folders it carries and the build's own files.
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "nexus_dsl", "content", "schemas", "editor")
#: What a checkout may hold in the data folders that the wheel leaves out (as setup.py does).
LEFT_OUT = (".*", "__pycache__", "*.pyc", "*.draft")
INSTALL_SECONDS = 1800

SMALL_PACK = {
    "pack.yaml": "id: sucker\nname: \"House Rule: Sucker Punch\"\nversion: 0.1.0\nkind: house_rules\nbuilds_on: [base]\n",
    "punch.nexus": """trait_ability sucker_punch "Sucker Punch" {
    tags physicality
    text "Declared after a successful attack: add 2 damage to it."
    param sucker_damage = 2
    cost 3 PHYS
    window after_attack_succeeds by self
    effect {
        add_damage sucker_damage
    }
}
""",
}


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def shipped_files(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*")
            if path.is_file() and not any(fnmatch.fnmatch(part, pattern)
                                          for part in path.relative_to(folder).parts for pattern in LEFT_OUT)}


def build_wheel(work: Path) -> Path:
    """The wheel of a copy of the build inputs (the build writes its own folders beside its sources,
    never into the checkout), with this environment's setuptools: nothing is downloaded to build."""
    source = work / "source"
    for name in BUILD_INPUTS:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                 "--wheel-dir", str(work / "wheels"), str(source)], cwd=work)
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = (work / "wheels").glob("nexus_dsl-*.whl")
    assert wheel.name.startswith(f"nexus_dsl-{nexus_dsl.__version__}-py3-none-any")
    return wheel


def fresh_environment(work: Path, wheel: Path) -> Path:
    """A virtual environment holding the wheel and its runtime dependencies; its `bin` folder.
    Made without pip of its own (this environment's pip installs into it: `pip --python`)."""
    venv = work / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=work)
    assert made.returncode == 0, made.stderr
    installed = run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet",
                     str(wheel)], cwd=work, timeout=INSTALL_SECONDS)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return venv / "bin"


def test_the_wheel_installed_in_a_fresh_environment_works_from_another_folder(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    bin_folder = fresh_environment(tmp_path, wheel)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # Nothing leads back to the checkout: no PYTHONPATH, no content root chosen, a cache of its own.
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "NEXUS_CONTENT_ROOT", "NEXUS_CONTENT", "NEXUS_EDITOR_ADDRESS", "NEXUS_NATIVE")}
    env["NEXUS_CACHE_DIR"] = str(tmp_path / "cache")
    nexus = str(bin_folder / "nexus")

    def nexus_run(*arguments: str) -> subprocess.CompletedProcess[str]:
        return run([nexus, *arguments], cwd=elsewhere, env=env)

    # The package and its data are the installed copies.
    site = run([str(bin_folder / "python"), "-c", "import nexus_dsl, sys; print(nexus_dsl.__file__)"],
               cwd=elsewhere, env=env)
    package = Path(site.stdout.strip()).parent
    assert package.is_relative_to(tmp_path / "venv") and package.name == "nexus_dsl", site.stdout + site.stderr
    for name in ("content", "schemas", "editor"):
        assert shipped_files(package / "_shipped" / name) == shipped_files(ROOT / name), name
    assert (package / "py.typed").is_file() and (package / "grammar" / "nexus.lark").is_file()

    version = nexus_run("--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout.splitlines()[0] == f"nexus_dsl {nexus_dsl.__version__}"
    # an installed package has no Makefile: the way to compile the engine is named as it works there
    assert "`python -m nexus_dsl.native build` (needs the [native] extra)" in version.stdout.splitlines()[1]
    assert version.stdout.splitlines()[2] == f"shipped content: {package / '_shipped' / 'content'} (the installed package)"

    # The shipped content: every pack of the base game, its expansions, house rules and the games.
    checked = nexus_run("check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    packs = sorted(manifest.parent.relative_to(ROOT / "content").as_posix()
                   for manifest in (ROOT / "content").rglob("pack.yaml"))
    assert checked.stdout.startswith(f"ok: {len(packs)} checked (")
    assert all(str(package / "_shipped" / "content" / pack) in checked.stdout for pack in packs)

    # A small pack of the user's, building on the shipped base game: valid, then broken.
    pack = tmp_path / "packs" / "sucker"
    pack.mkdir(parents=True)
    for name, text in SMALL_PACK.items():
        (pack / name).write_text(text)
    mine = nexus_run("check", str(pack))
    assert (mine.returncode, mine.stdout.strip()) == (0, f"ok: 1 checked ({pack})"), mine.stderr
    (pack / "punch.nexus").write_text(SMALL_PACK["punch.nexus"].replace("after_attack_succeeds", "after_attack_succeds"))
    broken = nexus_run("check", str(pack))
    assert broken.returncode == 1
    assert f"{pack / 'punch.nexus'}:6:12: error: unknown timing window `after_attack_succeds`" in broken.stdout
    assert "hint: did you mean `after_attack_succeeds`?" in broken.stdout

    # A bout, the very one the checkout plays with the same seed.
    played = nexus_run("play", "--seed", "1")
    assert played.returncode == 0, played.stderr
    assert played.stdout.splitlines()[-1].startswith("seed=1 winner=")
    here = run([sys.executable, "-m", "nexus_dsl", "play", "--seed", "1"], cwd=ROOT,
               env={**env, "PYTHONPATH": str(ROOT)})
    assert played.stdout == here.stdout

    # Print-and-play from the shipped base pack: a sheet of nine faces and a barge, read back.
    sheet = elsewhere / "sheet.pdf"
    printed = nexus_run("print", "--cards", "standard_attack,rotate", "--barges", "--out", str(sheet))
    assert printed.returncode == 0, printed.stdout + printed.stderr
    document = PdfReader(sheet)
    assert len(document.pages) == 1 + 8  # one sheet of faces, then the base game's eight barges
    assert "Standard Attack" in document.pages[0].extract_text()

    # The editor is in the wheel; Streamlit is not (it is the `editor` extra): the command says so.
    editor = nexus_run("editor")
    assert editor.returncode == 1
    assert editor.stderr.strip().endswith("pip install 'nexus_dsl[editor]'")
    assert (package / "_shipped" / "editor" / "app.py").is_file()
