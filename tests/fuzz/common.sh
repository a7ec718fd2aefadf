# common.sh — what the two fuzz drivers (tests/fuzz_smoke.sh, tests/fuzz_tensor.sh)
# share; sourced by bash after `set -u` and a `die` function.

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
