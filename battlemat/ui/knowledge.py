"""What a view of the board may show: one side's knowledge, not the whole truth.

A `BoardView` draws the board for a `Knowledge`. The game master's (`GM`, everything) is the one the
window uses; a players' window is a second `BoardView` with their side's knowledge (which foes are
seen and where, no NPC intents, no GM overlays, the fog over what they do not see: `seen.py` works it
out), not a copy of the drawing code. Never imports pygame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from battlemat.core.types import XY, CharId


@dataclass(frozen=True)
class Fog:
    """The fog of war of one side (R4): the squares it sees now (clear), the squares it has seen
    (`seen`, drawn dimly when not in sight now; the rest are fogged), and the turn each foe drawn as
    a ghost was last seen (`ghost_turns`)."""

    now: frozenset[XY]
    seen: frozenset[XY]
    ghost_turns: Mapping[CharId, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Knowledge:
    """What one view may show.

    `hidden`: characters not drawn at all (not seen). `seen_at`: characters drawn where they were last
    seen rather than where they are. `npc_intents`: whether NPC intents (routes, arrows, declared
    marks) may be drawn; the table's own are, and GM mode still decides for the NPCs'. `overlays`:
    whether the GM overlays are drawn (the reading aids' zones, the teaching overlay, the predicted
    turn, the drag ruler). `sheets`: whether a hovered token's card shows its ratings and losses.
    `fog`: the squares this side sees and has seen (None: everything, the GM's); with a fog,
    `seen_at` holds the foes not in sight now (so `hidden` too), drawn as ghosts where last seen."""

    hidden: frozenset[CharId] = frozenset()
    seen_at: Mapping[CharId, XY] = field(default_factory=dict)
    npc_intents: bool = True
    overlays: bool = True
    sheets: bool = True
    fog: Fog | None = None
    doors: Mapping[str, str] | None = None  # each door as this side last saw it (None: as it stands)

    def shows(self, cid: CharId) -> bool:
        return cid not in self.hidden


GM = Knowledge()  # the game master's: everything (the window's board today)
