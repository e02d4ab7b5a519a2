"""Cube fixtures: the test data folder (the tables: `cube_tables` in tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def cube_data(shared_dir):
    """../shared/cube (test cubes, reference answers, phase distributions)."""
    folder = shared_dir / "cube"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    return folder
