"""What the play screen's parts share: the session, the selection, the preview and small views.

The play screen is split by concern into mixins over this one state: `Declaring` (turning input
into intents), `BoardView` (drawing the board and its explanations) and `PlayScreen` itself
(widgets, events, resolving, files). Each part reads the same attributes declared here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battlemat.core.intents import Intent
from battlemat.core.rating import standing
from battlemat.core.state import CharacterState
from battlemat.types import CharId
from battlemat.ui import overlays, theme
from battlemat.ui.animation import Player
from battlemat.ui.camera import Camera
from battlemat.ui.layout import Layout
from battlemat.ui.panels import Frame
from battlemat.ui.renderer import MapArt
from battlemat.ui.session import Session


@dataclass
class Selection:
    """The character being declared for and the intent taking shape (not yet legal, maybe)."""

    who: CharId | None = None
    draft: Intent | None = None


@dataclass
class Preview:
    """Per-selection shapes, rebuilt only for a new reach answer (or new bands)."""

    reach: Any = None
    fill: overlays.RegionFill | None = None
    refused: overlays.RegionFill | None = None
    bands: overlays.RangeBands | None = None
    bands_key: tuple[Any, ...] = ()


class ScreenState:
    """Attributes and small views shared by the play screen's parts."""

    session: Session
    layout: Layout
    art: MapArt
    cam: Camera
    frame: Frame
    sel: Selection
    preview: Preview
    player: Player | None
    gm_mode: bool
    ghost: Any  # the predicted turn drawn as ghosts (ui.ghost), or None
    mouse: tuple[int, int]
    status: str
    status_color: theme.Color

    # Provided by the other parts (PlayScreen, Declaring); declared here so each part type-checks.
    def refresh_panels(self) -> None:
        raise NotImplementedError

    def current_reach(self) -> Any:
        raise NotImplementedError

    def current_bands(self) -> overlays.RangeBands | None:
        raise NotImplementedError

    def forecast_for(self, target: CharId) -> Any:
        raise NotImplementedError

    def draw_ghost(self, surface: Any) -> None:
        raise NotImplementedError

    def teaching_legend(self) -> list[overlays.LegendRow]:
        raise NotImplementedError

    @property
    def enc(self) -> Any:
        return self.session.enc

    def side_index(self, cid: CharId) -> int:
        return self.enc.sides.index(self.enc.by_id[cid].side)

    def color_of(self, cid: CharId) -> tuple[int, int, int]:
        return theme.side_color(self.side_index(cid))

    def controllable(self, cid: CharId) -> bool:
        return self.session.state[cid].active and (self.session.is_pc(cid) or self.gm_mode)

    def visible_intent(self, cid: CharId) -> bool:
        return self.session.is_pc(cid) or self.gm_mode

    def positions(self) -> dict[CharId, tuple[float, float]]:
        """Token centres in map pixels (from the animation while a turn plays)."""
        if self.player is not None:
            return self.player.positions
        out = {}
        for c in self.enc.characters:
            sq = self.session.position(c.id)
            if sq is not None:
                out[c.id] = self.layout.center(sq)
        return out

    def display_states(self) -> dict[CharId, CharacterState]:
        if self.player is not None:
            return self.player.states
        return dict(self.session.state.chars)

    def set_status(self, words: str, color: theme.Color = theme.TEXT_DIM) -> None:
        self.status, self.status_color = words, color

    def skills_of(self, cid: CharId) -> list[str]:
        """The halves a character can use: every pair it is rated in (the effective rating, text line 15:
        a base 0 with an item for the skill counts), strongest first, then an item (M1)."""
        c = self.enc.by_id[cid]
        rules = self.enc.rules
        known = [*c.skills, *(p for p in rules.pairs if p not in c.skills)]
        rated = {p: standing(rules, c, p) for p in known if p in rules.pairs or c.base(p) > 0}
        pairs = sorted((p for p, v in rated.items() if v > 0),
                       key=lambda p: (-rated[p], rules.pairs.index(p) if p in rules.pairs else 99))
        out = [h.name for p in pairs for h in rules.halves.values() if h.pair == p]
        return out + [h.name for h in rules.halves.values() if h.act == "item"]
