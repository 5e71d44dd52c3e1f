#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying the cluster scripts (and for the test
# that runs a study through it): a munge daemon and slurmctld + slurmd for localhost, every
# file of theirs inside one directory, ports chosen free, nothing written outside it.
#
#   scripts/slurm-localhost.sh start DIR   # prints the line to source: export SLURM_CONF=DIR/slurm.conf
#   scripts/slurm-localhost.sh stop DIR    # stops the three daemons started in DIR
#
# Needs Debian's (or any distribution's) Slurm and MUNGE: slurmctld, slurmd, the clients
# (sbatch, squeue, sinfo) and munged, mungekey. On Debian, as root:
#   apt-get install slurmctld slurmd slurm-client munge
# Runs as root (slurmd must) or as a user who may start slurmd. The node is this machine as
# `slurmd -C` sees it (CPUs, memory); the one partition `local` is the default. No accounting,
# no cgroups (proctrack/linuxproc, task/none): enough to run array jobs, not to confine them.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
cmd=$1
dir=$(realpath -m "$2")

stop() {
    for d in slurmd slurmctld munged; do
        f="$dir/$d.pid"
        pid=$(cat "$f" 2>/dev/null || true)
        if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        fi
        rm -f "$f"
    done
}

# A free TCP port on 127.0.0.1, from the kernel.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

case "$cmd" in
stop)
    stop
    echo "slurm-localhost: stopped the cluster in $dir" >&2
    exit 0
    ;;
start) ;;
*) usage ;;
esac

for tool in slurmctld slurmd sbatch squeue sinfo munged mungekey; do
    command -v "$tool" >/dev/null || {
        echo "slurm-localhost: $tool not found: install Slurm and MUNGE" \
            "(Debian: apt-get install slurmctld slurmd slurm-client munge)" >&2
        exit 3
    }
done

mkdir -p "$dir"/{state,spool,log,munge}
chmod 700 "$dir/munge"
stop # a cluster left running in DIR by an earlier start

# MUNGE: its own key and socket in DIR (--force: as root, and under a world-writable /tmp).
key="$dir/munge/munge.key"
[[ -s $key ]] || mungekey --create --keyfile="$key" 2>/dev/null || dd if=/dev/urandom of="$key" bs=128 count=1 status=none
chmod 600 "$key"
socket="$dir/munge/munge.socket"
munged --force --key-file="$key" --socket="$socket" --pid-file="$dir/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munge.seed"

node=$(slurmd -C | head -1) # NodeName=HOST CPUs=... RealMemory=...
host=$(sed -E 's/^NodeName=([^ ]+).*/\1/' <<<"$node")
cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm-localhost.sh: a one-node cluster on this machine.
ClusterName=optcube-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
MaxArraySize=100001
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -c -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N "$host"
# Ready once the node takes jobs.
for _ in $(seq 100); do
    state=$(sinfo -h -N -o %T 2>/dev/null | head -1 || true)
    [[ $state == idle* || $state == mixed* ]] && break
    sleep 0.2
done
if [[ $state != idle* && $state != mixed* ]]; then
    echo "slurm-localhost: the node did not come up (state '${state:-none}'); logs in $dir/log" >&2
    tail -5 "$dir"/log/*.log >&2 || true
    stop
    exit 1
fi
echo "slurm-localhost: one-node cluster up in $dir (node $host, $(sed -E 's/.*CPUs=([0-9]+).*/\1/' <<<"$node") CPUs)" >&2
echo "export SLURM_CONF=$SLURM_CONF"
