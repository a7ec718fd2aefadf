#!/bin/sh
# check_examples.sh — every example program is also a golden test and, where
# PyTorch can produce its output, a differential case:
#   * examples/NAME.ag (all but demo.ag) must have tests/scripts/examples/NAME.ag,
#     the same program plus its expectations (`# expect` lines, the "# expected
#     output" heading, and `  # expect: ...` at the end of the lines that
#     print): the two must be identical once those are removed, as must blank
#     lines at the end;
#   * tests/torch/example_NAME.ag, when present, must equal examples/NAME.ag
#     exactly.
# usage: sh tests/check_examples.sh        Last line: "N passed, M failed"; exit 1 on a difference.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-examples.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
# strip: drop the expectations (lines and line ends), then trailing blank lines
strip() {
  sed -e '/^[[:space:]]*# expect/d' -e 's/  # expect:.*$//' "$1" | awk '{ lines[NR] = $0 } END { n = NR; while (n > 0 && lines[n] == "") n--; for (i = 1; i <= n; i++) print lines[i] }'
}
passed=0
failed=0
for example in examples/*.ag; do
  name=$(basename "$example" .ag)
  [ "$name" = demo ] && continue
  golden=tests/scripts/examples/$name.ag
  ok=1
  if [ ! -f "$golden" ]; then
    echo "FAIL $example: no golden test $golden"
    ok=0
  else
    strip "$example" >"$TMP/a"
    strip "$golden" >"$TMP/b"
    if ! cmp -s "$TMP/a" "$TMP/b"; then
      echo "FAIL $example differs from $golden (ignoring # expect lines):"
      diff "$TMP/a" "$TMP/b" | head -10
      ok=0
    fi
  fi
  twin=tests/torch/example_$name.ag
  if [ -f "$twin" ] && ! cmp -s "$example" "$twin"; then
    echo "FAIL $example differs from its PyTorch twin $twin:"
    diff "$example" "$twin" | head -10
    ok=0
  fi
  if [ $ok -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
# golden tests and twins without an example
for golden in tests/scripts/examples/*.ag; do
  [ -f "$golden" ] || continue
  name=$(basename "$golden" .ag)
  if [ ! -f "examples/$name.ag" ]; then
    echo "FAIL $golden: no examples/$name.ag"
    failed=$((failed + 1))
  fi
done
for twin in tests/torch/example_*.ag; do
  [ -f "$twin" ] || continue
  name=$(basename "$twin" .ag)
  name=${name#example_}
  if [ ! -f "examples/$name.ag" ]; then
    echo "FAIL $twin: no examples/$name.ag"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
