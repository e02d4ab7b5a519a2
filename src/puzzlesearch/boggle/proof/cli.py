"""`puzzlesearch boggle prove|prove-shard|prove-gather|bound`: proofs of the best board by branch and bound.

`prove` runs a whole proof interactively (resuming in --out); `prove-shard` and `prove-gather`
are the pipeline's steps (settings as JSON, explicit inputs and outputs); `prove-sample`
proves a seeded random sample of the class list and projects the whole proof's CPU-hours;
`bound` prints the upper bounds of one board class.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

import polars as pl

from puzzlesearch import store
from puzzlesearch.boggle.cli_args import TOP_PRINTED, interactive_settings, lexicon_flags, parse_points, scorer_for
from puzzlesearch.boggle.model import LETTERS, Shape, format_cells
from puzzlesearch.boggle.proof import prove
from puzzlesearch.boggle.proof.classes import BoardClass
from puzzlesearch.boggle.proof.partition import BoardPartition
from puzzlesearch.boggle.proof.settings import STOP_MARGIN_SECONDS, ProofSettings, sample_settings
from puzzlesearch.boggle.proof.tree import TreeBounder
from puzzlesearch.boggle.score import Scorer
from puzzlesearch.boggle.settings import RankSettings
from puzzlesearch.cli_common import EXIT_INTERRUPTED, with_flags
from puzzlesearch.config import load_config
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import mark_output_dir, prepare_output_dir
from puzzlesearch.lexicon import open_lexicon
from puzzlesearch.manifest import read_manifest
from puzzlesearch.parallel import cap_jobs
from puzzlesearch.progress import log

# ---------------------------------------------------------------- proofs (branch and bound)

PROOF_OUT = ("boggle", "proof")  # under store.cli_output_root(), then {lexicon}/{shape}/min{S}
PROVE_WRITER, SAMPLE_WRITER = "boggle prove", "boggle prove-sample"  # the markers of their --out folders


def register(cmds) -> None:
    """`prove` (interactive), `prove-shard` and `prove-gather` (pipeline), `prove-sample`, `bound` (one class)."""
    p = cmds.add_parser("prove", help="prove which boards of a shape score >= --min-score (branch and bound)")
    p.add_argument("--shape", required=True, help="ROWSxCOLS, e.g. 3x3")
    _proof_flags(p)
    p.add_argument("--shards", type=int, help="shards of the class list (default: boggle.proof.shards of the shape)")
    _jobs_flag(p)
    p.add_argument("--out", help="output folder (default: results/cli/boggle/proof/LEXICON/SHAPE/minS); resumes there")
    p.set_defaults(func=cmd_prove)

    p = cmds.add_parser("prove-shard", help="(pipeline) prove the classes of one shard (a range of the class list)")
    _pipeline_flags(p)
    p.add_argument("--shard", type=int, required=True, help="shard number, 0..shards-1")
    p.add_argument(
        "--stop-after-minutes",
        type=float,
        help="the job's runtime: stop (keeping the progress) this many minutes minus a margin after the start",
    )
    _jobs_flag(p)
    p.add_argument("--out", required=True, help="the shard table (Parquet; its manifest .json beside it)")
    p.set_defaults(func=cmd_prove_shard)

    p = cmds.add_parser(
        "prove-gather", help="(pipeline) check every shard and write the proof's tables and certificate"
    )
    p.add_argument("shard_files", nargs="+", metavar="SHARD_PARQUET", help="the shard tables, in shard order")
    _pipeline_flags(p)
    p.add_argument("--boards", required=True, help="boards >= min_score (Parquet)")
    p.add_argument("--classes", required=True, help="class statistics (Parquet)")
    p.add_argument("--certificate", required=True, help="the certificate (JSON, the manifest of both tables)")
    p.set_defaults(func=cmd_prove_gather)

    p = cmds.add_parser(
        "prove-sample",
        help="prove classes drawn at random from a shape's class list: per-class CPU and memory, projected CPU-hours",
    )
    p.add_argument("--shape", required=True)
    _proof_flags(p)
    p.add_argument("--classes", type=int, help="classes drawn (default: boggle.proof.sample.classes)")
    p.add_argument("--seed", type=int, help="seed of the draw (default: boggle.proof.sample.seed)")
    p.add_argument("--board", action="append", default=[], help="also prove the class holding this board (repeatable)")
    _jobs_flag(p)
    p.add_argument("--settings", help="(pipeline) the proof settings as JSON; config.yaml is not read")
    p.add_argument("--words", dest="words_path", help="(pipeline) the lexicon's words.parquet")
    p.add_argument("--dawg", help="(pipeline) the lexicon's boggle_dawg.npz")
    p.add_argument("--out", help="output folder: sample.parquet and sample.json (default under results/cli/)")
    p.set_defaults(func=cmd_prove_sample)

    p = cmds.add_parser("bound", help="upper bounds of one board class (a letter set per cell)")
    p.add_argument("board_class", metavar="CLASS", help="letter sets, e.g. 'lnrsy aeiou chkmpt ...' (one per cell)")
    p.add_argument("--shape", required=True)
    lexicon_flags(p)
    p.add_argument("--min-score", type=int, help="also run the branch and bound: boards that may reach this")
    p.set_defaults(func=cmd_bound, set=[], settings=None)


def _proof_flags(p) -> None:
    """Flags of an interactive proof: lexicon, score, partition, --set."""
    lexicon_flags(p)
    p.add_argument("--min-score", type=int, help="score to prove (default: boggle.proof.min_score of the shape)")
    p.add_argument(
        "--partition", help="letter buckets of every cell, e.g. 'aeiosuy bcdfghjklmnpqrtvwxz' (boggle.proof.partition)"
    )
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a boggle.proof key")


def _pipeline_flags(p) -> None:
    """Inputs of a pipeline proof step."""
    p.add_argument("--settings", required=True, help="the proof settings as JSON (ProofSettings)")
    p.add_argument("--words", dest="words_path", required=True, help="the lexicon's words.parquet")
    p.add_argument("--dawg", required=True, help="the lexicon's boggle_dawg.npz")
    p.add_argument("--shape", required=True)


def _jobs_flag(p) -> None:
    """--jobs: classes proved in N processes (rows, progress and results as with one)."""
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="prove classes in N processes (the same rows and results as one; memory up to N x one class's)",
    )


def _jobs(args) -> int:
    """--jobs: 1 or more, at most the cores (a note line when capped)."""
    return cap_jobs(_positive("--jobs", args.jobs), "boggle")


def _positive(flag: str, value):
    if value is not None and value < 1:
        raise PuzzleError(f"{flag} {value}: must be 1 or more")
    return value


def _proof_settings(args, shape):
    """(ProofSettings, config, root) of an interactive proof: config, --set, then the flags."""
    config, root = load_config(args.config)
    _positive("--min-score", args.min_score)
    _positive("--shards", getattr(args, "shards", None))
    if args.partition is not None:
        BoardPartition.parse(args.partition, "--partition")
    section = config["boggle"]
    if args.min_score is not None:
        section = {**section, "proof": {**section["proof"], "min_score": {str(shape): args.min_score}}}
    settings = ProofSettings.for_job(section, shape).with_sets(args.set)
    flags = {
        ("--partition", "partition"): args.partition,
        ("--shards", "shards"): getattr(args, "shards", None),
    }
    if args.points:
        flags = {("--points", "points"): parse_points(args.points), **flags}
    settings = with_flags(settings, flags)
    capped = settings.capped_shards(shape)
    if capped.shards < settings.shards:
        given = "--shards" if getattr(args, "shards", None) else "boggle.proof.shards"
        log("boggle", f"note: {given} {settings.shards}: the proof has {capped.shards} classes, so as many shards")
    return capped, config, root


def _interactive(args):
    """(settings, config, scorer, lexicon identity, default output folder) of an interactive proof command."""
    shape = Shape.parse(args.shape)
    settings, config, root = _proof_settings(args, shape)
    lex = open_lexicon(args.lexicon or config["default_lexicon"], config, root, alphabet="latin")
    scorer = Scorer.for_lexicon(lex, settings.points)
    lexicon = prove.lexicon_identity(lex.name, lex.dir / "words.parquet", lex.stats)
    out = store.cli_output_root().joinpath(*PROOF_OUT, lex.name, str(shape), f"min{settings.min_score}")
    return shape, settings, config, scorer, lexicon, out


def _own_folder(given: str | None, default: Path, writer: str) -> Path:
    """The output folder of an interactive command: --out when given (new, empty or this command's), else the default.

    The default (under results/cli/, named by lexicon, shape and score) is the command's own;
    either is marked as the output of `writer` (mark_output_dir) before the first file is written.
    """
    return prepare_output_dir(given, writer) if given else default


def _memory_hinted(command):
    """A proof command whose MemoryError is one line naming the settings that size a proof's memory."""

    @functools.wraps(command)
    def run(args) -> int:
        try:
            return command(args)
        except MemoryError:
            raise PuzzleError(
                "out of memory proving a class: lower boggle.proof.max_tree_nodes (--set max_tree_nodes=N; "
                "its tree's node cap, ~55 bytes a node; a class over it is left undone, capped) or --jobs "
                "(each process holds a class)"
            ) from None

    return run


@_memory_hinted
def cmd_prove(args) -> int:
    """Interactive proof: every shard in turn (finished shards and progress in --out are reused), then the gather."""
    jobs = _jobs(args)
    shape, settings, _config, scorer, lexicon, out = _interactive(args)
    out = _own_folder(args.out, out, PROVE_WRITER)
    prover = prove.Prover(scorer, shape, settings)
    prover.warm_up()
    count = prover.space.count()
    mark_output_dir(out, PROVE_WRITER)
    log(
        "boggle",
        f"proof {lexicon['name']} {shape} >= {settings.min_score}: {count} classes "
        f"(partition {prover.space.partition}), {settings.shards} shards -> {out}",
    )
    tables, interrupted = [], False
    for shard in range(settings.shards):
        path = out / "shards" / f"shard{shard}.parquet"
        meta = prove.shard_meta(settings, shape, shard, settings.shards, lexicon["words_sha256"])
        table = prove.read_shard(path, meta)
        if table is not None:
            log("boggle", f"proof shard {shard + 1}/{settings.shards}: done before, reused")
        elif interrupted:
            codes = prover.space.codes(*meta["range"])
            table = pl.DataFrame([prover.stopped_row(int(c)) for c in codes], schema=prove.SHARD_SCHEMA)
        else:
            result = prove.prove_shard(prover, shard, settings.shards, path, lexicon["words_sha256"], jobs=jobs)
            table = result.table
            interrupted = not result.complete
        tables.append(table)
    table = pl.concat(tables)
    names = [str(out / "shards" / f"shard{shard}.parquet") for shard in range(settings.shards)]
    rechecked = prove.recheck(prover, table, names)
    boards, classes, certificate = prove.gather(table, settings, shape, lexicon, rechecked)
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


@_memory_hinted
def cmd_prove_shard(args) -> int:
    """Prove one shard's classes (continuing from its progress file); a complete shard table or nothing."""
    jobs = _jobs(args)
    settings, scorer, shape, lexicon = _pipeline_proof(args)
    if not 0 <= args.shard < settings.shards:
        raise PuzzleError(f"--shard {args.shard}: must be 0..{settings.shards - 1} (shards {settings.shards})")
    stop = None
    if args.stop_after_minutes is not None:
        stop = max(60.0, args.stop_after_minutes * 60 - STOP_MARGIN_SECONDS)
    prover = prove.Prover(scorer, shape, settings)
    if settings.capped_shards(shape).shards < settings.shards:
        raise PuzzleError(
            f"--settings: shards {settings.shards} is more than the {prover.space.count()} classes of the proof "
            "(lower boggle.proof.shards)"
        )
    prover.warm_up()  # shards start together: one of them compiles the kernels, the others load them
    result = prove.prove_shard(prover, args.shard, settings.shards, args.out, lexicon["words_sha256"], stop, jobs)
    if result.interrupted:
        return EXIT_INTERRUPTED
    if result.timed_out:
        done = int((result.table["outcome"] != prove.STOPPED).sum())
        raise PuzzleError(
            f"proof shard {args.shard} stopped at its time cap after {done}/{result.table.height} classes "
            "(progress kept: run it again to continue; a class took longer than boggle.proof.cost says)"
        )
    return 0


@_memory_hinted
def cmd_prove_gather(args) -> int:
    """Merge the shard tables of one proof into boards, classes and the certificate, their rows re-checked first."""
    settings, scorer, shape, lexicon = _pipeline_proof(args)
    table = prove.load_shards(args.shard_files, settings, shape, lexicon["words_sha256"])
    rechecked = prove.recheck(prove.Prover(scorer, shape, settings), table, list(args.shard_files))
    boards, classes, certificate = prove.gather(table, settings, shape, lexicon, rechecked)
    prove.write_proof(boards, classes, certificate, args.boards, args.classes, args.certificate)
    print(prove.summary_line(certificate))
    return 0


@_memory_hinted
def cmd_prove_sample(args) -> int:
    """Prove a seeded random sample of a shape's classes (and the classes of --board); write and print the figures."""
    jobs = _jobs(args)
    if args.settings is not None:
        for flag in ("lexicon", "points", "min_score", "partition"):
            if getattr(args, flag) is not None or args.set:
                raise PuzzleError(f"--{flag.replace('_', '-')}: not with --settings (the JSON holds every setting)")
        if not (args.words_path and args.dawg and args.out):
            raise PuzzleError("--words, --dawg and --out: required with --settings")
        settings, scorer, shape, lexicon = _pipeline_proof(args)
        sample = sample_settings(None)
        out = Path(args.out)
    else:
        shape, settings, config, scorer, lexicon, out = _interactive(args)
        sample = sample_settings(config["boggle"])
        out = _own_folder(args.out, out / "sample", SAMPLE_WRITER)
    classes = _positive("--classes", args.classes) or sample["classes"]
    seed = sample["seed"] if args.seed is None else args.seed
    prover = prove.Prover(scorer, shape, settings)
    codes = prove.sample_codes(prover.space, classes, seed)
    log(
        "boggle",
        f"proof sample {lexicon['name']} {shape} >= {settings.min_score}: {len(codes)} of {prover.space.count()} classes, seed {seed} -> {out}",
    )
    prover.warm_up()  # kernels loaded or compiled outside the figures
    meta = {
        "shape": str(shape),
        "seed": seed,
        "codes": len(codes),
        "lexicon_sha256": lexicon["words_sha256"],
        "settings": settings.to_dict(),
    }
    if args.settings is None:
        mark_output_dir(out, SAMPLE_WRITER)
    progress = prove.Progress(out / "sample.parquet", meta)
    with progress.locked():
        result = prover.run(codes, f"proof sample {shape}", progress.load(codes), progress.save, jobs=jobs)
        summary = prove.sample_summary(result.table, prover.space, settings, seed)
        summary["lexicon"] = lexicon
        boards = args.board if result.complete else []  # after Ctrl-C or the time cap: not another long class
        summary["classes_of_boards"] = [prove.board_class_run(prover, board) for board in boards]
        prove.write_sample(result.table, summary, out / "sample.parquet", out / "sample.json")
        if result.complete:
            progress.remove()
    _print_sample(summary)
    return 0 if result.complete else EXIT_INTERRUPTED


def _print_sample(summary: dict) -> None:
    """The sample's figures on stdout."""
    cpu = summary["cpu_seconds"]
    print(
        f"{summary['shape']} >= {summary['min_score']}: {summary['classes_run']}/{summary['classes_sampled']} sampled classes "
        f"of {summary['classes_total']} (seed {summary['seed']}), outcomes {summary['outcomes']}"
    )
    if cpu["median"] is not None:
        print(
            f"CPU s per class: median {cpu['median']:.3f}, p99 {cpu['p99']:.3f}, max {cpu['max']:.3f}, "
            f"mean {cpu['mean']:.3f} (standard error {cpu['standard_error']:.3f}); peak RSS {summary['peak_rss_mb']:.0f} MB"
        )
        low, high = summary["projected_cpu_hours_2se"]
        print(
            f"projected CPU-hours for all classes: {summary['projected_cpu_hours']:.2f} ({low:.2f}..{high:.2f} at 2 standard errors)"
        )
    for run in summary["classes_of_boards"]:
        best = ", ".join(f"{b['board']} {b['score']}" for b in run["boards_found"][:TOP_PRINTED]) or "none"
        print(
            f"class of {run['board']}: #{run['position']} {run['class']!r}: bound {run['bound']}, {run['outcome']}, "
            f"{run['cpu_seconds']:.2f} CPU s; boards >= min_score: {best}"
        )


def cmd_bound(args) -> int:
    """Print the orderly bound of one class, its first split cell forced (merged and stack bounds), and with
    --min-score its force/merge branch and bound (the schema's switchover settings)."""
    shape = Shape.parse(args.shape)
    cls = BoardClass.parse(args.board_class, shape)
    _positive("--min-score", args.min_score)
    settings, config, root = interactive_settings(args, RankSettings, shape, "free", {})
    _, scorer = scorer_for(args, settings, config, root)
    bounder = TreeBounder(scorer, shape, prove.tree_options(ProofSettings()))
    bounder.bound(cls)  # compile the kernels before timing
    t0 = time.process_time()
    bound, nodes = bounder.bound(cls)
    print(f"orderly bound {bound}\ttree nodes {nodes}\t{time.process_time() - t0:.3f} CPU s\tboards {cls.size}")
    if bound >= 0:
        first = int(bounder.order[0])
        split = ", ".join(
            f"{LETTERS[x]} {merged}/{stack}" for x, (merged, stack) in zip(cls.cells[first], bounder.split_bounds(cls))
        )
        print(f"cell {first} forced (merged/stack bound): {split}")
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
