#!/usr/bin/env bash
# Interleaved A/B of `bench/load.py` between worktrees (A, B, A, B, ...), each run in its own tree
# with this tree's load.py (the same client for every build), so builds are compared in one sitting.
#
#   bench/ab.sh [-n PAIRS] [-- LOAD_ARGS...] TREE_A TREE_B [TREE_C ...]
#   bench/ab.sh -n 3 -- --rooms 20 --pace 0 --seconds 15 -- /work/h-speed-base /work/h-speed
#
# Prints, per run, the tree, the load average, server CPU per move and the last line; then the
# median server CPU per move of each tree and its ratio to the first tree's.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
py="${PYTHON:-$here/.venv/bin/python}"
pairs=3
args=(--rooms 20 --pace 0 --seconds 15)
if [[ "${1:-}" == "-n" ]]; then pairs="$2"; shift 2; fi
if [[ "${1:-}" == "--" ]]; then
  shift; args=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do args+=("$1"); shift; done
  shift
fi
trees=("$@")
[[ ${#trees[@]} -ge 1 ]] || { echo "usage: $0 [-n PAIRS] [-- LOAD_ARGS... --] TREE..." >&2; exit 2; }
out="$(mktemp -d)"
for ((i = 1; i <= pairs; i++)); do
  for t in "${trees[@]}"; do
    if [[ "$t" != "$here" ]]; then cp "$here/bench/load.py" "$t/bench/load.py.ab"; load="$t/bench/load.py.ab"; else load="$here/bench/load.py"; fi
    # load.py finds the server's code from its own directory: run a copy inside tree $t.
    log="$out/$(basename "$t").$i"
    (cd "$t" && "$py" "$load" "${args[@]}" >"$log" 2>&1) || true
    cpu="$(grep -o 'server CPU: [0-9]* µs' "$log" | grep -o '[0-9]*' || echo '?')"
    echo "$(basename "$t") run $i  load $(cut -d' ' -f1 /proc/loadavg)  cpu/move ${cpu} µs  $(tail -1 "$log")"
    echo "$cpu" >>"$out/$(basename "$t").cpu"
  done
done
first=""
for t in "${trees[@]}"; do
  med="$(sort -n "$out/$(basename "$t").cpu" | grep -v '?' | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print 0}')"
  [[ -n "$first" ]] || first="$med"
  echo "median $(basename "$t"): ${med} µs per move  ($(awk -v a="$med" -v b="$first" 'BEGIN {if (b) printf "%.2f", a / b; else print "?"}')× the first)"
done
rm -f "${trees[@]/%//bench/load.py.ab}" 2>/dev/null || true
