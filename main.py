"""`python main.py [ENCOUNTER]` = `battlemat play`: opens the default encounter (the art gallery)."""

import sys

from battlemat.cli import main

if __name__ == "__main__":
    sys.exit(main(["play", *sys.argv[1:]]))
