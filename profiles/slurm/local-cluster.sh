#!/usr/bin/env bash
# A real single-node Slurm on this machine, from Debian's packages (slurm-wlm, munge), to
# run `snakemake --profile profiles/slurm` against (tests/workflow/test_slurm.py, .ci/run).
#
#   profiles/slurm/local-cluster.sh start    # idempotent: starts what is not running, waits for an idle node
#   profiles/slurm/local-cluster.sh status   # daemons and `sinfo`; exit 0 only when the node is up
#   profiles/slurm/local-cluster.sh stop     # stops the daemons this script started (pid files)
#
# Needs root (the daemons run as root: SlurmUser=root) and the packages:
#   apt-get install --no-install-recommends slurm-wlm munge
# The configuration is generated at $SLURM_CONF (default /etc/slurm/slurm.conf, where every
# Slurm command looks; a file there that this script did not write is never replaced). State,
# logs and pid files go to $LOCAL_SLURM_DIR (default /var/lib/puzzlesearch-slurm).
# The node is this host, its CPUs and memory from `slurmd -C` (RealMemory a bit below, for
# the daemons), one partition `debug` (the default). Without cgroups (containers, CI) jobs are
# tracked by process tree (proctrack/linuxproc); memory is enforced by polling each job's RSS
# every second (jobacct_gather/linux, OverMemoryKill): a job over its --mem ends OUT_OF_MEMORY.
# No accounting database: finished jobs stay visible to `squeue` for MinJobAge (the
# profile's status command is squeue).
set -euo pipefail

CONF=${SLURM_CONF:-/etc/slurm/slurm.conf}
DIR=${LOCAL_SLURM_DIR:-/var/lib/puzzlesearch-slurm}
MARKER="# written by puzzlesearch profiles/slurm/local-cluster.sh"
MUNGE_KEY=/etc/munge/munge.key
MUNGE_RUN=/run/munge
MUNGE_PID=$MUNGE_RUN/munged.pid
MIN_JOB_AGE=3600        # seconds a finished job stays in squeue (the plugin wants >= 3 status intervals)
MEM_RESERVE_PERCENT=5   # RealMemory = slurmd -C's memory less this, for the daemons and the OS
START_TIMEOUT=60        # seconds to wait for an idle node
export SLURM_CONF=$CONF

say() { echo "local-cluster: $*" >&2; }
die() {
    say "$*"
    exit 1
}

need() { # the commands of the packages, one line naming what is missing
    local missing=()
    for cmd in munged mungekey slurmctld slurmd sinfo sbatch squeue scontrol; do
        command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
    done
    [[ ${#missing[@]} -eq 0 ]] ||
        die "missing ${missing[*]}: apt-get install --no-install-recommends slurm-wlm munge"
    [[ $(id -u) -eq 0 ]] || die "must run as root (the daemons run as root)"
}

alive() { # the process of a pid file runs
    local pid
    pid=$(cat "$1" 2>/dev/null) || return 1
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null
}

node_name() { hostname -s; }

write_conf() { # slurm.conf for this host (rewritten only when it changes)
    local node hw new
    node=$(node_name)
    hw=$(slurmd -C | head -1) || die "slurmd -C failed"
    local cpus boards sockets cores threads mem
    cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
    boards=$(sed -n 's/.* Boards=\([0-9]*\).*/\1/p' <<<"$hw")
    sockets=$(sed -n 's/.* SocketsPerBoard=\([0-9]*\).*/\1/p' <<<"$hw")
    cores=$(sed -n 's/.* CoresPerSocket=\([0-9]*\).*/\1/p' <<<"$hw")
    threads=$(sed -n 's/.* ThreadsPerCore=\([0-9]*\).*/\1/p' <<<"$hw")
    mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")
    [[ -n $cpus && -n $mem ]] || die "cannot read CPUs and RealMemory from: $hw"
    mem=$((mem * (100 - MEM_RESERVE_PERCENT) / 100))
    if [[ -e $CONF ]] && ! grep -qxF "$MARKER" "$CONF"; then
        die "$CONF exists and was not written by this script; move it away or set SLURM_CONF"
    fi
    mkdir -p "$(dirname "$CONF")" "$DIR/ctld" "$DIR/spool"
    new=$(
        cat <<EOF
$MARKER
ClusterName=puzzlesearch
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$DIR/ctld
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
MinJobAge=$MIN_JOB_AGE
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus Boards=$boards SocketsPerBoard=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    )
    if [[ ! -e $CONF || $(<"$CONF") != "$new" ]]; then
        printf '%s\n' "$new" >"$CONF.tmp" && mv "$CONF.tmp" "$CONF"
        say "wrote $CONF ($node: $cpus CPUs, RealMemory=$mem MB)"
    fi
}

start_munge() {
    if [[ ! -s $MUNGE_KEY ]]; then
        mungekey -c -k "$MUNGE_KEY"
        chown munge:munge "$MUNGE_KEY"
        chmod 600 "$MUNGE_KEY"
    fi
    alive "$MUNGE_PID" && return 0
    mkdir -p "$MUNGE_RUN" /var/log/munge /var/lib/munge
    chown munge:munge "$MUNGE_RUN" /var/log/munge /var/lib/munge
    chmod 755 "$MUNGE_RUN"
    runuser -u munge -- munged --force || die "munged did not start (see /var/log/munge/munged.log)"
    munge -n | unmunge >/dev/null || die "munge does not work (see /var/log/munge/munged.log)"
}

node_state() { sinfo -h -N -n "$(node_name)" -o %T 2>/dev/null | head -1; }

wait_idle() { # until the node takes jobs (idle, mixed or allocated)
    local state="" i
    for ((i = 0; i < START_TIMEOUT; i++)); do
        state=$(node_state) || true
        case $state in
        idle | mixed | allocated | completing) return 0 ;;
        down* | drain*) scontrol update NodeName="$(node_name)" State=RESUME 2>/dev/null || true ;;
        esac
        sleep 1
    done
    die "node $(node_name) not up after ${START_TIMEOUT}s (state '$state'; logs in $DIR)"
}

start() {
    need
    write_conf
    start_munge
    if ! alive "$DIR/slurmctld.pid"; then
        slurmctld || die "slurmctld did not start (see $DIR/slurmctld.log)"
    fi
    if ! alive "$DIR/slurmd.pid"; then
        slurmd || die "slurmd did not start (see $DIR/slurmd.log)"
    fi
    wait_idle
    say "up: node $(node_name) $(node_state), partition debug (SLURM_CONF=$CONF)"
}

stop_pid() { # TERM the process of a pid file, wait for it, KILL after 20 s
    local name=$1 file=$2 pid i
    alive "$file" || return 0
    pid=$(cat "$file")
    kill -TERM "$pid"
    for ((i = 0; i < 200; i++)); do
        kill -0 "$pid" 2>/dev/null || {
            say "stopped $name"
            return 0
        }
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    say "killed $name"
}

stop() {
    if alive "$DIR/slurmctld.pid"; then # end the jobs first (their slurmstepd would be orphaned)
        squeue -h -o %i | xargs -r scancel 2>/dev/null || true
    fi
    stop_pid slurmd "$DIR/slurmd.pid"
    stop_pid slurmctld "$DIR/slurmctld.pid"
    stop_pid munged "$MUNGE_PID"
}

status() {
    local name file code=0
    for name in munged slurmctld slurmd; do
        file=$DIR/$name.pid
        [[ $name == munged ]] && file=$MUNGE_PID
        if alive "$file"; then echo "$name: running (pid $(cat "$file"))"; else
            echo "$name: stopped"
            code=1
        fi
    done
    if [[ $code -eq 0 ]]; then sinfo; fi
    return "$code"
}

case ${1:-} in
start) start ;;
stop) stop ;;
status) status ;;
*) die "usage: local-cluster.sh start|stop|status" ;;
esac
