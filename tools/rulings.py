"""Write docs/RULINGS.md, the compliance statement, from the rules data (battlemat/data/rules.toml).

    python tools/rulings.py            # write docs/RULINGS.md
    python tools/rulings.py --check    # exit 1 if docs/RULINGS.md differs from what the data says

The document lists every house choice with its switch, default, options and the gap in the rules
text it fills; a test keeps the committed file in step with the data.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from battlemat.io.rules_file import load_rules
from battlemat.teach.rulings import render

DOC = Path(__file__).resolve().parent.parent / "docs" / "RULINGS.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    text = render(load_rules())
    if args.check:
        same = DOC.is_file() and DOC.read_text(encoding="utf-8") == text
        print(f"{DOC}: {'in step with' if same else 'differs from'} the rules data")
        return 0 if same else 1
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
