"""``python -m hexlan``: the same as the ``hexlan`` command."""

from hexlan.cli import main

if __name__ == "__main__":
    main()
