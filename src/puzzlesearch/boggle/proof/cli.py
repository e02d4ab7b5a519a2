"""`puzzlesearch boggle prove|prove-shard|prove-gather|bound`: proofs of the best board by branch and bound.

`prove` runs a whole proof interactively (resuming in --out); `prove-shard` and `prove-gather`
are the pipeline's steps (settings as JSON, explicit inputs and outputs); `bound` prints the
upper bounds of one board class.
"""

from __future__ import annotations

import time
from pathlib import Path

import polars as pl

from puzzlesearch import store
from puzzlesearch.boggle.cli_args import (
    EXIT_INTERRUPTED,
    TOP_PRINTED,
    interactive_settings,
    lexicon_flags,
    parse_points,
    scorer_for,
    with_flags,
)
from puzzlesearch.boggle.model import Shape, format_cells
from puzzlesearch.boggle.proof import prove
from puzzlesearch.boggle.proof.bounds import OrderlyBounder
from puzzlesearch.boggle.proof.classes import BoardClass, Partition
from puzzlesearch.boggle.proof.settings import ProofSettings
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.boggle.settings import RankSettings
from puzzlesearch.config import load_config
from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon import open_lexicon
from puzzlesearch.manifest import read_manifest
from puzzlesearch.progress import log

# ---------------------------------------------------------------- proofs (branch and bound)

PROOF_OUT = ("boggle", "proof")  # under store.cli_output_root(), then {lexicon}/{shape}/min{S}


def register(cmds) -> None:
    """`prove` (interactive), `prove-shard` and `prove-gather` (pipeline), `bound` (one class)."""
    p = cmds.add_parser("prove", help="prove which boards of a shape score >= --min-score (branch and bound)")
    p.add_argument("--shape", required=True, help="ROWSxCOLS, e.g. 3x3")
    lexicon_flags(p)
    p.add_argument("--min-score", type=int, help="score to prove (default: boggle.proof.min_score of the shape)")
    p.add_argument("--partition", help="letter buckets, e.g. 'aeiou bdfgjqvwxz lnrsy chkmpt' (boggle.proof.partition)")
    p.add_argument("--shards", type=int, help="shards of the class list (default: boggle.proof.shards)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a boggle.proof key")
    p.add_argument("--out", help="output folder (default: results/cli/boggle/proof/LEXICON/SHAPE/minS); resumes there")
    p.set_defaults(func=cmd_prove)

    p = cmds.add_parser("prove-shard", help="(pipeline) prove the classes of one shard")
    p.add_argument("--settings", required=True, help="the proof settings as JSON (ProofSettings)")
    p.add_argument("--words", dest="words_path", required=True, help="the lexicon's words.parquet")
    p.add_argument("--dawg", required=True, help="the lexicon's boggle_dawg.npz")
    p.add_argument("--shape", required=True)
    p.add_argument("--shard", type=int, required=True, help="shard number, 0..shards-1")
    p.add_argument("--out", required=True, help="the shard table (Parquet; its manifest .json beside it)")
    p.set_defaults(func=cmd_prove_shard)

    p = cmds.add_parser(
        "prove-gather", help="(pipeline) check every shard and write the proof's tables and certificate"
    )
    p.add_argument("shard_files", nargs="+", metavar="SHARD_PARQUET")
    p.add_argument("--settings", required=True)
    p.add_argument("--words", dest="words_path", required=True)
    p.add_argument("--dawg", required=True)
    p.add_argument("--shape", required=True)
    p.add_argument("--boards", required=True, help="boards >= min_score (Parquet)")
    p.add_argument("--classes", required=True, help="class statistics (Parquet)")
    p.add_argument("--certificate", required=True, help="the certificate (JSON, the manifest of both tables)")
    p.set_defaults(func=cmd_prove_gather)

    p = cmds.add_parser("bound", help="upper bounds of one board class (a letter set per cell)")
    p.add_argument("board_class", metavar="CLASS", help="letter sets, e.g. 'lnrsy aeiou chkmpt ...' (one per cell)")
    p.add_argument("--shape", required=True)
    lexicon_flags(p)
    p.add_argument("--min-score", type=int, help="also run the branch and bound: boards that may reach this")
    p.set_defaults(func=cmd_bound, set=[], settings=None)


def _positive(flag: str, value):
    if value is not None and value < 1:
        raise PuzzleError(f"{flag} {value}: must be 1 or more")
    return value


def _proof_settings(args, shape):
    """(ProofSettings, config, root) of an interactive proof: config, --set, then the flags."""
    config, root = load_config(args.config)
    _positive("--min-score", args.min_score)
    _positive("--shards", getattr(args, "shards", None))
    if getattr(args, "partition", None) is not None:
        Partition.parse(args.partition, "--partition")
    section = config["boggle"]
    if args.min_score is not None:
        section = {**section, "proof": {**section["proof"], "min_score": {str(shape): args.min_score}}}
    settings = ProofSettings.for_job(section, shape).with_sets(args.set)
    flags = {
        ("--partition", "partition"): getattr(args, "partition", None),
        ("--shards", "shards"): getattr(args, "shards", None),
    }
    if args.points:
        flags = {("--points", "points"): parse_points(args.points), **flags}
    return with_flags(settings, flags), config, root


def cmd_prove(args) -> int:
    """Interactive proof: every shard in turn (finished shards in --out are reused), then the gather."""
    shape = Shape.parse(args.shape)
    settings, config, root = _proof_settings(args, shape)
    lex = open_lexicon(args.lexicon or config["default_lexicon"], config, root, alphabet="latin")
    scorer = Scorer.for_lexicon(lex, settings.points)
    lexicon = prove.lexicon_identity(lex.name, lex.dir / "words.parquet", lex.stats)
    out = (
        Path(args.out)
        if args.out
        else store.cli_output_root().joinpath(*PROOF_OUT, lex.name, str(shape), f"min{settings.min_score}")
    )
    prover = prove.Prover(scorer, shape, settings)
    codes = prover.classes()
    log(
        "boggle",
        f"proof {lex.name} {shape} >= {settings.min_score}: {len(codes)} classes, {settings.shards} shards -> {out}",
    )
    tables, interrupted = [], False
    for shard in range(settings.shards):
        path = out / "shards" / f"shard{shard}.parquet"
        meta = prove.shard_meta(settings, shape, shard, settings.shards, lexicon["words_sha256"])
        table = None if interrupted else prove.read_shard(path, meta)
        if table is not None and table["outcome"].is_in(prove.DONE).all():
            log("boggle", f"proof shard {shard + 1}/{settings.shards}: done before, reused")
        elif interrupted:
            table = pl.DataFrame(
                [prover.stopped_row(int(c)) for c in prove.shard_codes(codes, shard, settings.shards)],
                schema=prove.SHARD_SCHEMA,
            )
        else:
            result = prover.run_shard(shard, settings.shards, codes)
            table = result.table
            if result.complete:
                prove.write_shard(result, path, meta)
            interrupted = not result.complete
        tables.append(table)
    boards, classes, certificate = prove.gather(pl.concat(tables).sort("code"), settings, shape, lexicon)
    prove.write_proof(
        boards, classes, certificate, out / "boards.parquet", out / "classes.parquet", out / "certificate.json"
    )
    for row in boards.head(TOP_PRINTED).iter_rows(named=True):
        print(f"{row['board']}\t{row['score']}")
    print(prove.summary_line(certificate))
    print(f"written: {out}")
    return EXIT_INTERRUPTED if interrupted else 0


def _pipeline_proof(args):
    """(settings, scorer, shape, lexicon identity) of a pipeline proof command."""
    if args.config is not None:
        raise PuzzleError("--config: not with --settings (the pipeline passes every setting in the JSON)")
    shape = Shape.parse(args.shape)
    settings = ProofSettings.from_json(args.settings)
    scorer = Scorer.from_files(args.words_path, args.dawg, settings.points)
    words = Path(args.words_path)
    stats = read_manifest(words.with_name("words.json"))
    return settings, scorer, shape, prove.lexicon_identity(words.parent.name, words, stats)


def cmd_prove_shard(args) -> int:
    """Prove one shard's classes; a complete shard table or nothing (exit 130 on Ctrl-C)."""
    settings, scorer, shape, lexicon = _pipeline_proof(args)
    if not 0 <= args.shard < settings.shards:
        raise PuzzleError(f"--shard {args.shard}: must be 0..{settings.shards - 1} (shards {settings.shards})")
    result = prove.Prover(scorer, shape, settings).run_shard(args.shard, settings.shards)
    if result.interrupted:
        return EXIT_INTERRUPTED
    if result.timed_out:
        raise PuzzleError(
            f"proof shard {args.shard} stopped by the time cap boggle.proof.seconds={settings.seconds} "
            "(a busy machine?); raise it or use more shards"
        )
    meta = prove.shard_meta(settings, shape, args.shard, settings.shards, lexicon["words_sha256"])
    prove.write_shard(result, args.out, meta)
    return 0


def cmd_prove_gather(args) -> int:
    """Merge the shard tables of one proof into boards, classes and the certificate."""
    settings, _scorer, shape, lexicon = _pipeline_proof(args)
    table = prove.load_shards(args.shard_files, settings, shape, lexicon["words_sha256"])
    boards, classes, certificate = prove.gather(table, settings, shape, lexicon)
    prove.write_proof(boards, classes, certificate, args.boards, args.classes, args.certificate)
    print(prove.summary_line(certificate))
    return 0


def cmd_bound(args) -> int:
    """Print the orderly bound of one class (and its branch and bound with --min-score)."""
    shape = Shape.parse(args.shape)
    cls = BoardClass.parse(args.board_class, shape)
    _positive("--min-score", args.min_score)
    settings, config, root = interactive_settings(args, RankSettings, shape, "free", {})
    _, scorer = scorer_for(args, settings, config, root)
    bounder = OrderlyBounder(scorer.dawg, shape, settings.points)
    bounder.bound(cls)  # compile the kernels before timing
    t0 = time.process_time()
    bound, nodes = bounder.bound(cls)
    print(f"orderly bound {bound}\ttree nodes {nodes}\t{time.process_time() - t0:.3f} CPU s\tboards {cls.size}")
    t0 = time.process_time()
    print(f"max/no-mark bound {bounder.max_nomark(cls)}\t{time.process_time() - t0:.3f} CPU s")
    if args.min_score is not None:
        t0 = time.process_time()
        res = bounder.search(cls, args.min_score)
        scores = scorer.scores(res.boards, shape) if len(res.boards) else []
        hits = sorted(
            ((int(s), format_cells(b)) for b, s in zip(res.boards, scores) if s >= args.min_score), reverse=True
        )
        print(
            f"branch and bound >= {args.min_score}: {res.visits} sub-classes, {len(res.boards)} boards left, "
            f"{len(hits)} score >= {args.min_score}, {time.process_time() - t0:.3f} CPU s"
        )
        for score, board in hits[:TOP_PRINTED]:
            print(f"{board}\t{score}")
    return 0
