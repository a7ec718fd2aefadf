#!/usr/bin/env bash
# Fuzz smoke test: thousands of mutated and random inputs go through
# `ag --check FILE`, `ag --dis FILE` (when it compiles) and `ag FILE`, each
# under `timeout 2`. The interpreter may
# reject them (exit 1 or 2) or run out of time, but it must never crash: a
# signal (exit >= 128 other than the timeout's 124/137) or any AddressSanitizer,
# LeakSanitizer or UBSan ("file.c:L:C: runtime error:") report is a failure,
# and so is `--check` or `--dis` running out of time (they must always finish).
# Failing inputs are saved to build/fuzz-failures/ with a note of what happened.
#
# usage: sh tests/fuzz_smoke.sh AG_BINARY [COUNT]
#   COUNT        inputs to try (default: FUZZ_COUNT or 3000; 1000 for an ASan build)
#   FUZZ_SEED    seed (default 1); the same seed gives the same inputs
#   FUZZ_JOBS    parallel jobs (default 2)
#   FUZZ_TIMEOUT seconds per run (default 2)
# Corpus: tests/scripts/**/*.ag and the shared conformance scripts.
# Ends with "N passed, M failed"; exit status 1 if any failed.

# Invoked as `sh tests/fuzz_smoke.sh`: re-run under bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

die() { echo "fuzz_smoke.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: fuzz_smoke.sh AG_BINARY [COUNT]"

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
. "$ROOT/tests/fuzz/common.sh"
resolve_ag "$1"

# A sanitizer build runs several times slower: fewer inputs by default there.
DEFAULT_COUNT=3000
grep -q -a '__asan_init' "$AG" 2>/dev/null && DEFAULT_COUNT=1000
COUNT=${2:-${FUZZ_COUNT:-$DEFAULT_COUNT}}
SEED=${FUZZ_SEED:-1}
JOBS=${FUZZ_JOBS:-2}
LIMIT=${FUZZ_TIMEOUT:-$(scaled_limit 2)}
case "$COUNT$SEED$JOBS" in *[!0-9]*) die "COUNT, FUZZ_SEED and FUZZ_JOBS must be numbers" ;; esac

# A fuzz run that cannot fail is worthless: first make sure AG really runs.
if [ "$(printf 'print(40 + 2)\n' >"${TMPDIR:-/tmp}/ag-fuzz-sanity.$$.ag" &&
        NO_COLOR=1 run_limited "$(scaled_limit 10)" "$AG" "${TMPDIR:-/tmp}/ag-fuzz-sanity.$$.ag" </dev/null 2>&1)" != "42" ]; then
  rm -f -- "${TMPDIR:-/tmp}/ag-fuzz-sanity.$$.ag"
  echo "FAIL $AG does not run a one-line script"
  echo "0 passed, 1 failed"
  exit 1
fi
rm -f -- "${TMPDIR:-/tmp}/ag-fuzz-sanity.$$.ag"

# Build the mutator (tests/fuzz/mutate.c) into build/fuzz/.
MUTATE="$ROOT/build/fuzz/mutate"
mkdir -p "$ROOT/build/fuzz" || die "cannot create build/fuzz"
if [ ! -x "$MUTATE" ] || [ "$ROOT/tests/fuzz/mutate.c" -nt "$MUTATE" ]; then
  ${CC:-cc} -std=c11 -O2 -Wall -o "$MUTATE" "$ROOT/tests/fuzz/mutate.c" || die "cannot build the mutator"
fi

corpus=()
while IFS= read -r f; do corpus+=("$f"); done < <(find "$ROOT/tests/scripts" -type f -name '*.ag' | LC_ALL=C sort)
for d in "$ROOT/../shared/conformance" /work/shared/conformance; do
  if [ -d "$d" ]; then
    while IFS= read -r f; do corpus+=("$f"); done < <(find "$d" -maxdepth 1 -type f -name '*.ag' | LC_ALL=C sort)
    break
  fi
done
[ ${#corpus[@]} -gt 0 ] || die "no corpus files found"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ag-fuzz.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf -- "$WORK"' EXIT
mkdir -p "$WORK/cases" "$WORK/results"
# Mutated imports of "lib/..." find the import tests' modules.
[ -d "$ROOT/tests/scripts/lang/import/lib" ] && ln -s "$ROOT/tests/scripts/lang/import/lib" "$WORK/cases/lib"

"$MUTATE" "$SEED" "$COUNT" "$WORK/cases" "${corpus[@]}" || die "the mutator failed"

FAILDIR="$ROOT/build/fuzz-failures"
rm -f -- "$FAILDIR"/seed"${SEED}"_case_*  # results of an earlier run with this seed
export AG LIMIT WORK FAILDIR SEED

# fuzz_one CASE_FILE: prints "ok NAME" or "FAIL NAME: why"; saves failing inputs.
# Runs in the worker's own scratch directory (the cwd), which scripts may write to.
fuzz_one() {
  local f=$1 name rc why="" mode label
  name=$(basename -- "$f" .ag)
  local compiled=0
  for mode in check dis run; do
    if [ $mode = check ]; then
      label="ag --check"
      NO_COLOR=1 run_limited --kill-after 1 "$LIMIT" "$AG" --check "$f" </dev/null >/dev/null 2>err.txt
    elif [ $mode = dis ]; then
      # the disassembler walks every compiled function: only for inputs that compile
      [ $compiled -eq 1 ] || continue
      label="ag --dis"
      NO_COLOR=1 run_limited --kill-after 1 "$LIMIT" "$AG" --dis "$f" </dev/null >/dev/null 2>err.txt
    else
      label="ag"
      NO_COLOR=1 run_limited --kill-after 1 "$LIMIT" "$AG" "$f" </dev/null >/dev/null 2>err.txt
    fi
    rc=$?
    [ $mode = check ] && [ $rc -eq 0 ] && compiled=1
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      [ $mode != run ] && why="$label did not finish in ${LIMIT}s"
    elif [ $rc -ge 128 ]; then
      # a script may call exit(N) with a large N itself: only real signals count then
      case $rc in
        132|133|134|135|136|139|159) why="$label died with status $rc (signal $((rc - 128)))" ;;
        *) grep -q 'exit' "$f" || why="$label died with status $rc (signal $((rc - 128)))" ;;
      esac
    fi
    if [ -z "$why" ] && [ -s err.txt ] &&
       grep -q -E 'AddressSanitizer|LeakSanitizer|\.[ch]:[0-9]+:[0-9]+: runtime error:' err.txt; then
      why="sanitizer report from $label"
    fi
    if [ -n "$why" ]; then
      mkdir -p "$FAILDIR"
      cp -- "$f" "$FAILDIR/seed${SEED}_$name.ag"
      { echo "$why"; echo "reproduce: $label build/fuzz-failures/seed${SEED}_$name.ag"
        echo "--- stderr (head)"; head -c 4000 err.txt; } >"$FAILDIR/seed${SEED}_$name.txt"
      echo "FAIL $name: $why (saved build/fuzz-failures/seed${SEED}_$name.ag)"
      return 0
    fi
  done
  echo "ok $name"
}
run_cases 25

count_results "$WORK/results/all" "$COUNT" inputs
echo "fuzz: seed $SEED, $COUNT inputs, each through ag --check, ag --dis (if it compiles) and ag"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
