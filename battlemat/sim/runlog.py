"""`simulate --log-run K`: the full log of one run of a batch, as `resolve` prints a scripted one.

The run is played again on its own (same encounter, batch seed, index, dice and turn cap give the
same combat, runner.run_seed), so the batch's numbers never depend on it. Before each turn's events
come the AI's notes: why a character holds back that turn (its tactic's reason, or a plan the rules
refused). They are events of type `ai_note` made here, not by the resolver: the core stays the rules.
"""

from __future__ import annotations

from battlemat.core.encounter import Encounter, outcome
from battlemat.core.events import Event
from battlemat.log import format_event, format_state
from battlemat.sim.runner import RunResult, Traced, play_one


def trace_run(enc: Encounter, index: int, batch_seed: int, dice: str | None,
              max_turns: int) -> tuple[RunResult, list[Traced]]:
    """Run `index` of the batch, with every turn's intents, AI notes and events."""
    turns: list[Traced] = []
    result = play_one(enc, index, batch_seed, dice, max_turns, trace=turns)
    return result, turns


def note_events(enc: Encounter, turn: int, notes: dict[str, str]) -> list[Event]:
    """The AI's notes of one turn as `ai_note` events, in declaration order."""
    return [
        Event("ai_note", turn, "AI",
              f"{enc.by_id[cid].name} ({enc.by_id[cid].ai or 'default'}) "
              f"{'decides' if notes[cid].startswith('search:') else 'holds back'}: {notes[cid]}",
              (), {"who": cid, "reason": notes[cid]})
        for cid in enc.ids if cid in notes
    ]


def log_lines(enc: Encounter, index: int, batch_seed: int, dice: str | None, max_turns: int) -> list[str]:
    """Run `index`'s log: a header, each turn's events with the AI's notes, the final state."""
    result, turns = trace_run(enc, index, batch_seed, dice, max_turns)
    out = [f"# {enc.title}: run {index} of seed {batch_seed} (match seed {result.seed}, dice {dice or enc.dice})"]
    state = enc.initial_state()
    for _intents, notes, events, after in turns:
        state = after
        for ev in events:
            line = format_event(ev, enc.board)
            if line is not None:
                out.append(line)
            if ev.type == "turn_start":
                out.extend(f"     AI: {n.text}" for n in note_events(enc, ev.turn, notes))
    out.append("\n== final ==")
    out.append(format_state(enc, state))
    over = outcome(enc, state)
    out.append(over.reason if over.over else f"undecided after {result.turns} turns (turn cap {max_turns})")
    return out
