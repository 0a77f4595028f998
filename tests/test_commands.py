"""The commands' shape (DESIGN: commands): one module per subcommand, only the chosen one imported,
and the headless commands never load the window or the plots."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from battlemat.cli import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parent.parent
SCRIPTED = ROOT / "maps" / "examples" / "garran_and_the_ogres.toml"


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT)


def test_lesson_from_never_imports_the_window(tmp_path: Path) -> None:
    """`battlemat lesson-from` is headless: neither pygame nor battlemat.ui is imported, from the
    command line to the lesson written and read back (played through)."""
    save, out = tmp_path / "game.json", tmp_path / "game.lesson.toml"
    code = (
        "import sys\n"
        "from battlemat.io.encounter import load_encounter\n"
        "from battlemat.io.saves import Save, encounter_ref, write_save\n"
        f"enc_path = {str(SCRIPTED)!r}\n"
        "enc = load_encounter(enc_path)\n"
        "write_save(Save(enc_path, enc.seed, enc.dice, tuple(enc.turns)[:2], ref=encounter_ref(enc_path)), "
        f"{str(save)!r})\n"
        "from battlemat.cli import main\n"
        f"code = main(['lesson-from', {str(save)!r}, '-o', {str(out)!r}])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui')"
        " or m == 'battlemat.ui' or m.startswith('battlemat.ui.'))\n"
        "print(code, bad)\n"
        "sys.exit(code or (3 if bad else 0))\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stdout + done.stderr
    assert out.is_file() and "[[step]]" in out.read_text(encoding="utf-8")


def test_rules_and_check_load_no_window_plots_or_cluster() -> None:
    """Start-up: `battlemat rules` and `battlemat check` import only their own command module, and
    neither the window nor matplotlib, Dask or the simulator."""
    heavy = ("pygame", "pygame_gui", "matplotlib", "dask", "distributed")
    for argv in (["rules", "sticky"], ["check", str(ROOT / "maps" / "art_gallery.toml")]):
        code = (
            "import sys\n"
            "from battlemat.cli import main\n"
            f"code = main({argv!r})\n"
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r}"
            " or m.startswith(('battlemat.ui', 'battlemat.sim', 'battlemat.ai')))\n"
            "commands = sorted(m for m in sys.modules if m.startswith('battlemat.commands.'))\n"
            "print(code, bad, commands)\n"
            f"own = {{'battlemat.commands.args', 'battlemat.commands.{argv[0]}'}}\n"
            "sys.exit(code or (3 if bad else 0) or (4 if not set(commands) <= own else 0))\n"
        )
        done = _run(code)
        assert done.returncode == 0, (argv, done.stdout + done.stderr)


def test_every_command_has_a_module_with_arguments_and_run() -> None:
    parser = build_parser()
    names = next(a for a in parser._actions if a.dest == "command").choices
    assert list(names) == list(COMMANDS)
    for name in COMMANDS:
        assert callable(parser.parse_args([name, *_required(name)]).func), name


def _required(name: str) -> list[str]:
    """The fewest words each command parses with (its positional arguments and required options)."""
    return {
        "resolve": ["x.toml"], "check": ["x.toml"], "reach": ["x.toml", "--who", "a", "--use", "Dodge"],
        "simulate": ["x.toml"], "case": ["x.json", "--turn", "1"], "arena": ["x.toml"], "predict": ["x.toml"],
        "balance": ["x.toml", "--side", "a"], "lesson-from": ["x.json"], "annotate": ["x.tmx", "-o", "y.tmx"],
    }.get(name, [])
