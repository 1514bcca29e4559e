"""``python -m checker`` runs the command line: a plain ``check`` without click (cli/fast_check.py), else click."""
import sys

if __name__ == "__main__":
    code = None
    if sys.argv[1:2] == ["check"]:
        from checker.cli.fast_check import try_check

        code = try_check(sys.argv[2:])
    if code is not None:
        sys.exit(code)
    from checker.cli.main import main

    main()
