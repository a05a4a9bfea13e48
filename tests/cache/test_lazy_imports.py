"""Loading content imports only what loading needs: the package's public names are imported on
first use, and a load whose files are all in the load cache needs neither Lark nor jsonschema."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nexus_dsl

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("nexus_dsl.engine.bout", "nexus_dsl.agents", "nexus_dsl.scenario", "nexus_dsl.workbench", "scipy",
         "streamlit", "lark", "jsonschema", "jsonschema_rs", "referencing")
PROBE = ("import json, sys; from nexus_dsl.content.loader import load_ruleset; load_ruleset(['base']); "
         "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('nexus_dsl', 'scipy', 'streamlit', "
         "'lark', 'jsonschema', 'jsonschema_rs', 'referencing'))))")


def test_every_public_name_is_there() -> None:
    assert sorted(nexus_dsl.__all__) == sorted(nexus_dsl._EXPORTS)
    for name in nexus_dsl.__all__:
        assert getattr(nexus_dsl, name) is not None
    assert set(nexus_dsl.__all__) <= set(dir(nexus_dsl))


def loaded_modules(cache_folder: str) -> set[str]:
    environment = {**os.environ, "NEXUS_CACHE_DIR": cache_folder, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, check=True,
                         env=environment)
    return set(json.loads(out.stdout))


def test_a_load_from_the_cache_imports_only_what_loading_needs(tmp_path: Path) -> None:
    first = loaded_modules(str(tmp_path / "cache"))  # fills the cache: parses and validates
    assert {"lark", "jsonschema_rs"} <= first
    again = loaded_modules(str(tmp_path / "cache"))
    assert not {module for module in again if module.startswith(HEAVY)}
