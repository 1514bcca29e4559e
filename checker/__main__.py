"""``python -m checker`` is the console script ``endpoints-checker`` (checker.cli.entry.run)."""
from checker.cli.entry import run

if __name__ == "__main__":
    run()
