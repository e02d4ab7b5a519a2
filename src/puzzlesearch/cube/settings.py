"""Settings of the cube solve step: config `cube.format`, `cube.twophase.*`, `cube.thistlethwaite.*`.

Defaults and bounds come only from the schema (puzzlesearch/schemas/cube.schema.yaml).
The pipeline passes each solver's step only its own keys (`ThistlethwaiteSettings`,
`TwoPhaseSettings`), so a change to the other solver's budget reruns nothing; an
interactive `cube solve` holds both (`SolveSettings`). This module imports no numba, so
the Snakefile can read it cheaply.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import ClassVar

from puzzlesearch.errors import ConfigError
from puzzlesearch.settings import Settings, default, section_defaults

SECTION = "cube"
SOLVERS = ("thistlethwaite", "twophase", "optimal")
# The two-phase kernel's internal limits (not user settings): longest total tried,
# and the nodes searched before a solution at the target length is accepted.
TWOPHASE_MAX_LENGTH = 30
TWOPHASE_MIN_NODES = 10_000


def _nested_default(key: str, sub: str):
    """The schema default of config `cube.<key>.<sub>`."""
    return section_defaults(SECTION)[key][sub]


@dataclass(frozen=True)
class TwoPhaseOptions:
    """Search budget of one two-phase solve (defaults: the schema's `cube.twophase`)."""

    target_length: int = _nested_default("twophase", "target_length")
    node_budget: int = _nested_default("twophase", "node_budget")
    phase2_max: int = _nested_default("twophase", "phase2_max")
    pre_moves: int = _nested_default("twophase", "pre_moves")  # pre-move sequences of up to this many moves
    threads: int = _nested_default("twophase", "threads")  # threads of one cube's search (directions split)
    time_limit: float = _nested_default("twophase", "time_limit")
    max_length: int = _nested_default("twophase", "max_length")  # 0: off (the budget mode)
    metric: str = _nested_default("twophase", "metric")  # htm or qtm: what lengths count
    search_length: int = TWOPHASE_MAX_LENGTH
    min_nodes: int = TWOPHASE_MIN_NODES


@dataclass(frozen=True)
class ThistlethwaiteOptions:
    """Safety cap of one Thistlethwaite solve (default: the schema's `cube.thistlethwaite`)."""

    time_limit: float = _nested_default("thistlethwaite", "time_limit")


OPTIMAL_SEARCH_KEYS = (
    "table",
    "coset_table",
    "node_budget",
    "time_limit",
    "metric",
)  # cube.optimal keys of a solve step
OPTIMAL_AXES = 3  # table look-ups per node: the position seen with each axis on U-D (not a user setting)


@dataclass(frozen=True)
class OptimalOptions:
    """Table variant and budgets of one optimal solve (defaults: the schema's `cube.optimal`)."""

    table: str = _nested_default("optimal", "table")
    coset_table: str = _nested_default("optimal", "coset_table")  # the second table beside table full
    node_budget: int = _nested_default("optimal", "node_budget")
    time_limit: float = _nested_default("optimal", "time_limit")
    metric: str = _nested_default("optimal", "metric")  # htm or qtm: what the shortest solution's length counts
    axes: int = OPTIMAL_AXES
    corners: bool = False  # also the exact corner table (SearchTables.corners): measured, not worth its cost
    inverse: bool = True  # also bound by the inverse position's three views (SearchTables.bound)
    coset: bool = True  # also the coset table's three views (SearchTables.coset), when it is there
    big: bool = False  # with the coset table: also look the big table up in the three axis views (measured: slower)
    coset_inverse: bool = True  # with the coset table: the inverse views are looked up in its bound copy
    axis_rules: bool = True  # the (x,x,x) -> x+1 rule and next-move axes ruled out by the inverse views
    progress: bool = False  # log each new depth bound once a search has run 2 s (the CLI, one cube at a time)


def _check_finite(section: str, values: dict) -> None:
    """ConfigError naming the key of a NaN number (JSON Schema bounds let NaN through)."""
    for key, value in values.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"config key {SECTION}.{section}.{key}: must be a finite number, got {value}")


class _SolveBase(Settings):
    """Shared behaviour of the solve settings classes."""

    SECTION: ClassVar[str] = SECTION

    def check(self) -> None:
        """No NaN time limits (the schema's bounds compare false with NaN)."""
        for name in ("twophase", "thistlethwaite", "optimal"):
            if name in self.keys():
                _check_finite(name, getattr(self, name))

    def options(self, solver: str):
        """TwoPhaseOptions or ThistlethwaiteOptions of a solver."""
        if solver == "twophase":
            return TwoPhaseOptions(**self.twophase)
        if solver == "thistlethwaite":
            return ThistlethwaiteOptions(**self.thistlethwaite)
        if solver == "optimal":
            return OptimalOptions(**{k: v for k, v in self.optimal.items() if k in OPTIMAL_SEARCH_KEYS})
        raise ConfigError(f"unknown solver {solver!r}: one of {', '.join(SOLVERS)}")


@dataclass(frozen=True)
class ThistlethwaiteSettings(_SolveBase):
    """The pipeline's Thistlethwaite solve step: output format and the time cap."""

    format: str = default(SECTION, "format")
    thistlethwaite: dict = default(SECTION, "thistlethwaite")


@dataclass(frozen=True)
class TwoPhaseSettings(_SolveBase):
    """The pipeline's two-phase solve step: output format and the search budget."""

    format: str = default(SECTION, "format")
    twophase: dict = default(SECTION, "twophase")


@dataclass(frozen=True)
class OptimalSettings(_SolveBase):
    """The pipeline's optimal solve step: output format, table variant and budgets."""

    format: str = default(SECTION, "format")
    optimal: dict = default(SECTION, "optimal")


@dataclass(frozen=True)
class SolveSettings(_SolveBase):
    """An interactive `cube solve`: both solvers' keys (config section, then --set and flags)."""

    format: str = default(SECTION, "format")
    twophase: dict = default(SECTION, "twophase")
    thistlethwaite: dict = default(SECTION, "thistlethwaite")
    optimal: dict = default(SECTION, "optimal")

    def step(self, solver: str) -> _SolveBase:
        """The pipeline step settings of one solver (only the keys it uses)."""
        cls = STEP_SETTINGS[solver]
        return cls(**{f.name: getattr(self, f.name) for f in fields(cls)})

    def with_flag(self, flag: str, key: str, sub: str, value):
        """A copy with `cube.<key>.<sub>` set from a command-line flag; the error names the flag."""
        if value is None:
            return self
        data = self.to_dict()
        data[key] = {**data[key], sub: value}
        try:
            return type(self).from_dict(data)
        except ConfigError as exc:
            raise ConfigError(f"{flag} {value:g}: {exc}") from None


STEP_SETTINGS = {"thistlethwaite": ThistlethwaiteSettings, "twophase": TwoPhaseSettings, "optimal": OptimalSettings}


def step_settings_json(solver: str, section: dict) -> str:
    """The `--settings` JSON of one solver's pipeline step, from a validated `cube:` section."""
    return STEP_SETTINGS[solver].from_config(section).to_json()
