#!/bin/sh
# run_python_cases.sh AG — the CPython twins of tests/python: each NAME.ag
# must print NAME.out, which CPython printed from NAME.py (pure-Python
# semantics that Ag follows: unpacking, loop variables, tuples ...). Needs no
# Python. After changing a .py, regenerate its output and review the diff:
#   cd tests/python && /usr/bin/python3 NAME.py > NAME.out
# The twins print nothing whose spelling differs between the two languages
# (booleans, nil/None, quoted strings inside containers), so the comparison
# is exact. Time limits scale with the machine (tests/time_limit.sh).
# Last line: "N passed, M failed".
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/time_limit.sh"
AG=${1:-./ag}
case "$AG" in /*) ;; *) AG="$PWD/$AG" ;; esac
time_scale_for "$AG"
LIMIT=$(scaled_limit 20)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-python.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT/tests/python" || exit 2

passed=0
failed=0
for case_file in *.ag; do
  name=${case_file%.ag}
  NO_COLOR=1 run_limited "$LIMIT" "$AG" "$case_file" >"$TMP/actual" 2>"$TMP/err" </dev/null
  echo "exit=$?" >>"$TMP/actual"
  { cat "$name.out"; echo "exit=0"; } >"$TMP/expected"
  if cmp -s "$TMP/expected" "$TMP/actual"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL tests/python/$case_file"
    diff "$TMP/expected" "$TMP/actual" | head -15
    head -3 "$TMP/err"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
