"""Boggle settings: one object per pipeline step, defaults and bounds from boggle.schema.yaml.

    SearchSettings  boggle search   method, seconds, max_boards, pool_size, keep, points,
                                    pool_search, ils, anneal, dice (the job's resolved dice set; None in free mode)
    RankSettings    boggle rank     keep, points
    ScanSettings    boggle scan     scan (boards, distance, swaps, keep), points, dice

(ProofSettings, of the proofs, is in boggle/proof/settings.py.)
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
from puzzlesearch.settings import Settings, default, section_schema

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
    ils: dict = default(SECTION, "ils")
    anneal: dict = default(SECTION, "anneal")
    dice: object = None

    def check(self) -> None:
        """`seconds` is a finite number (NaN passes the schema's bounds); anneal's t_end is at most its t0."""
        if not math.isfinite(self.seconds):
            raise ConfigError(f"config key boggle.seconds: {self.seconds} is not a finite number of seconds")
        t0, t_end = self.anneal.get("t0"), self.anneal.get("t_end")
        if t0 is not None and t_end is not None and t_end > t0:
            raise ConfigError(f"config key boggle.anneal.t_end: {t_end} is above boggle.anneal.t0 {t0} (it cools)")

    def options(self) -> dict:
        """Keyword options of the search method."""
        if self.method == "hill":
            return {"pool_size": self.pool_size, "keep": self.keep}
        if self.method == "ils":
            return {**self.ils, "keep": self.keep}
        if self.method == "anneal":
            return {**self.anneal, "keep": self.keep}
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
