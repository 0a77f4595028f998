"""The NPCs' difficulty in the window (issue 31 item 2): scripted (each character's `ai =` tactics) or
search (the search AI on every NPC side, each character's tactic as its base: battlemat.ai.search), on
the K key. The search plays as in the lab (the same budget of evaluated turns), capped at `think_ms`
of thinking per NPC character (`battlemat play --think-ms`): the window must answer at once.

The mode lives in the session's policy itself (a search Brain has a time cap, the scripted one none),
so a game opened afterwards starts scripted, as its file says. Switching drops the NPCs' intents of
the turn being declared and has them declare again with the new policy (P: still secretly, from the
state alone); at a turn of the line already played, the recorded intents stay, and the new policy
declares from the next new turn. This module never imports pygame.
"""

from __future__ import annotations

from battlemat.ai import Brain
from battlemat.ai.search import THINK_MS
from battlemat.ui.session import Session

__all__ = ["THINK_MS", "search_brain", "searching", "toggle"]  # (THINK_MS: the default cap per NPC character)


def searching(session: Session) -> bool:
    """Whether the session's NPCs are played by the search."""
    return isinstance(session.brain, Brain) and session.brain.think_ms is not None


def search_brain(session: Session, think_ms: float) -> Brain:
    """The search AI on every NPC side of the session's encounter, on the match's memory and dice."""
    npc_sides = [side for side in session.enc.sides if side not in session.pc_sides]
    brain = Brain(session.enc, session.match.memory, session.match.dice, think_ms=think_ms)
    brain.search_sides = frozenset(npc_sides)
    return brain


def toggle(session: Session, think_ms: float = THINK_MS) -> str:
    """Switch the NPCs between scripted and search; the words for the status line."""
    old = session.brain
    session.brain = Brain(session.enc, session.match.memory, session.match.dice) if searching(session) else (
        search_brain(session, think_ms))
    if isinstance(old, Brain) and isinstance(session.brain, Brain):
        session.brain.memory = old.memory  # (the AI's notes between turns go on)
    now = f"search AI (up to {think_ms:.0f} ms a character)" if searching(session) else "scripted tactics"
    if session.future or session.replay:
        return f"NPCs: {now}, from the next new turn (K switches)."
    for cid in [cid for cid in session.declared if not session.is_pc(cid)]:
        del session.declared[cid]
    session.declare_npcs()
    return f"NPCs: {now}; they declared this turn again (K switches)."
