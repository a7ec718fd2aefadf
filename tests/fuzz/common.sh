# common.sh — what the two fuzz drivers (tests/fuzz_smoke.sh, tests/fuzz_tensor.sh)
# share; sourced by bash after `set -u` and a `die` function.
# Time limits scale with the machine (tests/time_limit.sh).
. "$(dirname -- "${BASH_SOURCE[0]}")/../time_limit.sh"

# resolve_ag ARG: sets AG to the absolute path of the interpreter named by ARG
# (a path, or a command on PATH), or dies.
resolve_ag() {
  AG=$1
  case "$AG" in
    /*) ;;
    */*) AG="$PWD/$AG" ;;
    *) if [ -e "$AG" ]; then AG="$PWD/$AG"; else AG=$(command -v -- "$AG") || die "interpreter not found: $1"; fi ;;
  esac
  [ -x "$AG" ] || die "interpreter not found or not executable: $AG"
  time_scale_for "$AG"
}

# count_results FILE COUNT WHAT: from FILE's "ok NAME" / "FAIL NAME: why"
# lines, prints the first 50 failures and sets passed and failed; inputs
# that produced no line at all (a worker died) count as failed.
count_results() {
  passed=$(grep -c '^ok ' "$1")
  failed=$(grep -c '^FAIL ' "$1")
  grep '^FAIL ' "$1" | LC_ALL=C sort | head -n 50
  [ "$failed" -gt 50 ] && echo "... and $((failed - 50)) more (see build/fuzz-failures/)"
  local missing=$(($2 - passed - failed))
  if [ $missing -ne 0 ]; then
    echo "FAIL $missing $3 produced no result"
    failed=$((failed + missing))
  fi
}

# fuzz_batch CASE_FILE...: the driver's fuzz_one on each case, in a scratch
# directory of the batch's own (which scripts may write to), holding a copy
# of the files in $SCRATCH_FILES when that is set.
fuzz_batch() {
  local dir
  dir=$(mktemp -d "$WORK/run.XXXXXX") || exit 1
  if [ -n "${SCRATCH_FILES:-}" ]; then cp -- "$SCRATCH_FILES"/* "$dir"/; fi
  cd "$dir" || exit 1
  for f in "$@"; do fuzz_one "$f"; done 2>/dev/null
  cd "$WORK" && rm -rf -- "$dir"
}

# run_cases BATCH: every $WORK/cases/case_*.ag through fuzz_batch, BATCH cases
# a worker and $JOBS workers at a time, into $WORK/results/all.
run_cases() {
  export -f fuzz_one fuzz_batch run_limited
  export TIMEOUT_TOOL
  find "$WORK/cases" -maxdepth 1 -name 'case_*.ag' | LC_ALL=C sort |
    xargs -P "$JOBS" -n "$1" bash -c 'fuzz_batch "$@"' fuzz_worker >"$WORK/results/all"
}
