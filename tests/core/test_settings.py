"""Settings: defaults and bounds only from the package's schemas; `puzzlesearch config`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from puzzlesearch.bee.settings import BeeRules, ScheduleRules, TableRules, WordListRules
from puzzlesearch.errors import ConfigError
from puzzlesearch.lexicon.model import LexiconOptions
from puzzlesearch.settings import parse_sets

PROJECT = Path(__file__).resolve().parents[2]
SCHEMAS = PROJECT / "src" / "puzzlesearch" / "schemas"


def schema_defaults(name: str, section: str, path: tuple[str, ...] = ()) -> dict:
    """`default` of every property of a section, read straight from the schema file."""
    node = yaml.safe_load((SCHEMAS / f"{name}.schema.yaml").read_text())["properties"][section]
    for part in path:
        node = node["properties"][part]
    return {k: v["default"] for k, v in node["properties"].items() if "default" in v}


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The real CLI as a subprocess."""
    return subprocess.run([sys.executable, "-m", "puzzlesearch", *args], cwd=cwd, capture_output=True, text=True)


def assert_one_line_error(out: subprocess.CompletedProcess, *needles: str) -> None:
    err = out.stderr.strip()
    assert out.returncode == 2 and "\n" not in err and "Traceback" not in err, out.stderr
    assert err.startswith("puzzlesearch: error:") and all(n in err for n in needles), err


# ---------------------------------------------------------------- puzzlesearch.settings


def test_defaults_come_from_the_schema():
    bee = schema_defaults("bee", "bee")
    assert BeeRules().to_dict() == {k: bee[k] for k in BeeRules.keys()}
    assert TableRules().to_dict() == {k: bee[k] for k in TableRules.keys()}
    assert WordListRules().to_dict() == {k: bee[k] for k in WordListRules.keys()}
    assert ScheduleRules().to_dict() == {k: bee[k] for k in ScheduleRules.keys()}
    rule_keys = {*BeeRules.keys(), *WordListRules.keys(), *ScheduleRules.keys()}
    assert set(bee) - rule_keys == {"lexicons"}  # the workflow's key, not a rule
    assert LexiconOptions().to_dict() == schema_defaults("config", "lexicon")


@pytest.mark.parametrize(
    "cls, changes, key",
    [
        (BeeRules, dict(size=3), "config key bee.size"),
        (BeeRules, dict(size=10), "config key bee.size"),
        (BeeRules, dict(min_length=0), "config key bee.min_length"),
        (BeeRules, dict(exclude="S"), "config key bee.exclude"),
        (BeeRules, dict(score_by="fun"), "config key bee.score_by"),
        (BeeRules, dict(require_pangram=1), "config key bee.require_pangram"),
        (BeeRules, dict(min_points=10, max_points=5), "config key bee.max_points"),
        (BeeRules, dict(exclude="abcdefghijklmnopqrstu"), "config key bee.exclude"),
        (LexiconOptions, dict(min_length=0), "config key lexicon.min_length"),
        (LexiconOptions, dict(case="upper"), "config key lexicon.case"),
    ],
)
def test_bound_errors_name_the_key(cls, changes, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")) as err:
        cls(**changes)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "obj",
    [
        BeeRules(),
        BeeRules(size=5, exclude="", require_pangram=False, max_words=40, score_by="words"),
        LexiconOptions(),
        LexiconOptions(alphabet="arabic", case="strict", min_length=3),
    ],
)
def test_json_round_trip(obj):
    text = obj.to_json()
    assert "\n" not in text and type(obj).from_json(text) == obj
    assert obj.replace(**{k: None for k in obj.keys()}) == obj  # None changes nothing


def test_from_json_mistakes():
    with pytest.raises(ConfigError, match="--settings: not a JSON object"):
        BeeRules.from_json("{size: 7")
    with pytest.raises(ConfigError, match="--settings bee: expected a mapping"):
        BeeRules.from_json("[7]")
    # the mask table's step refuses the puzzle step's keys: it must not depend on them
    with pytest.raises(ConfigError, match=r"bee\.max_points: not a setting of this step"):
        TableRules.from_json(BeeRules().to_json())


def test_from_dict_unknown_key_and_partial_dicts():
    with pytest.raises(ConfigError, match=r"config key bee\.colour: not a setting"):
        BeeRules.from_dict({"colour": "red"})
    with pytest.raises(ConfigError, match=r"config key lexicon\.source: not a setting"):
        LexiconOptions.from_dict({"source": "x.txt"})
    assert BeeRules.from_dict({"size": 5}) == BeeRules(size=5)
    assert BeeRules.from_dict({"size": "5"}) == BeeRules(size=5)  # --config strings read as YAML
    assert BeeRules.from_config({"lexicons": ["x"], "size": 6}) == BeeRules(size=6)  # other steps' keys ignored


def test_with_sets():
    rules = BeeRules().with_sets(["size=5", "exclude=", "require_pangram=false", "max_words=9"])
    assert rules == BeeRules(size=5, exclude="", require_pangram=False, max_words=9)
    assert BeeRules().with_sets([]) == BeeRules()
    assert LexiconOptions().with_sets(["case=lower"]) == LexiconOptions(case="lower")
    # dotted keys make nested values; on a flat key that is an error naming it
    assert parse_sets(["a.b.c=1", "a.d=[1, 2]", "e=x"], ["a", "e"]) == {"a": {"b": {"c": 1}, "d": [1, 2]}, "e": "x"}
    with pytest.raises(ConfigError, match=r"--set bee\.size: "):
        BeeRules().with_sets(["size.max=5"])
    for item, needle in (
        ("size=[1", "'[1' is not a valid value"),
        ("size=99", "bee.size"),
        ("nope=1", "'nope=1': expected KEY=VALUE"),
        ("size", "'size': expected KEY=VALUE"),
        ("max_words=3", None),
    ):
        if needle is None:
            with pytest.raises(ConfigError, match=r"bee\.max_words"):
                BeeRules(min_words=5).with_sets([item])
            continue
        with pytest.raises(ConfigError, match=needle.replace("[", r"\[").replace(".", r"\.")) as err:
            BeeRules().with_sets([item])
        assert "\n" not in str(err.value) and str(err.value).startswith("--set ")


# ---------------------------------------------------------------- puzzlesearch config


def test_config_defaults_outside_a_project(tmp_path):
    out = run("config", "--defaults", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    config = yaml.safe_load(out.stdout)
    assert config["bee"] == schema_defaults("bee", "bee")
    assert config["lexicon"] == schema_defaults("config", "lexicon")
    assert config["lexicons"]["default"] == "builtin:en"
    assert not (tmp_path / "results").exists()


def test_config_prints_the_project_config_with_defaults(tmp_path):
    (tmp_path / "Snakefile").write_text("")
    (tmp_path / "config.yaml").write_text("lexicons: {mine: words.txt}\nbee: {min_frequency: 51, size: 6}\n")
    sub = tmp_path / "deeper"
    sub.mkdir()
    out = run("config", cwd=sub)  # the project is found upward
    assert out.returncode == 0, out.stderr
    config = yaml.safe_load(out.stdout)
    assert config["lexicons"] == {"mine": "words.txt"}
    assert config["bee"] == {**schema_defaults("bee", "bee"), "min_frequency": 51, "size": 6}
    assert BeeRules.from_config(config["bee"]) == BeeRules(min_frequency=51, size=6)
    (tmp_path / "config.yaml").write_text("lexicons: {mine: words.txt}\nbee: {max_words: 5, size: 12}\n")
    assert_one_line_error(run("config", cwd=sub), "config key bee.size")
