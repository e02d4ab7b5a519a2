"""Proof settings: one object per proof (`boggle prove`, prove-shard, prove-gather), from boggle.schema.yaml."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from puzzlesearch.boggle.model import Shape
from puzzlesearch.boggle.proof.classes import Partition
from puzzlesearch.errors import ConfigError
from puzzlesearch.settings import Settings, default, section_defaults, section_schema

SECTION = "boggle"

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
        Partition.parse(self.partition, "config key boggle.proof.partition")
        if not math.isfinite(self.seconds):
            raise ConfigError(f"config key boggle.proof.seconds: {self.seconds} is not a finite number of seconds")
