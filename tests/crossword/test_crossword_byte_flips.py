"""Flipped bytes of the crossword stage's files: each reader refuses them or reads the same thing (issue 30).

The default run writes: per lexicon the word tables (tables.npz, clues.parquet and their
manifest tables.json); per generated puzzle its .ipuz, its playable .html and a summary
.json (the manifest of both, with the search's row and trace), and a .puz; per (lang,
size) the ranked puzzles.parquet with its manifest puzzles.json; the fixed-pattern fills
(.ipuz, .html, a summary .json: the same kinds, read by the same functions). Here they are
made by the pipeline commands for the numeric language (its tables need no word list; a
small max_factor keeps them small), two 5x5 seeds, and byte_flips flips every byte (a
sample of the larger files) and runs each reader the pipeline uses on it: the table
loader of `crossword generate`; `crossword gather` (the summaries, and through them the
.ipuz and .html); `crossword puz` (the .ipuz); `report crossword` (the ranked table, the
best .ipuz, the summaries). The .puz is read by no command (it is for other programs).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from byte_flips import assert_no_silent_change, flip_files, run_cli

from puzzlesearch.config import validate_config
from puzzlesearch.crossword.settings import GenerateSettings, TableSettings

PROJECT = Path(__file__).resolve().parents[2]
SIZE, SEEDS = 5, (0, 1)
# products x*y up to 40 x 40: 504 words (every 5x5 seed fills at once), tables of 25 kB, clues of 4 kB
SECTION = {"numeric": {"max_factor": 40}}
STEM = f"num_{SIZE}_seed0"

READERS = f"""
from puzzlesearch.crossword.io import read_rows
from puzzlesearch.crossword.puzfile import ipuz_to_puz
from puzzlesearch.crossword.tables import load_tables
from puzzlesearch import kinds
from puzzlesearch.manifest import read_verified
from puzzlesearch.report import data


def tables(work):  # `crossword generate --tables` (the clues are read for the .ipuz)
    t = load_tables(work / "num" / "tables.npz")
    # the meta is the manifest file; its own checksum (manifest_sha256) is not content: a flip in that
    # key's name leaves the file unchecked but every value the same
    entry = {{k: t.meta["manifest"][k] for k in ("format", "kind", "settings", "files")}}
    return t.arrays, {{**t.meta, "manifest": entry}}, t.clue_map


def gather(work):  # `crossword gather`: the rows of the verified summaries
    return read_rows([work / "num_{SIZE}_seed{{s}}.json".format(s=s) for s in {SEEDS!r}])


def puz(work):  # `crossword puz`: the .puz written from the .ipuz
    ipuz_to_puz(work / "{STEM}.ipuz", work / "out" / "x.puz")
    return (work / "out" / "x.puz").read_bytes()


def report_ipuz(work):  # `report crossword`: the best puzzle's .ipuz
    return read_verified(work / "{STEM}.ipuz", kinds.CROSSWORD_PUZZLE)[0]


def report_summary(work):  # `report crossword`: a seed's summary (its search trace)
    return data.read_manifest_json(work / "{STEM}.json", kinds.CROSSWORD_PUZZLE)


def report_puzzles(work):  # `report crossword` and the end-of-run summary: the ranked table
    return data.read_table(work / "puzzles.parquet", kinds.CROSSWORD_PUZZLES)
"""

CASES = {
    "tables_npz": [("num/tables.npz", "tables")],  # 25 kB: a sample
    "clues": [("num/clues.parquet", "tables")],
    "tables_json": [("num/tables.json", "tables")],
    "puzzle": [
        (f"{STEM}.ipuz", "gather"),
        (f"{STEM}.ipuz", "puz"),
        (f"{STEM}.ipuz", "report_ipuz"),
        (f"{STEM}.html", "gather"),  # 20 kB: a sample
        (f"{STEM}.json", "gather"),
        (f"{STEM}.json", "report_summary"),
    ],
    "ranked": [("puzzles.parquet", "report_puzzles"), ("puzzles.json", "report_puzzles")],
}


@pytest.fixture(scope="module")
def stage(tmp_path_factory) -> Path:
    """Numeric tables, two generated puzzles with their summaries and .puz, their ranked table."""
    section = validate_config({"lexicons": {"default": "builtin:en"}, "crossword": SECTION})["crossword"]
    work = tmp_path_factory.mktemp("crossword_flips")
    (work / "out").mkdir()
    run_cli("crossword", "build-tables", "--settings", TableSettings.from_config(section).to_json(), "--numeric",
        "--out", "num/tables.npz", cwd=work)  # fmt: skip
    settings = GenerateSettings.for_job(section, "num", SIZE).to_json()
    stems = [f"num_{SIZE}_seed{seed}" for seed in SEEDS]
    for seed, stem in zip(SEEDS, stems):
        run_cli("crossword", "generate", "--settings", settings, "--tables", "num/tables.npz", "--lang", "num",
            "--seed", seed, "--ipuz", f"{stem}.ipuz", "--html", f"{stem}.html", "--summary", f"{stem}.json",
            cwd=work)  # fmt: skip
        run_cli("crossword", "puz", "--ipuz", f"{stem}.ipuz", "--out", f"{stem}.puz", cwd=work)
    run_cli("crossword", "gather", "--summaries", *[f"{s}.json" for s in stems], "--out", "puzzles.parquet", cwd=work)
    return work


@pytest.mark.parametrize("group", list(CASES))
def test_no_flipped_byte_of_a_crossword_file_changes_what_is_read(stage, group):
    results = flip_files(stage, READERS, CASES[group])
    assert_no_silent_change(results)


def test_the_report_reads_the_summary_kind_the_crossword_stage_writes():
    from puzzlesearch import kinds
    from puzzlesearch.crossword.io import PUZZLE_KIND

    assert PUZZLE_KIND == kinds.CROSSWORD_PUZZLE and kinds.kind(PUZZLE_KIND).manifest == kinds.BESIDE


@pytest.mark.parametrize("swap", ["other seed", "same seed twice"])
def test_a_swapped_summary_is_refused_by_gather(stage, tmp_path, swap):
    # issue 30 case 2: a seed's summary copied over another seed's (intact files, checksums
    # sound) listed seed 1 twice and dropped seed 0; gather now names the file and writes nothing.
    import shutil
    import subprocess

    from byte_flips import PUZZLESEARCH

    for path in stage.glob(f"num_{SIZE}_seed*"):
        shutil.copy(path, tmp_path / path.name)
    if swap == "other seed":  # seed 1's summary in seed 0's place
        shutil.copy(stage / f"num_{SIZE}_seed1.json", tmp_path / f"{STEM}.json")
        summaries, needle = [f"num_{SIZE}_seed{s}.json" for s in SEEDS], f"it describes num_{SIZE}_seed1.ipuz"
    else:  # the same summary given twice
        summaries, needle = [f"{STEM}.json", f"{STEM}.json"], "seed 0 again"
    out = subprocess.run(
        [str(PUZZLESEARCH), "crossword", "gather", "--summaries", *summaries, "--out", "puzzles.parquet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and STEM in lines[0], lines
    assert not (tmp_path / "puzzles.parquet").exists()
