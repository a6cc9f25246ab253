"""``python -m advisor``: the same as the ``witness`` command."""

from advisor.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
