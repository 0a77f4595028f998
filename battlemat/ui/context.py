"""What the play screen's parts share: the session, the view of it, the selection and the services.

The play screen (`battlemat.ui.play.PlayScreen`) is made of parts, each its own class holding this
one context: `Declaring` (input into intents), `BoardView` (drawing the board for one side's
knowledge), `Aids` (reading aids), `Teaching` (the teaching overlay), `Ghosts` (the predicted turn),
`TimeTravel` (the line of turns), `AskIdle` and `Dragging`. What more than one part reads or changes
lives here, with real types; what only one part keeps stays in that part.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame_gui

from battlemat.core.encounter import Encounter
from battlemat.core.intents import Intent
from battlemat.core.movement import Reach
from battlemat.core.rating import standing
from battlemat.core.state import CharacterState
from battlemat.core.types import CharId
from battlemat.ui import overlays, theme
from battlemat.ui.animation import Player
from battlemat.ui.camera import Camera
from battlemat.ui.cards import CardMemory
from battlemat.ui.ghost import Ghost
from battlemat.ui.input import HELP
from battlemat.ui.layout import Layout
from battlemat.ui.panels import Frame, Sidebar, TopBar
from battlemat.ui.renderer import MapArt
from battlemat.ui.session import Session


@dataclass
class Selection:
    """The character being declared for and the intent taking shape (not yet legal, maybe)."""

    who: CharId | None = None
    draft: Intent | None = None


@dataclass
class MovePreview:
    """The move preview's shapes for the selection, rebuilt only for a new reach answer (or new bands)."""

    reach: Reach | None = None
    fill: overlays.RegionFill | None = None
    refused: overlays.RegionFill | None = None
    bands: overlays.RangeBands | None = None
    bands_key: tuple[object, ...] = ()


@dataclass
class Services:
    """What the play screen asks of the app: screenshots, where files go and the players' window."""

    save_dir: Path
    screenshot: Callable[[Path | None], Path]
    manager: pygame_gui.UIManager
    players: Callable[[], None] = lambda: None  # open or close the players' window (App.toggle_players)


class PlayContext:
    """The play screen's shared state, and the small views of it every part asks.

    `refresh` is the screen's own `refresh_panels` (a lesson adds its panel to it): a part that
    changed what the panels show calls it. `gm_edits` says whether GM mode lets the table declare
    for the NPCs (a lesson declares them itself)."""

    def __init__(self, session: Session, services: Services, art: MapArt, frame: Frame) -> None:
        self.session = session
        self.services = services
        self.manager = services.manager
        self.layout = Layout(session.board)
        self.art = art
        self.cam = Camera()
        self.frame = frame
        self.top: TopBar | None = None
        self.side: Sidebar | None = None
        self.sel = Selection()
        self.preview = MovePreview()
        self.player: Player | None = None  # the turn playing back, if any
        self.ghost: Ghost | None = None  # the predicted turn drawn as ghosts (prediction.py)
        self.idle: tuple[CharId, ...] = ()  # PCs left without intent when Resolve asked (idle.py)
        self.gm_mode = False
        self.gm_edits = True
        self.step_mode = False
        self.victory_shown = False
        self.mouse = (0, 0)
        self.pan_from: tuple[int, int] | None = None  # a press on the board that may become a pan
        self.panning = False
        self.status = HELP
        self.status_color: theme.Color = theme.TEXT_DIM
        self.cards = CardMemory()  # the card drawn this frame and the one held under the pointer (aids.py)
        self.refresh: Callable[[], None] = lambda: None

    @property
    def enc(self) -> Encounter:
        """The encounter as this turn has its doors (`Session.live`): what the previews read."""
        return self.session.live

    def side_index(self, cid: CharId) -> int:
        return self.enc.sides.index(self.enc.by_id[cid].side)

    def color_of(self, cid: CharId) -> tuple[int, int, int]:
        return theme.side_color(self.side_index(cid))

    def controllable(self, cid: CharId) -> bool:
        return self.session.state[cid].active and (self.session.is_pc(cid) or (self.gm_mode and self.gm_edits))

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
