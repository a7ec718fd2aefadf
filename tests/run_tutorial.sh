#!/bin/sh
# run_tutorial.sh AG [FILE.md...] — runs every ```ag snippet of the docs and
# compares its stdout with the ```text block that follows it (separated only
# by blank lines). A snippet without an output block must run cleanly (exit 0).
# Default file: docs/tutorial.md. Last line: "N passed, M failed".
AG=${1:-./ag}
shift 2>/dev/null
. "$(dirname "$0")/time_limit.sh"
time_scale_for "$AG"
LIMIT=$(scaled_limit 20)
[ $# -gt 0 ] || set -- docs/tutorial.md
work=$(mktemp -d "${TMPDIR:-/tmp}/ag_tutorial.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
passed=0
failed=0
for doc in "$@"; do
  # Split the document into snippet_N.ag and (optionally) snippet_N.out.
  rm -f "$work"/snippet_*
  awk -v dir="$work" '
    /^```ag[ \t]*$/   { n++; file = dir "/snippet_" n ".ag"; start[n] = NR; mode = "code"; pending = 0; next }
    /^```text[ \t]*$/ { if (pending) { file = dir "/snippet_" n ".out"; mode = "out"; printf "" > file } else { mode = "skip" }; pending = 0; next }
    /^```/            { if (mode == "code") pending = 1; mode = ""; next }
    mode == "code" || mode == "out" { print > file; next }
    mode == "skip"    { next }
    /^[ \t]*$/        { next }
                      { pending = 0 }
    END { for (i = 1; i <= n; i++) print i, start[i] > (dir "/index") }
  ' "$doc"
  [ -f "$work/index" ] || continue
  while read -r i line; do
    code="$work/snippet_$i.ag"
    actual="$work/actual_$i"
    TMPDIR="$work" NO_COLOR=1 run_limited "$LIMIT" "$AG" "$code" >"$actual" 2>"$work/stderr_$i" </dev/null
    status=$?
    ok=1
    if [ -f "$work/snippet_$i.out" ]; then
      cmp -s "$work/snippet_$i.out" "$actual" || ok=0
    fi
    [ $status -eq 0 ] || ok=0
    if [ $ok -eq 1 ]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL $doc:$line (exit $status)"
      [ -f "$work/snippet_$i.out" ] && diff "$work/snippet_$i.out" "$actual" | head -15
      head -5 "$work/stderr_$i"
    fi
  done <"$work/index"
  rm -f "$work/index"
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
