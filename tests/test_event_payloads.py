"""The typed payloads of the events read most (events.Moved, Contest, Losses): the resolver builds them,
and reading one back from its event gives the same payload, whose data is the event's data key for key
and in the same order (what `--json` prints)."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, play_file

from battlemat.core.events import Contest, Losses, Moved

READERS = {"moved": Moved.of, "contest": Contest.of, "losses": Losses.of}


@pytest.mark.parametrize("name", ["art_gallery", "forest_ambush"])
@pytest.mark.parametrize("dice", ["none", "d6"])
def test_each_payload_reads_back_as_its_event_wrote_it(name: str, dice: str) -> None:
    _, events = play_file(ROOT / "maps" / f"{name}.toml", seed=3, dice=dice)
    seen: dict[str, int] = {}
    for ev in events:
        read = READERS.get(ev.type)
        if read is None:
            continue
        payload = read(ev)
        assert payload.TYPE == ev.type
        assert json.dumps(payload.data()) == json.dumps(dict(ev.data))  # the same keys, values and order
        assert read(ev) == payload
        seen[ev.type] = seen.get(ev.type, 0) + 1
    assert set(seen) == set(READERS)


def test_a_move_without_a_map_has_no_route() -> None:
    moved = Moved("a", (2, 3), 3)
    assert moved.data() == {"who": "a", "to": [2, 3], "sub_phase": 3}
