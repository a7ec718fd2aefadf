#!/bin/sh
# run_python_cases.sh AG — the differential cases of tests/python: each
# NAME.ag must print exactly NAME.out, which CPython 3.11 printed from its
# twin NAME.py (regenerate: `sh tests/run_python_cases.sh --regen`, with
# Debian's /usr/bin/python3). The .py prints Ag's spellings where the two
# differ (true/false, lists for tuples). Needs no Python to run. math's and
# random's transcendental steps (exp, log, sin ...) are the C library's, as
# CPython's: the expected outputs hold where that is glibc's (Debian's
# CPython); musl (the wasm build) differs in last digits, and so does glibc
# on AArch64: a case whose first comment lines hold `# tolerance: rtol=R
# atol=A` has its numbers compared within that tolerance (the text around
# them exactly, tests/compare_numbers.awk), the others to the character.
# A case whose first comment lines hold `# needs: utf8proc` (unicodedata) is
# skipped, and said so, in a build without it (`ag --platform`).
# Last line: "N passed, M failed".
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/time_limit.sh"
if [ "$1" = "--regen" ]; then
  cd "$ROOT/tests/python" || exit 2
  for py in *.py; do /usr/bin/python3 "$py" > "${py%.py}.out" || exit 1; done
  exit 0
fi
AG=${1:-./ag}
case "$AG" in /*) ;; *) AG="$PWD/$AG" ;; esac
time_scale_for "$AG"
LIMIT=$(scaled_limit 20)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-python.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT/tests/python" || exit 2
unicodedata=$("$AG" --platform | sed -n 's/^unicodedata: //p')
passed=0
failed=0
for ag in *.ag; do
  name=${ag%.ag}
  needs=$(awk '!/^#/ { exit } /^# needs: / { print substr($0, 10); exit }' "$ag")
  if [ "$needs" = utf8proc ] && [ "$unicodedata" != utf8proc ]; then
    echo "SKIP tests/python/$ag (needs utf8proc; this build has none)"
    continue
  fi
  tolerance=$(awk '!/^#/ { exit } /^# tolerance: / { print substr($0, 14); exit }' "$ag")
  if timeout "$LIMIT" env NO_COLOR=1 "$AG" "$ag" > "$TMP/out" 2> "$TMP/err" </dev/null &&
     { cmp -s "$TMP/out" "$name.out" ||
       { [ -n "$tolerance" ] && awk $(printf -- '-v %s ' $tolerance) -f "$ROOT/tests/compare_numbers.awk" \
           "$name.out" "$TMP/out" > /dev/null; }; }; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL tests/python/$ag"
    diff "$name.out" "$TMP/out" | head -10
    head -5 "$TMP/err"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
