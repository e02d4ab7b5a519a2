"""A lexicon's artifacts: how they are built, checked on load, and opened on first use.

A lexicon folder holds (the pipeline's is results/lexicon/{name}/, the store's is
<store>/lexicon/<key>/):

    words.parquet    the word table (normalize.WORDS_SCHEMA)
    words.json       its manifest: entries read, dropped by reason, source sha256, settings
    dawg.npz|.json   minimal DAWG of all words, and its manifest (latin lexicons)
    boggle_dawg.npz|.json   minimal DAWG of Boggle keys (3+ letters), and its manifest

The pipeline builds them with `lexicon build-words` / `build-dawg` from explicit paths;
interactive commands go through `open_lexicon`, which builds all of them at once into
the artifact store (puzzlesearch.store), keyed by the source's content and the options.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from puzzlesearch import kinds, manifest, store
from puzzlesearch.config import load_config
from puzzlesearch.errors import ConfigError, PuzzleError
from puzzlesearch.io import write_parquet
from puzzlesearch.lexicon.dawg import Dawg, build_dawg
from puzzlesearch.lexicon.model import LexiconOptions, LexiconSpec
from puzzlesearch.lexicon.sources import is_builtin, source_file
from puzzlesearch.progress import Timer, log

if TYPE_CHECKING:  # polars is imported where a table is read or built: opening a lexicon's manifest needs none
    import polars as pl

DAWG_KINDS = (kinds.DAWG, kinds.BOGGLE_DAWG)
WORDS_FILE, WORDS_MANIFEST = "words.parquet", "words.json"
_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def code_sha256() -> str:
    """Hash of the code that shapes a lexicon's artifacts (kinds.py; store keys change with it)."""
    return kinds.code_sha256(kinds.LEXICON_WORDS, kinds.DAWG, kinds.BOGGLE_DAWG)


# ---------------------------------------------------------------- specs from config


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
    source = str(opts.pop("source", "") or "")
    if not source:
        raise ConfigError(f"config key lexicons.{name}.source: missing")
    if is_builtin(source):
        try:
            source_file(source)
        except PuzzleError as exc:
            raise ConfigError(f"config key lexicons.{name}: {exc}") from None
    return LexiconSpec(name, source, LexiconOptions.from_config(opts))


def specs_from_config(config: dict) -> dict[str, LexiconSpec]:
    """Every lexicon named in the config."""
    defaults = config.get("lexicon", {}) or {}
    return {n: spec_from_config(n, v, defaults) for n, v in (config.get("lexicons") or {}).items()}


def resolve_spec(name_or_path: str, config: dict, root: str | Path | None = None) -> LexiconSpec:
    """A configured lexicon name, or a path to a word-list file (named after its stem).

    A configured source given as a relative path is taken from `root` (the project folder).
    """
    specs = specs_from_config(config)
    if name_or_path in specs:
        spec = specs[name_or_path]
        if not is_builtin(spec.source) and root is not None and not Path(spec.source).is_absolute():
            spec = spec.with_source(str(Path(root) / spec.source))
        return spec
    path = Path(name_or_path)
    if not path.exists():
        known = ", ".join(sorted(specs)) or "none"
        raise PuzzleError(f"--lexicon {name_or_path!r}: not a configured lexicon ({known}) nor a file")
    stem = re.sub(r"[^A-Za-z0-9_-]", "_", path.stem) or "wordlist"
    return spec_from_config(stem, str(path), config.get("lexicon", {}) or {})


# ---------------------------------------------------------------- building (explicit paths)


def build_words(spec: LexiconSpec, source: str | Path, out_words: str | Path) -> dict:
    """Normalize the word list `source` into words.parquet and its manifest words.json."""
    from puzzlesearch.lexicon.normalize import normalize  # (imports polars)

    out_words = Path(out_words)
    with Timer() as t:
        table = normalize(spec, source_path=source)
    stats = table.stats()
    stats.update(
        name=spec.name,
        source=spec.source,
        settings=spec.options.to_dict(),
        source_sha256=manifest.file_sha256(source),
        seconds=round(t.seconds, 3),
    )
    write_parquet(table.words, out_words)
    meta = manifest.write_manifest(
        out_words.with_name(WORDS_MANIFEST),
        [out_words],
        kinds.LEXICON_WORDS,
        {**spec.options.to_dict(), "source_sha256": stats["source_sha256"]},
        stats,
    )
    log(
        "lexicon",
        f"{spec.name}: {stats['entries']} entries -> {stats['words']} words "
        f"(dropped {stats['dropped']}; Boggle: {stats['boggle_words']} words, "
        f"dropped {stats['boggle_dropped']}) in {t.seconds:.2f}s",
    )
    return meta


def read_words(words_path: str | Path, columns=None) -> pl.DataFrame:
    """words.parquet, verified against its manifest words.json first."""
    words_path = Path(words_path)
    return manifest.read_verified(words_path, kinds.LEXICON_WORDS, columns=columns)[0]


def words_settings(words_path: str | Path) -> dict:
    """What a words.parquet was built from: its manifest's settings (the source sha256 and options)."""
    return manifest.read_manifest(Path(words_path).with_name(WORDS_MANIFEST))["manifest"]["settings"]


def build_dawg_file(words_path: str | Path, out_path: str | Path, kind: str = kinds.DAWG) -> dict:
    """Build dawg.npz (all words) or boggle_dawg.npz (Boggle keys) and its manifest from words.parquet."""
    import polars as pl

    if kind not in DAWG_KINDS:
        raise PuzzleError(f"unknown DAWG kind {kind!r} (have {', '.join(DAWG_KINDS)})")
    words = read_words(words_path)
    if words["mask"].is_null().any():
        raise PuzzleError(f"{words_path}: DAWGs are built for latin (a-z) lexicons only")
    with Timer() as t:
        if kind == kinds.DAWG:
            dawg = build_dawg(words["word"].to_list())
        else:
            rows = words.filter(pl.col("boggle").is_not_null()).sort("boggle")
            dawg = build_dawg(rows["boggle"].to_list())
            dawg.word_id = rows["word_id"].to_numpy().astype("int32")
            dawg.word_length = rows["length"].to_numpy().astype("int16")
    meta = {
        "kind": kind,
        "nodes": dawg.n_nodes,
        "edges": dawg.n_edges,
        "words": dawg.n_words,
        "bytes": dawg.nbytes,
        "build_seconds": round(t.seconds, 3),
        "alphabet": dawg.alphabet,
    }
    out_path = Path(out_path)
    dawg.save(out_path)
    words_sha = manifest.file_sha256(words_path)
    manifest.write_manifest(out_path.with_suffix(".json"), [out_path], kind, {"words_sha256": words_sha}, meta)
    log(
        "lexicon",
        f"{out_path}: {dawg.n_nodes} nodes, {dawg.n_edges} edges, {dawg.n_words} words, "
        f"{dawg.nbytes} bytes, built in {t.seconds:.2f}s",
    )
    return meta


def build_folder(spec: LexiconSpec, folder: Path) -> None:
    """Every artifact of a lexicon into `folder` (the store's build step)."""
    build_words(spec, source_file(spec.source), folder / WORDS_FILE)
    if spec.alphabet == "latin":
        for kind in DAWG_KINDS:
            build_dawg_file(folder / WORDS_FILE, folder / f"{kind}.npz", kind)


# ---------------------------------------------------------------- opening


@dataclass
class Lexicon:
    """A lexicon's built artifacts in one folder, each verified when first loaded."""

    spec: LexiconSpec
    dir: Path

    @property
    def name(self) -> str:
        return self.spec.name

    @cached_property
    def stats(self) -> dict:
        """words.json (counts, drop reasons, source hash) as a dict, verified."""
        return manifest.verify(self.dir / WORDS_MANIFEST, kinds.LEXICON_WORDS)

    @cached_property
    def words(self) -> pl.DataFrame:
        """The word table (words.parquet), verified."""
        return read_words(self.dir / WORDS_FILE)

    @cached_property
    def dawg(self) -> Dawg:
        """The DAWG of all words; ranks are word_id in words.parquet."""
        return self._dawg(kinds.DAWG)

    @cached_property
    def boggle_dawg(self) -> Dawg:
        """The DAWG of Boggle keys ('q' = "Qu"), with word_id and word_length per rank."""
        return self._dawg(kinds.BOGGLE_DAWG)

    def _dawg(self, kind: str) -> Dawg:
        path = self.dir / f"{kind}.npz"
        if self.spec.alphabet != "latin":
            raise PuzzleError(
                f"lexicon {self.name!r}: alphabet {self.spec.alphabet}; DAWGs are built for latin lexicons"
            )
        meta = manifest.verify(path.with_suffix(".json"), kind, [path.name])
        words_sha = self.stats["manifest"]["files"].get(WORDS_FILE, {}).get("sha256")
        if meta["manifest"]["settings"].get("words_sha256") != words_sha:
            raise manifest.damaged(path, f"built from another word table than this folder's {WORDS_FILE}")
        dawg = Dawg.load(path, meta)
        if dawg.word_id is not None and dawg.n_words and int(dawg.word_id.max()) >= self.stats["words"]:
            raise manifest.damaged(path, f"word ids beyond the {self.stats['words']} words of {WORDS_FILE}")
        return dawg


def lexicon_from_files(words_path: str | Path, name: str | None = None) -> Lexicon:
    """The lexicon whose words.parquet is `words_path` (a pipeline folder), checked."""
    words_path = Path(words_path)
    meta = manifest.verify(words_path.with_name(WORDS_MANIFEST), kinds.LEXICON_WORDS, [words_path.name])
    options = LexiconOptions.from_dict(
        {k: v for k, v in meta["manifest"]["settings"].items() if k in LexiconOptions.keys()}
    )
    return Lexicon(
        LexiconSpec(name or meta.get("name", words_path.parent.name), meta.get("source", ""), options),
        words_path.parent,
    )


def open_lexicon(
    name_or_path: str, config: dict | None = None, root: str | Path | None = None, alphabet: str | None = None
) -> Lexicon:
    """Open a lexicon by config name or file path from the artifact store, building it on first use.

    With `alphabet`, a lexicon over another alphabet is refused before anything is built.
    `root` is the folder relative config sources are read from (the project folder).
    """
    if config is None:
        config, found = load_config()
        root = root if root is not None else found
    spec = resolve_spec(name_or_path, config, root)
    if alphabet is not None and spec.alphabet != alphabet:
        raise PuzzleError(f"--lexicon {spec.name!r}: alphabet {spec.alphabet}; this needs a {alphabet} lexicon")
    source = source_file(spec.source)
    if not is_builtin(spec.source):
        if not source.is_file():
            raise PuzzleError(
                f"word list {source}: " + ("is a folder, not a file" if source.is_dir() else "no such file")
            )
    source_sha = manifest.file_sha256(source)
    parts = dict(kind="lexicon", source_sha256=source_sha, options=spec.options.to_dict(), code=code_sha256())
    what = f"lexicon {spec.name} ({spec.source})"
    folder = store.ensure("lexicon", store.content_key(**parts), lambda tmp: build_folder(spec, tmp), what, parts)
    lexicon = Lexicon(spec, folder)
    check_built_from(lexicon, source_sha)
    return lexicon


def check_built_from(lexicon: Lexicon, source_sha: str) -> None:
    """ArtifactError unless the folder's words.json records this source's sha256 and the spec's options."""
    settings = lexicon.stats["manifest"]["settings"]
    recorded = {k: settings.get(k) for k in lexicon.spec.options.to_dict()}
    if lexicon.stats.get("source_sha256") != source_sha or settings.get("source_sha256") != source_sha:
        raise manifest.damaged(lexicon.dir / WORDS_MANIFEST, "built from another word list than the one asked for")
    if recorded != lexicon.spec.options.to_dict():
        raise manifest.damaged(lexicon.dir / WORDS_MANIFEST, f"built with other options {recorded}")


def lexicon_info(lex: Lexicon) -> dict:
    """A lexicon's statistics and DAWG sizes, for `lexicon info`."""
    info = {
        "name": lex.name,
        "source": lex.spec.source,
        "dir": str(lex.dir),
        **{k: v for k, v in lex.stats.items() if k != "manifest"},
    }
    if lex.spec.alphabet == "latin":
        for kind in DAWG_KINDS:
            d = getattr(lex, kind)
            info[kind] = {"nodes": d.n_nodes, "edges": d.n_edges, "words": d.n_words, "bytes": d.nbytes}
    return json.loads(json.dumps(info))
