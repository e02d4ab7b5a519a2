#!/usr/bin/env bash
# Fake cluster submit: start a Snakemake job script in the background on this machine.
# usage: submit.sh --name N --rule R --threads T --mem-mb M --runtime MINUTES JOBSCRIPT
# Prints the job id. Records one line per submission in $FAKECLUSTER_DIR/submissions.tsv
# (id, name, rule, threads, mem_mb, runtime) and keeps a copy of the job script as <id>.sh.
# The job runs in its own session (setsid) under `timeout` (the runtime, as a cluster
# would); its exit code is written to <id>.exit when it ends, its output to <id>.out.
set -euo pipefail

usage() { echo "usage: submit.sh --name N --rule R --threads T --mem-mb M --runtime MINUTES JOBSCRIPT" >&2; exit 2; }
SECONDS_PER_MINUTE=60
KILL_GRACE=10s      # SIGKILL this long after the runtime's SIGTERM
START_WAIT=100      # polls (0.05 s) for the job to record its process id

name="" rule="" threads="" mem_mb="" runtime=""
while [[ $# -gt 1 ]]; do
    case $1 in
        --name) name=$2 ;;
        --rule) rule=$2 ;;
        --threads) threads=$2 ;;
        --mem-mb) mem_mb=$2 ;;
        --runtime) runtime=$2 ;;
        *) usage ;;
    esac
    shift 2
done
[[ $# -eq 1 && -n $runtime ]] || usage
jobscript=$1

dir=${FAKECLUSTER_DIR:-.snakemake/fakecluster}
mkdir -p "$dir"
id=$(date +%s%N)$$
cp "$jobscript" "$dir/$id.sh"
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$name" "$rule" "$threads" "$mem_mb" "$runtime" >> "$dir/submissions.tsv"

# The job: record its pid (= its session and process group), run, record the exit code atomically.
setsid nohup bash -c '
    echo $$ > "$1.pid"
    timeout --kill-after="$3" "$2" "$4"
    code=$?
    echo "$code" > "$1.exit.tmp" && mv "$1.exit.tmp" "$1.exit"
' fakejob "$dir/$id" "$((runtime * SECONDS_PER_MINUTE))s" "$KILL_GRACE" "$dir/$id.sh" \
    > "$dir/$id.out" 2>&1 < /dev/null &

for ((i = 0; i < START_WAIT; i++)); do  # report the id once the job is known to have started
    [[ -s $dir/$id.pid ]] && break
    sleep 0.05
done
echo "$id"
