"""The one checked reader (manifest.read_verified) and the consumers that check what their inputs were built
with (issue 62: a manifest without its checksum, the report drawing from another run's tables)."""

from __future__ import annotations

import json

import polars as pl
import pytest

from puzzlesearch import kinds, manifest
from puzzlesearch.io import write_parquet
from puzzlesearch.manifest import ArtifactError, read_verified
from puzzlesearch.report import data


def beside_table(folder, settings):
    """A Bee puzzles table with its manifest beside it (the BESIDE convention)."""
    path = folder / "puzzles.parquet"
    write_parquet(pl.DataFrame({"rank": [1], "letters": ["aegnirt"]}), path)
    manifest.write_manifest(path.with_suffix(".json"), [path], kinds.BEE_PUZZLES, settings)
    return path


def seed_table(folder, seed, settings):
    """A Boggle seed table with its entry inside (the INSIDE convention)."""
    path = folder / f"seed{seed}.parquet"
    df = pl.DataFrame({"seed": [seed], "score": [100 + seed], "words": [10], "seconds": [0.5], "boards_scored": [9]})
    manifest.write_result_parquet(df, path, kinds.BOGGLE_SEED, settings, {"seed": seed, "shape": "3x3"})
    return path


def test_reads_both_conventions_and_checks_the_expected_settings(tmp_path):
    table = beside_table(tmp_path, {"min_words": 20})
    df, meta = read_verified(table, kinds.BEE_PUZZLES, {"min_words": 20})
    assert df["letters"].to_list() == ["aegnirt"] and meta["manifest"]["kind"] == kinds.BEE_PUZZLES
    with pytest.raises(ArtifactError, match="built with min_words = 20, expected 21"):
        read_verified(table, kinds.BEE_PUZZLES, {"min_words": 21})
    seed = seed_table(tmp_path, 3, {"boards": 50})
    df, entry = read_verified(seed, kinds.BOGGLE_SEED, {"seed": 3, "boards": 50})
    assert df["score"].to_list() == [103] and entry["built"]["seed"] == 3
    with pytest.raises(ArtifactError, match="seed = 3, expected 4"):
        read_verified(seed, kinds.BOGGLE_SEED, {"seed": 4})


def test_refuses_another_kind(tmp_path):
    table = beside_table(tmp_path, {})
    with pytest.raises(ArtifactError, match="'bee-puzzles' artifact, expected 'bee-schedule'"):
        read_verified(table, kinds.BEE_SCHEDULE)
    with pytest.raises(KeyError, match="unknown artifact kind"):
        read_verified(table, "bee-puzzle")


def test_a_manifest_without_its_checksum_is_an_error_not_an_older_build(tmp_path):
    # issue 62 case 5: the checksum key removed, everything else intact
    table = beside_table(tmp_path, {"min_words": 20})
    meta_path = table.with_suffix(".json")
    meta = json.loads(meta_path.read_text())
    del meta["manifest"]["manifest_sha256"]
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(ArtifactError, match="manifest has no checksum"):
        read_verified(table, kinds.BEE_PUZZLES)


def test_a_changed_table_under_its_manifest_is_refused(tmp_path):
    table = beside_table(tmp_path, {})
    write_parquet(pl.DataFrame({"rank": [1], "letters": ["bcdefgh"]}), table)
    with pytest.raises(ArtifactError, match="size|checksum"):
        read_verified(table, kinds.BEE_PUZZLES)


def test_the_report_refuses_seed_tables_a_ranking_was_not_built_from(tmp_path):
    # issue 62 case 4: `report boggle` given another run's seed table beside this run's ranking
    settings = {"boards": 50}
    seeds = [seed_table(tmp_path, s, settings) for s in (0, 1)]
    inputs = sorted(manifest.entry_sha256(read_verified(p, kinds.BOGGLE_SEED)[1]) for p in seeds)
    best = tmp_path / "best.parquet"
    manifest.write_result_parquet(
        pl.DataFrame({"board": ["abcdefghi"]}), best, kinds.BOGGLE_BEST, {}, {"inputs": inputs}
    )
    data.check_ranked_from(best, seeds)  # this run's: fine
    other = tmp_path / "other"
    other.mkdir()
    foreign = seed_table(other, 1, {"boards": 5000})  # seed 1 of a run with other settings
    with pytest.raises(ArtifactError, match="not ranked from the seed tables given"):
        data.check_ranked_from(best, [seeds[0], foreign])
    with pytest.raises(ArtifactError, match="boards = 5000, expected 50"):
        data.seed_tables([seeds[0], foreign], settings)


def test_the_schedule_report_checks_the_schedule_settings(tmp_path):
    # issue 62 case 4: `report bee-schedule` given a schedule drawn with another seed
    path = tmp_path / "schedule.parquet"
    write_parquet(pl.DataFrame({"day": [1], "words": [30]}), path)
    manifest.write_manifest(path.with_suffix(".json"), [path], kinds.BEE_SCHEDULE, {"schedule_seed": 7})
    assert data.read_bee_schedule(path, {"schedule_seed": 7})[1]["schedule_seed"] == 7
    with pytest.raises(ArtifactError, match="schedule_seed = 7, expected 0"):
        data.read_bee_schedule(path, {"schedule_seed": 0})
