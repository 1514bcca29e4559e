"""endpoints-checker: the submission checker for MLPerf Endpoints packages and run folders."""

__version__ = "0.1.0"
