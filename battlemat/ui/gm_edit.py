"""The game master's change of a character during a fight (GM mode, E): its ratings (S2) and losses (L1).

The short form of the set-up (ui/setup_form.py), filled with the selected character's ratings and
losses now; OK makes each changed field one game master's change between turns (`Session.set_gm`,
io/gm_changes.py): the log marks it as the GM's, the save and the replay keep it, and every preview
is worked out again with the new values. A refusal (a rating out of 0..8, losses out of their range)
is one message in the form, and nothing changes.
"""

from __future__ import annotations

from typing import Any

import pygame

from battlemat.core.errors import BattlematError
from battlemat.io.gm_changes import LOSSES, GmChange, change_problem
from battlemat.ui import theme
from battlemat.ui.context import MovePreview
from battlemat.ui.screens import Action, Pop, Push
from battlemat.ui.setup_form import CharacterForm, FormAsk

GM_EDIT_HELP = "GM mode (M): select a character, then E changes its ratings or losses"


def open_gm_edit(play: Any) -> Action | None:
    """E: the form for the selected character, in GM mode between turns."""
    ctx = play.ctx
    who = ctx.sel.who
    if not ctx.gm_mode or who is None:
        ctx.set_status(GM_EDIT_HELP, theme.ACCENT)
        return None
    return Push(GmEditScreen(play, who))


class GmEditScreen:
    """The form over the side panel; pops when done or cancelled (Esc)."""

    def __init__(self, play: Any, who: str) -> None:
        self.play = play
        self.ctx = ctx = play.ctx
        self.who = who
        c = ctx.session.enc.by_id[who]
        st = ctx.session.state[who]
        self.form = CharacterForm(play.manager, ctx.frame.side, FormAsk(
            f"GM change: {c.name} (before turn {ctx.session.turn})", ctx.session.enc.rules.pairs, dict(c.skills),
            losses=(st.minor, st.major)))

    def changes(self) -> list[GmChange] | str:
        """The fields that differ from now, as changes, or the first problem in words."""
        s = self.ctx.session
        c, st = s.enc.by_id[self.who], s.state[self.who]
        out = []
        for what, text in self.form.typed().items():
            text = text.strip() or "0"
            if not text.isdigit():
                return f"{what}: a whole number, found {text!r}"
            now = getattr(st, what) if what in LOSSES else c.base(what)
            if int(text) != now:
                change = GmChange(s.turn, self.who, what, int(text))
                problem = change_problem(s.enc, s.state, change)
                if problem is not None:
                    return problem
                out.append(change)
        return out

    def apply(self) -> bool:
        ctx = self.ctx
        found = self.changes()
        if isinstance(found, str):
            self.form.say(found)
            ctx.set_status(found, theme.BAD)
            return False
        events = []
        try:
            for change in found:
                event, _ = ctx.session.set_gm(change)
                events.append(event)
        except BattlematError as exc:
            self.form.say(str(exc))
            return False
        if ctx.side is not None and events:
            ctx.side.log_events(events)
        ctx.preview = MovePreview()  # reach and forecasts are worked out again with the new values
        ctx.set_status("; ".join(e.text for e in events) or "Nothing changed", theme.GOOD)
        ctx.refresh()
        return True

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        answer = self.form.answer(event)
        if answer == "ok":
            return Pop() if self.apply() else None
        if answer == "cancel" or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
            return Pop()
        return None

    def update(self, dt: float) -> Action | None:
        return None if self.form.alive() else Pop()

    def on_draw(self, surface: pygame.Surface) -> None:
        pass

    def close(self) -> None:
        self.form.kill()
