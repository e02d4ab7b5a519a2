"""Spelling Bee: table scores against brute-force word scans, a hand-checked list, rules, errors."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from dataclasses import replace
from math import comb
from pathlib import Path

import polars as pl
import pytest

from puzzlesearch.bee.io import build_masks_file, build_puzzles_file
from puzzlesearch.bee.model import letters_mask, mask_letters, parse_puzzle
from puzzlesearch.bee.search import puzzle_words, rank_puzzles, score_sets
from puzzlesearch.bee.settings import BeeRules, ScheduleRules, TableRules, WordListRules
from puzzlesearch.bee.tables import build_table
from puzzlesearch.cli import main
from puzzlesearch.config import validate_config
from puzzlesearch.errors import ConfigError, PuzzleError
from puzzlesearch.lexicon import open_lexicon

PROJECT = Path(__file__).resolve().parents[2]

# A tiny list, scored by hand for the puzzle ABCDEFG (no S). Invented strings are fine.
TINY = """\
bad 100
dead 100
deaf 100
faced 100
cafe 100
feed 100
cabbage 100
badged 100
gabfaced 10
bedeck 100
beads 100
abcdefgs 100
"""
# points per center letter: dead 1, deaf 1, faced 5, cafe 1, feed 1, cabbage 7, badged 6,
# gabfaced 8 + 7 (pangram); "bad" is too short, "beads" has an S, "bedeck" has a K.
HAND = {  # center: (points, words)
    "A": (1 + 1 + 5 + 1 + 7 + 6 + 15, 7),
    "B": (7 + 6 + 15, 3),
    "C": (5 + 1 + 7 + 15, 4),
    "D": (1 + 1 + 5 + 1 + 6 + 15, 6),
    "E": (1 + 1 + 5 + 1 + 1 + 7 + 6 + 15, 8),
    "F": (1 + 5 + 1 + 1 + 15, 5),
    "G": (7 + 6 + 15, 3),
}
HAND_ORDER = ["E", "A", "D", "C", "B", "G", "F"]  # points, then words, then letter


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """The tiny list as a lexicon (with frequencies)."""
    root = tmp_path_factory.mktemp("bee_tiny")
    path = root / "tiny.txt"
    path.write_text(TINY)
    return open_lexicon("tiny", config={"lexicons": {"tiny": str(path)}}, root=root)


def ranked(words: pl.DataFrame, rules: BeeRules) -> pl.DataFrame:
    masks, table = build_table(words, rules)
    return rank_puzzles(table, masks, rules)


def centers(puzzles: pl.DataFrame, letters: str = "ABCDEFG") -> dict:
    rows = puzzles.filter(pl.col("letters") == letters)
    return {r["center"]: (r["points"], r["words"]) for r in rows.iter_rows(named=True)}


# ---------------------------------------------------------------- brute force


def brute_scores(words: list[str], letters: str, rules: BeeRules) -> dict:
    """center -> (points, words, pangrams), by scanning every word (no masks)."""
    allowed = set(letters)
    out = {c: [0, 0, 0] for c in letters}
    for w in words:
        if len(w) < rules.min_length or not set(w) <= allowed:
            continue
        pangram = set(w) == allowed
        pts = rules.short_points if len(w) <= rules.short_length else len(w)
        pts += rules.pangram_bonus if pangram else 0
        for c in set(w):
            out[c][0] += pts
            out[c][1] += 1
            out[c][2] += pangram
    return {c.upper(): tuple(v) for c, v in out.items()}


def candidate_words(words: list[str], rules: BeeRules) -> list[str]:
    """Words that can count anywhere: a plain-Python filter, independent of the table."""
    return [
        w for w in words if len(w) >= rules.min_length and len(set(w)) <= rules.size and not set(w) & set(rules.exclude)
    ]


def test_table_equals_brute_force_enable2k(enable2k):
    rules = BeeRules()
    words = candidate_words(enable2k.words["word"].to_list(), rules)
    masks, table = build_table(enable2k.words, rules)
    puzzles = rank_puzzles(table, masks, rules)
    rng = random.Random(4)
    sample = rng.sample(range(puzzles.height), 12) + [0]  # random ranked puzzles and the best
    for i in sample:
        row = puzzles.row(i, named=True)
        want = brute_scores(words, row["letters"].lower(), rules)[row["center"]]
        assert (row["points"], row["words"], row["pangrams"]) == want, row
    # random letter sets, pangram or not, every center
    pool = "abcdefghijklmnopqrtuvwxyz"
    sets = ["".join(sorted(rng.sample(pool, 7))) for _ in range(10)] + ["aeginrt"]
    points, counts, pangrams = score_sets(table, pl.Series([letters_mask(s) for s in sets]).to_numpy())
    for k, letters in enumerate(sets):
        brute = brute_scores(words, letters, rules)
        for j, c in enumerate(letters.upper()):
            assert (points[k, j], counts[k, j], pangrams[k]) == brute[c], (letters, c)


def test_table_equals_brute_force_other_rules(tiny, enable2k):
    rules = BeeRules(
        size=5, min_length=3, short_length=3, short_points=2, pangram_bonus=3, exclude="", require_pangram=False
    )
    words = candidate_words(enable2k.words["word"].to_list(), rules)
    masks, table = build_table(enable2k.words, rules)
    rng = random.Random(5)
    sets = ["".join(sorted(rng.sample("abcdefghijklmnopqrstuvwxyz", 5))) for _ in range(8)]
    points, counts, _ = score_sets(table, pl.Series([letters_mask(s) for s in sets]).to_numpy())
    for k, letters in enumerate(sets):
        brute = brute_scores(words, letters, rules)
        for j, c in enumerate(letters.upper()):
            assert (points[k, j], counts[k, j]) == brute[c][:2], (letters, c)


def test_enable2k_best_is_close_to_published_enable1(enable2k, shared_dir):
    # ../shared/facts/README.md: AEGINRT center R, 537 words, 3,898 points on enable1.
    assert "AEGINRT with center R, 537 words, 3,898 points" in (shared_dir / "facts" / "README.md").read_text()
    best = ranked(enable2k.words, BeeRules()).row(0, named=True)
    assert (best["letters"], best["center"]) == ("AEGINRT", "R")
    assert abs(best["words"] - 537) <= 5 and abs(best["points"] - 3898) <= 50


# ---------------------------------------------------------------- the hand-checked list


def test_hand_checked_tiny_list(tiny):
    puzzles = ranked(tiny.words, BeeRules())
    assert puzzles["letters"].to_list() == ["ABCDEFG"] * 7
    assert puzzles["center"].to_list() == HAND_ORDER
    assert puzzles["rank"].to_list() == list(range(1, 8))
    assert centers(puzzles) == HAND
    assert puzzles["pangrams"].to_list() == [1] * 7


def test_hand_checked_mask_table(tiny):
    masks, _ = build_table(tiny.words, BeeRules())
    got = {r["letters"]: (r["words"], r["points"], r["pangram"]) for r in masks.iter_rows(named=True)}
    assert got == {
        "ade": (1, 1, False),
        "adef": (1, 1, False),
        "acdef": (1, 5, False),
        "acef": (1, 1, False),
        "def": (1, 1, False),
        "abceg": (1, 7, False),
        "abdeg": (1, 6, False),
        "abcdefg": (1, 15, True),
        "bcdek": (1, 6, False),
    }


def test_show_lists_the_words(tiny):
    rules = BeeRules()
    words = puzzle_words(tiny.words, parse_puzzle("gfedcba", "a", rules), rules)
    assert sorted(words["word"].to_list()) == ["badged", "cabbage", "cafe", "dead", "deaf", "faced", "gabfaced"]
    assert words["points"].sum() == HAND["A"][0]
    assert words.filter(pl.col("pangram"))["word"].to_list() == ["gabfaced"]


def test_pipeline_files(tiny, tmp_path, capsys):
    rules = BeeRules()
    meta = build_masks_file(tiny.dir / "words.parquet", tmp_path / "masks.parquet", rules.table_rules())
    assert (meta["words"], meta["masks"], meta["words_in_lexicon"]) == (9, 9, 12)
    build_puzzles_file(tmp_path / "masks.parquet", tmp_path / "puzzles.parquet", rules, tiny.dir / "words.parquet")
    puzzles = pl.read_parquet(tmp_path / "puzzles.parquet")
    assert centers(puzzles) == HAND and puzzles["center"].to_list() == HAND_ORDER
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "masks.json",
        "masks.parquet",
        "puzzles.json",
        "puzzles.parquet",
    ]


def test_cli_show_and_top(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the rules' defaults apply
    (tmp_path / "tiny.txt").write_text(TINY)
    assert main(["bee", "show", "gfedcba", "--center", "A", "--lexicon", "tiny.txt", "--all-words"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ABCDEFG/A (tiny, every word)"
    assert "  15  gabfaced *" in out and "   6  badged" in out
    assert out[-1] == f"total: {HAND['A'][1]} words, {HAND['A'][0]} points, 1 pangram (* = pangram)"
    assert main(["bee", "top", "-n", "2", "--lexicon", "tiny.txt", "--set", "score_by=words"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[:5] for line in out[2:]] == [
        ["1", "ABCDEFG", "E", str(HAND["E"][0]), str(HAND["E"][1])],
        ["2", "ABCDEFG", "A", str(HAND["A"][0]), str(HAND["A"][1])],
    ]


# ---------------------------------------------------------------- each rule option


@pytest.mark.parametrize(
    "change, expect_a",
    [
        (dict(min_length=5), HAND["A"][0] - 3),  # dead, deaf, cafe out
        (dict(short_points=2), HAND["A"][0] + 3),
        (dict(short_length=5, short_points=1), HAND["A"][0] - 5 + 1),  # faced: 5 -> 1
        (dict(pangram_bonus=0), HAND["A"][0] - 7),
    ],
)
def test_point_rules(tiny, change, expect_a):
    assert centers(ranked(tiny.words, BeeRules(**change)))["A"][0] == expect_a


def test_word_count_and_point_limits(tiny):
    def kept(**change):
        return ranked(tiny.words, BeeRules(**change))["center"].to_list()

    assert kept(min_words=5) == ["E", "A", "D", "F"]
    assert kept(max_words=6) == ["D", "C", "B", "G", "F"]
    assert kept(min_points=29) == ["E", "A", "D"]
    assert kept(max_points=28) == ["C", "B", "G", "F"]
    assert kept(min_words=4, max_points=30) == ["D", "C", "F"]


def test_score_by_words(tiny):
    puzzles = ranked(tiny.words, BeeRules(score_by="words"))
    assert puzzles["center"].to_list() == ["E", "A", "D", "F", "C", "B", "G"]


def test_exclude(tiny):
    masks, _ = build_table(tiny.words, BeeRules(exclude=""))
    assert "abdes" in masks["letters"].to_list()  # beads
    assert ranked(tiny.words, BeeRules(exclude="g")).height == 0  # the only pangram set has G
    assert centers(ranked(tiny.words, BeeRules(exclude=""))) == HAND


def test_require_pangram(tiny):
    everything = ranked(tiny.words, BeeRules(require_pangram=False))
    assert everything.height == comb(25, 7) * 7
    assert centers(everything) == HAND  # the same scores for the pangram set
    assert centers(everything, "ABCDEFH")["A"] == (1 + 1 + 5 + 1, 4)  # dead deaf faced cafe
    assert everything.filter(pl.col("letters") == "ABCDEFH")["pangrams"].to_list() == [0] * 7


def test_min_frequency(tiny, enable2k):
    # gabfaced has frequency 10: without it no pangram, so no puzzle
    assert ranked(tiny.words, BeeRules(min_frequency=11)).height == 0
    assert centers(ranked(tiny.words, BeeRules(min_frequency=11, require_pangram=False)))["A"] == (
        HAND["A"][0] - 15,
        HAND["A"][1] - 1,
    )
    assert centers(ranked(tiny.words, BeeRules(min_frequency=10))) == HAND
    # a list without frequencies is not affected
    sample = enable2k.words.head(20000)
    assert ranked(sample, BeeRules(min_frequency=1000)).equals(ranked(sample, BeeRules()))


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "letters, center, needle",
    [
        ("AEGINR", "R", "expected 7 letters"),
        ("AEGINRTX", "R", "expected 7 letters"),
        ("AEGIN1T", "R", "expected 7 letters"),
        ("AEGINRR", "R", "'R' appears twice"),
        ("AEGINRS", "R", "'S' is excluded"),
        ("AEGINRT", "X", "not one of the letters"),
        ("AEGINRT", "RT", "expected one letter"),
        ("AEGINRT", "", "expected one letter"),
    ],
)
def test_bad_puzzle_is_one_line_error(letters, center, needle):
    with pytest.raises(PuzzleError, match=needle) as err:
        parse_puzzle(letters, center, BeeRules())
    assert "\n" not in str(err.value)


def test_cli_bad_input_exits_2_with_one_line(monkeypatch, capsys):
    monkeypatch.chdir(PROJECT)
    for argv in (
        ["bee", "show", "AEGINRQQ", "--center", "R"],
        ["bee", "show", "AEGINRT", "--center", "Z"],
        ["bee", "show", "AEGINRT", "--center", "R", "--set", "nonsense=1"],
        ["bee", "show", "AEGINRT", "--center", "R", "--set", "size=12"],
        ["bee", "build-masks", "--words", "x", "--out", "y", "--settings", "{bad"],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert err.startswith("puzzlesearch: error:") and "\n" not in err, (argv, err)


@pytest.mark.parametrize(
    "section, key",
    [
        ({"exclude": "S"}, "bee.exclude"),
        ({"size": 12}, "bee.size"),
        ({"score_by": "fun"}, "bee.score_by"),
        ({"min_frequency": -1}, "bee.min_frequency"),
        ({"color": "red"}, "bee"),
    ],
)
def test_config_errors_name_the_key(section, key):
    with pytest.raises(ConfigError, match=key):
        validate_config({"lexicons": {"default": "builtin:en"}, "bee": section}, PROJECT)


def test_rules_checks_name_the_key():
    with pytest.raises(ConfigError, match="bee.max_words"):
        BeeRules(min_words=30, max_words=20)
    with pytest.raises(ConfigError, match="bee.exclude"):
        BeeRules(exclude="abcdefghijklmnopqrstu")
    assert replace(BeeRules(), exclude="") == BeeRules.from_json(replace(BeeRules(), exclude="").to_json())
    assert mask_letters(letters_mask("rate")) == "aert"


def test_config_defaults_are_the_published_rules():
    config = validate_config({"lexicons": {"default": "builtin:en"}}, PROJECT)
    assert BeeRules.from_config(config["bee"]) == BeeRules()
    assert BeeRules() == BeeRules(
        size=7, min_length=4, short_length=4, short_points=1, pangram_bonus=7, exclude="s", require_pangram=True
    )


def test_dense_index_is_a_bijection_on_small_masks():
    from itertools import combinations

    from puzzlesearch.bee._kernels import masks as kernels

    size = 3
    binom, offset = kernels.binomials(26, size), kernels.offsets(size)
    seen = [
        kernels.mask_index(sum(1 << p for p in c), binom, offset)
        for k in range(size + 1)
        for c in combinations(range(26), k)
    ]
    assert sorted(seen) == list(range(sum(comb(26, k) for k in range(size + 1))))
    assert offset[size + 1] == len(seen)


# ---------------------------------------------------------------- real processes


def run(*args: str, cwd: Path = PROJECT) -> subprocess.CompletedProcess:
    """The real CLI as a subprocess."""
    return subprocess.run([sys.executable, "-m", "puzzlesearch", *args], cwd=cwd, capture_output=True, text=True)


def assert_one_line_error(out: subprocess.CompletedProcess, *needles: str) -> str:
    """Exit 2, one stderr line starting `puzzlesearch: error:` holding every needle, no traceback."""
    err = out.stderr.strip()
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert err.startswith("puzzlesearch: error:") and "\n" not in err and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)
    return err


@pytest.mark.parametrize(
    "item, key",
    [
        ("size=[1", "size"),
        ("size=99", "bee.size"),
        ("nope=1", "nope"),
        ("score_by=fun", "bee.score_by"),
    ],
)
def test_cli_set_mistakes_are_one_line_naming_the_key(tmp_path, item, key):
    (tmp_path / "tiny.txt").write_text(TINY)
    assert_one_line_error(run("bee", "top", "--lexicon", "tiny.txt", "--set", item, cwd=tmp_path), "--set", key)


def test_cli_set_cross_key_rule_and_text_values(tmp_path):
    (tmp_path / "tiny.txt").write_text(TINY)
    out = run("bee", "top", "--lexicon", "tiny.txt", "--set", "min_words=5", "--set", "max_words=3", cwd=tmp_path)
    assert_one_line_error(out, "bee.max_words")
    # `exclude=no` is the letters N and O (not YAML false): S is allowed again, so "beads" counts
    out = run(
        "bee", "show", "ABCDEGS", "--center", "s", "--lexicon", "tiny.txt", "--set", "exclude=no", "--all-words",
        cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "   5  beads" in out.stdout.splitlines()  # 5 letters: 5 points


@pytest.fixture()
def words_copy(tiny, tmp_path):
    """The tiny lexicon's words.parquet and words.json, copied out of the store."""
    folder = tmp_path / "lexicon"
    folder.mkdir()
    for name in ("words.parquet", "words.json"):
        shutil.copy(tiny.dir / name, folder / name)
    return folder / "words.parquet"


def build_masks(words: Path, out: Path, rules: TableRules = TableRules()) -> subprocess.CompletedProcess:
    return run("bee", "build-masks", "--settings", rules.to_json(), "--words", str(words), "--out", str(out))


def build_puzzles(masks: Path, out: Path, words: Path, rules: BeeRules = BeeRules()) -> subprocess.CompletedProcess:
    args = ["--masks", str(masks), "--words", str(words), "--out", str(out)]
    return run("bee", "build-puzzles", "--settings", rules.to_json(), *args)


def flip_byte(path: Path, at: float = 0.5) -> None:
    """Invert one byte in the middle of a file."""
    data = bytearray(path.read_bytes())
    data[int(len(data) * at)] ^= 0xFF
    path.write_bytes(bytes(data))


def test_pipeline_commands_write_manifests_and_match_the_hand_list(words_copy, tmp_path):
    masks, puzzles = tmp_path / "out" / "masks.parquet", tmp_path / "out" / "puzzles.parquet"
    assert build_masks(words_copy, masks).returncode == 0
    assert build_puzzles(masks, puzzles, words_copy).returncode == 0
    assert centers(pl.read_parquet(puzzles)) == HAND
    meta = json.loads(masks.with_suffix(".json").read_text())["manifest"]
    assert meta["kind"] == "bee-masks" and set(meta["files"]) == {"masks.parquet"}
    assert {k: v for k, v in meta["settings"].items() if k != "words_sha256"} == TableRules().to_dict()
    meta = json.loads(puzzles.with_suffix(".json").read_text())["manifest"]
    assert meta["kind"] == "bee-puzzles" and meta["settings"]["score_by"] == "points"


def test_pipeline_settings_of_another_step_are_refused(words_copy, tmp_path):
    out = run(
        "bee",
        "build-masks",
        "--settings",
        BeeRules().to_json(),
        "--words",
        str(words_copy),
        "--out",
        str(tmp_path / "masks.parquet"),
    )
    assert_one_line_error(out, "--settings bee.")
    assert not (tmp_path / "masks.parquet").exists()


def test_damaged_words_parquet_is_one_line_naming_the_file(words_copy, tmp_path):
    flip_byte(words_copy)
    out = build_masks(words_copy, tmp_path / "masks.parquet")
    assert_one_line_error(out, str(words_copy), "checksum")
    assert not (tmp_path / "masks.parquet").exists()


@pytest.mark.parametrize(
    "damage, needle",
    [
        (lambda p: flip_byte(p), "checksum"),
        (lambda p: p.write_bytes(p.read_bytes()[:-10]), "size"),
        (lambda p: p.with_suffix(".json").unlink(), "manifest is missing"),
    ],
)
def test_damaged_masks_parquet_is_one_line_naming_the_file(words_copy, tmp_path, damage, needle):
    masks = tmp_path / "masks.parquet"
    build_masks_file(words_copy, masks, TableRules())
    damage(masks)
    out = build_puzzles(masks, tmp_path / "puzzles.parquet", words_copy)
    assert_one_line_error(out, str(masks.with_suffix(".json") if "manifest" in needle else masks), needle)
    assert not (tmp_path / "puzzles.parquet").exists()


def test_masks_of_other_rules_or_out_of_range_are_refused(words_copy, tmp_path):
    from puzzlesearch.manifest import write_manifest

    masks = tmp_path / "masks.parquet"
    build_masks_file(words_copy, masks, TableRules(min_length=3))
    assert_one_line_error(build_puzzles(masks, tmp_path / "puzzles.parquet", words_copy), str(masks), "bee.min_length")
    # a table whose manifest matches but whose masks have more letters than the puzzle size
    build_masks_file(words_copy, masks, TableRules())
    meta = json.loads(masks.with_suffix(".json").read_text())
    frame = pl.read_parquet(masks).with_columns(mask=pl.lit(letters_mask("abcdefgh"), pl.UInt32))
    frame.write_parquet(masks)
    write_manifest(masks.with_suffix(".json"), [masks], "bee-masks", meta["manifest"]["settings"])
    assert_one_line_error(build_puzzles(masks, tmp_path / "puzzles.parquet", words_copy), str(masks), "outside")


def test_masks_built_from_another_lexicon_are_refused(words_copy, tmp_path):
    # issue 30 case 4: a masks table whose manifest is sound but records another word
    # table's sha256 (built from another lexicon) is one line naming it, and nothing is written.
    other = tmp_path / "other.txt"
    other.write_text(TINY + "facade 100\n")  # one word more: another word table
    folder = Path(json.loads(run("lexicon", "info", str(other), cwd=tmp_path).stdout)["dir"])
    masks = tmp_path / "masks.parquet"
    assert build_masks(folder / "words.parquet", masks).returncode == 0
    out = build_puzzles(masks, tmp_path / "puzzles.parquet", words_copy)
    assert_one_line_error(out, str(masks), f"not built from {words_copy}")
    assert not (tmp_path / "puzzles.parquet").exists()
    assert build_puzzles(masks, tmp_path / "puzzles.parquet", folder / "words.parquet").returncode == 0


def test_points_that_could_sum_past_int64_are_refused_where_the_sums_are_made(tiny):
    # The schema's maxima keep every sum in int64 (issue 30 case 1); settings that reach the
    # table past the schema (built in code) are refused by the check beside the sums, not wrapped.
    from puzzlesearch.bee.tables import INT64_MAX, mask_frame

    words = pl.read_parquet(tiny.dir / "words.parquet")
    rules = TableRules()
    object.__setattr__(rules, "pangram_bonus", INT64_MAX // 4)  # past the schema: 9 words x this wraps
    with pytest.raises(PuzzleError, match="could sum past int64"):
        mask_frame(words, rules)
    with pytest.raises(PuzzleError, match="could sum past int64"):
        puzzle_words(words, parse_puzzle("ABCDEFG", "e", rules), rules)
    object.__setattr__(rules, "pangram_bonus", 10**6)  # the schema's maximum: fine
    assert mask_frame(words, rules)["points"].max() >= 10**6


def test_the_report_refuses_bee_tables_of_another_lexicon(words_copy, tmp_path):
    # issue 30 case 2: puzzles and a schedule built from another lexicon's words, copied in
    # with their sound manifests, are one line naming the file in the report, which is given
    # the lexicon's words.parquet by the pipeline.
    other = tmp_path / "other.txt"
    other.write_text(TINY + "facade 100\n")
    words = Path(json.loads(run("lexicon", "info", str(other), cwd=tmp_path).stdout)["dir"]) / "words.parquet"
    masks, puzzles = tmp_path / "masks.parquet", tmp_path / "puzzles.parquet"
    assert build_masks(words, masks).returncode == 0 and build_puzzles(masks, puzzles, words).returncode == 0
    wordlist, schedule = tmp_path / "wordlist.parquet", tmp_path / "schedule.parquet"
    rules = WordListRules()
    build = run("bee", "build-wordlist", "--settings", rules.to_json(), "--words", str(words), "--out", str(wordlist))
    assert build.returncode == 0, build.stderr
    schedule_args = ["--settings", ScheduleRules(schedule_min_words=1).to_json(), "--wordlist", str(wordlist)]
    schedule_args += ["--words", str(words), "--out", str(schedule), "--pages", str(tmp_path / "pages")]
    assert run("bee", "schedule", *schedule_args).returncode == 0
    top, points, figure = (str(tmp_path / n) for n in ("top.html", "points.png", "schedule.png"))
    report_bee = ["report", "bee", "--lexicon", "tiny", "--puzzles", str(puzzles), "--top-out", top]
    report_bee += ["--points-out", points]
    report_schedule = ["report", "bee-schedule", "--lexicon", "tiny", "--schedule", str(schedule), "--out", figure]
    for command, table in ((report_bee, puzzles), (report_schedule, schedule)):
        assert_one_line_error(run(*command, "--words", str(words_copy)), str(table), f"not built from {words_copy}")
        assert run(*command, "--words", str(words)).returncode == 0
    assert Path(top).exists() and Path(figure).exists()
