# The workflow's Python, split by concern under workflow/rules/common/: paths and quoting,
# resources, then per stage its settings, input functions and `<stage>_targets()` (the
# default outputs), collected by `default_targets()` (targets.smk).
# The stage files (lexicon.smk, boggle.smk, ...) hold only rules: Snakemake's linter wants
# functions out of rule files.
#
# Quoting: every value that reaches a shell command is quoted, either with Snakemake's
# `:q` format ({input.words:q}, {params.settings:q}, {wildcards.seed:q}) or through q().
#
# Resources: the rules declare threads (1: the numba kernels are single-threaded) and
# `resources:` mem_mb / runtime (minutes), sized from measured peak memory and wall time
# of the default config with headroom; searches with a time cap get runtime from the cap
# (cap_minutes), so a cluster never kills a job the pipeline would let finish.
import json
import math
import os
import shlex
import sys
from pathlib import Path

from puzzlesearch.errors import PuzzleError
from puzzlesearch.lexicon.artifacts import specs_from_config
from puzzlesearch.lexicon.sources import is_builtin, source_file


include: "common/paths.smk"
include: "common/resources.smk"
include: "common/lexicon.smk"
include: "common/boggle.smk"
include: "common/bee.smk"
include: "common/crossword.smk"
include: "common/cube.smk"
include: "common/targets.smk"
