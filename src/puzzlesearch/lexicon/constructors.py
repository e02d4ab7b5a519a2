"""The constructors' word list: the Spread the Wordlist, read through blacksquare's public API.

Source: the Spread the Wordlist by Brooke Husic and Enrique Henestroza Anguiano (license
CC BY-NC-SA 4.0), as shipped by the PyPI package `blacksquare` (Patrick Maher, MIT), a
dependency: `from blacksquare import DEFAULT_WORDLIST`, then `.words` and `.scores` (0..1 for
the list's 0..50). The list is never copied into the repository; it is normalized into a
lexicon artifact in the artifact store (or at an explicit path, for the pipeline):

    constructors.parquet  word (lowercase letters, no breaks), length, score (0-100 = 100 x s)
    constructors.json     its manifest: blacksquare's version, the list's sha256, counts,
                          source and license

keyed by blacksquare's version and the sha256 of the list as read (`word;score` lines in
the list's order). An entry holding anything but the letters a-z after its case is folded
is left out (counted). Phrases (ABOVETHEFOLD) are entries without breaks here; the crossword
tables give them WordNet's word breaks where WordNet has the phrase.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from puzzlesearch import kinds, manifest, store
from puzzlesearch.errors import PuzzleError
from puzzlesearch.io import write_parquet
from puzzlesearch.progress import log

if TYPE_CHECKING:  # polars is imported where the list is built or read: a store key needs none
    import polars as pl

PACKAGE = "blacksquare"
KIND = kinds.CONSTRUCTORS_LIST
LIST_FILE, LIST_MANIFEST = "constructors.parquet", "constructors.json"
LIST_NAME = "Spread the Wordlist"
SOURCE = (
    "Spread the Wordlist (Brooke Husic and Enrique Henestroza Anguiano; CC BY-NC-SA 4.0), "
    "read through blacksquare {version} (Patrick Maher; MIT): blacksquare.DEFAULT_WORDLIST"
)
LICENSE = "CC BY-NC-SA 4.0"
SCORE_SCALE = 100  # our score = SCORE_SCALE x the list's score (0..1 for the list's 0..50)
_LETTERS = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class ConstructorsList:
    """The normalized list: a frame of word, length, score and its manifest data."""

    words: pl.DataFrame
    meta: dict

    def scores(self) -> dict[str, int]:
        """word -> 0-100 score."""
        return dict(zip(self.words["word"].to_list(), self.words["score"].to_list()))


def package_version() -> str:
    """blacksquare's installed version; one line when it is missing."""
    try:
        return version(PACKAGE)
    except PackageNotFoundError:
        raise PuzzleError(
            "the constructors' word list needs the package blacksquare (pip install -e .), "
            "or set crossword.quality.constructors: false"
        ) from None


def read_list() -> tuple[list[str], list[float]]:
    """(words, scores 0..1) of blacksquare's DEFAULT_WORDLIST, as the package gives them."""
    package_version()
    from blacksquare import DEFAULT_WORDLIST  # imports pandas: only when the artifact is built

    return [str(w) for w in DEFAULT_WORDLIST.words], [float(s) for s in DEFAULT_WORDLIST.scores]


def list_sha256(words: list[str], scores: list[float]) -> str:
    """sha256 of the list as `word;score` lines (the list's order, scores to 6 places)."""
    h = hashlib.sha256()
    for w, s in zip(words, scores):
        h.update(f"{w};{s:.6f}\n".encode())
    return h.hexdigest()


def normalize(words: list[str], scores: list[float]) -> tuple[pl.DataFrame, dict]:
    """(word, length, score) of the entries spelled by a-z only (case folded), best score per word; counts."""
    import polars as pl

    best: dict[str, int] = {}
    dropped = 0
    for w, s in zip(words, scores):
        word = w.lower()
        if not _LETTERS.fullmatch(word) or not 0.0 <= s <= 1.0:
            dropped += 1
            continue
        best[word] = max(best.get(word, 0), int(round(SCORE_SCALE * s)))
    ordered = sorted(best)
    frame = pl.DataFrame(
        {"word": ordered, "length": [len(w) for w in ordered], "score": [best[w] for w in ordered]},
        schema={"word": pl.Utf8, "length": pl.Int16, "score": pl.Int16},
    )
    return frame, {"entries": len(words), "words": len(ordered), "dropped_non_letters": dropped}


def build(out: str | Path) -> dict:
    """Write constructors.parquet and its manifest constructors.json at `out` (a folder)."""
    out = Path(out)
    words, scores = read_list()
    frame, counts = normalize(words, scores)
    settings = {"package": PACKAGE, "version": package_version(), "list_sha256": list_sha256(words, scores)}
    meta = {
        "name": LIST_NAME,
        "source": SOURCE.format(version=settings["version"]),
        "license": LICENSE,
        "score": f"{SCORE_SCALE} x the list's score (0..1 for its 0..50)",
        **counts,
    }
    write_parquet(frame, out / LIST_FILE)
    manifest.write_manifest(out / LIST_MANIFEST, [out / LIST_FILE], KIND, settings, meta)
    log("lexicon", f"{LIST_NAME}: {counts['words']} words of {counts['entries']} entries -> {out / LIST_FILE}")
    return meta


def load(folder: str | Path) -> ConstructorsList:
    """The verified list of a folder built by `build`."""
    folder = Path(folder)
    frame, meta = manifest.read_verified(folder / LIST_FILE, KIND, columns=["word", "length", "score"])
    if frame.height and not (
        frame["score"].min() >= 0
        and frame["score"].max() <= SCORE_SCALE
        and frame["word"].str.contains("^[a-z]+$").all()
    ):
        raise manifest.damaged(folder / LIST_FILE, "scores outside 0..100 or words outside a-z")
    return ConstructorsList(frame, meta)


def installed_key() -> dict:
    """What the store key of the installed list holds: blacksquare's version and the sha256 of the
    package's compiled module, which carries the list (found without importing it)."""
    return {"kind": KIND, "version": package_version(), "list_file_sha256": _list_file_sha256(), "code": code_sha256()}


LIST_CARRIER = "_blacksquare_rs*"  # blacksquare's compiled module: the word list is embedded in it


def _list_file_sha256() -> str:
    """sha256 of the package's compiled module(s) holding the list."""
    import importlib.util

    spec = importlib.util.find_spec(PACKAGE)
    folder = Path(list(spec.submodule_search_locations)[0]) if spec and spec.submodule_search_locations else None
    files = sorted(p for p in folder.glob(LIST_CARRIER) if p.is_file() and p.suffix != ".pyi") if folder else []
    if not files:
        raise PuzzleError(f"{PACKAGE}: its compiled module holding the word list is missing (reinstall it)")
    h = hashlib.sha256()
    for path in files:
        h.update(manifest.file_sha256(path).encode())
    return h.hexdigest()


def code_sha256() -> str:
    """Hash of the code that shapes the artifact (kinds.py)."""
    return kinds.code_sha256(KIND)


def open_list() -> ConstructorsList:
    """The installed list from the artifact store, built on first use (about a second)."""
    parts = installed_key()
    folder = store.ensure(
        KIND, store.content_key(**parts), build, f"{LIST_NAME} (blacksquare {parts['version']})", parts
    )
    return load(folder)
