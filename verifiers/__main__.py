"""``python -m verifiers``: the command line (see ``verifiers.cli``)."""

import sys

from verifiers.cli import main
from verifiers.closed_pipe import run_main

if __name__ == "__main__":
    sys.exit(run_main(main))
