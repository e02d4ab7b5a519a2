"""Proof settings: one object per proof of one shape (`boggle prove`, prove-shard, prove-gather), from boggle.schema.yaml.

The schema's per-shape keys (partition, min_score, shards, max_tree_nodes, split_order, cost) are resolved for one
shape here: its own entry, else `other`. The cost table sets the pipeline's resources
(`shard_resources`): a shard job's runtime and memory come from the measured cost of a
class, so a cluster never kills a shard that would finish; the job stops itself at its
runtime (keeping its progress) if a class takes longer than measured.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

from puzzlesearch.boggle.model import Shape
from puzzlesearch.boggle.proof.partition import BoardPartition, ClassSpace
from puzzlesearch.errors import ConfigError, PuzzleError
from puzzlesearch.settings import Settings, default, section_defaults, section_schema

SECTION = "boggle"
OTHER = "other"  # the per-shape entry of every shape not listed

PER_SHAPE_KEYS = ("partition", "min_score", "shards", "max_tree_nodes", "split_order")
PROOF_KEYS = (
    "partition",
    "min_score",
    "shards",
    "switchover_ratio",
    "switchover_cells",
    "checkpoint_seconds",
    "max_tree_nodes",
    "split_order",
    "max_visits",
    "seconds",
    "recheck_share",
    "recheck_seed",
)

# resources of a shard job (runtime = RUNTIME_SAFETY x expected worst case, see shard_resources)
STARTUP_SECONDS = 60  # interpreter, lexicon, kernels from the numba cache, class list
RUNTIME_SAFETY = 2.0  # a busy or slower node
MEMORY_SAFETY = 1.5
STOP_MARGIN_SECONDS = 120  # a shard stops itself this long before its runtime ends


def _proof_defaults() -> dict:
    return section_defaults(SECTION)["proof"]


def for_shape(mapping: dict, shape: Shape | str, key: str):
    """One shape's entry of a per-shape mapping (its own, else `other`); a missing one is a ConfigError."""
    if str(shape) in mapping:
        return mapping[str(shape)]
    if OTHER in mapping:
        return mapping[OTHER]
    raise ConfigError(
        f"config key boggle.proof.{key}.{shape}: nothing set for shape {shape} "
        f"(have {', '.join(sorted(mapping)) or 'none'})"
    )


@dataclass(frozen=True)
class ProofSettings(Settings):
    """One proof of a shape: keys of boggle.proof, the per-shape ones (partition, min_score, shards, max_tree_nodes, split_order) resolved."""

    SECTION: ClassVar[str] = SECTION

    partition: str | dict = field(default_factory=lambda: _proof_defaults()["partition"][OTHER])
    min_score: int = 1
    shards: int = _proof_defaults()["shards"][OTHER]
    switchover_ratio: float = _proof_defaults()["switchover_ratio"]
    switchover_cells: int = _proof_defaults()["switchover_cells"]
    checkpoint_seconds: float = _proof_defaults()["checkpoint_seconds"]
    max_tree_nodes: int = _proof_defaults()["max_tree_nodes"][OTHER]
    split_order: str = _proof_defaults()["split_order"][OTHER]
    max_visits: int = _proof_defaults()["max_visits"]
    seconds: float = _proof_defaults()["seconds"]
    recheck_share: float = _proof_defaults()["recheck_share"]
    recheck_seed: int = _proof_defaults()["recheck_seed"]
    points: list = default(SECTION, "points")

    @classmethod
    def sub_schema(cls) -> dict:
        """boggle.proof's keys (per-shape ones: one shape's value) and boggle.points."""
        props = section_schema(SECTION)["properties"]
        proof = props["proof"]["properties"]
        out = {k: proof[k] for k in PROOF_KEYS}
        for key in PER_SHAPE_KEYS:
            out[key] = proof[key]["additionalProperties"]
        out["points"] = props["points"]
        return {"type": "object", "additionalProperties": False, "properties": out}

    @classmethod
    def for_job(cls, section: dict | None, shape: Shape | str):
        """The settings of one shape's proof from a validated boggle section."""
        section = section or {}
        shape = Shape.parse(shape) if isinstance(shape, str) else shape
        proof = section.get("proof") or _proof_defaults()
        scores = proof.get("min_score", {})
        if str(shape) not in scores:
            raise ConfigError(
                f"config key boggle.proof.min_score.{shape}: no score to prove for shape {shape} "
                f"(have {', '.join(sorted(scores)) or 'none'}); give --min-score or set it"
            )
        for name, spec in proof.get("partition", {}).items():  # every entry checked, not only this shape's
            _board_partition(spec, f"config key boggle.proof.partition.{name}")
        data = {k: proof[k] for k in PROOF_KEYS if k in proof and k not in PER_SHAPE_KEYS}
        for key in PER_SHAPE_KEYS:
            data[key] = for_shape(proof.get(key, _proof_defaults()[key]), shape, key)
        if "points" in section:
            data["points"] = section["points"]
        return cls.from_dict(data)

    def check(self) -> None:
        """The partition covers a-z once per cell kind; `seconds` is finite."""
        _board_partition(self.partition, "config key boggle.proof.partition")
        if not math.isfinite(self.seconds):
            raise ConfigError(f"config key boggle.proof.seconds: {self.seconds} is not a finite number of seconds")

    @property
    def board_partition(self) -> BoardPartition:
        return BoardPartition.parse(self.partition)

    def class_count(self, shape: Shape) -> int:
        """Length of the shape's canonical class list under this partition (Burnside's count, no listing)."""
        return ClassSpace(shape, self.board_partition).count()

    def capped_shards(self, shape: Shape | str):
        """These settings with at most one shard per class (more shards would be empty files and jobs)."""
        shape = Shape.parse(shape) if isinstance(shape, str) else shape
        count = self.class_count(shape)
        return self if self.shards <= count else self.replace(shards=count)


def sample_settings(section: dict | None) -> dict:
    """boggle.proof.sample (classes, seed) of a validated boggle section, or the defaults."""
    return ((section or {}).get("proof") or _proof_defaults()).get("sample") or _proof_defaults()["sample"]


def _board_partition(spec, where: str) -> BoardPartition:
    """A BoardPartition, or a ConfigError naming the key."""
    try:
        return BoardPartition.parse(spec, where)
    except ConfigError:
        raise
    except PuzzleError as exc:
        raise ConfigError(str(exc)) from None


def shard_resources(proof: dict, shape: Shape | str, attempt: int = 1) -> dict:
    """Resources of one shard job of a shape's proof (a validated boggle.proof section): runtime (min), mem_mb.

    The classes of a shard come from Burnside's count (no enumeration); the cost table
    gives the CPU seconds of a class (p99, max) and the peak RSS of a shard job. A retry
    (`attempt` 2, 3 ...) gets proportionally more of both.
    """
    shape = Shape.parse(shape) if isinstance(shape, str) else shape
    partition = BoardPartition.parse(for_shape(proof["partition"], shape, "partition"))
    shards = for_shape(proof["shards"], shape, "shards")
    cost = for_shape(proof["cost"], shape, "cost")
    classes = -(-ClassSpace(shape, partition).count() // shards)
    seconds = STARTUP_SECONDS + STOP_MARGIN_SECONDS + classes * cost["seconds_p99"] + cost["seconds_max"]
    return {
        "runtime": math.ceil(RUNTIME_SAFETY * seconds * attempt / 60),
        "mem_mb": math.ceil(MEMORY_SAFETY * cost["peak_mb"] * attempt),
        "classes": classes,
    }
