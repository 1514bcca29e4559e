"""``python -m checker`` runs the command line."""
from checker.cli.main import main

if __name__ == "__main__":
    main()
