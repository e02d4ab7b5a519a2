"""Where a lexicon's artifacts live, how they are built, and opening them on first use.

    results/lexicon/{name}/words.parquet      the word table (normalize.WORDS_SCHEMA)
    results/lexicon/{name}/stats.json         entries read, dropped by reason, source hash
    results/lexicon/{name}/dawg.npz|.json     minimal DAWG of all words (latin lexicons)
    results/lexicon/{name}/boggle_dawg.npz|.json  minimal DAWG of Boggle keys (3+ letters)

The Snakemake rules and `open_lexicon` (used by the CLI) write the same files.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import json
import polars as pl

from puzzlesearch.errors import ConfigError, PuzzleError
from puzzlesearch.io import write_json, write_parquet
from puzzlesearch.lexicon.dawg import Dawg, build_dawg
from puzzlesearch.lexicon.model import ALPHABETS, CASE_POLICIES, LexiconSpec
from puzzlesearch.lexicon.normalize import normalize
from puzzlesearch.lexicon.sources import is_builtin, source_file
from puzzlesearch.progress import Timer, log

RESULTS_DIR = "results"
DAWG_KINDS = ("dawg", "boggle_dawg")
_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def lexicon_dir(name: str, root: str | Path = ".") -> Path:
    """results/lexicon/{name} under the project root."""
    return Path(root) / RESULTS_DIR / "lexicon" / name


def file_sha256(path: str | Path) -> str:
    """Hex sha256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


_WORDS_CODE = ("model.py", "sources.py", "normalize.py")
_DAWG_CODE = ("dawg.py",)


def code_sha256(modules: tuple[str, ...]) -> str:
    """Hash of the lexicon modules that build an artifact (stale when the code changes)."""
    h = hashlib.sha256()
    for name in modules:
        h.update((Path(__file__).parent / name).read_bytes())
    return h.hexdigest()


def spec_from_config(name: str, value, defaults: dict | None = None) -> LexiconSpec:
    """A LexiconSpec from a `lexicons:` entry (a source string or a mapping)."""
    if not _NAME.match(name):
        raise ConfigError(f"config key lexicons.{name}: a lexicon name may use only letters, digits, _ and -")
    opts = dict(defaults or {})
    if isinstance(value, str):
        opts["source"] = value
    elif isinstance(value, dict):
        opts.update(value)
    else:
        raise ConfigError(f"config key lexicons.{name}: expected a source path or a mapping")
    source = str(opts.get("source", ""))
    if not source:
        raise ConfigError(f"config key lexicons.{name}.source: missing")
    alphabet = opts.get("alphabet", "latin")
    if alphabet not in ALPHABETS:
        raise ConfigError(f"config key lexicons.{name}.alphabet: {alphabet!r} is not one of {sorted(ALPHABETS)}")
    case = opts.get("case", "auto")
    if case not in CASE_POLICIES:
        raise ConfigError(f"config key lexicons.{name}.case: {case!r} is not one of {list(CASE_POLICIES)}")
    return LexiconSpec(name, source, alphabet, case, int(opts.get("min_length", 2)))


def specs_from_config(config: dict) -> dict[str, LexiconSpec]:
    """Every lexicon named in config.yaml."""
    defaults = config.get("lexicon", {}) or {}
    return {n: spec_from_config(n, v, defaults) for n, v in (config.get("lexicons") or {}).items()}


def resolve_spec(name_or_path: str, config: dict, root: str | Path | None = None) -> LexiconSpec:
    """A configured lexicon name, or a path to a word-list file (named after its stem).

    A file whose stem is taken (by a configured lexicon, or by another file's artifacts
    under `root`) is named `<stem>-<hash of its path>`.
    """
    specs = specs_from_config(config)
    if name_or_path in specs:
        return specs[name_or_path]
    path = Path(name_or_path)
    if not path.exists():
        known = ", ".join(sorted(specs)) or "none"
        raise PuzzleError(f"--lexicon {name_or_path!r}: not a lexicon name in config.yaml ({known}) nor a file")
    for spec in specs.values():  # a path that a configured lexicon already names
        if not is_builtin(spec.source) and Path(spec.source).resolve() == path.resolve():
            return spec
    stem = re.sub(r"[^A-Za-z0-9_-]", "_", path.stem) or "wordlist"
    name = stem
    if stem in specs or _built_from_other_file(lexicon_dir(stem, root or "."), path):
        name = f"{stem}-{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:8]}"
    defaults = config.get("lexicon", {}) or {}
    return spec_from_config(name, str(path), defaults)


def _built_from_other_file(folder: Path, path: Path) -> bool:
    """True when folder holds artifacts of a different word-list file than `path`."""
    try:
        stats = json.loads((folder / "stats.json").read_text())
    except (OSError, ValueError):
        return False
    return stats.get("source_path") not in (None, str(path.resolve()))


def build_words(spec: LexiconSpec, out_dir: str | Path) -> dict:
    """Normalize a source into words.parquet and stats.json; return the stats."""
    out_dir = Path(out_dir)
    with Timer() as t:
        table = normalize(spec)
    stats = table.stats()
    stats.update(name=spec.name, source=spec.source, params=spec.params(),
                 source_sha256=file_sha256(source_file(spec.source)), seconds=round(t.seconds, 3),
                 source_path=str(source_file(spec.source).resolve()), code_sha256=code_sha256(_WORDS_CODE))
    write_parquet(table.words, out_dir / "words.parquet")
    write_json(stats, out_dir / "stats.json")
    log("lexicon", f"{spec.name}: {stats['entries']} entries -> {stats['words']} words "
        f"(dropped {stats['dropped']}; Boggle: {stats['boggle_words']} words, "
        f"dropped {stats['boggle_dropped']}) in {t.seconds:.2f}s")
    return stats


def build_dawg_file(words_path: str | Path, out_path: str | Path, kind: str = "dawg") -> dict:
    """Build dawg.npz (all words) or boggle_dawg.npz (Boggle keys) from words.parquet."""
    if kind not in DAWG_KINDS:
        raise PuzzleError(f"unknown DAWG kind {kind!r} (have {', '.join(DAWG_KINDS)})")
    words = pl.read_parquet(words_path)
    if words["mask"].is_null().any():
        raise PuzzleError(f"{words_path}: DAWGs are built for latin (a-z) lexicons only")
    with Timer() as t:
        if kind == "dawg":
            dawg = build_dawg(words["word"].to_list())
        else:
            rows = words.filter(pl.col("boggle").is_not_null()).sort("boggle")
            dawg = build_dawg(rows["boggle"].to_list())
            dawg.word_id = rows["word_id"].to_numpy().astype("int32")
            dawg.word_length = rows["length"].to_numpy().astype("int16")
    meta = {"kind": kind, "nodes": dawg.n_nodes, "edges": dawg.n_edges, "words": dawg.n_words,
            "bytes": dawg.nbytes, "build_seconds": round(t.seconds, 3), "alphabet": dawg.alphabet,
            "code_sha256": code_sha256(_DAWG_CODE)}
    out_path = Path(out_path)
    dawg.save(out_path)
    write_json(meta, out_path.with_suffix(".json"))
    log("lexicon", f"{out_path}: {dawg.n_nodes} nodes, {dawg.n_edges} edges, {dawg.n_words} words, "
        f"{dawg.nbytes} bytes, built in {t.seconds:.2f}s")
    return meta


@dataclass
class Lexicon:
    """A lexicon's built artifacts, loaded lazily."""

    spec: LexiconSpec
    dir: Path
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.spec.name

    @cached_property
    def words(self) -> pl.DataFrame:
        """The word table (words.parquet)."""
        return pl.read_parquet(self.dir / "words.parquet")

    @cached_property
    def stats(self) -> dict:
        """stats.json as a dict."""
        return json.loads((self.dir / "stats.json").read_text())

    @cached_property
    def dawg(self) -> Dawg:
        """The DAWG of all words; ranks are word_id in words.parquet."""
        return Dawg.load(self._ensure_dawg("dawg"))

    @cached_property
    def boggle_dawg(self) -> Dawg:
        """The DAWG of Boggle keys ('q' = "Qu"), with word_id and word_length per rank."""
        return Dawg.load(self._ensure_dawg("boggle_dawg"))

    def _ensure_dawg(self, kind: str) -> Path:
        path = self.dir / f"{kind}.npz"
        words = self.dir / "words.parquet"
        try:
            meta = json.loads(path.with_suffix(".json").read_text())
            stale = (meta.get("code_sha256") != code_sha256(_DAWG_CODE)
                     or path.stat().st_mtime < words.stat().st_mtime)
        except (OSError, ValueError):
            stale = True
        if stale:
            build_dawg_file(words, path, kind)
        return path


def _fresh(spec: LexiconSpec, folder: Path) -> bool:
    """True when words.parquet exists and was built from this source and these options."""
    stats_path = folder / "stats.json"
    if not (folder / "words.parquet").exists() or not stats_path.exists():
        return False
    try:
        stats = json.loads(stats_path.read_text())
    except (OSError, ValueError):
        return False
    return (stats.get("params") == spec.params()
            and stats.get("code_sha256") == code_sha256(_WORDS_CODE)
            and stats.get("source_sha256") == file_sha256(source_file(spec.source)))


def open_lexicon(name_or_path: str, config: dict | None = None, root: str | Path | None = None,
                 alphabet: str | None = None) -> Lexicon:
    """Open a lexicon by config name or file path, building its word table on first use.

    With `alphabet`, a lexicon over another alphabet is refused before anything is built.
    """
    if config is None or root is None:
        from puzzlesearch.config import load_config

        loaded, loaded_root = load_config()
        config = loaded if config is None else config
        root = loaded_root if root is None else root
    spec = resolve_spec(name_or_path, config, root)
    if alphabet is not None and spec.alphabet != alphabet:
        raise PuzzleError(f"--lexicon {spec.name!r}: alphabet {spec.alphabet}; this needs a {alphabet} lexicon")
    if not is_builtin(spec.source) and not Path(spec.source).is_absolute() and not Path(spec.source).exists():
        spec = replace(spec, source=str(Path(root) / spec.source))  # relative to the project
    folder = lexicon_dir(spec.name, root)
    if not _fresh(spec, folder):
        log("lexicon", f"building {spec.name} from {spec.source}")
        build_words(spec, folder)
    return Lexicon(spec, folder)
