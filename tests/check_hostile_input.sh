#!/usr/bin/env bash
# Hostile input to the command line, each with the clear error and exit
# status it must give, and a time limit so that a hang or a quadratic
# slowdown fails (these are not timings: the limits are 10x and more):
#   - 1,000,000 lines of ')' under --check: 50 errors, then it stops
#   - 32,000 nested '{' then '}': one fatal error
#   - a script that is /dev/zero, or an import of a 100 MB (sparse) file:
#     "larger than the 64 MiB limit of source files"
#   - a script that is a FIFO nobody writes to: one Ctrl-C (SIGINT) stops it, 130
#
# usage: sh tests/check_hostile_input.sh AG_BINARY
# Ends with "N passed, M failed"; exit status 1 if any failed.

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u
[ $# -ge 1 ] || { echo "usage: check_hostile_input.sh AG_BINARY" >&2; exit 2; }
AG=$1
case "$AG" in /*) ;; *) AG=$PWD/$AG ;; esac
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ag-hostile.XXXXXX") || exit 2
trap 'rm -rf -- "$WORK"' EXIT
passed=0
failed=0

# expect NAME STATUS TEXT -- COMMAND...: COMMAND exits STATUS within 20 s
# and its stderr holds TEXT.
expect() {
  local name=$1 want=$2 text=$3
  shift 4
  NO_COLOR=1 timeout -k 2 20 "$@" </dev/null >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: exit status $rc, expected $want"
    head -n 3 "$WORK/err" | sed 's/^/    /'
    failed=$((failed + 1))
  elif ! grep -q -F -- "$text" "$WORK/err"; then
    echo "FAIL $name: stderr lacks: $text"
    head -n 3 "$WORK/err" | sed 's/^/    /'
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}

awk 'BEGIN { for (i = 0; i < 1000000; i++) print ")" }' >"$WORK/parens.ag"
expect "a million syntax errors" 2 "parens.ag: too many errors (50), stopping" -- "$AG" --check "$WORK/parens.ag"
awk 'BEGIN { for (i = 0; i < 32000; i++) printf "{"; for (i = 0; i < 32000; i++) printf "}"; print "" }' >"$WORK/braces.ag"
expect "32,000 nested braces" 2 "error: expression or block nested too deeply" -- "$AG" --check "$WORK/braces.ag"
if [ "$(grep -c 'error:' "$WORK/err")" -ne 1 ]; then
  echo "FAIL 32,000 nested braces: more than one error reported"
  failed=$((failed + 1))
fi

expect "script /dev/zero" 2 "ag: cannot open /dev/zero: larger than the 64 MiB limit of source files" -- "$AG" /dev/zero
truncate -s 100M "$WORK/huge.ag"
printf 'import "huge.ag" as h\n' >"$WORK/imports_huge.ag"
expect "import of a 100 MB file" 1 "cannot import \"$WORK/huge.ag\": larger than the 64 MiB limit of source files" -- "$AG" "$WORK/imports_huge.ag"

mkfifo "$WORK/fifo.ag"
# --foreground: one SIGINT to ag only, as one Ctrl-C; --preserve-status: ag's own status
expect "Ctrl-C while opening a FIFO" 130 "ag: reading $WORK/fifo.ag: Interrupted" -- \
  timeout --foreground --preserve-status -s INT -k 3 1 "$AG" "$WORK/fifo.ag"

echo "check_hostile_input: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
