"""The console command: lexicon sub-commands and one-line errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlesearch.config import validate_config
from puzzlesearch.errors import ConfigError

PROJECT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "puzzlesearch", *args], cwd=cwd or PROJECT, capture_output=True, text=True
    )


def project(folder: Path, config: str) -> Path:
    """A minimal puzzlesearch project folder (Snakefile + config.yaml) for interactive commands."""
    (folder / "Snakefile").write_text("# test project\n")
    (folder / "config.yaml").write_text(config)
    return folder


def test_lexicon_info_and_lookup_on_a_path(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("apple\nbanana\ncherry\n")
    project(tmp_path, "lexicons:\n  default: builtin:en\n")
    out = run("lexicon", "info", str(words), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert info["words"] == 3 and info["dawg"]["words"] == 3
    store = Path(os.environ["PUZZLESEARCH_STORE"])  # the tests' artifact store (conftest)
    assert Path(info["dir"]).parent == store / "lexicon" and (Path(info["dir"]) / "words.parquet").exists()
    assert not (tmp_path / "results" / "lexicon").exists()  # never the pipeline's folders
    out = run("lexicon", "lookup", str(words), "banana", "kiwi", cwd=tmp_path)
    assert out.returncode == 1
    assert out.stdout.splitlines() == ["banana\t1", "kiwi\t-"]


def test_missing_word_list_is_one_line_error(tmp_path):
    project(tmp_path, "lexicons:\n  broken: nowhere.txt\n")
    out = run("lexicon", "info", "broken", cwd=tmp_path)
    assert out.returncode == 2
    errors = [line for line in out.stderr.splitlines() if line.startswith("puzzlesearch: error:")]
    assert len(errors) == 1 and "Traceback" not in out.stderr
    assert "nowhere.txt" in errors[0] and "no such file" in errors[0]
    assert not (tmp_path / "results/lexicon/broken/words.parquet").exists()


def test_bad_config_is_one_line_error_naming_the_key(tmp_path):
    project(tmp_path, "lexicons:\n  x: {source: a.txt, alphabet: klingon}\n")
    out = run("lexicon", "info", "x", cwd=tmp_path)
    assert out.returncode == 2 and "lexicons.x" in out.stderr
    assert "Traceback" not in out.stderr


def test_validate_config_fills_defaults_and_names_keys():
    config = validate_config({"lexicons": {"a": "a.txt"}})
    assert config["lexicon"] == {"alphabet": "latin", "min_length": 2, "case": "auto"}
    assert config["default_lexicon"] == "default"
    with pytest.raises(ConfigError, match="lexicons"):
        validate_config({"lexicons": {"bad name": "a.txt"}})
    with pytest.raises(ConfigError, match="unknown_section|Additional properties"):
        validate_config({"lexicons": {"a": "a.txt"}, "unknown_section": 1})


def test_readme_test_command_is_what_ci_runs():
    readme = (PROJECT / "README.md").read_text()
    ci = (PROJECT / ".ci" / "run").read_text()
    command = re.search(r"\.venv/bin/python -m pytest[^|;&\n]*", ci).group(0).strip()
    assert command in readme


def test_nested_config_strings_are_read_as_yaml_once_more():
    # Snakemake gives nested --config values as strings: boggle='{seeds: 3}' -> {'seeds': '3'}
    config = validate_config(
        {
            "lexicons": {"a": "a.txt"},
            "boggle": {"seeds": "3", "points": ["0", "0", "0", "1", "2"], "shapes": ["4x4"]},
            "bee": {"require_pangram": "false", "exclude": "s"},
        }
    )
    assert config["boggle"]["seeds"] == 3 and config["boggle"]["points"] == [0, 0, 0, 1, 2]
    assert config["bee"]["require_pangram"] is False and config["bee"]["exclude"] == "s"
    with pytest.raises(ConfigError, match=r"boggle\.seeds: -1 is less than the minimum"):
        validate_config({"lexicons": {"a": "a.txt"}, "boggle": {"seeds": "-1"}})
    with pytest.raises(ConfigError, match=r"boggle\.seeds: 'abc' is not of type 'integer'"):
        validate_config({"lexicons": {"a": "a.txt"}, "boggle": {"seeds": "abc"}})


@pytest.mark.parametrize(
    "args, names",
    [
        (["bee", "show", "AEGINRT"], "--center"),
        (["crossword", "generate", "--lang", "xx"], "'xx'"),
        (["boggle", "score"], "BOARD"),
        (["nope"], "'nope'"),
    ],
)
def test_usage_mistakes_are_one_line(args, names):
    out = run(*args)
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzlesearch: error:") and names in lines[0]


def test_nested_config_strings_are_read_as_yaml_for_enums_too():
    # Snakemake hands nested --config values over as strings: boggle={scan: {distance: 2}}
    config = validate_config({"lexicons": {"a": "a.txt"}, "boggle": {"scan": {"distance": "1"}, "seeds": "3"}})
    assert config["boggle"]["scan"]["distance"] == 1 and config["boggle"]["seeds"] == 3
    with pytest.raises(ConfigError, match="boggle.scan.distance"):
        validate_config({"lexicons": {"a": "a.txt"}, "boggle": {"scan": {"distance": "3"}}})


@pytest.mark.parametrize("args", [["bee", "top", "--lexicon", "ar"], ["boggle", "score", "abcd", "--lexicon", "ar"]])
def test_a_lexicon_of_another_alphabet_is_refused_before_it_is_built(tmp_path, args):
    project(tmp_path, "lexicons:\n  ar: {source: builtin:ar, alphabet: arabic}\n")
    out = run(*args, cwd=tmp_path)
    assert out.returncode == 2 and "alphabet arabic" in out.stderr and len(out.stderr.splitlines()) == 1
    assert not (tmp_path / "results").exists()


def test_start_up_imports_only_the_command_package():
    from puzzlesearch.cli import COMMAND_PACKAGES, requested_packages

    assert requested_packages(["--config", "my.yaml", "-v", "cube", "solve", "R U"]) == ("cube",)
    assert requested_packages(["config", "--defaults"]) == ()
    assert requested_packages(["--help"]) == COMMAND_PACKAGES
    assert requested_packages(["cubee"]) == COMMAND_PACKAGES  # a typo lists every command
    code = "import sys, puzzlesearch.cli as c; c.build_parser(('cube',)); print(sorted(m for m in sys.modules if m.startswith('puzzlesearch.')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert (
        "puzzlesearch.cube.cli" in loaded and "puzzlesearch.bee" not in loaded and "puzzlesearch.lexicon" not in loaded
    )
    typo = run("cubee")
    assert typo.returncode == 2 and all(name in typo.stderr for name in COMMAND_PACKAGES)
