"""The fields of a Universal VTT document, each checked where it is and named by its place.

Every value is checked for its type before it is used (a JSON number that is a bool, a string or NaN
is a problem, never a crash), coordinates become board units (grid squares, `map_origin`
subtracted), and every problem names its place as the file spells it: `line_of_sight[3][1].x`.
"""

from __future__ import annotations

import math
import re
from typing import Any

from battlemat.core.walls import Door, Light, Wall
from battlemat.io.errors import Problem
from battlemat.io.limits import MAX_UVTT_LIGHTS, MAX_UVTT_WALLS

Point = tuple[float, float]
_HEX = re.compile(r"^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
TOO_MANY_PROBLEMS = 20  # a broken file lists this many, then how many more


class Fields:
    """Reads one document's fields, collecting problems instead of stopping at the first."""

    def __init__(self, file: str, fix: str) -> None:
        self.file = file
        self.fix = fix  # the fix for a field an exporter wrote wrong: export again
        self.problems: list[Problem] = []
        self.origin: Point = (0.0, 0.0)
        self.segments = 0  # walls and portals so far (MAX_UVTT_WALLS)

    def bad(self, place: str, message: str, fix: str = "") -> None:
        self.problems.append(Problem(self.file, place, message, fix or self.fix))

    def number(self, value: Any, place: str, *, minimum: float | None = None) -> float | None:
        """A finite JSON number (not a bool), at least `minimum` when given."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.bad(place, f"expected a number, found {_shown(value)}")
            return None
        if not math.isfinite(value) or abs(value) > 1e9:
            self.bad(place, f"the number {value!r} is not a finite coordinate")
            return None
        if minimum is not None and value < minimum:
            self.bad(place, f"expected a number of at least {minimum:g}, found {value!r}")
            return None
        return float(value)

    def table(self, value: Any, place: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.bad(place, f"expected an object {{...}}, found {_shown(value)}")
            return None
        return value

    def array(self, value: Any, place: str) -> list[Any] | None:
        if not isinstance(value, list):
            self.bad(place, f"expected an array [...], found {_shown(value)}")
            return None
        return value

    def required(self, obj: dict[str, Any], key: str, place: str) -> tuple[bool, Any]:
        """(found, value) of a field that must be there; a missing one is the problem."""
        if key not in obj:
            self.bad(f"{place}.{key}" if place else key, f"missing {key!r}")
            return False, None
        return True, obj[key]

    def point(self, value: Any, place: str, *, shift: bool = True) -> Point | None:
        """{"x": .., "y": ..} in grid squares, moved by map_origin unless `shift` is False."""
        obj = self.table(value, place)
        if obj is None:
            return None
        xy = []
        for key in ("x", "y"):
            found, v = self.required(obj, key, place)
            xy.append(self.number(v, f"{place}.{key}") if found else None)
        x, y = xy
        if x is None or y is None:
            return None
        return (x - self.origin[0], y - self.origin[1]) if shift else (x, y)

    # -- what the board is made of --------------------------------------------------------------
    def walls(self, value: Any, key: str) -> list[Wall]:
        """The segments between consecutive points of every polyline (zero-length ones dropped)."""
        lines = self.array(value, key)
        out: list[Wall] = []
        for i, line in enumerate(lines or ()):
            points = self.array(line, f"{key}[{i}]")
            if points is None:
                continue
            if len(points) < 2:
                self.bad(f"{key}[{i}]", f"a wall needs at least two points, found {len(points)}")
                continue
            read = [self.point(p, f"{key}[{i}][{j}]") for j, p in enumerate(points)]
            if any(p is None for p in read):
                continue
            for a, b in zip(read, read[1:], strict=False):
                assert a is not None and b is not None
                if a != b and self._room(key):
                    out.append(Wall(a[0], a[1], b[0], b[1]))
        return out

    def doors(self, value: Any) -> list[Door]:
        """Each portal's two bounds as a door: "portal1", "portal2", ... closed unless `closed` is false."""
        portals = self.array(value, "portals")
        out: list[Door] = []
        for i, portal in enumerate(portals or ()):
            place = f"portals[{i}]"
            obj = self.table(portal, place)
            if obj is None:
                continue
            found, bounds = self.required(obj, "bounds", place)
            bounds = self.array(bounds, f"{place}.bounds") if found else None
            closed = obj.get("closed", True)
            if not isinstance(closed, bool):
                self.bad(f"{place}.closed", f"expected true or false, found {_shown(closed)}")
                continue
            if bounds is None:
                continue
            if len(bounds) < 2:
                self.bad(f"{place}.bounds", f"a portal's bounds are its two ends, found {len(bounds)} points")
                continue
            a = self.point(bounds[0], f"{place}.bounds[0]")
            b = self.point(bounds[-1], f"{place}.bounds[{len(bounds) - 1}]")
            if a is None or b is None:
                continue
            if a == b:
                self.bad(f"{place}.bounds", "the portal's two ends are the same point")
                continue
            if self._room("portals"):
                out.append(Door(f"portal{i + 1}", Wall(a[0], a[1], b[0], b[1]), "closed" if closed else "open"))
        return out

    def lights(self, value: Any) -> list[Light]:
        """Each light at its position (board units), its range in squares, its colour as #rrggbb and
        its intensity clamped to 0..1 (the glow's strength)."""
        lights = self.array(value, "lights")
        if lights is not None and len(lights) > MAX_UVTT_LIGHTS:
            self.bad("lights", f"{len(lights):,} lights, more than the {MAX_UVTT_LIGHTS:,} battlemat reads",
                     "remove lights in the map editor and export again")
            return []
        out: list[Light] = []
        for i, light in enumerate(lights or ()):
            place = f"lights[{i}]"
            obj = self.table(light, place)
            if obj is None:
                continue
            found, at = self.required(obj, "position", place)
            at = self.point(at, f"{place}.position") if found else None
            reach = self.number(obj.get("range", 1), f"{place}.range", minimum=0)
            intensity = self.number(obj.get("intensity", 1), f"{place}.intensity", minimum=0)
            colour = self.colour(obj.get("color", "ffffffff"), f"{place}.color")
            if "shadows" in obj and not isinstance(obj["shadows"], bool):
                self.bad(f"{place}.shadows", f"expected true or false, found {_shown(obj['shadows'])}")
            if at is None or reach is None or intensity is None or colour is None:
                continue
            out.append(Light(at[0], at[1], reach, colour, min(1.0, intensity)))
        return out

    def colour(self, value: Any, place: str) -> str | None:
        """'ffeccd8b' (alpha first, as Dungeondraft writes), 'eccd8b' or '#eccd8b' -> '#eccd8b'."""
        m = _HEX.match(value) if isinstance(value, str) else None
        if m is None:
            self.bad(place, f"expected a colour as hex digits (aarrggbb or rrggbb), found {_shown(value)}")
            return None
        digits = m.group(1).lower()
        return "#" + digits[-6:]

    def _room(self, key: str) -> bool:
        """Whether one more wall fits MAX_UVTT_WALLS; the first that does not is the problem."""
        self.segments += 1
        if self.segments == MAX_UVTT_WALLS + 1:
            self.bad(key, f"more than {MAX_UVTT_WALLS:,} walls and portals, the most battlemat reads",
                     "simplify the map's walls (caves and round objects make many), or split the map")
        return self.segments <= MAX_UVTT_WALLS


def _shown(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value[:40] + ("..." if len(value) > 40 else ""))
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    return repr(value)
