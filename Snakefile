# puzzlesearch pipeline: `snakemake` (profiles/default sets the cores) builds every default target.
# Settings flow: config.yaml (+ --config) is validated against the package's schemas
# (src/puzzlesearch/schemas, linked as workflow/schemas); each rule turns its section into
# that stage's settings object and passes it to the command as `--settings JSON`, with
# explicit input and output paths. Commands never read config.yaml.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))  # the library, even if not installed

from snakemake.utils import min_version

from puzzlesearch.settings import validate_config
from puzzlesearch.errors import ConfigError

min_version("9.0")


configfile: "config.yaml"


report: "workflow/report/workflow.rst"


try:  # schemas in the package, defaults filled in
    validate_config(config, "config (config.yaml and any --config/--configfile)")
except ConfigError as _error:  # one line naming the key, no traceback
    sys.exit(f"puzzlesearch: error: {_error}")


include: "workflow/rules/common.smk"
include: "workflow/rules/lexicon.smk"
include: "workflow/rules/boggle.smk"
include: "workflow/rules/boggle_proof.smk"
include: "workflow/rules/bee.smk"
include: "workflow/rules/crossword.smk"
include: "workflow/rules/cube.smk"
include: "workflow/rules/cube_optimal.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        default_targets(),


onsuccess:
    from puzzlesearch.report.summary import print_summary

    print_summary()  # per puzzle the best result and its file; reads only existing files, never fails
