"""Where the test run's batches are played: this machine by default, or a Ray cluster, with the same report."""

from __future__ import annotations

import sys

import pytest
import ray
from editor_app import open_page, texts

from nexus_dsl.sim import ray_backend


def batch_report(at) -> tuple[str, list]:
    at.number_input(key="tr_bouts").set_value(4)
    at.button(key="tr_run_batch").click().run()
    assert not at.exception, at.exception
    wins = next(d.value for d in at.dataframe if "win rate" in d.value.columns)
    return texts(at), wins.to_dict("records")


def test_a_batch_on_a_local_ray_instance_reports_what_this_machine_does(app_env) -> None:
    at = open_page("test_run.py")
    assert at.radio(key="tr_backend").value == "this machine"
    local_text, local_wins = batch_report(at)
    at.radio(key="tr_backend").set_value("a Ray cluster").run()
    assert not at.exception, at.exception
    try:
        ray_text, ray_wins = batch_report(at)
        assert ray.is_initialized() and ray_backend.warm_workers()  # played on the workers of a local instance
    finally:
        ray_backend.shutdown()
    assert "**4 bouts**" in ray_text
    assert ray_wins == local_wins
    assert ray_text == local_text


def test_without_ray_the_choice_says_how_to_install_it(app_env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.delitem(sys.modules, "nexus_dsl.sim.ray_backend", raising=False)
    at = open_page("test_run.py")
    at.radio(key="tr_backend").set_value("a Ray cluster").run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == [
        "the ray backend needs Ray, which is not installed: pip install 'nexus_dsl[cluster]'"]
    assert not [b for b in at.button if b.key in ("tr_run_batch", "tr_run_ab")]
