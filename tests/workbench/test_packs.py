"""The packs a designer can load, and the cache that reloads them when a file changes."""

from __future__ import annotations

import os
import threading
from typing import Any
from pathlib import Path

import pytest
from cachetools import LRUCache
from support import write_pack

from nexus_dsl.workbench import packs
from nexus_dsl.workbench.packs import available_packs, clear_cache, load_packs, pack_of, packs_holding
from nexus_dsl.workbench.store import create_pack

from .conftest import CONTENT


def test_available_packs_lists_every_nested_pack() -> None:
    packs = {p.id: p for p in available_packs(CONTENT)}
    assert {"base", "poison_gallery", "steady_on_three"} <= set(packs)
    assert packs["base"].kind == "base" and packs["base"].builds_on == ()
    assert packs["poison_gallery"].kind == "expansion" and packs["poison_gallery"].builds_on == ("base",)
    assert packs["steady_on_three"].folder == CONTENT / "house-rules" / "steady_on_three"
    assert packs["steady_on_three"].description


def test_available_packs_skips_set_aside_folders(content_root: Path) -> None:
    history = content_root / "base" / ".history"
    history.mkdir()
    (history / "pack.yaml").write_text("id: ghost\nname: Ghost\nversion: 0.1.0\n")
    assert [p.id for p in available_packs(content_root)] == ["base"]


def test_load_packs_caches_and_reloads_when_a_file_changes(content_root: Path) -> None:
    clear_cache()
    folder = create_pack(content_root, "my_house", "Mine", "house_rules", ["base"])
    first = load_packs(["my_house"], content_root)
    assert first.ok and first.diagnostics == []
    assert load_packs(["my_house"], content_root) is first  # nothing changed: the same ruleset
    lanistas = folder / "lanistas.yaml"
    lanistas.write_text("- id: new_lanista\n  name: New Lanista\n  influence: 1\n  deception: 1\n  command: 1\n")
    second = load_packs(["my_house"], content_root)
    assert second is not first and second.ruleset.data_item("lanistas", "new_lanista") is not None
    # A change in a pack built on (base) is noticed too.
    base_lanistas = content_root / "base" / "lanistas.yaml"
    base_lanistas.write_text(base_lanistas.read_text() + "\n")
    os.utime(base_lanistas, ns=(1, 1))
    assert load_packs(["my_house"], content_root) is not second


def test_load_problems_come_back_as_positioned_diagnostics(content_root: Path) -> None:
    folder = create_pack(content_root, "broken_house", "Broken", "house_rules", ["base"])
    (folder / "rules.nexus").write_text('rule broken "Broken" {\n    param x = \n}\n')
    result = load_packs(["broken_house"], content_root)
    assert result.ruleset is None and not result.ok
    assert (result.diagnostics[0].line, result.diagnostics[0].column) == (3, 1)
    unknown = load_packs(["no_such_pack"], content_root)
    assert unknown.ruleset is None and unknown.diagnostics[0].code == "content/unknown_pack"


def test_pack_of_finds_the_folder_holding_pack_yaml() -> None:
    assert pack_of(CONTENT / "base" / "commands" / "aim.nexus") == CONTENT / "base"


def test_a_search_finds_what_other_packs_hold(tmp_path):
    """What the loaded packs lack, other packs under the root may hold: the lookup names them with
    the ids found, passes over the loaded ones and any pack that does not load."""
    root = tmp_path / "content"
    write_pack(root / "mine", "mine", {"cards.nexus": 'rule sand_in_the_eyes "Sand in the Eyes" {\n'
                                                      '    text "Nothing yet."\n}\n'})
    write_pack(root / "also", "also", {"more.nexus": 'rule sand_storm "Sand Storm" {\n    text "Nothing."\n}\n'})
    write_pack(root / "broken", "broken", {"bad.nexus": "rule sand_pit {\n"})
    assert packs_holding("sand", root, []) == {"also": ["sand_storm"], "mine": ["sand_in_the_eyes"]}
    assert packs_holding("Sand eyes", root, []) == {"mine": ["sand_in_the_eyes"]}
    assert packs_holding("sand", root, ["mine"]) == {"also": ["sand_storm"]}
    assert packs_holding("nothing like it", root, []) == {} and packs_holding("  ", root, []) == {}


def test_the_real_content_root_points_at_the_expansion_holding_a_card():
    from nexus_dsl.content.loader import default_content_root

    holding = packs_holding("laced_waterskin", default_content_root(), ["base"])
    assert holding == {"poison_gallery": ["laced_waterskin"]}


def test_the_cache_keeps_the_most_recently_used_loads_within_its_bound(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert packs._CACHE.maxsize == packs.KEPT_LOADS
    for ident in ("one", "two", "three"):
        write_pack(tmp_path / ident, ident, {"rules.nexus": f'rule {ident}_rule "R" {{\n    param {ident}_value = 1\n}}\n'})
    monkeypatch.setattr(packs, "_CACHE", LRUCache(maxsize=2))
    one, two = load_packs(["one"], tmp_path), load_packs(["two"], tmp_path)
    assert one.ok and two.ok
    assert load_packs(["one"], tmp_path) is one  # used again: `two` is now the least recently used
    three = load_packs(["three"], tmp_path)  # one more than the bound: `two` goes
    assert len(packs._CACHE) == 2
    assert load_packs(["one"], tmp_path) is one and load_packs(["three"], tmp_path) is three
    again = load_packs(["two"], tmp_path)  # loaded anew, the same content
    assert again is not two and again.ruleset.setting("two_value") == 1


def test_a_selection_asked_for_while_it_loads_is_loaded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The editor's warm-up and a tab's first run (or two tabs) asking for the same packs at once:
    # the second waits for the first load and takes its result instead of loading them again.
    write_pack(tmp_path / "one", "one", {"rules.nexus": 'rule one_rule "R" {\n    param one_value = 1\n}\n'})
    clear_cache()
    started, release = threading.Event(), threading.Event()
    loads: list[str] = []
    real = packs.load_collecting_sources

    def slow_load(*args: Any, **kwargs: Any) -> Any:
        loads.append("load")
        started.set()
        assert release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(packs, "load_collecting_sources", slow_load)
    results: list[packs.LoadResult] = []
    first = threading.Thread(target=lambda: results.append(load_packs(["one"], tmp_path)))
    first.start()
    assert started.wait(60)
    second = threading.Thread(target=lambda: results.append(load_packs(["one"], tmp_path)))
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting for the load under way, not loading again
    release.set()
    first.join(60)
    second.join(60)
    assert loads == ["load"] and len(results) == 2 and results[0] is results[1] and results[0].ok
    assert packs._LOADING == {}
