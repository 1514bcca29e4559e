"""The Week-0 automated check: the model of the official tool's decision (predict.py) and the rule that
explains each of its ERRORs that no other finding explains (check.py, fed by the engine)."""

NAME = "week0"
#: the modules holding this family's rules, in evaluation order (predict.py holds the model, no rule)
MODULES = ("check",)


def __getattr__(name: str):
    """``rules.week0.decide``: the model, imported when first asked for (the catalogue imports predict.py)."""
    if name == "decide":
        from rules.week0.predict import decide

        return decide
    raise AttributeError(name)
