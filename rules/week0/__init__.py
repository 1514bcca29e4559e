"""The Week-0 automated check: the model of the official's decision (predict.py) and the rule that explains
every ERROR of it that no other finding does (check.py, fed by the engine)."""
