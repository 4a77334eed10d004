"""``python -m rulesplay``: the command line (see :mod:`rulesplay.cli`)."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="rulesplay")
