"""Proofs by branch and bound: which boards of a shape score at least min_score.

The canonical class list of the shape (partition.py: one bucket per cell, one class per
symmetry orbit) is cut into shards, each a range [a, b) of list positions. A shard job
gives each of its classes to the engine (one object with `search(cls, min_score)`: the
force/merge engine of tree.py; the tests also pass the replaced orderly engine of
baselines/): a class whose bound is below min_score is dropped, otherwise the engine lists every board that may reach
min_score and each is scored exactly (score.Scorer). A shard job saves the classes it
has done in a progress file beside its output (atomically, every checkpoint_seconds and
when stopped), so a rerun after kill -9 continues from there; its table (one row per
class: bound, work, CPU seconds, outcome, the boards >= min_score found) is written,
with a checksummed manifest, only when every class is done. The gather checks that the
shards are the ones it asked for and hold every class exactly once, and writes

    boards.parquet     every board >= min_score: canonical form under symmetry, score
    classes.parquet    the class statistics of all shards
    certificate.json   lexicon sha256, partition, min_score, engine, classes total/done,
                       the largest bound of the classes not done (none when complete)
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import resource
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch import kinds
from puzzlesearch.boggle.model import LETTERS, Shape, parse_board
from puzzlesearch.boggle.proof.classes import BoardClass, canonical_board, split_order
from puzzlesearch.boggle.proof.partition import ClassSpace, shard_range
from puzzlesearch.boggle.proof.tree import TreeBounder, TreeOptions
from puzzlesearch.errors import PuzzleError
from puzzlesearch.jit import compile_lock
from puzzlesearch.manifest import damaged, load_parquet, verify, write_manifest
from puzzlesearch.parallel import forked_map
from puzzlesearch.progress import log

SHARD_KIND = kinds.BOGGLE_PROOF_SHARD
PROGRESS_KIND = kinds.BOGGLE_PROOF_PROGRESS
PROOF_KIND = kinds.BOGGLE_PROOF
SAMPLE_KIND = kinds.BOGGLE_PROOF_SAMPLE
LOG_EVERY_SECONDS = 30.0
EXACT_CHUNK = 2**16  # leaves scored per kernel call (a few seconds): Ctrl-C and the log get a turn between calls
WARM_UP_LETTER = LETTERS.index("z")  # a one-board class of it is bounded at once
# class outcomes: done (pruned, searched) or not (capped: over a work cap; stopped: not run)
PRUNED, SEARCHED, CAPPED, STOPPED = "pruned", "searched", "capped", "stopped"
DONE = (PRUNED, SEARCHED)
GATHER_KEYS = ("recheck_share", "recheck_seed")  # settings of the gather alone (shards do not depend on them)

SHARD_SCHEMA = {
    "code": pl.Int64,
    "class": pl.String,
    "bound": pl.Int64,  # upper bound of the class (-1: unknown, e.g. over a work cap)
    "tree_nodes": pl.Int64,
    "visits": pl.Int64,
    "leaves": pl.Int64,  # boards the branch and bound could not rule out (scored exactly)
    "seconds": pl.Float64,  # CPU seconds
    "outcome": pl.String,
    "boards": pl.List(pl.String),  # canonical boards >= min_score found in the class
    "scores": pl.List(pl.Int64),
}


# ---------------------------------------------------------------- engines


ENGINE = "tree"  # the force/merge engine of tree.py (the replaced orderly engine lives in baselines/, for tests)


def tree_options(settings) -> TreeOptions:
    """The force/merge engine's options from the proof settings."""
    return TreeOptions(
        switchover_ratio=settings.switchover_ratio,
        switchover_cells=settings.switchover_cells,
        max_tree_nodes=settings.max_tree_nodes,
        max_visits=settings.max_visits,
        split_order=settings.split_order,
    )


def make_engine(scorer, shape: Shape, settings) -> TreeBounder:
    """The engine of a proof: an object with `search(cls, min_score)` (the Prover takes any such object)."""
    return TreeBounder(scorer, shape, tree_options(settings))


def engine_description(settings) -> dict:
    """The engine of a proof and its settings (for the certificate)."""
    return {
        "name": ENGINE,
        "bound": "orderly tree (2025), a word counted once per set of (cell, letter) choices",
        "search": (
            "force/merge while a sub-class's bound >= switchover_score and more than switchover_cells "
            "cells are unforced, then the depth-first stack bound"
        ),
        "switchover_score": tree_options(settings).switch_score(settings.min_score),
        "switchover_ratio": settings.switchover_ratio,
        "switchover_cells": settings.switchover_cells,
        "max_tree_nodes": settings.max_tree_nodes,
        "max_visits": settings.max_visits,
        "split_order": settings.split_order,
    }


# ---------------------------------------------------------------- proving classes


@dataclass
class ShardResult:
    """The class table of a run and whether it ran to the end."""

    table: pl.DataFrame
    interrupted: bool = False
    timed_out: bool = False

    @property
    def complete(self) -> bool:
        return not (self.interrupted or self.timed_out)


MAX_CLASSES = 2**26  # a proof lists its canonical classes (8-byte codes, a row each at the gather)


def check_class_count(space: ClassSpace, settings) -> int:
    """The length of the canonical class list, or a PuzzleError when it is longer than a proof can list."""
    count = space.count()
    if count > MAX_CLASSES:
        raise PuzzleError(
            f"boggle proof {space.shape}: the partition {settings.board_partition.spec()!r} gives {count:,} classes, "
            f"more than a proof can list ({MAX_CLASSES:,} at most): use fewer buckets per cell "
            "(boggle.proof.partition, --partition)"
        )
    return count


class Prover:
    """Branch and bound of a shape's classes over one lexicon (a Scorer for exact scores)."""

    def __init__(self, scorer, shape: Shape, settings, engine=None):
        self.scorer = scorer
        self.shape = shape
        self.settings = settings
        self.space = ClassSpace(shape, settings.board_partition)
        check_class_count(self.space, settings)
        self.min_score = int(settings.min_score)
        self.engine = engine if engine is not None else make_engine(scorer, shape, settings)

    def classes(self) -> np.ndarray:
        """Codes of the canonical class list."""
        return self.space.codes()

    def prove_class(self, code: int) -> dict:
        """One row of the shard table."""
        t0 = time.process_time()
        cls = self.space.board_class(code)
        res = self.engine.search(cls, self.min_score, progress=_ClassProgress(self.space, code, t0))
        found = self.exact(res.boards, lambda: f"class #{self.space.position(code)} leaves")
        if not res.complete:
            outcome = CAPPED
        elif res.bound < self.min_score:
            outcome = PRUNED
        else:
            outcome = SEARCHED
        return {
            "code": int(code),
            "class": str(cls),
            "bound": int(res.bound),
            "tree_nodes": int(res.tree_nodes),
            "visits": int(res.visits),
            "leaves": len(res.boards),
            "seconds": round(time.process_time() - t0, 6),
            "outcome": outcome,
            "boards": list(found),
            "scores": list(found.values()),
        }

    def exact(self, boards: np.ndarray, label=lambda: "leaves") -> dict[str, int]:
        """Canonical board -> exact score of the boards reaching min_score (best first).

        The leaves come in search order, neighbours alike, so they are scored as runs
        (Scorer.score_run), EXACT_CHUNK at a time, with a log line every LOG_EVERY_SECONDS
        (`label()` names them; called only then).
        """
        found: dict[str, int] = {}
        last = time.perf_counter()
        for at in range(0, len(boards), EXACT_CHUNK):
            chunk = boards[at : at + EXACT_CHUNK]
            exact = self.scorer.score_run(chunk, self.shape)
            found.update((canonical_board(b, self.shape), int(s)) for b, s in zip(chunk, exact) if s >= self.min_score)
            if time.perf_counter() - last >= LOG_EVERY_SECONDS:
                last = time.perf_counter()
                log("boggle", f"{label()}: exact scores of {at + len(chunk):,}/{len(boards):,}")
        return {b: found[b] for b in sorted(found, key=lambda b: (-found[b], b))}

    def warm_up(self) -> None:
        """Load (or compile) the engine's kernels on a one-board class, so no class pays for it."""
        with compile_lock(f"puzzlesearch.boggle.proof.{type(self.engine).__name__}"):  # one process compiles them
            self.engine.search(BoardClass(self.shape, ((WARM_UP_LETTER,),) * self.shape.cells), self.min_score)

    def stopped_row(self, code: int) -> dict:
        return {
            "code": int(code),
            "class": str(self.space.board_class(code)),
            "bound": -1,
            "tree_nodes": 0,
            "visits": 0,
            "leaves": 0,
            "seconds": 0.0,
            "outcome": STOPPED,
            "boards": [],
            "scores": [],
        }

    def run(
        self, codes: np.ndarray, tag: str, done=(), save=None, stop_seconds: float | None = None, jobs: int = 1
    ) -> ShardResult:
        """Prove `codes` in order after the rows `done` (a prefix); `save(rows)` every checkpoint_seconds and at a stop.

        Ctrl-C or the time cap (boggle.proof.seconds, or `stop_seconds` if smaller) leave
        the rest `stopped`. jobs > 1: classes proved in that many forked processes, rows kept
        in order (classes in flight at a stop are dropped, so the rows stay a prefix).
        """
        rows = list(done)
        cap = min(self.settings.seconds, stop_seconds or float("inf"))
        start = last_log = last_save = time.perf_counter()
        interrupted = timed_out = False

        def over_time() -> bool:
            nonlocal timed_out
            timed_out = time.perf_counter() - start > cap
            return timed_out

        log("boggle", f"{tag}: {len(codes)} classes ({len(rows)} done before), min_score {self.min_score}, jobs {jobs}")
        if jobs > 1:
            self.warm_up()  # kernels loaded once, before the workers fork
        try:
            for row in forked_map(self.prove_class, [int(c) for c in codes[len(rows) :]], jobs, over_time):
                rows.append(row)
                now = time.perf_counter()
                if save is not None and now - last_save >= self.settings.checkpoint_seconds:
                    save(rows)
                    last_save = now
                if now - last_log > LOG_EVERY_SECONDS:
                    last_log = now
                    log("boggle", f"{tag}: {len(rows)}/{len(codes)} classes, {_progress(rows)}")
        except KeyboardInterrupt:
            interrupted = True
            log("boggle", f"{tag}: interrupted (Ctrl-C) after {len(rows)} classes")
        if timed_out:
            log("boggle", f"{tag}: time cap {cap:.0f} s reached after {len(rows)} classes")
        if save is not None and len(rows) < len(codes):
            save(rows)
        rows += [self.stopped_row(int(c)) for c in codes[len(rows) :]]
        log("boggle", f"{tag}: {time.perf_counter() - start:.1f}s, {_progress(rows)}")
        return ShardResult(pl.DataFrame(rows, schema=SHARD_SCHEMA), interrupted, timed_out)


class _ClassProgress:
    """Logs a long class's search (every LOG_EVERY_SECONDS): visits and the share of its boards passed.

    The class's place in the canonical list (the log's label) is looked up only when a line is logged.
    """

    def __init__(self, space, code: int, t0: float):
        self.space, self.code, self.t0 = space, code, t0
        self.last = time.perf_counter()

    def __call__(self, visits: int, covered: float) -> None:
        now = time.perf_counter()
        if now - self.last >= LOG_EVERY_SECONDS:
            self.last = now
            log(
                "boggle",
                f"class #{self.space.position(self.code)}: {visits:,} sub-classes visited, {100 * covered:.2f}% of its boards passed, "
                f"{time.process_time() - self.t0:.0f} CPU s",
            )


def _progress(rows: list[dict]) -> str:
    """A short summary of class rows for the log."""
    found = {b for r in rows for b in r["boards"]}
    cpu = sum(r["seconds"] for r in rows)
    searched = sum(r["outcome"] == SEARCHED for r in rows)
    return f"{searched} searched, {len(found)} boards found, {cpu:.1f} CPU s"


# ---------------------------------------------------------------- progress files (resume after kill -9)


class Progress:
    """The classes a run has done, saved atomically beside its output (`<out>.progress.json`)."""

    def __init__(self, out: str | Path, meta: dict):
        out = Path(out)
        self.path = out.with_name(out.stem + ".progress.json")
        self.lock_path = out.with_name(f".{out.name}.lock")
        self.meta = meta

    @contextlib.contextmanager
    def locked(self):
        """An exclusive lock for the run (a second process on the same output is an error)."""
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.lock_path, "a+") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise PuzzleError(
                    f"{self.path.parent}: another process is running this shard (lock {self.lock_path.name})"
                ) from None
            yield

    def load(self, codes: np.ndarray) -> list[dict]:
        """The rows saved by an earlier run of the same classes and settings ([] when none fit)."""
        if not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            rows = data["rows"] if data.get("kind") == PROGRESS_KIND and data.get("meta") == self.meta else None
        except (OSError, ValueError, KeyError, TypeError):
            rows = None
        if rows is None or [r["code"] for r in rows] != codes[: len(rows)].tolist():
            log("boggle", f"{self.path}: from another run or damaged; starting over")
            return []
        log("boggle", f"{self.path}: continuing after {len(rows)} classes done before")
        return rows

    def save(self, rows: list[dict]) -> None:
        """Save the rows done so far (atomic: the old file or the new one, never a part)."""
        from puzzlesearch.io import write_json

        write_json(
            {"kind": PROGRESS_KIND, "meta": self.meta, "rows": [r for r in rows if r["outcome"] != STOPPED]}, self.path
        )

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)
        self.lock_path.unlink(missing_ok=True)


# ---------------------------------------------------------------- shard files


def shard_meta(settings, shape: Shape, shard: int, shards: int, lexicon_sha256: str) -> dict:
    """What a shard file was computed from (checked by the gather): its range of the canonical list too."""
    count = ClassSpace(shape, settings.board_partition).count()
    start, stop = shard_range(count, shard, shards)
    return {
        "shape": str(shape),
        "shard": shard,
        "shards": shards,
        "range": [start, stop],
        "lexicon_sha256": lexicon_sha256,
        "settings": shard_settings(settings),
    }


def shard_settings(settings) -> dict:
    """The settings a shard's rows depend on (not the gather's re-check keys)."""
    return {k: v for k, v in settings.to_dict().items() if k not in GATHER_KEYS}


def prove_shard(
    prover: Prover, shard: int, shards: int, out: str | Path, lexicon_sha256: str, stop_seconds=None, jobs: int = 1
):
    """Prove one shard into `out`, continuing from its progress file; the table is written only when complete."""
    meta = shard_meta(prover.settings, prover.shape, shard, shards, lexicon_sha256)
    start, stop = meta["range"]
    codes = prover.space.codes(start, stop)
    progress = Progress(out, meta)
    with progress.locked():
        done = progress.load(codes)
        tag = f"proof {prover.shape} shard {shard + 1}/{shards} (classes {start}..{stop - 1})"
        result = prover.run(codes, tag, done, progress.save, stop_seconds, jobs)
        if result.complete:
            write_shard(result, out, meta)
            progress.remove()
    return result


def write_shard(result: ShardResult, path: str | Path, meta: dict) -> None:
    """The shard table and its manifest (shard{i}.json beside it)."""
    from puzzlesearch.io import write_parquet

    path = Path(path)
    write_parquet(result.table, path)
    done = int(result.table["outcome"].is_in(DONE).sum())
    write_manifest(
        path.with_suffix(".json"),
        [path],
        SHARD_KIND,
        meta["settings"],
        {**meta, "classes": result.table.height, "classes_done": done, "complete": result.complete},
    )


def read_shard(path: str | Path, meta: dict) -> pl.DataFrame | None:
    """A verified shard table computed from `meta`, or None when its manifest is missing or differs."""
    path = Path(path)
    manifest = path.with_suffix(".json")
    if not manifest.exists() or not path.exists():
        return None
    data = verify(manifest, SHARD_KIND, [path.name])
    if any(data.get(k) != v for k, v in meta.items()):
        return None
    return load_parquet(path)


def load_shards(paths, settings, shape: Shape, lexicon_sha256: str) -> pl.DataFrame:
    """Every shard table of one proof, in shard order, checked: the shards asked for, every class once."""
    shards = settings.shards
    space = ClassSpace(shape, settings.board_partition)
    given: dict[int, Path] = {}
    tables = []
    for position, path in enumerate(Path(p) for p in paths):
        data = verify(path.with_suffix(".json"), SHARD_KIND, [path.name])
        shard = data.get("shard")
        if shard in given:
            raise PuzzleError(f"{path}: shard {shard} given twice (also {given[shard]})")
        if shard != position:
            raise PuzzleError(f"{path}: holds shard {shard}, expected shard {position} here (files in shard order)")
        want = shard_meta(settings, shape, position, shards, lexicon_sha256)
        for key, value in want.items():
            if data.get(key) != value:
                raise damaged(path, f"a shard of another proof ({key} differs)")
        if not data.get("complete"):
            raise damaged(path, "an incomplete shard")
        given[shard] = path
        tables.append(load_parquet(path))
    if len(tables) < shards:
        raise PuzzleError(f"proof shards: shard {len(tables)} of {shards} is missing")
    if len(tables) > shards:
        raise PuzzleError(f"proof shards: {len(tables)} files given for {shards} shards")
    table = pl.concat(tables)
    if not np.array_equal(table["code"].to_numpy(), space.codes()):
        raise PuzzleError(f"proof shards: the classes are not the {space.count()} canonical classes, each once")
    return table


# ---------------------------------------------------------------- re-checking the shards' rows (the gather)


class RowMismatch(PuzzleError):
    """A shard row that does not hold what it claims (one line naming the shard and the class)."""


def recheck(prover: Prover, table: pl.DataFrame, shard_names=None) -> dict:
    """Check every class row of a whole proof before the gather trusts it; what was checked, for the certificate.

    Every reported board is scored again exactly (and must be canonical, of its row's class,
    reported once, >= min_score), each done class's bound is checked against its outcome and
    its boards, and a seeded sample of classes (settings.recheck_share of the searched and of
    the pruned classes, at least one of each) is proved again and must give the same row. A
    mismatch is a RowMismatch naming the shard (`shard_names[i]`, else its number) and class.
    """
    settings = prover.settings
    starts = [shard_range(table.height, s, settings.shards)[0] for s in range(settings.shards)]

    def where(position: int, row: dict) -> str:
        shard = int(np.searchsorted(starts, position, side="right")) - 1
        name = shard_names[shard] if shard_names is not None else f"shard {shard}"
        return f"{name}: class #{position} {row['class']!r}"

    seen: dict[str, int] = {}
    for position, row in enumerate(table.iter_rows(named=True)):
        problem = _row_problem(prover, row, seen, position)
        if problem:
            raise RowMismatch(f"{where(position, row)}: {problem}; no certificate written")
    reproved = recheck_sample(table, settings)
    if len(reproved):
        prover.warm_up()
    for position in reproved.tolist():
        row = table.row(position, named=True)
        again = prover.prove_class(int(row["code"]))
        differs = [k for k in RECHECKED if again[k] != row[k]]
        if differs:
            key = differs[0]
            raise RowMismatch(
                f"{where(position, row)}: proved again, {key} is {_short(again[key])}, the shard says "
                f"{_short(row[key])}; no certificate written"
            )
    boards = int(table["boards"].list.len().sum())
    log("boggle", f"proof gather: {boards} boards scored again, {len(reproved)} classes proved again: all agree")
    return {
        "boards_rescored": boards,
        "classes_reproved": len(reproved),
        "share": settings.recheck_share,
        "seed": settings.recheck_seed,
    }


RECHECKED = ("bound", "outcome", "leaves", "tree_nodes", "visits", "boards", "scores")  # a class proved again


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _row_problem(prover: Prover, row: dict, seen: dict[str, int], position: int) -> str | None:
    """What is wrong with one class row (None: nothing): its class, outcome, bound and boards re-checked."""
    space, shape, min_score = prover.space, prover.shape, prover.min_score
    if row["class"] != str(space.board_class(int(row["code"]))):
        return f"the class text is not that of code {row['code']}"
    if row["outcome"] not in (PRUNED, SEARCHED, CAPPED, STOPPED):
        return f"unknown outcome {row['outcome']!r}"
    boards, scores = row["boards"] or [], row["scores"] or []
    if len(boards) != len(scores):
        return f"{len(boards)} boards but {len(scores)} scores"
    if row["outcome"] == PRUNED and (row["bound"] >= min_score or boards):
        return f"pruned with bound {row['bound']} and {len(boards)} boards (min_score {min_score})"
    if row["outcome"] == SEARCHED and row["bound"] < min_score:
        return f"searched with bound {row['bound']} below min_score {min_score}"
    cells = []
    for board in boards:
        if len(board) != shape.cells or any(ch not in LETTERS for ch in board):
            return f"board {board!r} is not a {shape} board"
        cells.append([LETTERS.index(ch) for ch in board])
        if canonical_board(cells[-1], shape) != board:
            return f"board {board} is not in canonical form"
        if space.class_of_board(cells[-1]) != row["code"]:
            return f"board {board} is not of this class"
        if board in seen:
            return f"board {board} also reported by class #{seen[board]}"
        seen[board] = position
    if not boards:
        return None
    exact = prover.scorer.scores(np.array(cells, dtype=np.uint8), shape)
    for board, recorded, score in zip(boards, scores, exact.tolist()):
        if recorded != score:
            return f"board {board} recorded with score {recorded}, it scores {score}"
        if score < min_score:
            return f"board {board} scores {score}, below min_score {min_score}"
        if row["outcome"] in DONE and score > row["bound"]:
            return f"board {board} scores {score}, above the class's recorded bound {row['bound']}"
    return None


def recheck_sample(table: pl.DataFrame, settings) -> np.ndarray:
    """Positions of the classes the gather proves again: recheck_share of the searched and of the pruned ones (seeded)."""
    rng = np.random.default_rng(settings.recheck_seed)
    outcome = table["outcome"].to_numpy()
    picked = []
    for kind in (SEARCHED, PRUNED):
        positions = np.flatnonzero(outcome == kind)
        if settings.recheck_share > 0 and len(positions):
            k = min(len(positions), max(1, math.ceil(settings.recheck_share * len(positions))))
            picked.append(rng.choice(positions, size=k, replace=False))
    return np.sort(np.concatenate(picked)) if picked else np.zeros(0, dtype=np.int64)


# ---------------------------------------------------------------- gather


def gather(
    table: pl.DataFrame, settings, shape: Shape, lexicon: dict, rechecked: dict | None = None
) -> tuple[pl.DataFrame, pl.DataFrame, dict]:
    """(boards, classes, certificate) of a proof from all its class rows (`rechecked`: what recheck() found sound)."""
    space = ClassSpace(shape, settings.board_partition)
    found: dict[str, int] = {}
    for boards, scores in zip(table["boards"].to_list(), table["scores"].to_list()):
        for b, s in zip(boards, scores):
            found[b] = s
    boards = pl.DataFrame(
        {"board": list(found), "score": list(found.values())}, schema={"board": pl.String, "score": pl.Int64}
    ).sort(["score", "board"], descending=[True, False])
    classes = table.with_columns(pl.col("boards").list.len().cast(pl.Int64).alias("boards_found")).drop(
        ["boards", "scores"]
    )
    done = table["outcome"].is_in(DONE)
    remaining = table.filter(~done)
    if remaining.height == 0:
        max_remaining = None
    elif (remaining["bound"] < 0).any():
        max_remaining = "unknown"
    else:
        max_remaining = int(remaining["bound"].max())
    complete = remaining.height == 0 and table.height == space.count()
    best = boards.row(0, named=True) if boards.height else None
    certificate = {
        "claim": f"every {shape} board scoring >= {settings.min_score} is in boards.parquet"
        if complete
        else f"incomplete: {space.count() - int(done.sum())} classes not done",
        "complete": complete,
        "lexicon": lexicon,
        "shape": str(shape),
        "partition": settings.board_partition.spec(),
        "min_score": settings.min_score,
        "points": settings.points,
        "engine": engine_description(settings),
        "split_order": [int(c) for c in split_order(shape)],  # per class under engine.split_order (see docs)
        "shards": settings.shards,
        "classes_total": space.count(),
        "classes_before_symmetry": space.total,
        "classes_done": int(done.sum()),
        "classes_pruned": int((table["outcome"] == PRUNED).sum()),
        "classes_searched": int((table["outcome"] == SEARCHED).sum()),
        "classes_capped": int((table["outcome"] == CAPPED).sum()),
        "classes_stopped": int((table["outcome"] == STOPPED).sum()),
        "max_bound_remaining": max_remaining,
        "boards_at_least_min_score": boards.height,
        "best": best,
        "tree_nodes": int(table["tree_nodes"].sum()),
        "visits": int(table["visits"].sum()),
        "cpu_seconds": round(float(table["seconds"].sum()), 3),
        "rechecked": rechecked,
    }
    return boards, classes, certificate


def write_proof(boards, classes, certificate, boards_path, classes_path, certificate_path) -> None:
    """The proof's three files; the certificate's manifest lists the two tables."""
    from puzzlesearch.io import write_parquet

    write_parquet(boards, boards_path)
    write_parquet(classes, classes_path)
    write_manifest(
        certificate_path,
        [boards_path, classes_path],
        PROOF_KIND,
        {k: certificate[k] for k in ("shape", "partition", "min_score", "points")},
        certificate,
    )


def lexicon_identity(name: str, words_path: str | Path, stats: dict | None = None) -> dict:
    """Name and hashes of the lexicon a proof was made with."""
    from puzzlesearch.manifest import file_sha256

    out = {"name": name, "words_sha256": file_sha256(words_path)}
    source = ((stats or {}).get("manifest") or {}).get("settings", {}).get("source_sha256")
    if source:
        out["source_sha256"] = source
    if stats and "boggle_words" in stats:
        out["boggle_words"] = stats["boggle_words"]
    return out


def summary_line(certificate: dict) -> str:
    """One line for stdout."""
    best = certificate["best"]
    best_text = f"best {best['board']} {best['score']}" if best else "no board"
    return (
        f"{certificate['shape']} >= {certificate['min_score']}: {certificate['boards_at_least_min_score']} boards, "
        f"{best_text}; classes {certificate['classes_done']}/{certificate['classes_total']} done "
        f"({'complete' if certificate['complete'] else 'INCOMPLETE'}), {certificate['cpu_seconds']} CPU s"
    )


# ---------------------------------------------------------------- samples (projecting a proof's cost)


def sample_codes(space: ClassSpace, classes: int, seed: int) -> np.ndarray:
    """`classes` canonical classes drawn uniformly without replacement (seeded), in the order drawn.

    Every prefix of the draw is a uniform sample too, so a sample stopped part way (Ctrl-C,
    a time cap) still projects without bias.
    """
    count = space.count()
    positions = np.random.default_rng(seed).choice(count, size=min(classes, count), replace=False)
    return space.codes()[positions]


def peak_rss_mb() -> float:
    """Peak resident memory of this process or any of its finished workers so far, MB."""
    return max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024


def sample_summary(table: pl.DataFrame, space: ClassSpace, settings, seed: int) -> dict:
    """Per-class CPU (median, p99, max, mean and its standard error) and the projected CPU-hours of all classes."""
    done = table.filter(pl.col("outcome") != STOPPED)
    cost = done["seconds"].to_numpy()
    count = space.count()
    mean = float(cost.mean()) if len(cost) else 0.0
    se = float(cost.std(ddof=1) / np.sqrt(len(cost))) if len(cost) > 1 else 0.0
    found = sorted({(s, b) for bs, ss in zip(done["boards"], done["scores"]) for b, s in zip(bs, ss)}, reverse=True)
    return {
        "shape": str(space.shape),
        "partition": settings.board_partition.spec(),
        "min_score": settings.min_score,
        "engine": engine_description(settings),
        "seed": seed,
        "classes_total": count,
        "classes_sampled": table.height,
        "classes_run": done.height,
        "outcomes": {str(k): int(v) for k, v in zip(*np.unique(done["outcome"].to_numpy(), return_counts=True))},
        "cpu_seconds": {
            "median": float(np.median(cost)) if len(cost) else None,
            "p99": float(np.percentile(cost, 99)) if len(cost) else None,
            "max": float(cost.max()) if len(cost) else None,
            "mean": mean,
            "standard_error": se,
            "sum": float(cost.sum()),
        },
        "tree_nodes_max": int(done["tree_nodes"].max()) if done.height else 0,
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "projected_cpu_hours": round(mean * count / 3600, 3),
        "projected_cpu_hours_2se": [round((mean - 2 * se) * count / 3600, 3), round((mean + 2 * se) * count / 3600, 3)],
        "boards_found": [{"board": b, "score": int(s)} for s, b in found[:20]],
    }


def board_class_run(prover: Prover, board_text: str) -> dict:
    """The canonical class holding a board (or its symmetric image), proved: its code, position, bound, boards."""
    board = parse_board(board_text, prover.shape.rows, prover.shape.cols)
    code = prover.space.class_of_board(board.cells)
    row = prover.prove_class(code)
    return {
        "board": board_text,
        "code": code,
        "position": prover.space.position(code),
        "class": row["class"],
        "outcome": row["outcome"],
        "bound": row["bound"],
        "cpu_seconds": row["seconds"],
        "tree_nodes": row["tree_nodes"],
        "visits": row["visits"],
        "boards_found": [{"board": b, "score": int(s)} for b, s in zip(row["boards"], row["scores"])],
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def write_sample(table: pl.DataFrame, summary: dict, table_path: str | Path, summary_path: str | Path) -> None:
    """The sample's class table and its summary (the manifest of the table)."""
    from puzzlesearch.io import write_parquet

    write_parquet(table, table_path)
    write_manifest(
        summary_path,
        [table_path],
        SAMPLE_KIND,
        {k: summary[k] for k in ("shape", "partition", "min_score", "seed")},
        summary,
    )
