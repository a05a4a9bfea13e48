"""Seeded bouts of two people on one screen, walked decision by decision as the heuristic agent
would play both seats: what the playtest's arranging of choices is tested on."""

from __future__ import annotations

from typing import Iterator

from nexus_dsl.agents import make_agent
from nexus_dsl.engine.actions import Decision
from nexus_dsl.workbench.playtest import PERSON, PlaySession, PlaySettings


def people_bout(seed: int = 1) -> PlaySession:
    return PlaySession(PlaySettings(seats=(PERSON, PERSON), barge="gutter_ring", seed=seed,
                                    motivations=("famished", "zealot"), lanistas=("madame_oorl", "tibbet_kreen")))


def decisions(session: PlaySession, seed: int = 1, limit: int = 400) -> Iterator[str]:
    """Each decision of the bout, by its decider (yielded before it is taken, so a test may look at
    it or take it itself); the heuristic agent takes those the test leaves."""
    agent = make_agent("heuristic", seed=seed)
    for _ in range(limit):
        pending = session.pending_decision()
        if pending is None:
            return
        before = len(session.actions)
        yield pending.actor
        if len(session.actions) != before or session.pending_decision() is None:
            continue
        own = tuple(o for o in session.bout.pending.options if o.actor == pending.actor)
        session.apply(own[0] if len(own) == 1 else agent.choose(session.bout, Decision(pending.actor, pending.kind, own)))
