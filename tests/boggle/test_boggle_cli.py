"""Boggle interactive commands: score, search, rank, scan, Ctrl-C."""

from __future__ import annotations

import polars as pl

from puzzlesearch.cli import main

# ---------------------------------------------------------------- command line


def test_cli_score_search_rank_scan(project, capsys):
    cfg = ["--config", str(project / "config.yaml"), "boggle"]
    assert main(cfg + ["score", "streaedlp", "pers/latg/sine/ters", "--words"]) == 0
    out = capsys.readouterr().out
    assert "streaedlp\t3x3\tscore 545\twords 267" in out and "perslatgsineters\t4x4\tscore 3625\twords 1045" in out
    assert "  alerted\t5" in out
    seeds = []
    for seed in (0, 1):
        seeds.append(str(project / f"seed{seed}.parquet"))
        assert (
            main(
                cfg
                + [
                    "search",
                    "--shape",
                    "3x3",
                    "--seed",
                    str(seed),
                    "--seconds",
                    "60",
                    "--max-boards",
                    "3000",
                    "--pool-size",
                    "20",
                    "--keep",
                    "5",
                    "--out",
                    seeds[-1],
                ]
            )
            == 0
        )
    table = pl.read_parquet(seeds[0])
    assert table.height == 5 and table["score"].is_sorted(descending=True)
    best_path = str(project / "best.parquet")
    assert main(cfg + ["rank", *seeds, "--shape", "3x3", "--out", best_path]) == 0
    best = pl.read_parquet(best_path)
    assert best["score"][0] == max(pl.read_parquet(p)["score"].max() for p in seeds)
    summary = project / "scan.json"
    assert (
        main(
            cfg
            + [
                "scan",
                "--from",
                best_path,
                "--boards",
                "1",
                "--distance",
                "1",
                "--no-swaps",
                "--out",
                str(project / "scan.parquet"),
                "--summary",
                str(summary),
            ]
        )
        == 0
    )
    import json

    verdict = json.loads(summary.read_text())["boards"][0]
    assert verdict["board"] == best["board"][0] and verdict["neighbours"] == 9 * 25
    capsys.readouterr()
    assert main(cfg + ["search", "--shape", "3x3", "--seconds", "0", "--max-boards", "0"]) == 2
    assert main(cfg + ["search", "--shape", "3x3", "--mode", "dice", "--dice", "abcdef,abc", "--seconds", "1"]) == 2
    assert main(cfg + ["score", "streaedlp", "--points", "1,x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and "die 2" in err[1] and "--points" in err[2]


def test_cli_scan_of_a_rectangular_board(project, capsys):
    cfg = ["--config", str(project / "config.yaml"), "boggle"]
    assert main(cfg + ["scan", "plseairtnsed", "--shape", "4x3", "--distance", "1", "--swaps"]) == 0
    out = capsys.readouterr().out  # the proven 4x3 optimum has no better neighbour
    assert out.startswith("plseairtnsed\t1651\t") and out.rstrip().endswith("local optimum")


def test_ctrl_c_stops_a_search_and_keeps_what_it_found(project, tmp_path):
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "seed.parquet"
    # the search's kernels compiled (numba's cache) before the timed part: a Ctrl-C during a fresh clone's
    # compile stops the search before its first board (exit 130, nothing found), which is not this test's case
    warm = ["--config", str(project / "config.yaml"), "boggle", "search", "--shape", "3x3", "--max-boards", "200"]
    assert main([*warm, "--seconds", "120", "--out", str(project / "warm.parquet")]) == 0
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "puzzlesearch",
            "--config",
            str(project / "config.yaml"),
            "boggle",
            "search",
            "--shape",
            "3x3",
            "--seconds",
            "120",
            "--max-boards",
            "0",
            "--out",
            str(out),
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        # Ctrl-C as a terminal gives it: a pytest-xdist worker ignores SIGINT, and a child inherits that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    for line in proc.stderr:  # wait until the search itself runs
        if "boggle: search" in line:
            break
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    table = pl.read_parquet(out)
    assert table.height > 0 and table["score"].is_sorted(descending=True)
    assert [p.name for p in tmp_path.iterdir()] == ["seed.parquet"]  # no temporary files left
