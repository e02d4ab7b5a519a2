# puzzlesearch pipeline: `snakemake --cores 8` builds every default target.
# Each stage lives in workflow/rules/<stage>.smk and appends its outputs to DEFAULT_TARGETS;
# the logic lives in src/puzzlesearch/, rules only call the `puzzlesearch` command.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))  # the library, even if not installed

from puzzlesearch.config import validate_config
from puzzlesearch.errors import ConfigError


configfile: "config.yaml"


try:  # schemas in workflow/schemas/, defaults filled in
    validate_config(config, workflow.basedir, "config (config.yaml and any --config/--configfile)")
except ConfigError as _error:  # one line naming the key, no traceback
    sys.exit(f"puzzlesearch: error: {_error}")


include: "workflow/rules/common.smk"


for _stage in sorted(Path(workflow.basedir, "workflow", "rules").glob("*.smk")):
    if _stage.name != "common.smk":

        include: str(_stage)


rule all:
    default_target: True
    input:
        DEFAULT_TARGETS,
