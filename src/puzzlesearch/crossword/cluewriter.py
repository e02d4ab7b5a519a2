"""English crossword clues as a solver expects them, written from WordNet 3.0.

An entry is read as its own lemma or as an inflection of a base (STEERS: the verb steer, 3rd
person; LARGEST: large, superlative). Its senses are ranked by how often WordNet's concordance
tags them (index.sense; ties in WordNet's sense order), and the commonest senses are clued first:

    synonym   another lemma of the sense's synset (an adjective satellite's head, a verb's
              hypernym when the synset has none), inflected to the entry (LARGEST: Biggest,
              STEERS: Guides); common words (wordfreq) preferred
    gloss     the definition's first clause, its leading article and parentheticals dropped, cut
              to a short phrase at a comma or a relative clause ("Feline mammal"); a verb's gloss
              inflected on its first word, a noun's on its head ("Directs the course")
    blank     one of the gloss's example sentences with the entry replaced by ___ ("___ clear
              of him"), when short

Every clue passes the answer-form rule (`clues.clue_ok`: no word a form of the entry, its base
or a phrase's content words) and is at most MAX_CLUE characters; a form the clue cannot say is
marked as before: "(plural)", "(superlative)".
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

from puzzlesearch.lexicon.inflect import (
    COMPARATIVE,
    FORM_POS,
    HINT_FORMS,
    PLURAL,
    SUPERLATIVE,
    Inflector,
    form_of,
)
from puzzlesearch.lexicon.wordinfo import (
    FREQUENCY_LANG,
    FREQUENCY_LIST,
    POS_FILES,
    Sense,
    WordNet,
    read_blocklist,
    zipf_reader,
)

MAX_CLUE = 60  # no clue is longer
SHORT_CLUE = 30  # a gloss or blank this short is as good as a synonym
MAX_BLANK = 40  # a fill-in-the-blank example at most this long
MIN_BLANK_WORDS = 3
SYNONYM_SENSES = 3  # a synonym whose own first senses hold this one is a solver's synonym (not STEP for abuse)
FALLBACK = 4  # tier of clues used only when nothing better fits (a noun's hypernym, a gloss cut at a preposition)
HYPERNYM_LAST = 1000  # a noun's hypernym comes after every fallback cut of a gloss (WOMEN for GODMOTHERS)
HINT_ROOM = 16  # a definition longer than MAX_CLUE less this may need a fallback cut to hold its hint
MIN_SYNONYM = 3  # letters of a synonym at least
VARIANT_EDITS = 2  # a synonym this close to the entry's lemma is a spelling of it
MAX_RANKED = 6  # senses clued at first, commonest first (all of them when these give nothing)
COMMON_ZIPF = 3.0  # a synonym at least this frequent (wordfreq Zipf) is a solver's word
RARE_ZIPF = 2.0  # a synonym rarer than this is not a clue
CLOSE_SENSES = 0.5  # senses tagged at least this share of the top sense's count rank as the commonest
TOP_SENSES = 2  # untagged words: their first senses in WordNet's order rank as the commonest
BLANK = "___"
PERIPHRASTIC = ("more ", "most ")  # a comparative said with more/most reads worse than a gloss
ABBREVIATION_HINT = "abbr."
FORM_HINTS = {COMPARATIVE: "comparative", SUPERLATIVE: "superlative", PLURAL: "plural"}
ARTICLES = ("a ", "an ", "the ", "any ", "to ")  # dropped from a definition's start (crossword style)
DANGLING = frozenset(
    "a an and as at by for from in into of on or that the to which with whose who is are "
    "its their his her been being was were e.g i.e".split()
)
CUT_BEFORE = re.compile(
    r",| (?:that|which|who|whom|whose|where|when|especially|usually|often|typically|esp|"
    r"used|having|consisting|characterized|resembling|found|native|known|made|containing) "
)
HEAD_END = re.compile(r" (?:of|in|for|with|from|on|to|by|at|as|that|which|who|used|having)\b")

ANY_OF = re.compile(r"^(?:any|one|either) of (?:several |various |numerous |many |a number of )?(?:the )?", re.I)
NO_PLURAL = re.compile(r"\b(?:who|that|which|whose|or|and)\b", re.I)  # a plural would break agreement here
INDEFINITE = frozenset("someone somebody something anything anyone one person thing".split())
MASS_NOUN_ZIPF = 1.5  # a plural this much rarer than its singular is not said (equipments)
PLAIN_EXAMPLE = re.compile(r"[A-Za-z][A-Za-z ,'!?-]*")
_TOKEN = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Reading:
    """The entry as a lemma in one part of speech, in a form (None: the lemma itself)."""

    lemma: str
    pos: str
    form: str | None
    hint: str = ""


@dataclass(frozen=True)
class Candidate:
    """A clue, its kind's tier (lower is better) and a tie-break within the tier."""

    text: str
    tier: int
    order: float


@dataclass
class Memo:
    """What the clues of one WordNet reuse across entries: its inflector, each synset's cut glosses
    and synonyms, each word's parts of speech."""

    wn: WordNet
    inflector: Inflector
    glosses: dict = field(default_factory=dict)  # (pos, offset) -> short_glosses
    synonyms: dict = field(default_factory=dict)  # (pos, offset, form) -> [(name, Candidate)]
    has_pos: dict = field(default_factory=dict)  # (word, pos) -> bool


_MEMOS: dict[int, Memo] = {}


def memo(wn: WordNet) -> Memo:
    """The Memo of a WordNet, made once."""
    kept = _MEMOS.get(id(wn))
    if kept is None or kept.wn is not wn:
        kept = _MEMOS[id(wn)] = Memo(wn, Inflector.from_exceptions(wn.exceptions))
    return kept


def inflector(wn: WordNet) -> Inflector:
    """WordNet's exception lists reversed, once per WordNet."""
    return memo(wn).inflector


@lru_cache(maxsize=1)
def blocked() -> frozenset:
    """The shipped blocklist: never a synonym in a clue."""
    return read_blocklist()


@lru_cache(maxsize=1)
def zipf():
    """wordfreq's English Zipf frequency of a lowercase word, from its frequency table read once."""
    zipf_reader()  # the one clear error when wordfreq is missing
    import wordfreq

    table = wordfreq.get_frequency_dict(FREQUENCY_LANG, wordlist=FREQUENCY_LIST)
    return lambda word: math.log10(table[word] * 1e9) if word in table else 0.0


def readings(wn: WordNet, word: str) -> list[Reading]:
    """The entry as its own lemma in each part of speech, then as an inflection of a base form."""
    own = [
        Reading(word, pos, None)
        for pos in POS_FILES
        if any(s.pos == pos and word in s.lemmas for s in wn.senses.get(word, ()))
    ]
    based = []
    for base, pos, hint in wn.bases(word):
        form = HINT_FORMS.get(hint) or form_of(word, base, pos)
        if form is not None and FORM_POS[form] == pos:
            based.append(Reading(base, pos, form, hint))
    return own + based


def ranked_senses(wn: WordNet, found: list[Reading]) -> list[tuple[Reading, Sense, int]]:
    """(reading, sense, rank group) commonest first: tag counts, then WordNet's sense order; group 0
    holds the commonest senses (CLOSE_SENSES of the top count, or the first TOP_SENSES if untagged)."""
    items = []
    own_noun = any(r.form is None and r.pos == "noun" for r in found)
    for r in found:
        own = [s for s in wn.senses.get(r.lemma, ()) if s.pos == r.pos and r.lemma in s.lemmas]
        weight = 0 if r.form == PLURAL and own_noun else 1  # GLASSES is its own noun (spectacles)
        total = weight * sum(wn.sense_count(r.lemma, s) for s in own)
        for i, s in enumerate(own):
            count = weight * wn.sense_count(r.lemma, s)
            items.append((-count, -total, i, r.form is not None, POS_FILES.index(r.pos), r, s))
    items.sort(key=lambda t: t[:5])
    top = -items[0][0] if items else 0
    out = []
    for count, _, i, _, _, r, s in items:
        close = -count >= CLOSE_SENSES * top if top else i < TOP_SENSES
        out.append((r, s, 0 if close else 1))
    return out


def english_clue(wn: WordNet, word: str, ok) -> str:
    """The best clue of `word` passing `ok(text, forms)` (the answer-form rule), '' if none."""
    phrase = wn.phrase_of(word)
    if phrase:
        found = [Reading(phrase, s.pos, None) for s in wn.senses.get(phrase, ()) if phrase in s.lemmas]
        found = list(dict.fromkeys(found))
        forms = [word, *wn.phrase_tokens(phrase)]
    else:
        found = readings(wn, word)
        forms = [word] + [r.lemma for r in found if r.form is not None]
    abbreviation = not phrase and wn.is_abbreviation(word)
    best = None
    for rank, (reading, sense, group) in enumerate(ranked_senses(wn, found)):
        if best is not None and (rank >= MAX_RANKED or settled(best[0], group)):
            break  # no later sense can do better
        for c in sense_candidates(wn, word, phrase, reading, sense):
            if best is not None and c.tier > 0 and settled(best[0], group):
                break  # a common synonym of this sense: its glosses need not be written
            text = f"{c.text} ({ABBREVIATION_HINT})" if abbreviation else c.text
            if len(text) > MAX_CLUE or not ok(text, forms):
                continue
            key = (c.tier == FALLBACK, group, c.tier, rank, c.order)
            if best is None or key < best[0]:
                best = (key, text)
    return best[1] if best else ""


def settled(key: tuple, group: int) -> bool:
    """Can no candidate of a sense in `group` (or a later one of it) beat the clue ranked `key`."""
    fallback, best_group, tier = key[:3]
    return not fallback and (best_group < group or tier == 0)


def sense_candidates(wn: WordNet, word: str, phrase: str | None, reading: Reading, sense: Sense):
    """The clues one sense gives, synonyms first (written lazily): synonyms, cut glosses, blanks."""
    yield from sorted(synonyms(wn, reading, sense), key=lambda c: c.tier)
    for i, (text, fallback) in enumerate(short_glosses(wn, sense)):
        said = inflect_gloss(wn, text, reading)
        if said:
            tier = FALLBACK if fallback else 1 if len(said) <= SHORT_CLUE else 3
            yield Candidate(said, tier, -len(said) if i == 0 or fallback else len(said))  # fallback: longest that fits
    blank = fill_in_blank(sense.gloss, phrase.replace("_", " ") if phrase else word)
    if blank:
        yield Candidate(blank, 2 if len(blank) <= SHORT_CLUE else 3, len(blank) + 100)


def synonyms(wn: WordNet, reading: Reading, sense: Sense) -> list[Candidate]:
    """Other lemmas of the sense inflected to the reading's form (`synset_synonyms`), not the
    entry's lemma nor a spelling of it."""
    cache = memo(wn).synonyms
    key = (sense.pos, sense.offset, reading.form)
    if key not in cache or sense.offset < 0:
        cache[key] = synset_synonyms(wn, sense, reading.form)
    return [c for name, c in cache[key] if name != reading.lemma and not variant(name, reading.lemma)]


def synset_synonyms(wn: WordNet, sense: Sense, form: str | None) -> list[tuple[str, Candidate]]:
    """(lemma, clue) of the sense's lemmas and its hypernyms' in `form`: tier 0 when common and one
    of the synonym's own first senses, 2 otherwise; a verb's hypernyms (run: speed) at tier 2, a
    noun's at FALLBACK (used only when nothing else fits)."""
    names = [(x, 0) for x in sense.lemmas]
    names += [
        (x, 2 if pos == "verb" else FALLBACK)
        for symbol, pos, offset in sense.links
        if symbol == "@"
        for x in wn.synsets[pos, offset].lemmas
    ]
    out = []
    inflect = inflector(wn)
    for name, tier in dict.fromkeys(names):
        if not name.islower() or not name.replace("_", "").isalpha():
            continue
        if len(name) < MIN_SYNONYM or wn.is_abbreviation(name) or name in blocked():
            continue  # m for metre; an offensive word
        text = inflect.inflect(name, form)
        if not text:
            continue
        freq = min(zipf()(w) for w in name.split("_"))
        if freq < RARE_ZIPF:
            continue
        own = [s for s in wn.senses.get(name, ()) if s.pos == sense.pos and name in s.lemmas]
        place = own.index(sense) if sense in own else len(own)
        if tier == 0 and (freq < COMMON_ZIPF or place >= SYNONYM_SENSES or text.startswith(PERIPHRASTIC)):
            tier = 2
        order = place - wn.sense_count(name, sense) - freq / 10 + (HYPERNYM_LAST if tier == FALLBACK else 0)
        out.append((name, Candidate(tidy(text), tier, order)))
    return out


def variant(a: str, b: str) -> bool:
    """Two spellings of one word (disk disc, sabre saber, grey gray): same first two letters, at most
    VARIANT_EDITS edits apart (Levenshtein)."""
    if a[:2] != b[:2] or abs(len(a) - len(b)) > VARIANT_EDITS:
        return False
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1] <= VARIANT_EDITS


def tidy(text: str) -> str:
    """A clue as printed: spaces collapsed, first letter upper case, no final period."""
    text = " ".join(text.split()).strip(" .;:,")
    return text[:1].upper() + text[1:] if text else ""


def definition(gloss: str, whole: bool = False) -> str:
    """A gloss's definition: before its examples, parentheticals out, first clause (all its clauses
    when `whole`), no leading article."""
    text = gloss.split('; "')[0].split(' "')[0]
    text = " ".join(re.sub(r"\([^()]*\)", " ", text).split()).replace(" ,", ",")
    text = (text if whole else text.split(";")[0].split(":")[0]).strip(" .,;:")
    text = ANY_OF.sub("", text)
    for article in ARTICLES:
        if text.lower().startswith(article):
            return text[len(article) :]
    return text


def complete(text: str) -> bool:
    """A phrase not cut mid-way: no dangling last word, balanced brackets, at least 3 letters."""
    words = [w.strip(".") for w in text.lower().replace(",", " ").split()]
    if len(words) > 1 and words[-1] == "etc":  # "whales and dolphins etc": judged on the word before
        words = words[:-1]
    return len(text) >= 3 and bool(words) and words[-1] not in DANGLING and text.count("(") == text.count(")")


def short_glosses(wn: WordNet, sense: Sense) -> list[tuple[str, bool]]:
    """`cut_glosses` of a sense, once per synset."""
    cache = memo(wn).glosses
    key = (sense.pos, sense.offset)
    if key not in cache or sense.offset < 0:
        cache[key] = cut_glosses(wn, sense)
    return cache[key]


def cut_glosses(wn: WordNet, sense: Sense) -> list[tuple[str, bool]]:
    """(phrase, fallback): the definition, then shorter phrases of 2+ words cut at a comma or a
    relative clause (a noun's ending in a noun, a verb's starting with a verb); as fallbacks, cuts
    at a preposition or to one word."""
    text = definition(sense.gloss)
    out = [(text, False)] if complete(text) and '"' not in text else []
    whole = definition(sense.gloss, whole=True)  # "Gone by; or in the past" when "Gone by" dangles
    if whole != text and complete(whole) and '"' not in whole:
        out.append((whole, False))
    seen = {text, whole}
    cuts = [(m.start(), False) for m in CUT_BEFORE.finditer(text)]
    if len(text) > MAX_CLUE - HINT_ROOM:  # any word boundary, as a fallback
        cuts += [(m.start(), True) for m in re.finditer(" ", text)]
    for end, fallback in cuts:
        head = text[:end].strip(" ,")
        words = head.lower().split()
        if not words or (len(words) < 2 and not fallback) or not complete(head) or head in seen:
            continue
        if not fallback and text[end] == "," and "," in head:
            continue  # a list cut short: "wish, long" of "wish, long, or crave for"
        last = head.split()[-1].strip(",.")
        if fallback and (not last.islower() or not (has_pos(wn, last, "noun") or has_pos(wn, last, "verb"))):
            continue  # "... including the New" (of New England)
        if sense.pos == "noun" and not has_pos(wn, words[-1], "noun"):
            if not fallback or not has_pos(wn, words[-1], "verb"):
                continue  # web-footed long-necked (a fallback may end in a verb: that which is perceived)
        if sense.pos == "verb" and not has_pos(wn, words[0], "verb"):
            continue
        seen.add(head)
        out.append((head, fallback))
    return [(tidy(t), f) for t, f in out]


def has_pos(wn: WordNet, word: str, pos: str) -> bool:
    """Does WordNet know `word` (or its base form) in part of speech `pos`."""
    cache = memo(wn).has_pos
    found = cache.get((word, pos))
    if found is None:
        bare = word.strip(",.")
        found = cache[word, pos] = any(s.pos == pos for s in wn.senses.get(bare, ())) or any(
            p == pos for _, p, _ in wn.bases(bare)
        )
    return found


def inflect_gloss(wn: WordNet, text: str, reading: Reading) -> str:
    """A gloss said in the entry's form: a verb's first word, a noun phrase's head inflected; else a hint."""
    form = reading.form
    if form is None:
        return text
    words = text.split()
    inflect = inflector(wn)
    if FORM_POS[form] == "verb":
        first = words[0].lower().strip(",")
        if any(s.pos == "verb" and first in s.lemmas for s in wn.senses.get(first, ())):
            said = inflect.inflect(first, form) or first
            return tidy(" ".join([said + words[0][len(first) :], *words[1:]]))
        return ""
    if form == PLURAL:
        end = HEAD_END.search(text)
        cut = end.start() if end else len(text)
        head, rest = text[:cut].split(), text[cut:]
        last = head[-1].lower() if head else ""
        plural = inflect.inflect(last, PLURAL) if last and not last.endswith("s") else None
        if (
            plural
            and has_pos(wn, last, "noun")
            and not NO_PLURAL.search(text)
            and last not in INDEFINITE
            and zipf()(plural) >= zipf()(last) - MASS_NOUN_ZIPF
        ):
            return tidy(" ".join([*head[:-1], plural]) + rest)
    return f"{text} ({FORM_HINTS.get(form, reading.hint)})"


def fill_in_blank(gloss: str, answer: str) -> str:
    """A short example of the gloss with the answer (as written) replaced by ___, '' if none fits."""
    if answer not in gloss.lower():
        return ""
    pattern = re.compile(rf"\b{re.escape(answer)}\b", re.IGNORECASE)
    for example in re.findall(r'"([^"]+)"', gloss):
        example = example.strip(" .!?;,")
        if not PLAIN_EXAMPLE.fullmatch(example):
            continue  # quotes, brackets or a name's dash inside
        if len(pattern.findall(example)) != 1:
            continue
        text = pattern.sub(BLANK, example)
        if len(text) <= MAX_BLANK and len(_TOKEN.findall(text)) >= MIN_BLANK_WORDS - 1:
            return text[:1].upper() + text[1:] if not text.startswith(BLANK) else text
    return ""
