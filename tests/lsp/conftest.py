"""Fixtures of the language-server tests: a client driving ``python -m checker lsp`` over stdio (push or
pull diagnostics) and a copy of fixtures/valid to edit."""
from __future__ import annotations

import os
import shutil

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from lspclient import ENV, REPO, SERVER, capabilities


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=ENV))
async def client(lsp_client: LanguageClient):
    """A server started with the default settings (push diagnostics)."""
    await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities(),
                                                               initialization_options={"debounceMs": 50}))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, server_env=ENV))
async def pull_client(lsp_client: LanguageClient):
    """A server asked for pull diagnostics (textDocument/diagnostic) instead of pushing them."""
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities(), initialization_options={"endpointsChecker": {"diagnostics": "pull"}}))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def package(tmp_path):
    """A copy of fixtures/valid (8 points) to open documents from."""
    root = tmp_path / "acme"
    shutil.copytree(os.path.join(REPO, "fixtures", "valid"), root)
    return str(root)


