"""`battlemat lesson-from SAVE [-o FILE]`: a lesson skeleton from a saved game (issue 19).

One step per saved turn (battlemat.teach.lesson_from writes it). The skeleton plays as written: it is
read back (and played through) before the command says it is done. Headless: no window is imported.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from battlemat.io.lessons import SUFFIX
from battlemat.io.outfile import check_writable, write_file
from battlemat.teach.lesson_from import lesson_text
from battlemat.teach.tutor import load_lesson


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE", help="a saved game (.json)")
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="the lesson to write (default: SAVE's name with .lesson.toml, beside it)")


def run(args: argparse.Namespace) -> int:
    out = Path(args.output) if args.output else Path(args.save).with_suffix("").with_suffix(SUFFIX)
    check_writable(out, "the lesson", "choose another place with -o")  # before the turns are replayed
    text = lesson_text(args.save, out.parent)
    write_file(out, text, "the lesson", "choose another place with -o")
    lesson = load_lesson(out)  # it plays as written, or the message says where it does not
    print(f"wrote {out}: {len(lesson.steps)} steps; replace the placeholder words, keep the pointers that "
          f"teach, then `battlemat learn {out}`")
    return 0
