"""Saves and replays as JSON: the encounter reference, the seed and the intents of each turn.

A save never pickles the engine (STYLE.md, what to avoid): replaying the intents through a fresh
`Match` with the same seed reproduces the same event log (DESIGN: determinism), so the file stays
small, readable and valid across code changes that keep the rules. Writes are atomic (a temporary
file in the same directory, then `os.replace`) so a crash mid-write never damages an older save.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from battlemat.core.intents import Intent
from battlemat.core.rating import Modifier
from battlemat.io.errors import LoadError

FORMAT = "battlemat-save"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Save:
    """What a replay needs: which encounter, which seed and dice, and every resolved turn's intents."""

    encounter: str  # path as given; resolved relative to the save file when not absolute
    seed: int
    dice: str | None = None
    turns: tuple[tuple[Intent, ...], ...] = ()
    pc_sides: tuple[str, ...] = ()
    version: int = FORMAT_VERSION
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": self.version,
            "encounter": self.encounter,
            "seed": self.seed,
            "dice": self.dice,
            "pc_sides": list(self.pc_sides),
            "turns": [[it.to_dict() for it in turn] for turn in self.turns],
            "meta": self.meta,
        }

    def with_turn(self, intents: Sequence[Intent]) -> Save:
        return Save(self.encounter, self.seed, self.dice, self.turns + (tuple(intents),), self.pc_sides,
                    self.version, dict(self.meta))

    def encounter_path(self, save_file: str | Path | None = None) -> Path:
        """The encounter file; a relative reference is read from the save's own directory first
        (saves travel with their maps), then from the working directory."""
        p = Path(self.encounter)
        if p.is_absolute() or save_file is None:
            return p
        beside = Path(save_file).parent / p
        return beside if beside.exists() else p


_SQUARE_FIELDS = ("to", "throw")  # Intent fields holding one square, written as [x, y]


def intent_from_dict(d: dict[str, Any]) -> Intent:
    """The inverse of Intent.to_dict (the same keys the encounter TOML uses for scripted turns).
    Fields are taken by name, so a field added to Intent round-trips once to_dict writes it."""
    names = {f.name for f in fields(Intent)}
    unknown = set(d) - names
    if unknown:
        raise ValueError(f"unknown intent field(s) {', '.join(sorted(unknown))}")
    kw: dict[str, Any] = {"who": str(d["who"]), "use": str(d["use"])}
    for key, value in d.items():
        if key in ("who", "use") or value is None:
            continue
        if key in _SQUARE_FIELDS:
            kw[key] = (int(value[0]), int(value[1]))
        elif key == "path":
            kw[key] = tuple((int(p[0]), int(p[1])) for p in value)
        elif key == "also":
            kw[key] = tuple(str(a) for a in value)
        elif key == "modifiers":
            kw[key] = tuple(Modifier(int(m["value"]), str(m.get("reason", "GM ruling"))) for m in value)
        else:
            kw[key] = value
    return Intent(**kw)


def save_to_json(save: Save) -> str:
    return json.dumps(save.to_dict(), indent=1)


def write_save(save: Save, path: str | Path) -> Path:
    """Write atomically: temp file beside the target, fsync, then os.replace (atomic on POSIX and Windows)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(save_to_json(save))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_save(path: str | Path) -> Save:
    """Read a save; every problem raises LoadError naming the file, the place and the fix."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LoadError.one(file, "", "file not found", "check the path") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LoadError.one(file, "", f"cannot read the file ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoadError.one(file, f"line {exc.lineno}", f"not valid JSON: {exc.msg}", "restore a good copy") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LoadError.one(file, "format", "not a battlemat save", f'a save starts with "format": "{FORMAT}"')
    version = data.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise LoadError.one(file, "version", f"save format version {version!r} is not supported",
                            f"this battlemat reads versions up to {FORMAT_VERSION}; update battlemat")
    enc = data.get("encounter")
    seed = data.get("seed")
    if not isinstance(enc, str) or not enc:
        raise LoadError.one(file, "encounter", "missing the encounter path", 'add "encounter": "maps/x.toml"')
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise LoadError.one(file, "seed", f"the seed is a whole number, found {seed!r}")
    turns: list[tuple[Intent, ...]] = []
    raw_turns = data.get("turns", [])
    if not isinstance(raw_turns, list):
        raise LoadError.one(file, "turns", "turns are a list of lists of intents")
    for ti, raw in enumerate(raw_turns):
        if not isinstance(raw, list):
            raise LoadError.one(file, f"turns[{ti}]", "a turn is a list of intents")
        out = []
        for ii, d in enumerate(raw):
            try:
                out.append(intent_from_dict(d))
            except (KeyError, TypeError, ValueError) as exc:
                raise LoadError.one(file, f"turns[{ti}][{ii}]", f"bad intent ({exc})",
                                    "each intent needs at least who and use") from None
        turns.append(tuple(out))
    dice = data.get("dice")
    pcs = data.get("pc_sides", [])
    meta = data.get("meta", {})
    return Save(enc, seed, dice if isinstance(dice, str) else None, tuple(turns),
                tuple(str(s) for s in pcs) if isinstance(pcs, list) else (), version,
                meta if isinstance(meta, dict) else {})
