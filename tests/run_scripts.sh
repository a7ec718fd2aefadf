#!/usr/bin/env bash
# Golden script tests, Wren style: every *.ag under the given directories is run
# with AG_BINARY and checked against the expectations written in its comments.
#
# usage: sh tests/run_scripts.sh AG_BINARY [DIR_OR_FILE...]   (default: tests/scripts)
#
# Expectation comments (anywhere on a line, in order of appearance):
#   # expect: TEXT                 the next stdout line is exactly TEXT
#   # expect error: MESSAGE        a compile error on THIS line: exit 2 and a stderr
#                                  line "FILE:LINE:COL: error: MESSAGE..."
#   # expect error                 as above, any message
#   # expect runtime error: MSG    exit 1; the first stderr line is
#                                  "FILE:LINE: error: MSG" with LINE this comment's line
#   # expect stderr: TEXT          stderr holds a line equal to TEXT (in this order)
#   # exit: N                      the expected exit status (default 0, or as above)
#   # args: A B ...                arguments given to the script (split on blanks)
#   # env: NAME=VALUE ...          environment variables for the script (split on blanks)
#   # interrupt when printed: LINE send one SIGINT (one Ctrl-C) once the script has
#                                  printed LINE (flush=true: stdout is a file), just
#                                  before the work to interrupt; it must then stop
#                                  within 4 more seconds (times the slowness). Not a
#                                  fixed delay: a loaded machine may not have begun
#                                  the work by then, or may be done with it
# Stdout must equal the `expect:` lines exactly: nothing missing, nothing extra.
# A file whose first line is "# not a test" (e.g. a module to import) is skipped.
#   # requires: PATH               runs only where PATH exists (e.g. /dev/full);
#                                  elsewhere reported as "SKIP file (no PATH)"
# AG_SKIP_SCRIPTS="FILE..." (paths from the repository root) skips those
# files, reported as SKIP lines too: what an emulated run leaves out.
#
# Each script runs from the repository root with stdin from /dev/null, NO_COLOR=1
# and a time limit (AG_TEST_TIMEOUT seconds, default 10, times the machine's
# slowness: tests/time_limit.sh). The environment is
# passed through, so AG_GC_STRESS=1 reaches the interpreter.
# Prints "FAIL path" and a short diff per failure, then "N passed, M failed"
# (", K skipped" when some were);
# exit status 1 if any failed, 2 on bad usage.

# Invoked as `sh tests/run_scripts.sh`: re-run under bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

die() { echo "run_scripts.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: run_scripts.sh AG_BINARY [DIR_OR_FILE...]"

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
. "$ROOT/tests/time_limit.sh"

# Make a path absolute (relative to the caller's directory).
abspath() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$PWD/$1" ;;
  esac
}

AG=$1; AG_ARG=$1; shift
case "$AG" in
  */*) ;;
  *) if [ ! -e "$AG" ]; then AG=$(command -v -- "$AG") || die "interpreter not found: $AG_ARG"; fi ;;
esac
AG=$(abspath "$AG")
[ -x "$AG" ] || die "interpreter not found or not executable: $AG"
time_scale_for "$AG"
LIMIT=$(scaled_limit "${AG_TEST_TIMEOUT:-10}")

targets=()
if [ $# -eq 0 ]; then targets=("$ROOT/tests/scripts"); else
  for t in "$@"; do targets+=("$(abspath "$t")"); done
fi

files=()
for t in "${targets[@]}"; do
  if [ -d "$t" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$t" -type f -name '*.ag' | LC_ALL=C sort)
  elif [ -f "$t" ]; then
    files+=("$t")
  else
    die "no such file or directory: $t"
  fi
done
[ ${#files[@]} -gt 0 ] || die "no .ag files found"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-scripts.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf -- "$TMP"' EXIT

cd -- "$ROOT" || die "cannot enter $ROOT"

# parse_expectations FILE: writes $TMP/expected (stdout lines), $TMP/stderr_expect,
# and sets exp_exit, exp_args, cerr (list of "LINE<TAB>MESSAGE<TAB>HASMSG"), rterr_line, rterr_msg.
parse_expectations() {
  : >"$TMP/expected"; : >"$TMP/stderr_expect"; : >"$TMP/cerr"
  awk -v outf="$TMP/expected" -v se="$TMP/stderr_expect" -v ce="$TMP/cerr" -v meta="$TMP/meta" '
    BEGIN { exitcode = ""; args = ""; rtline = ""; rtmsg = ""; envs = ""; intr = ""; }
    {
      line = $0
      if ((i = index(line, "# expect: ")) > 0) { print substr(line, i + 10) > outf }
      else if (line ~ /# expect:$/) { print "" > outf }
      if ((i = index(line, "# expect runtime error: ")) > 0) { rtline = NR; rtmsg = substr(line, i + 24) }
      if ((i = index(line, "# expect error: ")) > 0) { print NR "\t" substr(line, i + 16) > ce }
      else if (line ~ /# expect error[ \t]*$/) { print NR "\t" > ce }
      if ((i = index(line, "# expect stderr: ")) > 0) { print substr(line, i + 17) > se }
      if (match(line, /# exit: *-?[0-9]+/)) { s = substr(line, RSTART, RLENGTH); sub(/# exit: */, "", s); exitcode = s }
      if ((i = index(line, "# args: ")) > 0) { args = substr(line, i + 8) }
      if ((i = index(line, "# env: ")) > 0) { envs = substr(line, i + 7) }
      if ((i = index(line, "# interrupt when printed: ")) > 0) { intr = substr(line, i + 26) }
    }
    END {
      print exitcode > meta; print args > meta; print rtline > meta; print rtmsg > meta
      print envs > meta; print intr > meta
    }' "$1"
  { IFS= read -r exp_exit; IFS= read -r exp_args; IFS= read -r rterr_line; IFS= read -r rterr_msg
    IFS= read -r exp_env; IFS= read -r exp_interrupt; } <"$TMP/meta"
}

# run_one FILE(relative to root): returns 0 if it passes, else prints why into $TMP/why
run_one() {
  local f=$1 rc
  parse_expectations "$f"
  local -a argv=() envv=()
  # shellcheck disable=SC2206
  [ -n "$exp_args" ] && argv=($exp_args)
  # shellcheck disable=SC2206
  [ -n "$exp_env" ] && envv=($exp_env)
  if [ -n "$exp_interrupt" ]; then
    # the one SIGINT goes to ag only, as a Ctrl-C; the status is ag's own
    NO_COLOR=1 interrupt_when_printed "$TMP/out" "$exp_interrupt" "$(scaled_limit 4)" \
      env "${envv[@]}" "$AG" "$f" "${argv[@]}" </dev/null 2>"$TMP/err"
  else
    NO_COLOR=1 run_limited "$LIMIT" env "${envv[@]}" "$AG" "$f" "${argv[@]}" </dev/null >"$TMP/out" 2>"$TMP/err"
  fi
  rc=$?
  : >"$TMP/why"
  if [ -n "$exp_interrupt" ] && [ $rc -eq 125 ]; then
    echo "  ended or timed out without printing the line to interrupt at: $exp_interrupt" >>"$TMP/why"
    return 1
  fi
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    echo "  timed out after ${LIMIT}s" >>"$TMP/why"
    return 1
  fi
  local want=0
  [ -s "$TMP/cerr" ] && want=2
  [ -n "$rterr_line" ] && want=1
  [ -n "$exp_exit" ] && want=$exp_exit
  local ok=0
  if [ "$rc" -ne "$want" ]; then
    echo "  exit status $rc, expected $want" >>"$TMP/why"
    ok=1
  fi
  if ! cmp -s "$TMP/expected" "$TMP/out"; then
    echo "  stdout differs (- expected, + actual):" >>"$TMP/why"
    diff -u --label expected --label actual "$TMP/expected" "$TMP/out" | tail -n +3 | head -n 12 | sed 's/^/    /' >>"$TMP/why"
    ok=1
  fi
  # compile errors: each listed line must be reported with its message
  local ln msg
  while IFS=$'\t' read -r ln msg; do
    [ -n "$ln" ] || continue
    # FILE:LINE:COL: error: MESSAGE
    if ! grep -E -- ":$ln:[0-9]+: error: " "$TMP/err" | grep -q -F -- "error: $msg"; then
      echo "  no compile error 'error: $msg' reported for line $ln" >>"$TMP/why"
      ok=1
    fi
  done <"$TMP/cerr"
  if [ -n "$rterr_line" ]; then
    local first base
    first=$(head -n 1 "$TMP/err")
    base=$(basename -- "$f")
    case "$first" in
      "$f:$rterr_line: error: $rterr_msg" | "$base:$rterr_line: error: $rterr_msg" | \
      */"$base:$rterr_line: error: $rterr_msg") ;;
      *)
        echo "  first stderr line: $first" >>"$TMP/why"
        echo "  expected:          $f:$rterr_line: error: $rterr_msg" >>"$TMP/why"
        ok=1 ;;
    esac
  fi
  if [ -s "$TMP/stderr_expect" ]; then
    # each expected stderr line must occur, in order
    if ! awk -v want="$TMP/stderr_expect" '
        BEGIN { n = 0; while ((getline l < want) > 0) w[++n] = l; k = 1 }
        k <= n && $0 == w[k] { k++ }
        END { exit (k <= n) }' "$TMP/err"; then
      echo "  stderr lacks the expected lines:" >>"$TMP/why"
      sed 's/^/    /' "$TMP/stderr_expect" >>"$TMP/why"
      ok=1
    fi
  fi
  if [ $ok -ne 0 ] && [ -s "$TMP/err" ]; then
    echo "  stderr:" >>"$TMP/why"
    head -n 5 "$TMP/err" | sed 's/^/    /' >>"$TMP/why"
  fi
  return $ok
}

passed=0
failed=0
skipped=0
for abs in "${files[@]}"; do
  f=${abs#"$ROOT"/}
  IFS= read -r first_line <"$abs" || first_line=""
  [ "$first_line" = "# not a test" ] && continue
  case " ${AG_SKIP_SCRIPTS:-} " in
    *" $f "*) echo "SKIP $f (AG_SKIP_SCRIPTS)"; skipped=$((skipped + 1)); continue ;;
  esac
  needs=$(sed -n 's/^# requires: *//p' "$abs" | head -n 1)
  if [ -n "$needs" ] && [ ! -e "$needs" ]; then
    echo "SKIP $f (no $needs here)"
    skipped=$((skipped + 1))
    continue
  fi
  if run_one "$f"; then
    passed=$((passed + 1))
  else
    echo "FAIL $f"
    cat "$TMP/why"
    failed=$((failed + 1))
  fi
done

if [ $skipped -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
else echo "$passed passed, $failed failed"; fi
[ $failed -eq 0 ]
