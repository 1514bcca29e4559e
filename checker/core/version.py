"""The tool's version: one definition, read by the report, the renderers and the servers."""

__version__ = "0.1.0"
