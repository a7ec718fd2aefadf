#!/usr/bin/env bash
# Runs the shared conformance cases (../shared/conformance-next, relative to the
# repository root; /work/shared/conformance-next as a fallback) with AG_BINARY and
# checks that every case named in tests/conformance.list passes. Other cases
# may fail for now: they are counted, shown, but do not fail this script.
#
# usage: sh tests/run_conformance.sh AG_BINARY
#   CONFORMANCE_DIR overrides the folder of the cases.
# Output: the shared runner's FAIL lines and diffs for required cases, a summary
#   "conformance: X/Y passed; required R/Q passed", and finally
#   "N passed, M failed" counting the required cases.
# Exit status: 1 if a required case fails or the folder is missing, 2 on bad usage.

# Invoked as `sh tests/run_conformance.sh`: re-run under bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

die() { echo "run_conformance.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: run_conformance.sh AG_BINARY"

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
LIST="$ROOT/tests/conformance.list"

AG=$1
case "$AG" in
  /*) ;;
  */*) AG="$PWD/$AG" ;;
  *) if [ -e "$AG" ]; then AG="$PWD/$AG"; else AG=$(command -v -- "$AG") || die "interpreter not found: $1"; fi ;;
esac
[ -x "$AG" ] || die "interpreter not found or not executable: $AG"

DIR=${CONFORMANCE_DIR:-}
if [ -z "$DIR" ]; then
  for d in "$ROOT/../shared/conformance-next" /work/shared/conformance-next; do
    if [ -d "$d" ]; then DIR=$d; break; fi
  done
fi
if [ -z "$DIR" ] || [ ! -f "$DIR/run.sh" ]; then
  echo "FAIL conformance folder not found (${CONFORMANCE_DIR:-looked in $ROOT/../shared/conformance-next and /work/shared/conformance-next})"
  echo "0 passed, 1 failed"
  exit 1
fi
DIR=$(cd -- "$DIR" && pwd)
[ -f "$LIST" ] || die "missing $LIST"

# Required names: the list without comments and blank lines.
required=()
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%%#*}
  line=$(printf '%s' "$line" | tr -d ' \t\r')
  [ -n "$line" ] && required+=("$line")
done <"$LIST"

# A build without zlib (`npz: no zlib` in `ag --platform`, e.g. the AArch64
# cross build) refuses .npz files: the cases that use them are a skip there.
if "$AG" --platform 2>/dev/null | grep -qx 'npz: no zlib'; then
  kept=()
  for name in "${required[@]}"; do
    if [ -f "$DIR/$name.ag" ] && grep -q '\.npz' "$DIR/$name.ag"; then
      echo "SKIP $name (uses .npz; this build has no zlib)"
    else
      kept+=("$name")
    fi
  done
  required=("${kept[@]}")
fi

OUT=$(mktemp "${TMPDIR:-/tmp}/ag-conformance-out.XXXXXX") || die "cannot create a temporary file"
trap 'rm -f -- "$OUT"' EXIT

bash "$DIR/run.sh" "$AG" "$DIR" >"$OUT" 2>&1
shared_rc=$?

summary=$(tail -n 1 "$OUT")
all_passed=$(printf '%s\n' "$summary" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
all_failed=$(printf '%s\n' "$summary" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
if [ -z "$all_passed" ]; then
  echo "FAIL the shared conformance runner did not finish (exit $shared_rc):"
  tail -n 5 "$OUT"
  echo "0 passed, ${#required[@]} failed"
  exit 1
fi

# Names of failing cases, from the runner's "FAIL NAME" or "FAIL NAME (...)" lines.
failing=" $(sed -n 's/^FAIL \([^ ]*\).*/\1/p' "$OUT" | tr '\n' ' ') "

req_pass=0
req_fail=0
for name in "${required[@]}"; do
  if [ ! -f "$DIR/$name.ag" ] || [ ! -f "$DIR/$name.out" ]; then
    echo "FAIL $name (required, but $DIR/$name.ag or .out is missing)"
    req_fail=$((req_fail + 1))
  elif [[ "$failing" == *" $name "* ]]; then
    echo "FAIL $name (required)"
    # the shared runner's diff for this case: from its FAIL line to the next FAIL/summary line
    awk -v n="$name" '
      /^FAIL / { on = ($2 == n) }
      /^[0-9]+ passed, [0-9]+ failed$/ { on = 0 }
      on && !/^FAIL / { print "  " $0 }' "$OUT"
    req_fail=$((req_fail + 1))
  else
    req_pass=$((req_pass + 1))
  fi
done

others=$(for n in $failing; do
  case " ${required[*]} " in *" $n "*) ;; *) printf '%s ' "$n" ;; esac
done)
if [ -n "$others" ]; then echo "not yet passing (not required): $others"; fi
echo "conformance: $all_passed/$((all_passed + all_failed)) passed; required $req_pass/${#required[@]} passed"
echo "$req_pass passed, $req_fail failed"
[ $req_fail -eq 0 ]
