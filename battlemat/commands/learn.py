"""`battlemat learn [NAME]`: the bundled lessons, or one of them played in the window (issue 19).

Without a name it lists the lessons (name, title, goal, number of steps); with one (a bundled
lesson's name or the path of a `.lesson.toml` file) it opens the play window in lesson mode. The
lesson is read and played through once before any window opens, so a bad lesson file gives its
message and exit 2 without a window flashing up.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys

from battlemat.commands.args import add_play_arguments
from battlemat.io.errors import LoadError
from battlemat.io.lessons import bundled, find_lesson, lesson_name
from battlemat.teach.tutor import load_lesson


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", default=None, metavar="LESSON",
                        help="a lesson's name (`battlemat learn` lists them) or a .lesson.toml file")
    if importlib.util.find_spec("battlemat.ui.app") is not None:  # installed with the window
        add_play_arguments(parser)


def lesson_rows() -> list[str]:
    """One block per bundled lesson, in their `order`: its name, steps and title, then its goal."""
    rows: list[tuple[int, str, str]] = []
    for path in bundled():
        try:
            lesson = load_lesson(path)
        except LoadError as exc:
            rows.append((10**4, path.name, f"{lesson_name(path):14} (cannot be played: {str(exc).splitlines()[0]})"))
            continue
        n = len(lesson.steps)
        rows.append((lesson.order, lesson.name,
                     f"{lesson.name:14} {lesson.title}  ({n} step{'s' * (n != 1)})\n{'':15}{lesson.goal}"))
    return [words for *_, words in sorted(rows)]


def run(args: argparse.Namespace) -> int:
    if not args.name:
        rows = lesson_rows()
        print("\n".join(rows) if rows else "no lessons found")
        print("\n`battlemat learn NAME` plays one in the window.")
        return 0
    lesson = load_lesson(find_lesson(args.name))
    try:
        from battlemat.ui.app import run as play  # noqa: PLC0415 - optional dependency: pygame (the ui extra)
    except ModuleNotFoundError:
        print("battlemat: lessons play in the window: install it with pip install -e '.[ui]'", file=sys.stderr)
        return 2
    args.lesson = lesson
    args.encounter = None
    return int(play(args))
