# Sourced by the Slurm array scripts (slurm-lengths.sh, slurm-cosets.sh), after they cd to the
# repository's root: the settings every array task needs, and a check, before a task starts
# work, that the tables are in the shared directory already and undamaged, so that a hundred
# tasks never each start building them. The binary says which tables a set holds
# (`optcube pdb sets --tables SET`): no list is copied here.
#   need_array_settings NAME          # the array task's id and count, OPTCUBE_PDB_DIR
#   check_tables NAME BIN DIR [SET]   # NAME names the script in messages; exits 2 on a fault
need_array_settings() {
    local name=$1 var
    for var in SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT; do
        [[ -n ${!var:-} ]] || { echo "$name: $var is not set: run as an array job" \
            "(sbatch scripts/$name) or set it" >&2; exit 2; }
    done
    [[ -n ${OPTCUBE_PDB_DIR:-} ]] || { echo "$name: OPTCUBE_PDB_DIR is not set: the shared" \
        "table directory (built beforehand)" >&2; exit 2; }
}

check_tables() {
    local name=$1 bin=$2 dir=$3 set_name=${4:-}
    local tables=() listed t f
    [[ -x $bin ]] || { echo "$name: no optcube binary at $bin (cargo build --release)" >&2; exit 2; }
    if [[ -n $set_name ]]; then
        listed="$("$bin" pdb sets --tables "$set_name")" || exit 2
        mapfile -t tables <<<"$listed"
    fi
    if [[ -z $set_name ]] && ! compgen -G "$dir/*.pdb" >/dev/null; then
        echo "$name: no tables in $dir; build them first with:" \
            "$bin pdb build --dir $dir" >&2
        exit 2
    fi
    for t in "${tables[@]}"; do
        f="$dir/$t.pdb"
        if [[ ! -e $f && ! -e $f.zst ]]; then
            echo "$name: table $f is missing; build the tables first with:" \
                "$bin pdb build --set $set_name --dir $dir" >&2
            exit 2
        fi
    done
    "$bin" pdb verify --dir "$dir" >/dev/null ||
        { echo "$name: a table in $dir is damaged (optcube pdb verify)" >&2; exit 2; }
}
