# Resources: default memory and runtime of a job, and runtime from a time cap.
# Included by workflow/rules/common.smk; only functions and values, no rules.


# Resources (see the header). Measured peak RSS of every job, default config and the
# 173k-word ENABLE list alike: 125-320 MB (interpreter, polars, numba, one lexicon's
# tables); wall time 1-8 s for builds and gathers, 20-55 s per Boggle search.
MEM_MB = 1000  # every job: 3x the largest measured peak
STARTUP_MINUTES = 5  # a job's fixed cost (imports, numba cache, tables), with headroom
SECONDS_PER_MINUTE = 60


def cap_minutes(seconds, count=1):
    """Cluster runtime (minutes) of a job of `count` steps, each bounded by a safety cap of `seconds`."""
    return STARTUP_MINUTES + math.ceil(count * seconds / SECONDS_PER_MINUTE)
