#!/bin/sh
# check_npz_hostile.sh — hostile .npz archives (issue 16, fault 5), generated
# here by tests/gen_hostile_npz.py rather than committed: directory entries
# that share one member are refused before anything is inflated; an archive
# whose members add up to more than load()'s 4 GiB is refused likewise; and a
# Ctrl-C during a long inflate stops it at once, as an Interrupted error
# (exit 130). Each error is caught in the script too, so that it is shown to
# be an ordinary catchable error. The interrupt case allows 10 s (times the
# machine's slowness, tests/time_limit.sh) after the signal (inflating the
# whole member takes several seconds even on a fast machine, and a slow or
# emulated one stops as soon as it polls).
# usage: sh tests/check_npz_hostile.sh AG_BINARY    Last line: "N passed, M failed"; exit 1 on a failure.
[ $# -eq 1 ] || { echo "usage: check_npz_hostile.sh AG_BINARY" >&2; exit 2; }
AG=$1
HERE=$(dirname "$0")
. "$HERE/time_limit.sh"
time_scale_for "$AG"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-npz.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
python3 "$HERE/gen_hostile_npz.py" "$TMP" || { echo "check_npz_hostile: cannot generate the archives" >&2; exit 2; }
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() {
  echo "FAIL $1"
  head -5 "$TMP/err"
  failed=$((failed + 1))
}

# refused NAME MESSAGE: load() of NAME.npz fails with exactly MESSAGE (exit 1),
# and the same error is caught by a script
refused() {
  NO_COLOR=1 "$AG" -e "load(\"$TMP/$1.npz\")" >"$TMP/out" 2>"$TMP/err" </dev/null
  rc=$?
  want="<string>:1: error: cannot read $TMP/$1.npz: $2"
  if [ $rc -ne 1 ] || [ "$(head -1 "$TMP/err")" != "$want" ]; then
    echo "  want exit 1 and: $want"
    fail "$1.npz (exit $rc)"
    return
  fi
  caught=$(NO_COLOR=1 "$AG" -e "try { load(\"$TMP/$1.npz\") } catch e { print(\"caught\", str(e) == \"cannot read $TMP/$1.npz: $2\") }" 2>"$TMP/err" </dev/null)
  if [ "$caught" != "caught true" ]; then
    fail "$1.npz: not caught as the same error (got: $caught)"
    return
  fi
  pass
}

refused shared "corrupt zip: members 'a0.npy' and 'a1.npy' share their data"
refused huge "the members hold more than 4 GiB uncompressed, the most load() reads"

# Ctrl-C once the script prints that it begins to inflate slow.npz's 3 GiB
# member (not after a fixed delay: a loaded machine may not have begun yet)
start=$(date +%s)
NO_COLOR=1 interrupt_when_printed "$TMP/out" loading "$(scaled_limit 10)" \
  "$AG" -e "print(\"loading\", flush=true)
let m = load(\"$TMP/slow.npz\")" 2>"$TMP/err" </dev/null
rc=$?
took=$(($(date +%s) - start))
if [ $rc -eq 130 ] && grep -q 'Interrupted' "$TMP/err"; then
  pass
else
  fail "slow.npz: Ctrl-C during inflate gave exit $rc after ${took}s (want 130 within $(scaled_limit 10)s of the signal)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
