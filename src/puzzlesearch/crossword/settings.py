"""Crossword settings: one class per pipeline step, defaults and bounds from the schema.

    GenerateSettings  one generated puzzle (per lang and size: min_frequency resolved for
                      the language, max_across clipped to the size)
    FillSettings      the fixed-pattern fill (config `crossword.fill`, minus the rule keys)
    TableSettings     the numeric pseudo-lexicon's tables (max_factor)

The schema (puzzlesearch/schemas/crossword.schema.yaml) holds every default and bound;
keys that are nested or per-language there are mapped to one scalar per job here.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from puzzlesearch.errors import ConfigError
from puzzlesearch.settings import Settings, default, section_defaults, section_schema

SECTION = "crossword"
LANGS = ("en", "ar", "num")
LANG_ALPHABET = {"en": "latin", "ar": "arabic"}  # word languages; num is the numeric pseudo-lexicon


def _props() -> dict:
    """The crossword section's schema properties."""
    return section_schema(SECTION)["properties"]


def _field(value):
    """A dataclass field with a fixed default (taken from the schema by the caller)."""
    return dataclasses.field(default=copy.deepcopy(value))


@dataclass(frozen=True)
class GenerateSettings(Settings):
    """Knobs of one generated puzzle (progressive search) for one language and size."""

    SECTION: ClassVar[str] = SECTION
    PER_LANG: ClassVar[tuple[str, ...]] = ("min_frequency", "min_score", "min_entry", "strategy")  # {en, ar, num}
    size: int = _field(section_defaults(SECTION)["sizes"][0])
    min_frequency: int = _field(section_defaults(SECTION)["min_frequency"]["en"])
    min_score: int = _field(section_defaults(SECTION)["min_score"]["en"])
    min_entry: int = _field(section_defaults(SECTION)["min_entry"]["en"])
    low_score: int = _field(section_defaults(SECTION)["quality"]["low_score"])
    max_across: int = default(SECTION, "max_across")
    max_down: int = default(SECTION, "max_down")
    queue: int = default(SECTION, "queue")
    mutants: int = default(SECTION, "mutants")
    strategy: str = _field(section_defaults(SECTION)["strategy"]["en"])
    black_fraction: float = default(SECTION, "black_fraction")
    pattern_nodes: int = default(SECTION, "pattern_nodes")
    max_entries: int = default(SECTION, "max_entries")
    focus: float = default(SECTION, "focus")
    length_bias: float = default(SECTION, "length_bias")
    max_pops: int = default(SECTION, "max_pops")
    stall_pops: int = default(SECTION, "stall_pops")
    time_budget: float = default(SECTION, "time_budget")

    @classmethod
    def sub_schema(cls) -> dict:
        """The schema of these keys: size is one item of `sizes`, min_frequency one language's floor."""
        props = _props()
        keys = {k: props[k] for k in cls.keys() if k in props and k not in cls.PER_LANG}
        keys["size"] = props["sizes"]["items"]
        keys["min_frequency"] = props["min_frequency"]["properties"]["en"]
        keys["min_score"] = props["min_score"]["properties"]["en"]
        keys["min_entry"] = props["min_entry"]["properties"]["en"]
        keys["strategy"] = props["strategy"]["oneOf"][0]
        keys["low_score"] = props["quality"]["properties"]["low_score"]
        return {"type": "object", "additionalProperties": False, "properties": keys}

    def themeless(self, section: dict) -> GenerateSettings:
        """These settings in the themeless style (`crossword.themeless`: strategy pattern, at most
        max_entries entries of at most max_word letters)."""
        t = section.get("themeless") or {}
        props = _props()["themeless"]["properties"]
        value = {k: t.get(k, props[k]["default"]) for k in props}
        return dataclasses.replace(
            self,
            strategy="pattern",
            max_entries=value["max_entries"],
            max_across=value["max_word"],
            max_down=value["max_word"],
            black_fraction=value["black_fraction"],
            pattern_nodes=value["pattern_nodes"],
        )

    @classmethod
    def for_job(cls, section: dict, lang: str, size: int) -> GenerateSettings:
        """The settings of the (lang, size) jobs from a validated `crossword` section."""
        if lang not in LANGS:
            raise ConfigError(f"--lang {lang!r}: expected one of {', '.join(LANGS)}")
        data = {k: section[k] for k in cls.keys() if k in section and k not in ("size", *cls.PER_LANG)}
        data["size"] = size
        for key in cls.PER_LANG:  # one language's value of a per-language mapping (or one value for all)
            value = section.get(key)
            data[key] = (
                value if isinstance(value, str) else (value or {}).get(lang, section_defaults(SECTION)[key][lang])
            )
        data["low_score"] = (section.get("quality") or {}).get("low_score", cls.low_score)
        return cls.from_dict(data).clipped()

    def clipped(self) -> GenerateSettings:
        """max_across clipped to the grid size (a longer word cannot fit)."""
        return self if self.max_across <= self.size else dataclasses.replace(self, max_across=self.size)


def _fill_default(key: str):
    return _field(section_defaults(SECTION)["fill"][key])


@dataclass(frozen=True)
class FillSettings(Settings):
    """Knobs of the fixed-pattern fill (config `crossword.fill`; `patterns` and `lang` are the rule's)."""

    SECTION: ClassVar[str] = "crossword.fill"
    RULE_KEYS: ClassVar[tuple[str, ...]] = ("patterns", "lang")
    min_frequency: int = _fill_default("min_frequency")
    min_score: int = _fill_default("min_score")
    min_entry: int = _fill_default("min_entry")
    first_nodes: int = _fill_default("first_nodes")
    proof_share: float = _fill_default("proof_share")
    max_nodes: int = _fill_default("max_nodes")
    freq_weight: float = _fill_default("freq_weight")
    noise: float = _fill_default("noise")
    backjump: bool = _fill_default("backjump")
    distinct_stems: bool = _fill_default("distinct_stems")
    time_budget: float = _fill_default("time_budget")

    @classmethod
    def sub_schema(cls) -> dict:
        """The `crossword.fill` schema restricted to these keys."""
        props = _props()["fill"]["properties"]
        return {"type": "object", "additionalProperties": False, "properties": {k: props[k] for k in cls.keys()}}

    def check(self) -> None:
        """max_nodes must allow the first attempt."""
        if self.max_nodes < self.first_nodes:
            raise ConfigError(
                f"config key crossword.fill.max_nodes: {self.max_nodes} is less than "
                f"crossword.fill.first_nodes ({self.first_nodes})"
            )


def _quality_default(key: str):
    return _field(section_defaults(SECTION)["quality"][key])


@dataclass(frozen=True)
class TableSettings(Settings):
    """Settings of the tables: numeric max_factor, and the word quality (`crossword.quality`)."""

    SECTION: ClassVar[str] = SECTION
    QUALITY_KEYS: ClassVar[tuple[str, ...]] = (
        "blocklist",
        "names",
        "phrases",
        "clue_weight",
        "scores",
        "unclued_max",
        "constructors",
    )
    max_factor: int = _field(section_defaults(SECTION)["numeric"]["max_factor"])
    blocklist: str = _quality_default("blocklist")
    names: bool = _quality_default("names")
    phrases: bool = _quality_default("phrases")
    clue_weight: int = _quality_default("clue_weight")
    scores: str = _quality_default("scores")
    unclued_max: int = _quality_default("unclued_max")
    constructors: bool = _quality_default("constructors")

    @classmethod
    def sub_schema(cls) -> dict:
        """`crossword.numeric.max_factor` and the table keys of `crossword.quality`."""
        props = {"max_factor": _props()["numeric"]["properties"]["max_factor"]}
        props.update({k: _props()["quality"]["properties"][k] for k in cls.QUALITY_KEYS})
        return {"type": "object", "additionalProperties": False, "properties": props}

    @classmethod
    def from_config(cls, section: dict | None) -> TableSettings:
        """From the `crossword` section (its `numeric` and `quality` mappings)."""
        section = section or {}
        data = dict(section.get("numeric") or {})
        quality = section.get("quality") or {}
        data.update({k: quality[k] for k in cls.QUALITY_KEYS if k in quality})
        return cls.from_dict(data)
