# Every stage's default outputs, collected for `rule all`.
# Included by workflow/rules/common.smk; only functions and values, no rules.


def default_targets():
    """Everything a plain `snakemake` builds: each stage's default outputs (report.smk adds report_targets)."""
    report_targets = globals().get("report_targets", list)
    return [
        *lexicon_targets(),
        *boggle_targets(),
        *bee_targets(),
        *crossword_targets(),
        *cube_targets(),
        *report_targets(),
    ]
