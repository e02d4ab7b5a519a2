#!/usr/bin/env bash
# Fake cluster cancel: stop the given jobs of submit.sh. Each job is its own session
# (setsid; session id = the recorded pid), so every process of the job gets the signal.
set -uo pipefail

dir=${FAKECLUSTER_DIR:-.snakemake/fakecluster}
for id in "$@"; do
    sid=$(cat "$dir/$id.pid" 2>/dev/null) && pkill -TERM -s "$sid"
done
exit 0
