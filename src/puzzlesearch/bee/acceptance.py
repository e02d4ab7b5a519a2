"""Which words a daily Spelling Bee accepts: a logistic regression on word facts (issue 60).

Candidates are the words the installed sources know (4+ letters a-z): wordfreq's English
`large` list, pyspellchecker's English list (the `builtin:en` lexicon), WordNet 3.0's
lowercase one-word lemmas and, when Debian's `scowl` package is installed, SCOWL's words up
to size 80, plus the lexicon being judged. Each candidate gets the features of `design`
(frequency, dictionary facts, the constructors' crossword score, SCOWL's size, shape; see
docs/bee.md), and the model's probability that the NYT accepts it is

    p(word) = 1 / (1 + exp(-(intercept + sum_i coef_i * (x_i - mean_i) / scale_i)))

The word list holds the candidates with p >= threshold that are on no blocklist. The
parameters (mean, scale, coef, intercept, threshold) are fitted by `fit` on published
puzzles (positives: a puzzle's answers; negatives: candidates its letters allow that it did
not accept), the threshold chosen by leave-one-year-out cross-validation, and shipped in
bee/data/acceptance.json; `puzzlesearch bee fit-wordlist` refits them. Without SCOWL
(/usr/share/dict/scowl absent) the features lack its columns and the second parameter file,
bee/data/acceptance-without-scowl.json (`fit-wordlist --without-scowl`), is used instead.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from importlib.metadata import version
from pathlib import Path

import numpy as np

from puzzlesearch.errors import PuzzleError

PARAMS_FILE = "acceptance.json"  # in puzzlesearch/bee/data: the model with SCOWL's columns
PARAMS_FILE_WITHOUT_SCOWL = "acceptance-without-scowl.json"  # the fallback when SCOWL is not installed
SCOWL_DIR = Path("/usr/share/dict/scowl")  # Debian's `scowl` package: {list}-words.{size} files
SCOWL_LISTS = ("english", "american", "british", "canadian", "variant_1", "variant_2", "variant_3")
SCOWL_SIZES = (10, 20, 35, 40, 50, 55, 60, 70, 80)  # the cumulative features `scowl<=size` (95: the rest)
SCOWL_CANDIDATE_SIZE = 80  # SCOWL's words up to this size are candidates
CROSSWORD_LEVELS = (0.2, 0.4, 0.6, 0.8, 1.0)  # the Spread the Wordlist's scores 10..50 (0..1)
MIN_CANDIDATE = 4  # letters: the shortest word a Bee counts
WORD = re.compile(r"[a-z]+")
SPELL_SOURCE = "builtin:en"  # pyspellchecker's English list
SPELL_FLOOR = 50  # pyspellchecker's count for words its corpus never saw
ZIPF_KNOTS = (1.0, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0)  # hinges of the piecewise-linear Zipf term
POS = ("noun", "verb", "adj", "adv")
INFLECTIONS = {  # feature -> WordNet.bases hints
    "plural": ("plural",),
    "verb_s": ("verb, -s form",),
    "past": ("past tense",),
    "ing": ("-ing form",),
    "comparative": ("comparative", "superlative"),
    "irregular": ("verb form", "comparative or superlative", "form"),
}
L2 = 1.0  # ridge penalty on the standardised coefficients (not the intercept)
NEWTON_STEPS, NEWTON_TOL = 100, 1e-9
THRESHOLDS = tuple(round(0.10 + 0.01 * i, 2) for i in range(71))  # 0.10 .. 0.80, searched by cross-validation
TARGET_PRECISION = 0.86  # the threshold: the lowest whose cross-validated precision reaches this
WITHIN = 0.25  # a puzzle's count is "NYT-like" within 25% of the published count


# ---------------------------------------------------------------- the word facts


@dataclass(frozen=True)
class WordFacts:
    """What the model knows of words: wordfreq Zipf, pyspellchecker counts, WordNet, blocklist, crossword scores, SCOWL."""

    zipf: dict  # word -> Zipf frequency (wordfreq, English, large list; 2 decimals)
    spell: dict  # word -> pyspellchecker count
    wordnet: object  # puzzlesearch.lexicon.wordinfo.WordNet
    blocklist: frozenset
    crossword: dict  # word -> the constructors' list score 0..1 (Spread the Wordlist via blacksquare)
    scowl: dict | None  # word -> smallest SCOWL size listing it; None when SCOWL is not installed

    def candidates(self, extra=()) -> list[str]:
        """Every word (a-z, 4+ letters) a source knows, plus `extra` (the lexicon), sorted."""
        known = set(self.zipf) | set(self.spell) | set(self.wordnet.senses) | set(extra)
        if self.scowl is not None:
            known |= {w for w, size in self.scowl.items() if size <= SCOWL_CANDIDATE_SIZE}
        return sorted(w for w in known if len(w) >= MIN_CANDIDATE and WORD.fullmatch(w))

    @property
    def params_file(self) -> str:
        """The shipped parameter file whose features these facts give."""
        return PARAMS_FILE if self.scowl is not None else PARAMS_FILE_WITHOUT_SCOWL

    def describe(self) -> dict:
        """Names and versions of the sources, for manifests and the parameter file."""
        from puzzlesearch.lexicon.constructors import LIST_NAME, PACKAGE
        from puzzlesearch.lexicon.wordinfo import WORDNET_PACKAGE, WORDNET_SOURCE

        scowl = f"Debian scowl: {SCOWL_DIR}, {len(self.scowl)} words" if self.scowl is not None else "absent"
        return {
            "frequency": f"wordfreq {version('wordfreq')} (en, 'large' list, Zipf scale)",
            "spelling": f"pyspellchecker {version('pyspellchecker')} (en counts)",
            "word_classes": WORDNET_SOURCE.format(version=version(WORDNET_PACKAGE)),
            "blocklist": f"lexicon/data/blocklist.txt + bee/data/blocklist.txt: {len(self.blocklist)} words",
            "crossword": f"{LIST_NAME} through {PACKAGE} {version(PACKAGE)}: {len(self.crossword)} one-word entries",
            "scowl": scowl,
        }


def wordfreq_zipf() -> dict[str, float]:
    """wordfreq's English Zipf frequencies of its a-z words (as wordfreq.zipf_frequency rounds them)."""
    try:
        import wordfreq
    except ImportError:
        raise PuzzleError("the Bee word list needs the `wordfreq` package (pip install -e .)") from None
    table = wordfreq.get_frequency_dict("en", wordlist="large")
    return {w: round(math.log10(f) + 9, 2) for w, f in table.items() if WORD.fullmatch(w)}


def spell_counts() -> dict[str, int]:
    """pyspellchecker's English word counts (a-z words), read from the package's data."""
    from puzzlesearch.lexicon.sources import source_file

    with gzip.open(source_file(SPELL_SOURCE), "rt", encoding="utf-8") as fh:
        return {w: int(c) for w, c in json.load(fh).items() if WORD.fullmatch(w)}


def crossword_scores() -> dict[str, float]:
    """The constructors' list (Spread the Wordlist, through blacksquare): a-z entry -> its best score 0..1."""
    from puzzlesearch.lexicon.constructors import read_list

    out: dict[str, float] = {}
    for word, s in zip(*read_list()):
        w = word.lower()
        if WORD.fullmatch(w):
            out[w] = max(out.get(w, 0.0), round(s, 2))
    return out


def scowl_sizes(folder: Path = SCOWL_DIR) -> dict[str, int] | None:
    """SCOWL's a-z words -> the smallest size listing them (lists SCOWL_LISTS); None when not installed."""
    files = [f for f in sorted(folder.glob("*-words.*")) if f.name.rsplit("-words.", 1)[0] in SCOWL_LISTS]
    if not files:
        return None
    out: dict[str, int] = {}
    for f in files:
        size = int(f.name.rsplit(".", 1)[1])
        for line in f.read_text(encoding="latin-1").splitlines():
            if WORD.fullmatch(line):
                out[line] = min(out.get(line, size), size)
    return out


def sources_key(scowl_dir: Path | None = None) -> dict:
    """What names the installed sources without reading them (store keys): package versions, and
    SCOWL's files (name and size) or its absence."""
    from puzzlesearch.lexicon.constructors import PACKAGE
    from puzzlesearch.lexicon.wordinfo import WORDNET_PACKAGE

    folder = scowl_dir or SCOWL_DIR
    scowl = sorted((f.name, f.stat().st_size) for f in folder.glob("*-words.*")) if folder.is_dir() else []
    packages = ("wordfreq", "pyspellchecker", WORDNET_PACKAGE, PACKAGE)
    return {"packages": {p: version(p) for p in packages}, "scowl": scowl or "absent"}


def default_facts(scowl_dir: Path | None = None) -> WordFacts:
    """The installed sources (nothing fetched); SCOWL (SCOWL_DIR) only when Debian's `scowl` is installed."""
    from puzzlesearch.bee.wordlist import bee_blocklist
    from puzzlesearch.lexicon.wordinfo import load_wordnet

    scowl_dir = scowl_dir or SCOWL_DIR
    scowl = scowl_sizes(scowl_dir)
    if scowl is None:
        from puzzlesearch.progress import log

        log("bee", f"{scowl_dir} absent (Debian's scowl): the word list uses the model without SCOWL's features")
    return WordFacts(wordfreq_zipf(), spell_counts(), load_wordnet(), bee_blocklist(), crossword_scores(), scowl)


# ---------------------------------------------------------------- features


WORDNET_COLUMNS = ("senses", "tagged", "cap_only", "inflected", "base_zipf", "base_senses")
WORDNET_COLUMNS += tuple("pos_" + p for p in POS) + tuple("infl_" + k for k in INFLECTIONS)


def wordnet_columns(words: list[str], facts: WordFacts) -> dict[str, np.ndarray]:
    """WordNet's facts per word: lowercase senses by part of speech, tagged senses, a name only, an inflection."""
    wn = facts.wordnet
    col = {k: np.zeros(len(words)) for k in WORDNET_COLUMNS}
    for i, word in enumerate(words):
        senses = wn.senses.get(word, ())
        own = [s for s in senses if word in s.lemmas]  # senses spelt in lowercase: not a name
        if own:
            col["senses"][i] = len(own)
            col["tagged"][i] = sum(wn.tag_counts.get((word, p), 0) for p in POS)
            for p in {s.pos for s in own}:
                col["pos_" + p][i] = 1.0
            continue
        col["cap_only"][i] = float(bool(senses))
        col["tagged"][i] = sum(wn.tag_counts.get((word, p), 0) for p in POS)
        bases = wn.bases(word)
        if bases:
            col["inflected"][i] = 1.0
            col["base_zipf"][i] = max(facts.zipf.get(b, 0.0) for b, _, _ in bases)
            col["base_senses"][i] = max(len(wn.senses.get(b, ())) for b, _, _ in bases)
            hints = {h for _, _, h in bases}
            for name, hs in INFLECTIONS.items():
                col["infl_" + name][i] = float(bool(hints.intersection(hs)))
    return col


def design(words: list[str], facts: WordFacts) -> tuple[list[str], np.ndarray]:
    """(feature names, matrix words x features) of the model."""
    col = wordnet_columns(words, facts)
    counts = np.array([facts.spell.get(w, 0) for w in words], dtype=np.float64)
    col["zipf"] = np.array([facts.zipf.get(w, 0.0) for w in words], dtype=np.float64)
    col["spell"] = np.log10(np.maximum(counts, 1.0))
    col["in_spell"], col["spell_floor"] = (counts > 0) * 1.0, (counts == SPELL_FLOOR) * 1.0
    col["function"] = np.array([w in facts.wordnet.function_words for w in words], dtype=np.float64)
    vowel = re.compile("[aeiouy]")
    col["abbreviation"] = np.array([not vowel.search(w) for w in words], dtype=np.float64) * (1 - col["function"])
    z, lemma = col["zipf"], (col["senses"] > 0) * 1.0
    lengths = np.array([len(w) for w in words], dtype=np.int64)
    c = {"zipf": z} | {f"zipf>{k}": np.maximum(z - k, 0.0) for k in ZIPF_KNOTS} | {"zipf_missing": (z == 0) * 1.0}
    c |= {k: col[k] for k in ("spell", "in_spell", "spell_floor")}
    c |= {"lemma": lemma, "log_senses": np.log1p(col["senses"]), "log_tagged": np.log1p(col["tagged"])}
    c |= {k: col[k] for k in ("cap_only", "function")}
    c["unknown_to_wordnet"] = (1 - lemma) * (1 - col["inflected"]) * (1 - col["cap_only"])
    c |= {"pos_" + p: col["pos_" + p] for p in POS} | {"infl_" + k: col["infl_" + k] for k in INFLECTIONS}
    c |= {"base_zipf": col["base_zipf"], "base_zipf>3": np.maximum(col["base_zipf"] - 3, 0.0)}
    c |= {
        "log_base_senses": np.log1p(col["base_senses"]),
        "zipf*lemma": z * lemma,
        "zipf*inflected": z * col["inflected"],
    }
    c |= {f"length={n}": (lengths == n) * 1.0 for n in (5, 6, 7, 8, 9)} | {"length>=10": (lengths >= 10) * 1.0}
    c["abbreviation"] = col["abbreviation"]
    c |= letter_columns(words) | crossword_columns(words, facts)
    if facts.scowl is not None:
        sizes = np.array([facts.scowl.get(w, 0) for w in words], dtype=np.int64)
        c["scowl_missing"] = (sizes == 0) * 1.0
        c |= {f"scowl<={n}": ((sizes > 0) & (sizes <= n)) * 1.0 for n in SCOWL_SIZES}
    names = list(c)
    return names, np.column_stack([c[n] for n in names]) if words else np.zeros((0, len(names)))


def letter_columns(words: list[str]) -> dict[str, np.ndarray]:
    """Shape: few distinct letters (NANA, TITI), letters per distinct letter, a doubled letter."""
    distinct = np.array([len(set(w)) for w in words], dtype=np.float64)
    lengths = np.array([len(w) for w in words], dtype=np.float64)
    double = re.compile(r"(.)\1")
    return {
        "distinct<=3": (distinct <= 3) * 1.0,
        "distinct=4": (distinct == 4) * 1.0,
        "length/distinct": lengths / np.maximum(distinct, 1.0),
        "double_letter": np.array([bool(double.search(w)) for w in words], dtype=np.float64),
    }


def crossword_columns(words: list[str], facts: WordFacts) -> dict[str, np.ndarray]:
    """The constructors' list: whether it has the word, and its score level."""
    score = np.array([facts.crossword.get(w, -1.0) for w in words], dtype=np.float64)
    out = {"crossword": (score >= 0) * 1.0}
    return out | {f"crossword={v}": (np.abs(score - v) < 0.01) * 1.0 for v in CROSSWORD_LEVELS}


# ---------------------------------------------------------------- the model


@dataclass(frozen=True)
class Model:
    """A fitted acceptance rule: standardisation, coefficients, intercept, threshold."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    threshold: float
    info: dict  # what it was fitted on, the cross-validation table, the sources

    def probability(self, names: list[str], x: np.ndarray) -> np.ndarray:
        """p(accepted) per row of x (columns `names`, which must be the model's features)."""
        if tuple(names) != self.features:
            raise PuzzleError("the Bee acceptance parameters name other features than this code computes; refit them")
        return sigmoid(self.intercept + ((x - self.mean) / self.scale) @ self.coef)

    def to_json(self) -> str:
        """The parameter file's text (stable: sorted keys, fixed rounding)."""
        rows = [
            {"feature": f, "mean": round(float(m), 12), "scale": round(float(s), 12), "coef": round(float(c), 12)}
            for f, m, s, c in zip(self.features, self.mean, self.scale, self.coef)
        ]
        body = {"intercept": round(self.intercept, 12), "threshold": self.threshold, "features": rows, **self.info}
        return json.dumps(body, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str = PARAMS_FILE) -> Model:
        """A Model from the parameter file's text; PuzzleError names a damaged file."""
        try:
            body = json.loads(text)
            rows = body.pop("features")
            model = cls(
                tuple(r["feature"] for r in rows),
                np.array([r["mean"] for r in rows], dtype=np.float64),
                np.array([r["scale"] for r in rows], dtype=np.float64),
                np.array([r["coef"] for r in rows], dtype=np.float64),
                float(body.pop("intercept")),
                float(body.pop("threshold")),
                body,
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            raise PuzzleError(f"{where}: not a Bee acceptance parameter file") from None
        ok = np.isfinite(model.mean).all() and np.isfinite(model.coef).all() and (model.scale > 0).all()
        if not (ok and 0 < model.threshold < 1):
            raise PuzzleError(f"{where}: Bee acceptance parameters out of range")
        return model


def sigmoid(t: np.ndarray) -> np.ndarray:
    """The logistic function, without overflow warnings."""
    return 0.5 * (1.0 + np.tanh(0.5 * t))


def shipped_params_path(name: str = PARAMS_FILE) -> Path:
    """bee/data/acceptance.json (or the file `name`) inside the installed package."""
    return Path(str(resources.files("puzzlesearch.bee").joinpath("data", name)))


def load_model(path: str | Path | None = None, facts: WordFacts | None = None) -> Model:
    """The parameters of `path`, else the shipped ones for `facts`' sources (with SCOWL when no facts are given)."""
    path = Path(path) if path else shipped_params_path(facts.params_file if facts else PARAMS_FILE)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PuzzleError(f"{path}: cannot read the Bee acceptance parameters ({e.strerror})") from None
    return Model.from_json(text, str(path))


def fit_logistic(x: np.ndarray, pos: np.ndarray, neg: np.ndarray, l2: float = L2):
    """(mean, scale, coef, intercept) of a ridge logistic regression with `pos`/`neg` counts per row (Newton)."""
    keep = (pos + neg) > 0
    mean, scale = x[keep].mean(axis=0), x[keep].std(axis=0)
    scale[scale == 0] = 1.0
    xs = np.column_stack([np.ones(int(keep.sum())), (x[keep] - mean) / scale])
    pos, n = pos[keep], (pos + neg)[keep]
    ridge = l2 * np.eye(xs.shape[1])
    ridge[0, 0] = 0.0
    beta = np.zeros(xs.shape[1])
    for _ in range(NEWTON_STEPS):
        p = sigmoid(xs @ beta)
        grad = xs.T @ (pos - n * p) - ridge @ beta
        hess = (xs * (n * p * (1 - p))[:, None]).T @ xs + ridge
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < NEWTON_TOL:
            break
    return mean, scale, beta[1:], float(beta[0])
