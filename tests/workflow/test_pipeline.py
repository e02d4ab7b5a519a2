"""The Snakemake pipeline on a throw-away copy of the project: build, no-op rerun, rebuilds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pipeline_util import PROJECT, TARGETS, copy_project, planned_rules, snakemake


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of Snakefile, workflow/ and src/ with a config naming a tiny word list."""
    return copy_project(tmp_path_factory.mktemp("project"))


def test_build_then_nothing_to_do_then_exact_rebuilds(project):
    out = snakemake(project, *TARGETS)
    assert out.returncode == 0, out.stderr
    for target in TARGETS:
        assert (project / target).exists()
    assert (project / "logs/lexicon/tiny/words.log").exists()
    assert planned_rules(project) == []

    # Changing the word list rebuilds the table and both DAWGs.
    (project / "tiny.txt").write_text("cat\r\ncats\r\ndog\r\nemu\r\n")
    assert planned_rules(project) == ["lexicon_dawg", "lexicon_dawg", "lexicon_words"]
    assert snakemake(project, *TARGETS).returncode == 0
    assert planned_rules(project) == []

    # Changing the DAWG code rebuilds the DAWGs only.
    dawg_py = project / "src/puzzlesearch/lexicon/dawg.py"
    dawg_py.write_text(dawg_py.read_text() + "\n# edited\n")
    assert planned_rules(project) == ["lexicon_dawg", "lexicon_dawg"]


def test_config_error_names_the_key(project):
    bad = project / "bad.yaml"
    bad.write_text((project / "config.yaml").read_text() + "lexicon:\n  min_length: 0\n")
    out = snakemake(project, "-n", "--configfile", str(bad))
    assert out.returncode != 0
    assert "lexicon.min_length" in out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr


def test_every_cached_rule_hashes_its_wildcards():
    # Snakemake's output-cache key ignores wildcards: a cached rule must pass them as params.
    for smk in sorted((PROJECT / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"(?m)^rule ", smk.read_text())[1:]:
            if re.search(r"(?m)^\s+cache: True", block):
                assert "wildcards=cache_key" in block, f"{smk.name}: rule {block.split(':')[0]}"


def test_output_cache_serves_a_second_checkout(tmp_path):
    from puzzlesearch.lexicon import Dawg

    env = {"SNAKEMAKE_OUTPUT_CACHE": str(tmp_path / "cache")}
    (tmp_path / "cache").mkdir()
    first, second = copy_project(tmp_path / "one"), copy_project(tmp_path / "two")
    for root in (first, second):
        out = snakemake(root, *TARGETS, "--cache", env=env)  # --cache takes optional rule names: after the targets
        assert out.returncode == 0, out.stdout + out.stderr
    dawg, boggle = (second / "results/lexicon/tiny/dawg.npz", second / "results/lexicon/tiny/boggle_dawg.npz")
    assert dawg.is_symlink() and boggle.is_symlink()  # served from the cache, not rebuilt
    assert dawg.resolve() != boggle.resolve()
    assert Dawg.load(dawg).words() == ["cat", "cats", "dog", "queen"]
    assert Dawg.load(boggle).words() == ["cat", "cats", "dog", "qeen"]  # 'q' is the Qu face
    assert planned_rules(second) == []


def test_word_list_rewritten_unchanged_reruns_nothing(tmp_path):
    # A word list over Snakemake's 1 MB default checksum size, written again with the same
    # bytes (new mtime, as a fresh ../shared or a re-download gives): nothing reruns. A
    # changed byte still rebuilds.
    root = copy_project(tmp_path / "project")
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [a + b + c + d + e for a in letters for b in letters for c in letters for d in "aeiou" for e in "ey"]
    text = "\n".join(words) + "\n"
    assert len(text) > 1_000_000
    (root / "big.txt").write_text(text)
    config = root / "config.yaml"
    config.write_text(config.read_text().replace("lexicons:\n", "lexicons:\n  big: big.txt\n", 1))
    targets = ["results/lexicon/big/words.parquet"]
    out = snakemake(root, *targets)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    (root / "big.txt").write_text(text)
    assert planned_rules(root, *targets) == []
    (root / "big.txt").write_text(text.replace("zzzuy\n", "zzzuz\n"))
    assert planned_rules(root, *targets) == ["lexicon_words"]
