"""Saves and replays as JSON: the encounter reference, the seed and the intents of each turn.

A save never pickles the engine (STYLE.md, what to avoid): replaying the intents through a fresh
`Match` with the same seed reproduces the same event log (DESIGN: determinism), so the file stays
small, readable and valid across code changes that keep the rules. Writes are atomic (a temporary
file in the same directory, then `os.replace`) so a crash mid-write never damages an older save.

The encounter is referenced relative to the save file (a campaign folder moved or copied whole
keeps its saves working), with where it was, its title and a hash of its bytes beside that
(`EncounterRef`): a save moved away from its folder still finds the encounter by its old place, and
when neither is there the error says which encounter the save wants. Saves written before the
reference existed hold one path, absolute or relative, and load as they always did.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from battlemat.core.intents import Intent
from battlemat.core.rating import Modifier
from battlemat.io.errors import LoadError

FORMAT = "battlemat-save"
FORMAT_VERSION = 1
# A save with `ai_draws` (a simulated run's replay) is written as version 2: an older battlemat, which
# would replay its dice differently, refuses it and says to update.
DRAWS_VERSION = 2
READ_VERSION = DRAWS_VERSION


@dataclass(frozen=True)
class EncounterRef:
    """What a save knows of its encounter beyond the path: where it was when saved (absolute), its
    title and the SHA-256 of its file, so a save whose encounter moved can say which one it wants,
    and one whose encounter changed since can say so (the turns may then play out differently)."""

    absolute: str | None = None
    title: str | None = None
    sha256: str | None = None

    def to_dict(self) -> dict[str, str]:
        return {k: v for k, v in (("absolute", self.absolute), ("title", self.title), ("sha256", self.sha256))
                if v is not None}

    @staticmethod
    def from_dict(d: object) -> EncounterRef:
        """Lenient: a reference is a hint for finding the file, so a malformed one is ignored."""
        if not isinstance(d, dict):
            return EncounterRef()
        got = {k: d.get(k) for k in ("absolute", "title", "sha256")}
        return EncounterRef(**{k: v for k, v in got.items() if isinstance(v, str) and v})


def file_sha256(path: str | Path) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def encounter_ref(path: str | Path, title: str | None = None) -> EncounterRef:
    """The reference a save keeps of the encounter file at `path`."""
    return EncounterRef(str(Path(path).resolve()), title, file_sha256(path))


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
    ref: EncounterRef = field(default_factory=EncounterRef)
    # Per turn, the 32-bit words a simulated run's AI drew from the match's rng before it resolved
    # (sim.runner.Recording); empty for games played in the window. Match(ai_draws=...) skips them.
    ai_draws: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = {
            "format": FORMAT,
            "version": max(self.version, DRAWS_VERSION) if self.ai_draws else self.version,
            "encounter": self.encounter,
            "seed": self.seed,
            "dice": self.dice,
            "pc_sides": list(self.pc_sides),
            "turns": [[it.to_dict() for it in turn] for turn in self.turns],
            "meta": self.meta,
        }
        if self.ref.to_dict():
            out["encounter_ref"] = self.ref.to_dict()
        if self.ai_draws:
            out["ai_draws"] = list(self.ai_draws)
        return out

    def with_turn(self, intents: Sequence[Intent]) -> Save:
        return replace(self, turns=self.turns + (tuple(intents),), meta=dict(self.meta))

    def placed_at(self, save_file: str | Path) -> Save:
        """This save as written to `save_file`: an absolute encounter path becomes relative to the
        save's folder (kept absolute where no relative path exists, as across Windows drives), and
        the absolute one is kept in the reference as the place to look when the save moves alone."""
        p = Path(self.encounter)
        if not p.is_absolute():
            return self
        try:
            rel = os.path.relpath(p, Path(save_file).resolve().parent)
        except ValueError:
            rel = str(p)
        return replace(self, encounter=Path(rel).as_posix(), ref=replace(self.ref, absolute=str(p)))

    def encounter_candidates(self, save_file: str | Path | None = None) -> list[Path]:
        """Where the encounter may be, in the order tried: relative to the save's own folder (saves
        travel with their maps), where it was when saved, then as written (an absolute path, or
        relative to the working directory, as saves before the reference were read)."""
        p = Path(self.encounter)
        out = []
        if not p.is_absolute() and save_file is not None:
            out.append(Path(os.path.normpath(Path(save_file).parent / p)))
        if self.ref.absolute:
            out.append(Path(self.ref.absolute))
        out.append(p)
        return list(dict.fromkeys(out))

    def encounter_path(self, save_file: str | Path | None = None) -> Path:
        """The first place of `encounter_candidates` that exists (or the first, for the error)."""
        places = self.encounter_candidates(save_file)
        return next((c for c in places if c.is_file()), places[0])

    def find_encounter(self, save_file: str | Path | None = None) -> Path:
        """`encounter_path`, or a LoadError that says which encounter this save wants, where it
        looked and how to fix it."""
        found = self.encounter_path(save_file)
        if found.is_file():
            return found
        places = self.encounter_candidates(save_file)
        name = Path(self.encounter).name
        wants = f"{self.ref.title!r} ({name}" if self.ref.title else f"({name}"
        wants += f", SHA-256 {self.ref.sha256[:12]}...)" if self.ref.sha256 else ")"
        raise LoadError.one(
            str(save_file or "<save>"), "encounter",
            f"the encounter {wants} is not where the save looks: {', '.join(str(c) for c in places)}",
            "move the save back into its folder beside the encounter's folder, as it was saved, or set "
            '"encounter" in the save to the encounter file\'s path (relative to the save\'s folder)')

    def encounter_changed(self, path: str | Path) -> bool:
        """Whether the encounter file differs from the one saved (its hash): the saved turns may
        then be refused or play out differently."""
        return self.ref.sha256 is not None and file_sha256(path) not in (None, self.ref.sha256)


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
    """Write atomically: temp file beside the target, fsync, then os.replace (atomic on POSIX and Windows).
    An absolute encounter path is written relative to the save (`Save.placed_at`)."""
    path = Path(path)
    save = save.placed_at(path)
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
    if not isinstance(version, int) or version > READ_VERSION:
        raise LoadError.one(file, "version", f"save format version {version!r} is not supported",
                            f"this battlemat reads versions up to {READ_VERSION}; update battlemat")
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
    draws = data.get("ai_draws", [])
    if not isinstance(draws, list) or not all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d for d in draws):
        raise LoadError.one(file, "ai_draws", "ai_draws is a list of whole numbers, one a turn",
                            "restore the save as simulate wrote it, or remove ai_draws (the dice then differ)")
    return Save(enc, seed, dice if isinstance(dice, str) else None, tuple(turns),
                tuple(str(s) for s in pcs) if isinstance(pcs, list) else (), version,
                meta if isinstance(meta, dict) else {}, EncounterRef.from_dict(data.get("encounter_ref")),
                tuple(draws))
