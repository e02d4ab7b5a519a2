"""Every artifact kind, declared once: its manifest name, the function that writes it, the code that shapes it.

One registry read by three places, so they cannot drift apart:

- the workflow: a rule's `code=` input is `kind_files(<kind>, ...)`, so editing a listed file
  reruns exactly the rules whose outputs it shapes (workflow/rules/common/paths.smk);
- the artifact store: a stored artifact's key holds `code_sha256(<kind>)` (lexicon folders,
  crossword tables, cube tables), so a stale one is rebuilt, never reused;
- readers and the report: manifest kind names are the constants below, never retyped.

`code` lists source paths under src/puzzlesearch/: a file (`lexicon/dawg.py`, a data file such
as `lexicon/data/blocklist.txt`) or a folder (`boggle`: every .py, .txt and .html below it).
CORE is part of every kind. tests/core/test_kinds.py walks each writer's imports and fails when
a module it reaches is in no file of its kind (INERT modules excepted: they cannot change what
is written).

Plain data and the standard library only: the Snakefile imports it before anything is built.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent  # src/puzzlesearch
CORE = ("io.py", "errors.py", "settings.py", "manifest.py", "bits.py", "jit.py", "parallel.py")
# Reached by writers' imports but never shaping an artifact: the package marker, terminal
# progress lines, the store's folders and locks, config.yaml reading for interactive commands,
# and this registry (its kind names are fixed; an edited code list changes the rules' inputs itself).
INERT = ("__init__.py", "progress.py", "store.py", "config.py", "kinds.py")
FOLDER_SUFFIXES = (".py", ".txt", ".html")  # what a folder entry of `code` stands for
# Where a kind's manifest lives (the one convention, per kind): BESIDE, a JSON file of the data file's
# stem beside it (words.json beside words.parquet: settings, sha256 of each file, its own checksum);
# INSIDE, an entry in the file itself (a result table's Parquet metadata, a JSON result's `manifest`
# key: settings, what built it, the data's sha256); or a fixed name beside it for a multi-file artifact.
BESIDE, INSIDE = "beside", "inside"

# ---------------------------------------------------------------- shared code lists

LEXICON = (
    "lexicon/__init__.py",
    "lexicon/model.py",
    "lexicon/sources.py",
    "lexicon/normalize.py",
    "lexicon/dawg.py",
    "lexicon/artifacts.py",
)
WORDINFO = ("lexicon/wordinfo.py", "lexicon/inflect.py", "lexicon/data")  # WordNet, wordfreq, blocklists, word files
CONSTRUCTORS = ("lexicon/constructors.py",)  # the Spread the Wordlist read through blacksquare
BEE = (
    "bee",
    "bee/data/acceptance.json",
    *LEXICON,
    *WORDINFO,
    *CONSTRUCTORS,
)  # the fitted parameters; the crossword scores
BOGGLE = ("boggle", *LEXICON)
CROSSWORD = ("crossword", *LEXICON, *WORDINFO, *CONSTRUCTORS)
CUBE_MODEL = (
    "cube/__init__.py",
    "cube/model",
    "cube/tables/__init__.py",
    "cube/tables/artifact.py",
    "cube/tables/structure.py",
    "cube/_kernels/__init__.py",
    "cube/_kernels/bfs_bundles.py",
    "cube/_kernels/phase_next.py",
    "cube/_kernels/table_checks.py",
)
CUBE_PHASES = (*CUBE_MODEL, "cube/tables/phases.py", "cube/_kernels/phase_bfs.py")
CUBE_PACKED = (*CUBE_MODEL, "cube/_kernels/common.py", "cube/_kernels/bundles.py", "cube/_kernels/big_table.py")
CUBE_BIG = (*CUBE_PACKED, "cube/tables/big.py")
CUBE_BOUND = (*CUBE_BIG, "cube/_kernels/bound.py", "cube/tables/bound.py")
CUBE_COSET = (*CUBE_BOUND, "cube/_kernels/coset.py", "cube/_kernels/coset_blocks.py", "cube/tables/coset.py")
CUBE_CORNERS = (*CUBE_BIG, "cube/_kernels/corners.py", "cube/tables/corners.py")
REPORT = ("report", *BEE)  # the figures read tables only; the Bee's modules name their kinds and columns
BENCH = ("report", "baselines", "bee", "boggle", "crossword", "cube", "lexicon")  # benchmarks run our code


@dataclass(frozen=True)
class Kind:
    """An artifact kind: its manifest name, the function that writes it, the source files that shape it."""

    name: str  # the manifest's `kind`
    writer: str  # "module:function" under puzzlesearch (the function a rule's command ends in)
    code: tuple[str, ...]  # paths under src/puzzlesearch/ (files or folders); CORE is added
    manifest: str = BESIDE  # INSIDE: the entry is in the file; else the manifest JSON beside it ("tables.json", BESIDE)
    # Modules the writer's module imports for its other kinds, which do not shape this one (the words table's
    # writer sits beside the DAWG builder): left out of `code` on purpose, so editing them reruns nothing here.
    unshaped: tuple[str, ...] = ()

    def manifest_path(self, path: str | Path) -> Path | None:
        """The manifest file that checks `path`: the JSON beside it, or None when the entry is inside it."""
        path = Path(path)
        if self.manifest == INSIDE:
            return None
        return path.with_suffix(".json") if self.manifest == BESIDE else path.with_name(self.manifest)


def _kinds(*kinds: Kind) -> dict[str, Kind]:
    return {k.name: k for k in kinds}


KINDS = _kinds(
    Kind(
        "lexicon-words",
        "lexicon.artifacts:build_words",
        tuple(f for f in LEXICON if f != "lexicon/dawg.py"),
        unshaped=("lexicon/dawg.py",),
    ),
    Kind("dawg", "lexicon.artifacts:build_dawg_file", LEXICON),
    Kind("boggle_dawg", "lexicon.artifacts:build_dawg_file", LEXICON),
    Kind("bee-masks", "bee.io:build_masks_file", BEE),
    Kind("bee-puzzles", "bee.io:build_puzzles_file", BEE),
    Kind("bee-wordlist", "bee.io:build_wordlist_file", BEE),
    Kind("bee-schedule", "bee.io:build_schedule_file", BEE),
    Kind("boggle-seed", "boggle.rank:write_table", BOGGLE, INSIDE),
    Kind("boggle-best", "boggle.rank:write_table", BOGGLE, INSIDE),
    Kind("boggle-scan", "boggle.scan:scan_state", BOGGLE, INSIDE),
    Kind("boggle-scan-summary", "boggle.scan:scan_state", BOGGLE, INSIDE),
    Kind("boggle-proof-shard", "boggle.proof.prove:write_shard", BOGGLE),
    Kind("boggle-proof-progress", "boggle.proof.prove:prove_shard", BOGGLE),
    Kind("boggle-proof", "boggle.proof.prove:write_proof", BOGGLE),
    Kind("boggle-proof-sample", "boggle.proof.prove:write_sample", BOGGLE),
    Kind("boggle-search-checkpoint", "boggle.search:iterated_local_search", BOGGLE, INSIDE),
    Kind("constructors-list", "lexicon.constructors:build", CONSTRUCTORS),
    Kind("crossword-tables", "crossword.tables:build_tables", CROSSWORD, "tables.json"),
    Kind("crossword-puzzle", "crossword.io:write_generated_with_clues", CROSSWORD),
    Kind("crossword-puzzles", "crossword.io:write_ranked", CROSSWORD),
    Kind("crossword-fill", "crossword.io:write_filled", CROSSWORD),
    Kind("cube-tables", "cube.tables.phases:build_all", CUBE_PHASES),
    Kind("cube-table-manifest", "cube.tables.phases:write_manifest", CUBE_PHASES, INSIDE),
    Kind("cube-optimal-table", "cube.tables.big:build_table", CUBE_BIG),
    Kind("cube-optimal-bound", "cube.tables.bound:build_bound", CUBE_BOUND),
    Kind("cube-optimal-coset", "cube.tables.coset:build_table", CUBE_COSET),
    Kind("cube-optimal-corners", "cube.tables.corners:build_table", CUBE_CORNERS),
    Kind("cube-solves", "cube.solve:solve_cube", ("cube",), INSIDE),
    Kind("report-figure", "report.plots:save", REPORT),
    Kind("report-bench", "report.bench:run_bee", BENCH),
)

# The names as constants, for writers and readers (never retyped as strings elsewhere).
LEXICON_WORDS, DAWG, BOGGLE_DAWG = "lexicon-words", "dawg", "boggle_dawg"
BEE_MASKS, BEE_PUZZLES, BEE_WORDLIST, BEE_SCHEDULE = "bee-masks", "bee-puzzles", "bee-wordlist", "bee-schedule"
BOGGLE_SEED, BOGGLE_BEST = "boggle-seed", "boggle-best"
BOGGLE_SCAN, BOGGLE_SCAN_SUMMARY = "boggle-scan", "boggle-scan-summary"
BOGGLE_PROOF_SHARD, BOGGLE_PROOF_PROGRESS = "boggle-proof-shard", "boggle-proof-progress"
BOGGLE_PROOF, BOGGLE_PROOF_SAMPLE = "boggle-proof", "boggle-proof-sample"
BOGGLE_SEARCH_CHECKPOINT = "boggle-search-checkpoint"
CONSTRUCTORS_LIST = "constructors-list"
CROSSWORD_TABLES, CROSSWORD_PUZZLE = "crossword-tables", "crossword-puzzle"
CROSSWORD_PUZZLES, CROSSWORD_FILL = "crossword-puzzles", "crossword-fill"
CUBE_TABLES, CUBE_TABLE_MANIFEST, CUBE_SOLVES = "cube-tables", "cube-table-manifest", "cube-solves"
CUBE_OPTIMAL_TABLE, CUBE_OPTIMAL_BOUND = "cube-optimal-table", "cube-optimal-bound"
CUBE_OPTIMAL_COSET, CUBE_OPTIMAL_CORNERS = "cube-optimal-coset", "cube-optimal-corners"


def kind(name: str) -> Kind:
    """The declared kind of this name (KeyError naming the known kinds otherwise)."""
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"unknown artifact kind {name!r}: one of {', '.join(sorted(KINDS))}") from None


def _expand(entry: str, root: Path) -> list[Path]:
    """The files of one code entry: the file itself, or a folder's source and data files."""
    path = root / entry
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.suffix in FOLDER_SUFFIXES and "__pycache__" not in p.parts)
    return [path]


def source_files(*names: str, root: str | Path = PACKAGE_DIR) -> list[Path]:
    """The source files that shape the kinds `names` (CORE included), sorted, each once."""
    root = Path(root)
    entries = [*CORE, *(entry for name in names for entry in kind(name).code)]
    return sorted({p for entry in entries for p in _expand(entry, root)})


def code_sha256(*names: str) -> str:
    """sha256 over the relative names and contents of the kinds' source files (a store key part)."""
    h = hashlib.sha256()
    for path in source_files(*names):
        h.update(str(path.relative_to(PACKAGE_DIR)).encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()
