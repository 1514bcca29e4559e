"""The conformance suite against the official checker (a package, so its conftest is not the top-level `conftest`)."""
