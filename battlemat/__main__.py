import sys

from battlemat.cli import main

sys.exit(main())
