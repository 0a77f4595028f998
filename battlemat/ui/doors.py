"""The game master's doors on the play screen: in GM mode (M) a click on a door opens or closes it,
and Shift+click locks or unlocks it.

A change is the game master's, made between turns (`Session.set_door`): the match state's doors
change, the log says so ("GM opens the door 'cellar door'"), the save and the replay keep it, and
every preview (reach, routes, forecasts, sight, the predicted turn) is worked out again on the board
with the door as it now stands. In the players' mode a click on a door is a click on the board.
"""

from __future__ import annotations

from battlemat.core.errors import BattlematError
from battlemat.ui import theme
from battlemat.ui.boardview import BoardView
from battlemat.ui.context import MovePreview, PlayContext
from battlemat.ui.walls_view import door_hint

DOOR_HELP = "GM mode: click a door to open or close it, Shift+click to lock or unlock it"


def next_state(now: str, lock: bool) -> str | None:
    """What a click does to a door in state `now`: open <-> closed; with Shift (`lock`) closed or open
    -> locked and locked -> closed. None: a plain click on a locked door (Shift+click unlocks it)."""
    if lock:
        return "closed" if now == "locked" else "locked"
    return None if now == "locked" else "closed" if now == "open" else "open"


class GmDoors:
    """The part of the play screen that lets the game master toggle doors (board: the view that knows
    where each door is drawn)."""

    def __init__(self, ctx: PlayContext, board: BoardView) -> None:
        self.ctx = ctx
        self.board = board

    def click(self, pos: tuple[int, int], lock: bool) -> bool:
        """A click at a screen point: True when it was on a door and the game master's (GM mode, no
        turn playing back), whether or not the door changed."""
        ctx = self.ctx
        if not ctx.gm_mode or ctx.player is not None or self.board.token_under(pos) is not None:
            return False  # (a token standing in a doorway is clicked as a token)
        door = self.board.walls().door_at(ctx.cam, pos)
        if door is None:
            return False
        live = ctx.session.board.door(door.id) or door
        want = next_state(live.state, lock)
        if want is None:
            ctx.set_status(door_hint(door, live.state), theme.ACCENT)
            return True
        try:
            event, dropped = ctx.session.set_door(door.id, want)
        except BattlematError as exc:
            ctx.set_status(f"Cannot change the {door.label}: {exc}", theme.BAD)
            return True
        if ctx.side is not None:
            ctx.side.log_events([event])
        ctx.preview = MovePreview()  # the reach and its shapes are worked out again on the new board
        who = ctx.sel.who
        if who is not None:  # the selection's draft follows its intent: dropped, or an NPC's decided again
            ctx.sel.draft = None if who in dropped else ctx.session.declared.get(who, ctx.sel.draft)
        names = ", ".join(ctx.enc.by_id[c].name for c in dropped)
        if names and ctx.side is not None:  # (the status line soon says what the pointer is on again)
            ctx.side.log_text(f"The door refuses what was declared for {names}: declare again.", theme.ACCENT)
        ctx.set_status(f"{event.text}." + (f" Refused now, declare again: {names}." if names else ""),
                       theme.ACCENT if names else theme.GOOD)
        ctx.refresh()
        return True
