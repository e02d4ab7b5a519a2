"""Boggle settings: one object per pipeline step, defaults and bounds from boggle.schema.yaml.

    SearchSettings  boggle search   method, seconds, max_boards, pool_size, keep, points,
                                    pool_search, dice (the job's resolved dice set; None in free mode)
    RankSettings    boggle rank     keep, points
    ScanSettings    boggle scan     scan (boards, distance, swaps, keep), points, dice
    ProofSettings   boggle prove*   boggle.proof keys (min_score of one shape), points

A rule builds the object with `for_job(section, shape, mode)` and passes `to_json()` as
`--settings`; a 4x4 job holds only the 4x4 dice set, so a change to the 5x5 set (or to
any key another step uses) does not rerun it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from puzzlesearch.boggle.model import Shape, parse_dice
from puzzlesearch.errors import ConfigError, PuzzleError
from puzzlesearch.settings import Settings, default, section_defaults, section_schema

SECTION = "boggle"


def dice_for(section: dict, shape: Shape, mode: str):
    """The dice set of `shape` in `mode` from a validated boggle section (None in free mode)."""
    if mode != "dice":
        return None
    dice = (section.get("dice") or {}).get(str(shape))
    if dice is None:
        raise ConfigError(
            f"config key boggle.dice.{shape}: dice mode needs a dice set for shape {shape} "
            f"(have {', '.join(sorted(section.get('dice') or {})) or 'none'})"
        )
    check_dice(dice, shape, f"config key boggle.dice.{shape}")
    return dice


def check_dice(dice, shape: Shape, where: str) -> None:
    """ConfigError unless `dice` is a valid set with exactly one die per cell of `shape`."""
    try:
        n_dice = len(parse_dice(dice))
    except PuzzleError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if n_dice != shape.cells:
        raise ConfigError(
            f"{where}: the dice set has {n_dice} dice; a {shape} board needs exactly {shape.cells} (one per cell)"
        )


class _BoggleStep(Settings):
    """Shared parts of the boggle steps: the `dice` field is one resolved set, not the mapping."""

    SECTION: ClassVar[str] = SECTION

    @classmethod
    def sub_schema(cls) -> dict:
        """The section schema of this step's keys; `dice` is one shape's set (or null)."""
        props = section_schema(SECTION)["properties"]
        out = {}
        for key in cls.keys():
            if key == "dice":
                out[key] = {"oneOf": [{"type": "null"}, *props["dice"]["additionalProperties"]["oneOf"]]}
            else:
                out[key] = props[cls.SCHEMA_KEYS.get(key, key)]
        return {"type": "object", "additionalProperties": False, "properties": out}

    @classmethod
    def for_job(cls, section: dict | None, shape: Shape | str, mode: str = "free"):
        """The settings of one job (lexicon, shape, mode) from a validated boggle section."""
        section = section or {}
        shape = Shape.parse(shape) if isinstance(shape, str) else shape
        data = {k: section[k] for k in cls.keys() if k in section and k != "dice"}
        if "dice" in cls.keys():
            data["dice"] = dice_for(section, shape, mode)
        return cls.from_dict(data)


@dataclass(frozen=True)
class SearchSettings(_BoggleStep):
    """One seeded search job (`boggle search`)."""

    method: str = default(SECTION, "method")
    seconds: float = default(SECTION, "seconds")
    max_boards: int = default(SECTION, "max_boards")
    pool_size: int = default(SECTION, "pool_size")
    keep: int = default(SECTION, "keep")
    points: list = default(SECTION, "points")
    pool_search: dict = default(SECTION, "pool_search")
    dice: object = None

    def check(self) -> None:
        """`seconds` is a finite number (NaN passes the schema's bounds)."""
        if not math.isfinite(self.seconds):
            raise ConfigError(f"config key boggle.seconds: {self.seconds} is not a finite number of seconds")

    def options(self) -> dict:
        """Keyword options of the search method."""
        if self.method == "hill":
            return {"pool_size": self.pool_size, "keep": self.keep}
        return {**self.pool_search, "keep": self.keep}


@dataclass(frozen=True)
class RankSettings(_BoggleStep):
    """The ranking merged over seeds (`boggle rank`)."""

    keep: int = default(SECTION, "keep")
    points: list = default(SECTION, "points")


@dataclass(frozen=True)
class ScanSettings(_BoggleStep):
    """The neighbourhood scan of the best boards (`boggle scan`)."""

    scan: dict = default(SECTION, "scan")
    points: list = default(SECTION, "points")
    dice: object = None


PROOF_KEYS = ("partition", "min_score", "shards", "max_tree_nodes", "max_visits", "seconds")


@dataclass(frozen=True)
class ProofSettings(Settings):
    """One proof of a shape (`boggle prove`, prove-shard, prove-gather): keys of boggle.proof, one shape's min_score."""

    SECTION: ClassVar[str] = SECTION

    partition: str = section_defaults(SECTION)["proof"]["partition"]
    min_score: int = 1
    shards: int = section_defaults(SECTION)["proof"]["shards"]
    max_tree_nodes: int = section_defaults(SECTION)["proof"]["max_tree_nodes"]
    max_visits: int = section_defaults(SECTION)["proof"]["max_visits"]
    seconds: float = section_defaults(SECTION)["proof"]["seconds"]
    points: list = default(SECTION, "points")

    @classmethod
    def sub_schema(cls) -> dict:
        """boggle.proof's keys (min_score: one shape's integer) and boggle.points."""
        props = section_schema(SECTION)["properties"]
        proof = props["proof"]["properties"]
        out = {k: proof[k] for k in PROOF_KEYS}
        out["min_score"] = proof["min_score"]["additionalProperties"]
        out["points"] = props["points"]
        return {"type": "object", "additionalProperties": False, "properties": out}

    @classmethod
    def for_job(cls, section: dict | None, shape: Shape | str):
        """The settings of one shape's proof from a validated boggle section."""
        section = section or {}
        shape = Shape.parse(shape) if isinstance(shape, str) else shape
        proof = section.get("proof") or section_defaults(SECTION)["proof"]
        scores = proof.get("min_score", {})
        if str(shape) not in scores:
            raise ConfigError(
                f"config key boggle.proof.min_score.{shape}: no score to prove for shape {shape} "
                f"(have {', '.join(sorted(scores)) or 'none'}); give --min-score or set it"
            )
        data = {k: proof[k] for k in PROOF_KEYS if k in proof and k != "min_score"}
        data["min_score"] = scores[str(shape)]
        if "points" in section:
            data["points"] = section["points"]
        return cls.from_dict(data)

    def check(self) -> None:
        """The partition covers a-z once; `seconds` is finite."""
        from puzzlesearch.boggle.classes import Partition

        Partition.parse(self.partition, "config key boggle.proof.partition")
        if not math.isfinite(self.seconds):
            raise ConfigError(f"config key boggle.proof.seconds: {self.seconds} is not a finite number of seconds")
