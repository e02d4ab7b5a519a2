"""Cube fixtures: the tables, built once per test session into the session's artifact store."""

from __future__ import annotations

import os

import pytest

from puzzlesearch.cube.tables import Tables, store_tables


@pytest.fixture(scope="session")
def cube_tables() -> Tables:
    """Every move and pruning table (about 30 s on an idle machine, plus numba compilation).

    PUZZLESEARCH_TEST_CUBE_TABLES=DIR uses a folder built before (verified like any other)
    instead, to iterate on tests quickly; CI builds them.
    """
    given = os.environ.get("PUZZLESEARCH_TEST_CUBE_TABLES")
    if given:
        return Tables(given)
    return store_tables()  # the session's artifact store (conftest): later store users reuse this build


@pytest.fixture(scope="session")
def cube_data(shared_dir):
    """../shared/cube (test cubes, reference answers, phase distributions)."""
    folder = shared_dir / "cube"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    return folder
