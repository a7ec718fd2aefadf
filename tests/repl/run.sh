#!/usr/bin/env bash
# REPL tests: each tests/repl/cases/*.pty is a keystroke script for
# ptydriver (see ptydriver.c for the directives), run against the real `ag`
# on a pseudo-terminal, in a fresh temporary HOME with its own AG_HISTORY,
# NO_COLOR=1 and TERM=dumb (AG_GC_STRESS passes through) unless the case's
# header lines say otherwise:
#   # env: NAME=VALUE ...     extra environment (VALUE may use $TMP)
#   # unset: NAME ...         variables to remove (e.g. NO_COLOR)
#   # sessions: N             run ag N times in a row on the same terminal
#   # args: ARG ...           run `ag ARG ...` instead of the bare REPL
#   # then: SHELL-COMMAND     must succeed after the session ($TMP is set)
# Also diffs `ag --help-reference` with docs/reference.md, requires
# `ag --help-missing` to find nothing and runs every example of the reference.
#
# usage: sh tests/repl/run.sh AG_BINARY PTYDRIVER
# Prints FAIL lines with the driver's report, then "N passed, M failed";
# exit status 1 if any failed.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

[ $# -eq 2 ] || { echo "usage: run.sh AG_BINARY PTYDRIVER" >&2; exit 2; }
ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)
AG=$(cd -- "$(dirname -- "$1")" && pwd)/$(basename -- "$1")
DRIVER=$(cd -- "$(dirname -- "$2")" && pwd)/$(basename -- "$2")
. "$ROOT/tests/time_limit.sh"
time_scale_for "$AG"
# the driver's wait for each expected text, scaled with the machine
PTY_LIMIT=$(scaled_limit "${AG_PTY_TIMEOUT:-5}")
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# The environment of a case: the defaults, then its `# env:` lines, minus
# its `# unset:` names; one NAME=VALUE a line, for env -i.
case_env() {
  local file=$1 tmp=$2 kv
  local unset=" $(header unset "$file") "
  for kv in "PATH=$PATH" "HOME=$tmp/home" "AG_HISTORY=$tmp/history" NO_COLOR=1 TERM=dumb \
      "AG_PTY_TIMEOUT=$PTY_LIMIT" "AG_TIME_SCALE=$AG_TIME_SCALE" \
      ${AG_GC_STRESS:+AG_GC_STRESS=$AG_GC_STRESS} \
      $(header env "$file" | sed "s|\$TMP|$tmp|g"); do
    case "$unset" in *" ${kv%%=*} "*) continue ;; esac
    printf '%s\n' "$kv"
  done
}

# A header value of the case ("# NAME: VALUE" among the first comment lines).
header() { sed -n "/^[^#]/q; s/^# $1: //p" "$2" | head -1; }

run_case() {
  local file=$1 tmp out sessions check args kv
  tmp=$(mktemp -d)
  mkdir -p "$tmp/home"
  local environment=()
  while IFS= read -r kv; do environment+=("$kv"); done < <(case_env "$file" "$tmp")
  sessions=$(header sessions "$file")
  check=$(header then "$file")
  local cmd=("$AG")
  read -r -a args <<< "$(header args "$file")"
  cmd+=("${args[@]}")
  if [ -n "$sessions" ]; then
    cmd=(sh -c 'for i in $(seq "$1"); do "$0" || exit; done' "$AG" "$sessions")
  fi
  if out=$(cd "$ROOT" && env -i "${environment[@]}" "$DRIVER" "$file" "${cmd[@]}" 2>&1) &&
      { [ -z "$check" ] || out=$(TMP="$tmp" sh -c "$check" 2>&1) || { out="then: $check failed"; false; }; }; then
    pass
  else
    fail "${file#$ROOT/}"
    printf '%s\n' "$out" | sed 's/^/    /'
  fi
  rm -rf "$tmp"
}

for f in "$ROOT"/tests/repl/cases/*.pty; do run_case "$f"; done

if "$AG" --help-reference 2>&1 | diff -u "$ROOT/docs/reference.md" - > /tmp/ag-ref.$$; then
  pass
else
  fail "docs/reference.md differs from ag --help-reference (regenerate it)"
  head -40 /tmp/ag-ref.$$ | sed 's/^/    /'
fi
rm -f /tmp/ag-ref.$$

if out=$("$AG" --help-missing 2>&1) && [ -z "$out" ]; then
  pass
else
  fail "ag --help-missing: built-ins without help"
  printf '%s\n' "$out" | head -40 | sed 's/^/    /'
fi

# tools/help-natives.sh (the build's collector of the HELP(...) entries of
# stdlib/) refuses an entry without its closing ) and names where it starts.
unfinished=$(mktemp)
printf 'HELP("x", HELP_BUILTINS, 0,\n     "x",\n' > "$unfinished"
if ! out=$(sh "$ROOT/tools/help-natives.sh" "$unfinished" /dev/null 2>&1 >/dev/null) &&
   [ "$out" = "$unfinished:1: a HELP(...) entry without its closing )" ]; then
  pass
else
  fail "tools/help-natives.sh accepts an unfinished HELP(...) entry"
  printf '    %s\n' "$out"
fi
rm -f "$unfinished"

# The bindings keep their tensor method table to themselves
# (stdlib/lib_internal.h, LIB_TENSOR_FNS): every method there has help (and so
# completes after `t.`). Fewer than 50 names found means the table moved.
check_tensor_methods() {
  local names n missing=0
  names=$(sed -n 's/^ *X(\([a-z_0-9]*\), *[-0-9]*, *[-0-9]*, *LF_M[GW]*).*/\1/p' \
    "$ROOT/stdlib/lib_internal.h")
  [ "$(printf '%s\n' "$names" | wc -l)" -ge 50 ] || { echo "    LIB_TENSOR_FNS not found"; return 1; }
  for n in $names; do
    grep -q "^### \`\(Tensor\.\)\?$n\`" "$ROOT/docs/reference.md" && continue
    echo "    tensor method without help: $n"
    missing=1
  done
  return $missing
}
# print(..., flush=true) reaches a pipe at once: before the stderr line after it
if [ "$("$AG" -e 'print("a", end="", flush=true)
print("b", file=stderr)' 2>&1)" = "ab" ]; then pass; else fail "print(flush=true) into a pipe"; fi

# progress() draws on a terminal only (tests/repl/cases/progress.pty): into a
# pipe it writes nothing at all
if [ -z "$("$AG" -e 'for x in progress(range(3), desc="d") { }' 2>&1 >/dev/null)" ]; then pass; else fail "progress() wrote into a pipe"; fi

if out=$(check_tensor_methods); then pass; else fail "tensor methods without help"; printf '%s\n' "$out"; fi

# Every example of the reference runs (exit 0) from a scratch directory;
# examples of REPL commands and those needing files ("# given ...") are skipped.
run_examples() {
  local scratch name code status=0
  scratch=$(mktemp -d)
  while IFS= read -r -d '' name && IFS= read -r -d '' code; do
    case "$code" in ":"* | "# given"*) continue ;; esac
    if ! (cd "$scratch" && run_limited "$(scaled_limit 20)" "$AG" -e "$code" < /dev/null > /dev/null 2> "$scratch/err"); then
      echo "    example of $name failed:"; sed 's/^/      /' "$scratch/err" | head -8
      status=1
    fi
  done < <(awk '
    /^### `/ { name = $2; gsub("`", "", name) }
    /^```ag$/ { inside = 1; code = ""; next }
    /^```$/ && inside { inside = 0; printf "%s%c%s%c", name, 0, code, 0; next }
    inside { code = code (code == "" ? "" : "\n") $0 }' "$ROOT/docs/reference.md")
  rm -rf "$scratch"
  return $status
}
if out=$(run_examples); then pass; else fail "examples in docs/reference.md"; printf '%s\n' "$out"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
