"""`simulate --report` on large maps: peak memory and time of the whole command (issue 27 item 3).

Generates SIZE x SIZE maps (one zlib tile layer over a 32 px tileset picture drawn here, four
characters with AI in the middle), then runs `battlemat simulate --runs 2 --max-turns 2 --report DIR`
in a child process and prints its CPU time and peak resident memory (the child's VmHWM, read from
/proc by a wrapper). The goal: any accepted map's report within 1 GB and a minute. The baseline is
the same command without `--report`, in the same run, so the ratio is the report's own cost.

    python bench/bench_report.py [SIZE ...]      (default: 500 1000)
"""

from __future__ import annotations

import base64
import json
import resource
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TILE = 32
TILES = ("grass", "wall", "rubble", "pit")

WRAP = """
import resource, runpy, sys
sys.argv = ["battlemat"] + sys.argv[1:]
try:
    from battlemat.cli import main
    code = main()
finally:
    hwm = open("/proc/self/status").read().split("VmHWM:")[1].split()[0]
    print("PEAK_KB", hwm, file=sys.stderr)
sys.exit(code)
"""


def write_tileset_picture(path: Path) -> None:
    """An original 4-tile strip: flat colours with a darker border, saved as PNG."""
    import matplotlib.image as mpimg  # noqa: PLC0415 - optional dependency: matplotlib (the lab extra)

    colours = ((0.55, 0.75, 0.4), (0.35, 0.35, 0.38), (0.6, 0.5, 0.35), (0.1, 0.1, 0.12))
    img = np.ones((TILE, TILE * len(colours), 4), np.float32)
    for i, c in enumerate(colours):
        img[:, i * TILE:(i + 1) * TILE, :3] = c
        img[[0, -1], i * TILE:(i + 1) * TILE, :3] *= 0.7
        img[:, [i * TILE, (i + 1) * TILE - 1], :3] *= 0.7
    mpimg.imsave(path, img)


def write_map(folder: Path, size: int) -> Path:
    rng = np.random.default_rng(27)
    gids = np.ones((size, size), np.uint32)
    roll = rng.random((size, size))
    gids[roll < 0.08] = 2
    gids[(roll >= 0.08) & (roll < 0.12)] = 3
    gids[(roll >= 0.12) & (roll < 0.13)] = 4
    c = size // 2
    gids[c - 5:c + 5, c - 5:c + 5] = 1
    write_tileset_picture(folder / "tiles.png")
    tiles = "".join(f'<tile id="{i}" type="{"wall" if name == "wall" else name}"/>' for i, name in enumerate(TILES)
                    if name in ("wall", "rubble", "pit"))
    data = base64.b64encode(zlib.compress(gids.astype("<u4").tobytes())).decode()
    (folder / "big.tmx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.8" orientation="orthogonal" renderorder="right-down" width="{size}" height="{size}" '
        f'tilewidth="{TILE}" tileheight="{TILE}" infinite="0" nextlayerid="2" nextobjectid="1">'
        f'<tileset firstgid="1" name="t" tilewidth="{TILE}" tileheight="{TILE}" tilecount="{len(TILES)}" '
        f'columns="{len(TILES)}"><image source="tiles.png" width="{TILE * len(TILES)}" height="{TILE}"/>'
        f'{tiles}</tileset><layer id="1" name="ground" width="{size}" height="{size}">'
        f'<data encoding="base64" compression="zlib">{data}</data></layer></map>\n')
    chars = [("a", "heroes", '"Melee/Press" = 3, "Block/Dodge" = 3', (c - 2, c)),
             ("b", "heroes", '"Shoot/Throw" = 3, "Block/Dodge" = 2', (c - 3, c + 1)),
             ("x", "monsters", '"Melee/Press" = 3, "Block/Dodge" = 2', (c + 3, c)),
             ("y", "monsters", '"Melee/Press" = 2, "Acrobatics/Climb" = 3', (c + 4, c + 2))]
    text = '[encounter]\ntitle = "big"\nmap = "big.tmx"\n' + "".join(
        f'[[character]]\nid = "{i}"\nside = "{side}"\nskills = {{ {skills} }}\nat = [{x}, {y}]\n'
        for i, side, skills, (x, y) in chars)
    (folder / "big.toml").write_text(text)
    return folder / "big.toml"


def measure(encounter: Path, *extra: str) -> tuple[float, int, int]:
    """(CPU seconds, peak KB, exit status) of one `simulate` in a child process: CPU time (user and
    system) rather than wall time, which on a shared machine measures the neighbours too."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", WRAP, "simulate", str(encounter), "--runs", "2", "--max-turns", "2",
                           "--workers", "1", "--quiet", *extra], capture_output=True, text=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    took = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = [int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("PEAK_KB")]
    if done.returncode != 0:
        print(done.stderr[-2000:], file=sys.stderr)
    return took, (peak[-1] if peak else -1), done.returncode


def main(sizes: list[int]) -> None:
    rows = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            enc = write_map(Path(tmp), size)
            base_s, base_kb, _ = measure(enc)
            rep_s, rep_kb, code = measure(enc, "--report", str(Path(tmp) / "report"))
            files = sorted(p.name for p in (Path(tmp) / "report").glob("*")) if code == 0 else []
            rows.append({"map": f"{size}x{size}", "simulate_cpu_s": round(base_s, 1), "simulate_mb": base_kb // 1024,
                         "with_report_cpu_s": round(rep_s, 1), "with_report_mb": rep_kb // 1024,
                         "report_cpu_ratio": round(rep_s / base_s, 2), "exit": code, "files": len(files)})
            print(json.dumps(rows[-1]), flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [500, 1000])
