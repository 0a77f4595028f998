"""`battlemat annotate`: the terrain battlemat understood, written back into a copy of the map.

A map by someone else marks its walls in its own way (a collision layer, tile properties, tile
collision shapes, a mapping the game master wrote); battlemat reads them into a `Board`. This module
writes that board into a copy of the map as battlemat's own terrain layer (the object layer named
`terrain`, DESIGN: files people edit), so the game master sees and corrects it in Tiled, where
battlemat's own properties win over every convention.

How, and why:
- **The copy is the original's text.** The file is not re-serialised (through pytmx or ElementTree):
  its bytes are kept and only three kinds of places are edited, located with expat's byte offsets:
  the `terrain` object layers are removed (they are replaced), one new `terrain` layer is inserted
  before `</map>` (holding, as they were, the old layers' doors and lines: walls drawn as lines,
  battlemat.io.tiled.walls), and the map's `nextlayerid` / `nextobjectid` are advanced past the new ids.
  When the copy is written to another folder, relative file references (tilesets, images,
  templates, file properties) are rewritten relative to the copy, so it still finds them.
- **The layer is small.** Each square's terrain is one value (blocked, difficult, directions,
  level, opaque, cover, pit, hazard, feature); runs of equal squares in a row are merged and equal
  runs of consecutive rows stacked into one rectangle. Only squares whose terrain is not plain floor,
  or whose terrain differs from what the map gives without a terrain layer, are written. Every
  rectangle states every terrain property (false and 0 included), so it overrides the tiles and
  conventions under it, and unticking `blocked` in Tiled frees the square.
- **Hidden, so the picture is the same.** The layer is written with `visible="0"`: Tiled and
  `tmxrasterizer` draw the map's art unchanged; battlemat reads a terrain layer whether it is
  visible or not, and the game master shows it with the layer's eye.
- **Checked before it is kept.** The copy is written to a temporary file beside the output, read back
  with `load_map`, and compared square by square (and wall by wall, door by door) with the board it
  was made from; only then is it
  renamed over the output (`os.replace`), so no half-written or wrong map is ever left. If the small
  layer does not reproduce the board, every square is written; if that fails too, nothing is kept.

Refused, each with its fix: an output that is the input, an existing output (unless `force`), a
folder that does not exist or cannot be written, a JSON map (.tmj: export it as .tmx first) and an
infinite map (its squares move with its chunks: uncheck Infinite first).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import xml.parsers.expat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element
from xml.sax.saxutils import quoteattr

import numpy as np

from battlemat.core.board import Board, directions_text
from battlemat.io.errors import LoadError
from battlemat.io.limits import MAX_CELLS
from battlemat.io.tiled import load_map
from battlemat.io.tiled.adapter import parse_pytmx, prepare
from battlemat.io.tiled.chunks import is_infinite
from battlemat.io.tiled.projection import OUTSIDE, terrain_reader
from battlemat.io.tiled.shapes import is_door
from battlemat.io.tiled.terrain import PRESETS
from battlemat.io.tiled.walls import play_board
from battlemat.io.tiled.xmlsafe import read_bytes

LAYER_NAME = "terrain"  # the layer battlemat's reader reads (terrain.TerrainReader._terrain_objects)
LAYER_COLOR = "#d4a017"  # the bundled maps' terrain layer colour
# The terrain a square has, in the order its properties are written; `Board` arrays of the same names.
BOOLS = ("blocked", "difficult", "opaque", "pit")
INTS = ("level", "cover")
ARRAYS = (*BOOLS, "difficult_dirs", *INTS, "hazard", "feature")
_TEMP_SUFFIX = ".annotate.tmx"


@dataclass(frozen=True)
class Annotated:
    """What `annotate_map` wrote: where, how many rectangles over how many squares, and the board."""

    out: Path
    rectangles: int
    squares: int
    board: Board


# -- the board as square values ----------------------------------------------------------------------
def square_keys(board: Board) -> np.ndarray:
    """One row per square (y-major): the terrain values that a rectangle of the layer must state."""
    return np.stack([np.asarray(getattr(board, name), np.int64).ravel() for name in ARRAYS], axis=1)


def same_terrain(a: Board, b: Board) -> list[str]:
    """The terrain in which two boards differ, by name (hazards and features compared by what they are,
    not by their index in the board's tables); empty when they play the same."""
    if (a.width, a.height, a.grid) != (b.width, b.height, b.grid):
        return ["size or grid"]
    out = [name for name in (*BOOLS, "difficult_dirs", *INTS) if not np.array_equal(getattr(a, name), getattr(b, name))]
    ha = [(h, h.name) if h else None for h in (a.hazard_at((x, y)) for y in range(a.height) for x in range(a.width))]
    hb = [(h, h.name) if h else None for h in (b.hazard_at((x, y)) for y in range(b.height) for x in range(b.width))]
    if ha != hb:
        out.append("hazard")
    fa = [a.feature_at((x, y)) for y in range(a.height) for x in range(a.width)]
    fb = [b.feature_at((x, y)) for y in range(b.height) for x in range(b.width)]
    if fa != fb:
        out.append("feature")
    if sorted(a.walls) != sorted(b.walls):
        out.append("walls")
    if sorted(a.doors, key=lambda d: d.id) != sorted(b.doors, key=lambda d: d.id):
        out.append("doors")
    return out


def rectangles(keys: np.ndarray, wanted: np.ndarray, width: int, height: int,
               stack_rows: bool = True) -> list[tuple[int, int, int, int, int]]:
    """(x, y, w, h, index of a square holding its value) of rectangles of equal squares covering
    exactly the `wanted` squares: runs along each row, equal runs of consecutive rows stacked when
    `stack_rows` (square grids; a hex row is offset from the next, so hex rectangles stay one row)."""
    grid = keys.reshape(height, width, -1)
    want = wanted.reshape(height, width)
    open_runs: dict[tuple[int, int, bytes], list[int]] = {}  # (x, w, value) -> [x, y, w, h, index]
    done: list[list[int]] = []
    for y in range(height):
        row_runs: dict[tuple[int, int, bytes], list[int]] = {}
        x = 0
        while x < width:
            if not want[y, x]:
                x += 1
                continue
            start, value = x, grid[y, x].tobytes()
            while x + 1 < width and want[y, x + 1] and grid[y, x + 1].tobytes() == value:
                x += 1
            key = (start, x - start + 1, value)
            run = open_runs.pop(key, None) if stack_rows else None
            if run is not None and run[1] + run[3] == y:
                run[3] += 1
            else:
                if run is not None:
                    done.append(run)
                run = [start, y, x - start + 1, 1, y * width + start]
            row_runs[key] = run
            x += 1
        done.extend(open_runs.values())
        open_runs = row_runs
    done.extend(open_runs.values())
    return [(r[0], r[1], r[2], r[3], r[4]) for r in sorted(done, key=lambda r: (r[1], r[0]))]


def pixel_box(board: Board, x: int, y: int, w: int, h: int) -> tuple[float, float, float, float]:
    """The rectangle (x, y, width, height, in the map's object pixels) that covers the centres of
    exactly those squares, as battlemat reads a rectangle (`shapes.ObjectSquares.mask`: a centre is
    inside when left <= cx < right and top <= cy < bottom)."""
    if board.projection == "isometric":  # objects on a grid of tile-height squares
        side = float(board.tile_height)
        return x * side, y * side, w * side, h * side
    cx, cy = board.centers()
    if board.projection == "staggered":  # one square: its cell's centre, a quarter diamond around
        return float(cx[y, x]) - board.tile_width / 4, float(cy[y, x]) - board.tile_height / 4, \
            board.tile_width / 2, board.tile_height / 2
    if board.grid == "square":
        return float(x * board.tile_width), float(y * board.tile_height), float(w * board.tile_width), \
            float(h * board.tile_height)
    xs, ys = cx[y : y + h, x : x + w], cy[y : y + h, x : x + w]
    tw, th, side = board.tile_width & ~1, board.tile_height & ~1, board.hex_side_length
    if board.stagger_axis == "x":  # a row zigzags by half a tile; rows are a tile apart
        pitch_x, margin_y = float((tw - side) // 2 + side), th / 4
    else:  # rows are a row height apart, hexes a tile apart
        pitch_x, margin_y = float(tw), ((th - side) // 2 + side) / 4
    left, right = float(xs.min()) - pitch_x / 2, float(xs.max()) + pitch_x / 2
    top, bottom = float(ys.min()) - margin_y, float(ys.max()) + margin_y
    return left, top, right - left, bottom - top


# -- the new layer ----------------------------------------------------------------------------------
def _bool(v: object) -> str:
    return "true" if v else "false"


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.3f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class _Source:
    """The board to write, and the square keys of the same map without a terrain layer."""

    board: Board
    base: np.ndarray
    kept: frozenset[str] = frozenset()  # ids of the terrain layers' doors and lines, kept as they are


def _stated(name: str, value: dict[str, int], preset: Mapping[str, object], under: np.ndarray) -> bool:
    return bool(value[name]) or name in preset or bool((under[:, ARRAYS.index(name)] != value[name]).any())


def layer_xml(source: _Source, runs: list[tuple[int, int, int, int, int]], layer_id: int, first_object: int,
              class_attr: str) -> str:
    """The `<objectgroup name="terrain">` text: one rectangle a run. A property is stated when it is
    not the floor's (false, 0, no directions), or when the squares' tiles, conventions or class would
    give another value (`base`: the square keys without a terrain layer), so the rectangle decides."""
    board, indent = source.board, " "
    keys = square_keys(board)
    width = board.width
    lines = [f'{indent}<objectgroup id="{layer_id}" name="{LAYER_NAME}" color="{LAYER_COLOR}" visible="0">']
    oid = first_object
    for x, y, w, h, index in runs:
        value = dict(zip(ARRAYS, (int(v) for v in keys[index]), strict=True))
        hazard = board.hazards[value["hazard"]] if value["hazard"] >= 0 else None
        feature = board.features[value["feature"]] if value["feature"] >= 0 else ""
        px, py, pw, ph = pixel_box(board, x, y, w, h)
        attrs = f' id="{oid}"'
        if hazard is not None and hazard.name:
            attrs += f" name={quoteattr(hazard.name)}"
        if feature:
            attrs += f" {class_attr}={quoteattr(feature)}"
        attrs += f' x="{_num(px)}" y="{_num(py)}" width="{_num(pw)}" height="{_num(ph)}"'
        under = source.base[[(y + j) * width + x + i for j in range(h) for i in range(w)]]
        preset = PRESETS.get(feature.lower(), {}) if feature else {}
        said = {n: _stated(n, value, preset, under) for n in (*BOOLS, *INTS, "difficult_dirs")}
        props = [f'<property name="{n}" type="bool" value="{_bool(value[n])}"/>' for n in BOOLS if said[n]]
        props += [f'<property name="{n}" type="int" value="{value[n]}"/>' for n in INTS if said[n]]
        if said["difficult_dirs"]:
            props.append(f'<property name="difficult_dirs" value="{directions_text(value["difficult_dirs"])}"/>')
        if hazard is not None:
            props.append(f"<property name=\"hazard\" value={quoteattr(hazard.text)}/>")
            props.append(f'<property name="harm" type="int" value="{hazard.harm}"/>')
            props.append(f'<property name="mechanical" type="bool" value="{_bool(hazard.mechanical)}"/>')
        if not props:
            lines.append(f"{indent} <object{attrs}/>")
        else:
            lines.append(f"{indent} <object{attrs}>")
            lines.append(f"{indent}  <properties>")
            lines.extend(f"{indent}   {p}" for p in props)
            lines.append(f"{indent}  </properties>")
            lines.append(f"{indent} </object>")
        oid += 1
    lines.append(f"{indent}</objectgroup>")
    return "\n".join(lines) + "\n"


# -- where to edit the original text --------------------------------------------------------------
@dataclass
class _Places:
    map_tag: tuple[int, int] = (0, 0)  # the <map ...> start tag
    map_end: int = 0  # where </map> starts
    terrain: list[tuple[int, int]] | None = None  # spans of the terrain object layers
    kept: list[tuple[int, int]] | None = None  # spans of their doors and lines, kept in the new layer
    references: list[tuple[int, int, str, str]] | None = None  # (tag start, tag end, attribute, value)
    max_layer_id: int = 0
    max_object_id: int = 0


def _tag_end(raw: bytes, start: int) -> int:
    """The offset just after the start tag that begins at `start` (quotes may hold '>')."""
    quote = 0
    i = start
    while i < len(raw):
        c = raw[i]
        if quote:
            if c == quote:
                quote = 0
        elif c in (0x22, 0x27):
            quote = c
        elif c == 0x3E:
            return i + 1
        i += 1
    return len(raw)


def _places(raw: bytes, file: str, kept: frozenset[str] = frozenset()) -> _Places:
    """Where to edit: `kept` are the ids of objects of the terrain layers to keep (doors, lines)."""
    places = _Places(terrain=[], kept=[], references=[])
    parser = xml.parsers.expat.ParserCreate()
    stack: list[tuple[str, int, bool]] = []  # (tag, start, is terrain layer)
    keep: list[bool] = []  # per open object of a terrain layer: kept
    file_props: set[int] = set()

    def entity(*_: object) -> None:
        raise LoadError.one(file, "", "the map declares XML entities", "re-save the map from Tiled")

    def start(tag: str, attrs: dict[str, str]) -> None:
        at = parser.CurrentByteIndex
        terrain = tag == "objectgroup" and (attrs.get("name") or "").strip().lower() == LAYER_NAME
        if tag == "object" and stack and stack[-1][2]:
            keep.append(attrs.get("id", "") in kept)
        stack.append((tag, at, terrain))
        if tag == "map" and len(stack) == 1:
            places.map_tag = (at, _tag_end(raw, at))
        if tag in ("layer", "objectgroup", "imagelayer", "group") and attrs.get("id", "").isdigit():
            places.max_layer_id = max(places.max_layer_id, int(attrs["id"]))
        if tag == "object" and attrs.get("id", "").isdigit():
            places.max_object_id = max(places.max_object_id, int(attrs["id"]))
        refs = places.references
        assert refs is not None
        if tag in ("tileset", "image") and attrs.get("source"):
            refs.append((at, _tag_end(raw, at), "source", attrs["source"]))
        if tag == "object" and attrs.get("template"):
            refs.append((at, _tag_end(raw, at), "template", attrs["template"]))
        if tag == "property" and attrs.get("type") == "file" and attrs.get("value"):
            refs.append((at, _tag_end(raw, at), "value", attrs["value"]))
            file_props.add(at)

    def end(tag: str) -> None:
        at = parser.CurrentByteIndex
        _, begun, terrain = stack.pop()
        tag_end = _tag_end(raw, begun)
        empty = raw[tag_end - 2 : tag_end] == b"/>"
        finish = tag_end if empty else _tag_end(raw, at)
        if tag == "map" and not stack:
            places.map_end = at if not empty else tag_end
        if terrain:
            assert places.terrain is not None
            places.terrain.append((begun, finish))
        if tag == "object" and stack and stack[-1][2] and keep.pop():
            assert places.kept is not None
            places.kept.append((begun, finish))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(raw, True)
    except xml.parsers.expat.ExpatError as exc:
        raise LoadError.one(file, f"line {exc.lineno}", f"not well-formed XML ({exc})", "re-save the map from Tiled") \
            from None
    return places


def _whole_lines(raw: bytes, start: int, end: int) -> tuple[int, int]:
    """Widen a span to its lines' indentation and the newline after it, when it stands on lines alone."""
    s = start
    while s > 0 and raw[s - 1] in (0x20, 0x09):
        s -= 1
    if s > 0 and raw[s - 1] != 0x0A:
        return start, end
    e = end
    if raw[e : e + 2] == b"\r\n":
        e += 2
    elif raw[e : e + 1] == b"\n":
        e += 1
    return s, e


def _moved_reference(value: str, src_dir: Path, out_dir: Path) -> str | None:
    """A relative file reference of the original, relative to the copy's folder (None: unchanged)."""
    if not value or os.path.isabs(value) or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", value):
        return None  # absolute, or a URL / "ext:" reference: the same from anywhere
    moved = Path(os.path.relpath(src_dir / value, out_dir)).as_posix()
    return None if moved == value else moved


def _set_attr(tag: bytes, name: str, value: str) -> bytes:
    """The start tag with attribute `name` set to `value` (added before the end when absent)."""
    pattern = re.compile(rb"(\s" + re.escape(name.encode()) + rb"\s*=\s*)(\"[^\"]*\"|'[^']*')")
    text = quoteattr(value).encode("utf-8")
    if pattern.search(tag):
        return pattern.sub(lambda m: m.group(1) + text, tag, count=1)
    close = tag.rstrip()
    cut = len(close) - (2 if close.endswith(b"/>") else 1)
    return close[:cut].rstrip() + b" " + name.encode() + b"=" + text + close[cut:]


# -- the copy ---------------------------------------------------------------------------------------
def annotated_text(raw: bytes, file: str, source: _Source, wanted: np.ndarray, folders: tuple[Path, Path]) -> tuple[
        bytes, int]:
    """The map's bytes with its terrain layers replaced by the board's (and references moved), and
    how many rectangles the new layer holds."""
    board, (src_dir, out_dir) = source.board, folders
    places = _places(raw, file, source.kept)
    map_tag = raw[places.map_tag[0] : places.map_tag[1]]
    version = re.search(rb'\sversion\s*=\s*["\'](\d+)\.(\d+)', map_tag)
    class_attr = "class" if version and (int(version.group(1)), int(version.group(2))) >= (1, 9) else "type"
    next_layer = re.search(rb'\snextlayerid\s*=\s*["\'](\d+)', map_tag)
    next_object = re.search(rb'\snextobjectid\s*=\s*["\'](\d+)', map_tag)
    layer_id = max(places.max_layer_id + 1, int(next_layer.group(1)) if next_layer else 0)
    first_object = max(places.max_object_id + 1, int(next_object.group(1)) if next_object else 0)
    merge = board.grid == "square" and board.projection != "staggered"
    runs = rectangles(square_keys(board), wanted, board.width, board.height, stack_rows=merge)
    if board.projection == "staggered":  # a staggered map's squares are cells apart: one rectangle each
        runs = [(x0 + i, y0 + j, 1, 1, (y0 + j) * board.width + x0 + i) for x0, y0, w, h, _ in runs
                for j in range(h) for i in range(w)]
    layer = layer_xml(source, runs, layer_id, first_object, class_attr).encode("utf-8")
    kept = _kept_objects(raw, places, folders)
    if kept:  # doors and wall lines of the old terrain layers, as they were (battlemat.io.tiled.walls)
        close = layer.rindex(b"</objectgroup>")
        line = layer.rfind(b"\n", 0, close) + 1
        layer = layer[:line] + kept + layer[line:]

    edits: list[tuple[int, int, bytes]] = []  # (start, end, replacement), non-overlapping
    new_tag = map_tag
    if next_layer:
        new_tag = _set_attr(new_tag, "nextlayerid", str(layer_id + 1))
    if next_object:
        new_tag = _set_attr(new_tag, "nextobjectid", str(first_object + len(runs)))
    edits.append((places.map_tag[0], places.map_tag[1], new_tag))
    removed = [_whole_lines(raw, s, e) for s, e in places.terrain or []]
    for s, e in removed:
        edits.append((s, e, b""))
    for s, e, name, value in places.references or []:
        moved = _moved_reference(value, src_dir, out_dir)
        if moved is not None and not any(rs <= s < re_ for rs, re_ in removed):
            edits.append((s, e, _set_attr(raw[s:e], name, moved)))
    at = places.map_end
    line_start = raw.rfind(b"\n", 0, at) + 1
    if raw[line_start:at].strip():  # </map> shares a line: start the layer on its own line
        layer = b"\n" + layer
        line_start = at
    edits.append((line_start, line_start, layer))
    out = raw
    for s, e, text in sorted(edits, key=lambda t: (t[0], t[1]), reverse=True):
        out = out[:s] + text + out[e:]
    return out, len(runs)


def _kept_objects(raw: bytes, places: _Places, folders: tuple[Path, Path]) -> bytes:
    """The text of the terrain layers' doors and lines (walls drawn as lines), each on its own lines,
    with their file references moved as the rest of the copy's are."""
    out = b""
    for start, end in places.kept or []:
        s, e = _whole_lines(raw, start, end)
        text = raw[s:e]
        inside = [r for r in places.references or [] if s <= r[0] < e]
        for rs, re_, name, value in sorted(inside, reverse=True):
            moved = _moved_reference(value, *folders)
            if moved is not None:
                text = text[: rs - s] + _set_attr(raw[rs:re_], name, moved) + text[re_ - s :]
        out += text if text.endswith(b"\n") else text + b"\n"
    return out


def base_board(path: Path, max_cells: int = MAX_CELLS) -> tuple[Board, frozenset[str]]:
    """The board of the map without its `terrain` layers (what its tiles and conventions give), and
    the ids of those layers' doors and lines (walls drawn as lines), which the copy keeps as they
    are: read from the prepared map, so a door from a template or a door tile counts."""
    doc = prepare(path, max_cells)
    kept: set[str] = set()
    for parent in [doc.root, *doc.root.iter("group")]:
        for el in list(parent):
            if el.tag == "objectgroup" and (el.get("name") or "").strip().lower() == LAYER_NAME:
                kept |= {o.get("id", "") for o in el.findall("object") if is_door(o) or o.find("polyline") is not None}
                parent.remove(el)
    reader = terrain_reader(doc, parse_pytmx(doc, None))
    board = play_board(reader, doc)
    if reader.errors:
        raise LoadError(reader.errors)
    return board, frozenset(kept - {""})


def check_output(src: Path, out: Path, force: bool) -> None:
    """Refuse an output that is the input, exists (unless `force`), or cannot be written."""
    file = str(out)
    if out.exists() and (out.resolve() == src.resolve() or os.path.samefile(out, src)):
        raise LoadError.one(file, "", "the output is the map being read; annotate never overwrites its input",
                            "write to a new file, e.g. -o " + f"{src.stem}.annotated{src.suffix}")
    if out.is_dir():
        raise LoadError.one(file, "", "the output is a folder", "name a .tmx file to write")
    if out.exists() and not force:
        raise LoadError.one(file, "", "the output file exists", "choose another name, or pass --force to replace it")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise LoadError.one(file, "", f"the folder {str(folder)!r} does not exist", "create it, or choose another")
    if not os.access(folder, os.W_OK | os.X_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise LoadError.one(file, "", "cannot write there (permission denied)", "choose a folder you can write to")


def annotate_map(src: str | Path, out: str | Path, *, force: bool = False, max_cells: int = MAX_CELLS) -> Annotated:
    """Write the copy of map `src` with the terrain battlemat reads from it as its terrain layer."""
    src, out = Path(src), Path(out)
    check_output(src, out, force)
    board, _ = load_map(src, max_cells=max_cells)
    raw = read_bytes(src, str(src), "map")
    body = raw.lstrip(b"\xef\xbb\xbf").lstrip()
    if body[:1] in (b"{", b"["):
        raise LoadError.one(str(src), "", "annotate writes Tiled's XML maps (.tmx), and this one is JSON",
                            "in Tiled, File > Export As... a .tmx map, and annotate that")
    if is_infinite(Element("map", map_attributes(raw, str(src)))):
        raise LoadError.one(str(src), "map", "an infinite map: its squares move with its chunks, so annotate "
                            "cannot say where they are in the copy", "uncheck Infinite in Map > Map Properties, "
                            "save, and annotate that")
    base, kept = base_board(src, max_cells)
    keys, floor = square_keys(board), square_keys(Board.empty(board.width, board.height))
    plays = [i for i, name in enumerate(ARRAYS) if name != "feature"]  # a name alone plays as floor
    cells = np.ones(len(keys), bool)
    if OUTSIDE in board.features:  # a staggered board's squares that are no cell of the map
        cells = keys[:, ARRAYS.index("feature")] != board.features.index(OUTSIDE)
    wanted = cells & ((keys[:, plays] != floor[:, plays]).any(axis=1) | (keys != square_keys(base)).any(axis=1))
    out_dir = (out.parent if str(out.parent) else Path(".")).resolve()
    source = _Source(board, square_keys(base), kept)
    tries = [wanted, cells]
    for attempt, cover in enumerate(tries):
        text, count = annotated_text(raw, str(src), source, cover, (src.parent.resolve(), out_dir))
        again = _write_checked(text, out, board, max_cells)
        if again is None:
            return Annotated(out, count, int(cover.sum()), board)
        if attempt == len(tries) - 1:
            raise LoadError.one(str(src), "", f"the annotated copy would not give the same board ({', '.join(again)})",
                                "please report this map; nothing was written")
    raise AssertionError("unreachable")


def map_attributes(raw: bytes, file: str) -> dict[str, str]:
    """The map element's attributes, read from its start tag."""
    places = _places(raw, file)
    tag = raw[places.map_tag[0] : places.map_tag[1]].decode("utf-8", "replace")
    return {m.group(1): m.group(3) for m in re.finditer(r"([\w:.-]+)\s*=\s*([\"'])(.*?)\2", tag)}


def _write_checked(text: bytes, out: Path, board: Board, max_cells: int) -> list[str] | None:
    """Write `text` to a temporary file beside `out`, read it back, and rename it over `out` when it
    gives the same board (None); else remove it and say what differed."""
    folder = out.parent if str(out.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=_TEMP_SUFFIX, dir=folder)
    except OSError as exc:
        raise LoadError.one(str(out), "", f"cannot write there ({exc.strerror or exc})",
                            "choose a folder you can write to") from None
    kept = False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as a plain new file (mkstemp makes it private)
        again = same_terrain(board, load_map(tmp, max_cells=max_cells)[0])
        if again:
            return again
        os.replace(tmp, out)
        kept = True
        return None
    except OSError as exc:
        raise LoadError.one(str(out), "", f"cannot write the map ({exc.strerror or exc})",
                            "choose a folder you can write to, with free space") from None
    finally:
        if not kept:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


__all__ = ["LAYER_NAME", "Annotated", "annotate_map", "rectangles", "same_terrain", "square_keys"]
