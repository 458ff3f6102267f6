"""``python -m verifiers``: the command line (see ``verifiers.cli``)."""

import sys

from verifiers.cli import main

if __name__ == "__main__":
    sys.exit(main())
