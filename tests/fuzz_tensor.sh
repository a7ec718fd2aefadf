#!/usr/bin/env bash
# Tensor/autograd fuzzing through the language: tests/fuzz/gen_tensor_programs.py
# writes COUNT random Ag programs (random shapes incl. 0-size, 0-d, 6-d and huge,
# every dtype, elementwise/broadcasting/reductions/shape ops/indexing/index
# assignment/matmul, NaN/inf, in-place ops, backward/autograd.grad, hooks that
# throw, malformed custom Functions, save/load incl. corrupt files, printing,
# nn layers and optimizers), every statement inside try/catch. Each runs under
# `timeout --foreground -s INT` (one SIGINT, as one Ctrl-C): running out of
# time is fine (exit 124), but a program that
# does not stop on SIGINT within 3 more seconds (killed: 137) is a failure, and
# so is any other signal (exit >= 128) or an AddressSanitizer, LeakSanitizer or
# UBSan ("runtime error:") report on stderr. First, six Ctrl-C probes (endless
# loops of large matmuls, randn, tolist of a 10^7-element view, an int64 dot of
# 10^12 elements, backward, elementwise ops) must stop with an Interrupted error
# (exit 130) on one SIGINT. Failing programs are saved to
# build/fuzz-failures/tensor_seedS_case_N.ag with a note of what happened.
#
# usage: sh tests/fuzz_tensor.sh AG_BINARY [COUNT]
#   COUNT        programs (default: FUZZ_COUNT or 600)
#   FUZZ_SEED    seed (default 1); the same seed gives the same programs
#   FUZZ_JOBS    parallel jobs (default 2)
#   FUZZ_TIMEOUT seconds per program (default 5)
#   FUZZ_STATEMENTS statements per program (default 40)
# For the sanitize build: ASAN_OPTIONS=detect_leaks=1 sh tests/fuzz_tensor.sh build/sanitize/ag 3000
# Ends with "N passed, M failed"; exit status 1 if any failed.

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

die() { echo "fuzz_tensor.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: fuzz_tensor.sh AG_BINARY [COUNT]"

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
. "$ROOT/tests/fuzz/common.sh"
resolve_ag "$1"
command -v python3 >/dev/null || die "python3 is needed to generate the programs"

COUNT=${2:-${FUZZ_COUNT:-600}}
SEED=${FUZZ_SEED:-1}
JOBS=${FUZZ_JOBS:-2}
LIMIT=${FUZZ_TIMEOUT:-$(scaled_limit 5)}
STATEMENTS=${FUZZ_STATEMENTS:-40}
case "$COUNT$SEED$JOBS$LIMIT$STATEMENTS" in *[!0-9]*) die "COUNT and the FUZZ_ settings must be numbers" ;; esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ag-fuzz-tensor.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf -- "$WORK"' EXIT
mkdir -p "$WORK/cases" "$WORK/results" "$WORK/corrupt"

# A fuzz run that cannot fail is worthless: first make sure AG really runs.
printf 'print(tensor([1.0, 2.0]).sum().item())\n' >"$WORK/sanity.ag"
if [ "$(NO_COLOR=1 run_limited "$(scaled_limit 10)" "$AG" "$WORK/sanity.ag" </dev/null 2>&1)" != "3.0" ]; then
  echo "FAIL $AG does not run a one-line tensor script"
  echo "0 passed, 1 failed"
  exit 1
fi

# Ctrl-C probes: long tensor work must stop on one SIGINT (an "Interrupted"
# error) rather than run on until killed. probe NAME SETUP WORK runs SETUP,
# prints a line, then WORK again and again forever, and sends the SIGINT
# only once that line is out: no machine can finish the work before the
# signal, however fast it is or however late the signal (a loaded machine),
# and the signal cannot come before the work began. Each WORK takes seconds
# (so the SIGINT lands inside the op, not between two) in bounded memory.
probe_failed=0
probe() {
  printf '%s\nprint("probe started", flush=true)\nwhile true { %s }\n' "$2" "$3" >"$WORK/probe_$1.ag"
  NO_COLOR=1 interrupt_when_printed "$WORK/probe_$1.out" "probe started" "$(scaled_limit 5)" \
    "$AG" "$WORK/probe_$1.ag" </dev/null 2>"$WORK/probe_$1.err"
  local rc=$?
  if [ $rc -ne 130 ] || ! grep -q 'Interrupted' "$WORK/probe_$1.err"; then
    echo "FAIL Ctrl-C probe $1: status $rc (want 130 and an Interrupted error within $(scaled_limit 5)s of SIGINT)"
    head -3 "$WORK/probe_$1.err"
    probe_failed=$((probe_failed + 1))
  fi
}
probe matmul 'let a = ones(6000, 6000)' 'a @ a'
probe randn '' 'randn(8000, 8000)'
probe backward 'let x = randn(100, requires_grad=true)' 'let y = x; for i in range(100000) { y = y * 1.0 }; y.sum().backward()'
probe tolist '' 'zeros(1).expand(100, 100000).tolist()'
probe dot 'let v = ones(1, dtype=int64).expand(1000000000000)' 'dot(v, v)'
probe elementwise 'let x = randn(3000, 3000)' 'x = (x.sin() + x.T).sum(dim=0, keepdim=true).expand(3000, 3000).contiguous()'

GEN="$ROOT/tests/fuzz/gen_tensor_programs.py"
python3 "$GEN" --batch "$SEED" "$COUNT" "$WORK/cases" "$STATEMENTS" || die "the generator failed"
python3 "$GEN" --corrupt "$WORK/corrupt" || die "the generator failed"

FAILDIR="$ROOT/build/fuzz-failures"
rm -f -- "$FAILDIR"/tensor_seed"${SEED}"_case_*
# a failed giant allocation must behave as in the release build (NULL, a clean error)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1"
SCRATCH_FILES="$WORK/corrupt" # each batch gets the corrupt files, as the programs' D
export AG LIMIT WORK FAILDIR SEED SCRATCH_FILES

# fuzz_one CASE_FILE: prints "ok NAME" or "FAIL NAME: why"; saves failing programs.
# The cwd is the worker's scratch directory, which is also the program's D.
fuzz_one() {
  local f=$1 name rc why=""
  name=$(basename -- "$f" .ag)
  NO_COLOR=1 run_limited --int --kill-after 3 "$LIMIT" "$AG" "$f" "$PWD" </dev/null >/dev/null 2>err.txt
  rc=$?
  if [ $rc -eq 137 ]; then
    why="did not stop within 3s of SIGINT (after ${LIMIT}s)"
  elif [ $rc -ge 128 ] && [ $rc -ne 124 ]; then
    why="died with status $rc (signal $((rc - 128)))"
  fi
  if [ -z "$why" ] && [ -s err.txt ] &&
     grep -q -E 'AddressSanitizer|LeakSanitizer|runtime error:' err.txt; then
    why="sanitizer report"
  fi
  if [ -n "$why" ]; then
    mkdir -p "$FAILDIR"
    cp -- "$f" "$FAILDIR/tensor_seed${SEED}_$name.ag"
    { echo "$why"; echo "reproduce: (cd DIR_WITH_CORRUPT_FILES && ag build/fuzz-failures/tensor_seed${SEED}_$name.ag .)"
      echo "  corrupt files: python3 tests/fuzz/gen_tensor_programs.py --corrupt DIR"
      echo "--- stderr (tail)"; grep -v '^E[0-9]' err.txt | head -c 6000; } >"$FAILDIR/tensor_seed${SEED}_$name.txt"
    echo "FAIL $name: $why (saved build/fuzz-failures/tensor_seed${SEED}_$name.ag)"
    return 0
  fi
  echo "ok $name"
}
run_cases 20

count_results "$WORK/results/all" "$COUNT" programs
passed=$((passed + 6 - probe_failed))
failed=$((failed + probe_failed))
echo "fuzz_tensor: 6 Ctrl-C probes; seed $SEED, $COUNT generated tensor programs through $AG"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
