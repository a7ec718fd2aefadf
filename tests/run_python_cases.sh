#!/bin/sh
# run_python_cases.sh AG — the CPython twins of tests/python: each NAME.ag
# must print exactly NAME.out, which CPython printed from NAME.py
# (regenerate with `sh tests/run_python_cases.sh --regen`, which needs
# /usr/bin/python3; running the cases needs no Python).
# Last line: "N passed, M failed".
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/time_limit.sh"
cd "$ROOT/tests/python" || exit 2
if [ "${1:-}" = "--regen" ]; then
  for py in *.py; do /usr/bin/python3 "$py" >"${py%.py}.out" || { echo "FAIL $py" >&2; exit 1; }; done
  exit 0
fi
AG=${1:-./ag}
case "$AG" in /*) ;; *) AG="$ROOT/$AG" ;; esac
time_scale_for "$AG"
LIMIT=$(scaled_limit 20)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-python.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
for case_ag in *.ag; do
  name=${case_ag%.ag}
  if NO_COLOR=1 timeout "$LIMIT" "$AG" "$case_ag" >"$TMP/out" 2>"$TMP/err" && cmp -s "$TMP/out" "$name.out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL tests/python/$case_ag"
    diff "$name.out" "$TMP/out" | head -20 | sed 's/^/    /'
    head -5 "$TMP/err" | sed 's/^/    /'
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
