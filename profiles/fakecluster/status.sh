#!/usr/bin/env bash
# Fake cluster status: print running, success or failed for a job id of submit.sh.
# A job that ended has an exit code file; one that is gone without one (killed, or never
# started) failed.
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: status.sh JOBID" >&2; exit 2; }
dir=${FAKECLUSTER_DIR:-.snakemake/fakecluster}
job=$dir/$1

finished() {  # print success/failed from the exit code file; false if there is none
    [[ -f $job.exit ]] || return 1
    if [[ $(< "$job.exit") == 0 ]]; then echo success; else echo failed; fi
}

alive() {  # the job's process exists and is not a zombie
    local pid state
    pid=$(cat "$job.pid" 2>/dev/null) || return 1
    [[ -r /proc/$pid/stat ]] || return 1
    state=$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f1) || return 1
    [[ $state != Z ]]
}

finished && exit 0
if alive; then echo running; exit 0; fi
finished || echo failed  # it may have ended between the two checks
