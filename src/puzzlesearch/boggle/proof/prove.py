"""Proofs by branch and bound: which boards of a shape score at least min_score.

The top-level classes (classes.py: one bucket of the partition per cell, symmetric
classes skipped) are split into shards (every N-th class). A shard job bounds each of
its classes with the orderly tree (bounds.py): a class whose bound is below min_score is
dropped, otherwise its branch and bound lists every board that may reach min_score, and
each of those is scored exactly (score.Scorer). A shard writes one table (one row per
class: bound, work, seconds, outcome, and the boards >= min_score found in it); the
gather checks that every shard is there and writes

    boards.parquet     every board >= min_score: canonical form under symmetry, score
    classes.parquet    the class statistics of all shards
    certificate.json   lexicon sha256, partition, min_score, classes total/done, the
                       largest bound of the classes not done (none when complete)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from puzzlesearch.boggle.model import Shape
from puzzlesearch.boggle.proof.bounds import OrderlyBounder
from puzzlesearch.boggle.proof.classes import (
    BoardClass,
    Partition,
    canonical_board,
    canonical_classes,
    class_count,
    class_digits,
    shard_codes,
    split_order,
)
from puzzlesearch.errors import PuzzleError
from puzzlesearch.manifest import damaged, load_parquet, verify, write_manifest
from puzzlesearch.progress import log

SHARD_KIND = "boggle-proof-shard"
PROOF_KIND = "boggle-proof"
LOG_EVERY_SECONDS = 30.0
# class outcomes: done (pruned, searched) or not (capped: over a work cap; stopped: not run)
PRUNED, SEARCHED, CAPPED, STOPPED = "pruned", "searched", "capped", "stopped"
DONE = (PRUNED, SEARCHED)

SHARD_SCHEMA = {
    "code": pl.Int64,
    "class": pl.String,
    "bound": pl.Int64,  # orderly bound of the class (-1: unknown, the tree is over max_tree_nodes)
    "tree_nodes": pl.Int64,
    "visits": pl.Int64,
    "leaves": pl.Int64,  # boards the branch and bound could not rule out (scored exactly)
    "seconds": pl.Float64,  # CPU seconds
    "outcome": pl.String,
    "boards": pl.List(pl.String),  # canonical boards >= min_score found in the class
    "scores": pl.List(pl.Int64),
}


@dataclass
class ShardResult:
    """One shard's class table and whether it ran to the end."""

    table: pl.DataFrame
    interrupted: bool = False
    timed_out: bool = False

    @property
    def complete(self) -> bool:
        return not (self.interrupted or self.timed_out)


class Prover:
    """Branch and bound of a shape's classes over one lexicon (a Scorer for exact scores)."""

    def __init__(self, scorer, shape: Shape, settings):
        self.scorer = scorer
        self.shape = shape
        self.settings = settings
        self.partition = Partition.parse(settings.partition, "partition")
        self.min_score = int(settings.min_score)
        self.bounder = OrderlyBounder(scorer.dawg, shape, settings.points, max_nodes=settings.max_tree_nodes)

    def classes(self) -> np.ndarray:
        """Codes of the top-level classes kept after symmetry."""
        return canonical_classes(self.shape, self.partition)

    def board_class(self, code: int) -> BoardClass:
        return BoardClass.from_digits(class_digits(code, self.shape, self.partition), self.partition, self.shape)

    def prove_class(self, code: int) -> dict:
        """One row of the shard table."""
        t0 = time.process_time()
        cls = self.board_class(code)
        res = self.bounder.search(cls, self.min_score, self.settings.max_visits)
        boards, scores = [], []
        if len(res.boards):
            exact = self.scorer.scores(res.boards, self.shape)
            found = {}
            for board, score in zip(res.boards, exact):
                if score >= self.min_score:
                    found[canonical_board(board, self.shape)] = int(score)
            for board in sorted(found, key=lambda b: (-found[b], b)):
                boards.append(board)
                scores.append(found[board])
        if not res.complete:
            outcome = CAPPED
        elif res.bound < self.min_score:
            outcome = PRUNED
        else:
            outcome = SEARCHED
        return {
            "code": int(code),
            "class": str(cls),
            "bound": res.bound,
            "tree_nodes": res.tree_nodes,
            "visits": res.visits,
            "leaves": len(res.boards),
            "seconds": round(time.process_time() - t0, 6),
            "outcome": outcome,
            "boards": boards,
            "scores": scores,
        }

    def stopped_row(self, code: int) -> dict:
        return {
            "code": int(code),
            "class": str(self.board_class(code)),
            "bound": -1,
            "tree_nodes": 0,
            "visits": 0,
            "leaves": 0,
            "seconds": 0.0,
            "outcome": STOPPED,
            "boards": [],
            "scores": [],
        }

    def run_shard(self, shard: int, shards: int, codes: np.ndarray | None = None) -> ShardResult:
        """Prove the classes of one shard; Ctrl-C or the time cap leave the rest `stopped`."""
        codes = shard_codes(self.classes() if codes is None else codes, shard, shards)
        rows: list[dict] = []
        start = time.perf_counter()
        last = start
        interrupted = timed_out = False
        tag = f"proof {self.shape} shard {shard + 1}/{shards}"
        log("boggle", f"{tag}: {len(codes)} classes, min_score {self.min_score}")
        try:
            for i, code in enumerate(codes):
                if time.perf_counter() - start > self.settings.seconds:
                    timed_out = True
                    break
                rows.append(self.prove_class(int(code)))
                if time.perf_counter() - last > LOG_EVERY_SECONDS:
                    last = time.perf_counter()
                    log("boggle", f"{tag}: {i + 1}/{len(codes)} classes, {_progress(rows)}")
        except KeyboardInterrupt:
            interrupted = True
            log("boggle", f"{tag}: interrupted (Ctrl-C) after {len(rows)} classes")
        if timed_out:
            log("boggle", f"{tag}: time cap boggle.proof.seconds={self.settings.seconds} after {len(rows)} classes")
        rows += [self.stopped_row(int(c)) for c in codes[len(rows) :]]
        table = pl.DataFrame(rows, schema=SHARD_SCHEMA)
        log("boggle", f"{tag}: done in {time.perf_counter() - start:.1f}s, {_progress(rows)}")
        return ShardResult(table, interrupted, timed_out)


def _progress(rows: list[dict]) -> str:
    """A short summary of class rows for the log."""
    found = {b for r in rows for b in r["boards"]}
    cpu = sum(r["seconds"] for r in rows)
    searched = sum(r["outcome"] == SEARCHED for r in rows)
    return f"{searched} searched, {len(found)} boards found, {cpu:.1f} CPU s"


# ---------------------------------------------------------------- shard files


def shard_meta(settings, shape: Shape, shard: int, shards: int, lexicon_sha256: str) -> dict:
    """What a shard file was computed from (checked by the gather)."""
    return {
        "shape": str(shape),
        "shard": shard,
        "shards": shards,
        "lexicon_sha256": lexicon_sha256,
        "settings": settings.to_dict(),
    }


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
    """Every shard table of one proof, checked: same inputs, shards 0..N-1 each once."""
    shards = settings.shards
    tables: dict[int, pl.DataFrame] = {}
    for path in paths:
        path = Path(path)
        data = verify(path.with_suffix(".json"), SHARD_KIND, [path.name])
        shard = data.get("shard")
        want = shard_meta(settings, shape, shard if isinstance(shard, int) else -1, shards, lexicon_sha256)
        for key, value in want.items():
            if data.get(key) != value:
                raise damaged(path, f"a shard of another proof ({key} differs)")
        if shard in tables:
            raise PuzzleError(f"{path}: shard {shard} given twice")
        tables[shard] = load_parquet(path)
    missing = [i for i in range(shards) if i not in tables]
    if missing:
        raise PuzzleError(f"proof shards: shard {missing[0]} of {shards} is missing")
    return pl.concat([tables[i] for i in range(shards)]).sort("code")


# ---------------------------------------------------------------- gather


def gather(table: pl.DataFrame, settings, shape: Shape, lexicon: dict) -> tuple[pl.DataFrame, pl.DataFrame, dict]:
    """(boards, classes, certificate) of a proof from all its class rows."""
    partition = Partition.parse(settings.partition, "partition")
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
    elif (remaining["bound"] < 0).any() or (remaining["outcome"] == STOPPED).any():
        max_remaining = "unknown"
    else:
        max_remaining = int(remaining["bound"].max())
    best = boards.row(0, named=True) if boards.height else None
    certificate = {
        "claim": f"every {shape} board scoring >= {settings.min_score} is in boards.parquet"
        if remaining.height == 0
        else f"incomplete: {remaining.height} classes not done",
        "complete": remaining.height == 0,
        "lexicon": lexicon,
        "shape": str(shape),
        "partition": str(partition),
        "min_score": settings.min_score,
        "points": settings.points,
        "split_order": [int(c) for c in split_order(shape)],
        "bound": "orderly tree (2025), a word counted once per set of (cell, letter) choices",
        "classes_total": class_count(shape, partition),
        "classes_after_symmetry": table.height,
        "classes_skipped_by_symmetry": class_count(shape, partition) - table.height,
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
        f"{best_text}; classes {certificate['classes_done']}/{certificate['classes_after_symmetry']} done "
        f"({'complete' if certificate['complete'] else 'INCOMPLETE'}), {certificate['cpu_seconds']} CPU s"
    )
