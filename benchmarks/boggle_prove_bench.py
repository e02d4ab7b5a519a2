"""Boggle proof benchmark: our prover against the published C++ prover, one thread each, in one run.

    python benchmarks/boggle_prove_bench.py --peer /work/peers/hybrid-boggle          # 3x3 >= 500, both
    python benchmarks/boggle_prove_bench.py --mode sample --shape 3x4 --classes 300   # project a whole proof
    python benchmarks/boggle_prove_bench.py --mode sample --shape 4x4 --classes 300 --board perslatgsineters
    python benchmarks/boggle_prove_bench.py --mode sample --shape 4x4 --classes 300 --jobs 2   # both cores

Mode `3x3` (default) runs the whole 3x3 ENABLE2K >= 500 proof with `puzzlesearch boggle
prove` (class list, bounds, exact scores; fresh output folder, so nothing is reused) and
checks its result against the published facts (streaedlp 545, 42 boards >= 500); with
--peer it first runs the peer's own 3x3 proof in the same sitting:

    python -m boggle.break_all 'aeiosuy bcdfghjklmnpqrtvwxz' 500 --size 33 \\
        --dictionary enable2k.txt --num_threads 1

and prints both CPU times (child-process CPU, user + system: the machine is shared, so
wall time is not the measure) and their ratio. Mode `sample` runs `boggle prove-sample`
(the library's sampler: classes drawn uniformly with a fixed seed from the canonical
class list, proved with the shape's settings; per-class CPU median, p99, max, peak RSS,
projected CPU-hours of the whole proof, and the classes of --board); with --peer also
the peer on --peer-classes random canonical classes of its own (its `--max_boards`), as
a per-class figure.

The peer is danvk/hybrid-boggle (C++ via pybind11), built OUTSIDE this project as
/work/shared/peers.md describes (a venv with pybind11, numpy, tqdm, google-cloud-storage;
its Python 3.11 patches); --peer-python is that venv's python (default: PEER/../venv).
No peer code or build script is part of this project.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzlesearch.boggle.model import LETTERS, Shape  # noqa: E402
from puzzlesearch.boggle.proof.classes import canonical_board  # noqa: E402

SHARED = ROOT.parent / "shared"
WORDLIST = SHARED / "wordlists" / "enable2k.txt"
FACTS = SHARED / "facts" / "boggle_scores.csv"

MIN_SCORE = {"3x3": 500, "3x4": 1500, "4x4": 3500}
BEST = {"3x3": ("streaedlp", 545)}  # published, /work/shared/facts/boggle_scores.csv
BOARDS_AT_LEAST = {"3x3": 42}  # published: 42 distinct 3x3 boards score >= 500 (ENABLE2K)
# the peer's arguments per shape: its classes (corner buckets for 3x4 / 4x4) and --size
PEER_CLASSES = {
    "3x3": ("aeiosuy bcdfghjklmnpqrtvwxz", "33"),
    "3x4": ("aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz", "34"),
    "4x4": ("aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz", "44"),
}
PUBLISHED_CPP = {"3x3": "70 s", "3x4": "5h54m (27,135 classes)", "4x4": "~9,000 CPU-h (1,068,363 classes)"}


def canonical(board: str) -> str:
    """The smallest symmetric image of a 3x3 board's text (how our proofs list boards)."""
    return canonical_board([LETTERS.index(c) for c in board.replace(" ", "")], Shape(3, 3))


def child_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], cwd: Path | None = None) -> tuple[float, str]:
    """(child CPU seconds, stdout) of a command run to the end; its stderr goes to ours."""
    before = child_cpu()
    out = subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.PIPE, text=True).stdout
    return child_cpu() - before, out


def our_config(folder: Path) -> Path:
    """A config naming ENABLE2K (the shared word list) for `puzzlesearch --config`."""
    path = folder / "config.yaml"
    path.write_text(f"lexicons:\n  enable2k: {WORDLIST}\ndefault_lexicon: enable2k\n")
    return path


def ours(folder: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "puzzlesearch", "--config", str(our_config(folder)), "boggle", *args]


def peer_python(args) -> str:
    return args.peer_python or str(Path(args.peer).resolve().parent / "venv" / "bin" / "python")


def run_peer(args, shape: str, folder: Path, max_boards: int = 0) -> tuple[float, list[str], str]:
    """(CPU s, boards >= S it reports, its timing line) of the peer's break_all on one shape."""
    classes, size = PEER_CLASSES[shape]
    cmd = [peer_python(args), "-m", "boggle.break_all", classes, str(MIN_SCORE[shape]), "--size", size]
    cmd += ["--dictionary", str(WORDLIST), "--num_threads", "1", "--output_base", str(folder / "peer")]
    if max_boards:
        cmd += ["--max_boards", str(max_boards), "--random_seed", str(args.seed)]
    cpu, out = timed(cmd, cwd=Path(args.peer))
    lines = out.splitlines()
    found = re.search(r"Found (\d+) breaking failure", out)
    start = next((i for i, line in enumerate(lines) if line.startswith("Found ") and "failure" in line), len(lines))
    boards = [line.strip() for line in lines[start + 1 :] if line.strip()][: int(found.group(1)) if found else 0]
    broke = next((line for line in lines if line.startswith("Broke ")), "")
    return cpu, boards, broke


def bench_3x3(args) -> int:
    """The whole 3x3 >= 500 proof: the peer's and ours, CPU each, and the published facts checked."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        peer_cpu = None
        if args.peer:
            peer_cpu, peer_boards, broke = run_peer(args, "3x3", tmp)
            print(f"peer (hybrid-boggle C++), 3x3 >= 500, one thread: {peer_cpu:.1f} CPU s; {broke}")
            distinct = {canonical(b) for b in peer_boards}  # a square board read by columns: a symmetric image
            print(f"  peer: {len(peer_boards)} boards >= 500 listed, {len(distinct)} distinct under symmetry")
        cpu, out = timed(ours(tmp, "prove", "--shape", "3x3", "--lexicon", "enable2k", "--out", str(tmp / "ours")))
        cert = json.loads((tmp / "ours" / "certificate.json").read_text())
    best = cert["best"]
    print(
        f"puzzlesearch, 3x3 >= 500, one thread: {cpu:.1f} CPU s (in-proof class CPU {cert['cpu_seconds']:.1f} s); "
        f"{cert['classes_total']} classes, partition {cert['partition']!r}, engine {cert['engine']['name']}"
    )
    print(f"  ours: {cert['boards_at_least_min_score']} boards >= 500, best {best['board']} {best['score']}")
    ok = cert["complete"] and (best["board"], best["score"]) == (canonical(BEST["3x3"][0]), BEST["3x3"][1])
    ok = ok and cert["boards_at_least_min_score"] == BOARDS_AT_LEAST["3x3"]
    print(f"  published facts (streaedlp 545, 42 boards >= 500): {'OK' if ok else 'DIFFER'}")
    if peer_cpu:
        print(f"ratio ours / peer: {cpu / peer_cpu:.2f}x CPU (target <= 60 CPU s; published C++ 70 s)")
    return 0 if ok else 1


def bench_sample(args) -> int:
    """Our sampler on one shape (and the peer's per-class figure on its own random classes)."""
    shape = args.shape
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cmd = ours(tmp, "prove-sample", "--shape", shape, "--lexicon", "enable2k")
        cmd += ["--classes", str(args.classes), "--seed", str(args.seed), "--out", str(tmp / "sample")]
        cmd += ["--jobs", str(args.jobs)]
        for board in args.board:
            cmd += ["--board", board]
        cmd += [x for item in args.set for x in ("--set", item)]
        cpu, out = timed(cmd)
        summary = json.loads((tmp / "sample" / "sample.json").read_text())
        print(out, end="")
        print(f"puzzlesearch sample process: {cpu:.1f} CPU s in all (startup and compile included)")
        print(f"published C++: {PUBLISHED_CPP.get(shape, '?')}")
        if args.peer and args.peer_classes:
            peer_cpu, boards, broke = run_peer(args, shape, tmp, args.peer_classes)
            print(
                f"peer (hybrid-boggle C++) on {args.peer_classes} random canonical classes of its own: "
                f"{peer_cpu:.1f} CPU s ({peer_cpu / args.peer_classes:.2f} s a class, startup included); {broke}"
            )
            mean = summary["cpu_seconds"]["mean"]
            print(
                f"per-class ratio ours / peer: {mean / (peer_cpu / args.peer_classes):.2f}x (different random classes)"
            )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=("3x3", "sample"), default="3x3")
    ap.add_argument(
        "--peer", help="the peer's checkout (built as /work/shared/peers.md says), e.g. /work/peers/hybrid-boggle"
    )
    ap.add_argument("--peer-python", help="the peer venv's python (default: PEER/../venv/bin/python)")
    ap.add_argument("--shape", default="4x4", choices=sorted(MIN_SCORE), help="mode sample: the shape")
    ap.add_argument("--classes", type=int, default=300, help="mode sample: classes drawn")
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--jobs", type=int, default=1, help="mode sample: classes in N processes (CPU per class unchanged)")
    ap.add_argument("--board", action="append", default=[], help="mode sample: also prove this board's class")
    ap.add_argument("--set", action="append", default=[], help="mode sample: a boggle.proof KEY=VALUE override")
    ap.add_argument("--peer-classes", type=int, default=0, help="mode sample: the peer's random classes (0: none)")
    args = ap.parse_args()
    if not WORDLIST.exists():
        sys.exit(f"boggle_prove_bench: {WORDLIST} is missing (the shared ENABLE2K word list)")
    return bench_3x3(args) if args.mode == "3x3" else bench_sample(args)


if __name__ == "__main__":
    sys.exit(main())
