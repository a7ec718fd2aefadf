#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (clang -fsanitize=fuzzer,address,
# undefined) over six harnesses, built by `make fuzz-build` into build/fuzz/:
#   run      an Ag program, fresh VM per input, Ctrl-C after 200 ms (fuzz_run.c)
#   compile  compile only, as the REPL and as `ag --check` (fuzz_compile.c)
#   npy npz pt csv   the file loaders (fuzz_npy.c, fuzz_npz.c, fuzz_pt.c, fuzz_csv.c)
# Seeds (build/fuzz/seeds/NAME): every input that once crashed it
# (tests/fuzz/regressions/NAME/), the golden tests, examples and conformance
# cases for run and compile; files saved by Ag itself and a few hand-made
# ones for the loaders. Dictionaries (build/fuzz/NAME.dict): for run and
# compile, Ag's keywords, operators and every built-in of docs/reference.md;
# for the loaders, their formats' magic words. Each harness keeps its
# corpus in build/fuzz/corpus/NAME between runs; a crash, sanitizer report,
# leak or hang is saved as build/fuzz/crashes/NAME-*. The smoke run keeps
# its own (build/fuzz/smoke/), so it may run beside a long one.
#
# usage: MAKE=make sh tests/fuzz/libfuzzer.sh run SECONDS [NAME...]
#          every harness (or those named) in turn, one at a time, SECONDS in all
#        MAKE=make sh tests/fuzz/libfuzzer.sh smoke
#          every harness for a few seconds after running its seeds: part of
#          `make test`; without clang it says so and succeeds
# FUZZ_NICE=19 runs the fuzzers under nice -n 19.
# Prints one line per harness: executions, executions per second (of wall
# clock and of CPU time), coverage
# (libFuzzer's edge count "cov" and feature count "ft"), corpus size and
# crashes; exit status 1 if any harness found a crash.

if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)
cd -- "$ROOT" || exit 2
DIR=$ROOT/build/fuzz
ALL="run compile npy npz pt csv"
mode=${1:-}
shift || true

have_libfuzzer() {
  command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 || return 1
  printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' >"$DIR/probe-$$.c"
  "${FUZZ_CC:-clang}" -fsanitize=fuzzer,address,undefined -o "$DIR/probe-$$" "$DIR/probe-$$.c" >/dev/null 2>&1; local ok=$?; rm -f "$DIR/probe-$$" "$DIR/probe-$$.c"; return $ok
}

mkdir -p "$DIR"
WORK=$DIR          # corpus/, crashes/, logs/, seeds/ and dictionaries
case "$mode" in
  run)
    [ $# -ge 1 ] || { echo "usage: libfuzzer.sh run SECONDS [NAME...]" >&2; exit 2; }
    seconds=$1
    shift
    case "$seconds" in '' | *[!0-9]*) echo "libfuzzer.sh: SECONDS must be a number" >&2; exit 2 ;; esac
    if ! have_libfuzzer; then
      echo "libfuzzer.sh: clang with libFuzzer is needed (Debian: clang libclang-rt-14-dev; tools/install-deps.sh)" >&2
      exit 1
    fi ;;
  smoke)
    WORK=$DIR/smoke
    if ! have_libfuzzer; then
      echo "fuzz-smoke: skipped (no clang with libFuzzer here; tools/install-deps.sh installs clang and libclang-rt-14-dev)"
      exit 0
    fi ;;
  *) echo "usage: libfuzzer.sh run SECONDS [NAME...] | smoke" >&2; exit 2 ;;
esac
names=${*:-$ALL}
mkdir -p "$WORK"

${MAKE:-make} --no-print-directory fuzz-build >"$DIR/build.log" 2>&1 || {
  echo "libfuzzer.sh: the fuzz build failed (build/fuzz/build.log):"
  tail -n 20 "$DIR/build.log"
  exit 1
}

# ---- seeds and dictionaries ----

# seed_dir NAME: fills build/fuzz/seeds/NAME (once per run: cheap)
make_seeds() {
  local s=$WORK/seeds
  rm -rf -- "$s"
  mkdir -p "$s/run" "$s/compile" "$s/npy" "$s/npz" "$s/pt" "$s/csv"
  local n=0 f
  while IFS= read -r f; do
    n=$((n + 1))
    cp -- "$f" "$s/run/$n.ag"
    cp -- "$f" "$s/compile/$n.ag"
  done < <(find tests/scripts examples ../shared/conformance -name '*.ag' -size -64k 2>/dev/null | LC_ALL=C sort)
  # inputs that once crashed a harness (tests/fuzz/regressions/NAME/)
  for f in tests/fuzz/regressions/*/*; do
    [ -f "$f" ] && cp -- "$f" "$s/$(basename -- "$(dirname -- "$f")")/"
  done
  # the loaders: files Ag writes (every dtype, 0-d, empty, stored), and CSV text
  local ag=$ROOT/build/release/ag
  [ -x "$ag" ] || ${MAKE:-make} --no-print-directory ag >/dev/null 2>&1
  (cd "$s" && NO_COLOR=1 "$ag" -e '
    save(tensor([[1.5, -2.0], [3.0, 4.25]]), "npy/f32.npy")
    save(tensor([1, 2, 3], dtype=int64), "npy/i64.npy")
    save(tensor(7.0, dtype=float64), "npy/scalar.npy")
    save(tensor([true, false]), "npy/bool.npy")
    save(zeros(0, 3), "npy/empty.npy")
    save(randn(2, 3, 4).transpose(0, 2), "npy/strided.npy")
    save({"a": ones(3), "b": tensor([[1, 2]], dtype=int64)}, "npz/two.npz")
    save({"x": tensor(1.0)}, "npz/one.npz")
    save({}, "npz/none.npz")
    let x = randn(3, 4)
    save({"sd": nn.Linear(2, 3).state_dict(), "v": x.t(), "w": x[1], "l": [1, 2.5, "s", nil, true],
          "i": tensor([1, 2], dtype=int64), "b": tensor([true]), "d": tensor(2.0, dtype=float64),
          "g": ones(2, requires_grad=true)}, "pt/mixed.pt")
    save([], "pt/empty.pt")' >/dev/null 2>&1)
  cp tests/torch/pt_files/*.pt "$s/pt/" 2>/dev/null
  printf 'a,b,c\n1,2,3\n4.5,-6e2,nan\n' >"$s/csv/header.csv"
  printf '1,2\n3,4\n' >"$s/csv/plain.csv"
  printf ' 1.0 , inf ,-inf\r\n\n2,3,4\r\n' >"$s/csv/spaces.csv"
  printf '1\n' >"$s/csv/one.csv"
  # Ag: keywords, operators and every documented built-in
  {
    sed -n 's/.*{"\([a-z]*\)", TOK_[A-Z]*}.*/\1/p' lexer/lexer.c | tr -s ' ' '\n'
    grep -o '{"[a-z]*", TOK_[A-Z_]*}' lexer/lexer.c | sed 's/{"\([a-z]*\)".*/\1/'
    sed -n 's/^### `\([^`(]*\).*/\1/p' docs/reference.md | sed 's/^[a-z]*\.//; s/^Tensor\.//'
    printf '%s\n' '(' ')' '[' ']' '{' '}' ',' '.' ':' ';' '=' '==' '!=' '<=' '>=' '**' '@' '+=' \
      '-=' '*=' '/=' '->' '...' '"' "'" 'f"' '\n' '#' 'requires_grad=true' 'dtype=int64' \
      'dtype=float64' 'dtype=bool' 'backward()' '.grad' 'keepdim=true' 'dim=' '1e308' '-0.0' \
      'nan' 'inf' '10 ** 9' '0x7f' '1_000' '(1, 2)' '(x,)' '()' 'a, b = ' '*rest' 'let a, b = ' \
      'for i, (x, y) in ' 'return a, b' ' is not ' 'x is nil' 'fn format(spec) { return spec }'
  } | grep -v '^$' | LC_ALL=C sort -u | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/' >"$WORK/ag.dict"
  cp "$WORK/ag.dict" "$WORK/run.dict"
  cp "$WORK/ag.dict" "$WORK/compile.dict"
  printf '%s\n' '"\x93NUMPY"' '"\x01\x00"' '"\x02\x00"' '"\x03\x00"' '"descr"' '"fortran_order"' \
    '"shape"' '"True"' '"False"' '"<f4"' '"<f8"' '"<i8"' '"|b1"' '">f4"' '"<f2"' '"<u1"' '"<c8"' \
    '"()"' '"(0,)"' '"{"' '"}"' '"\x0a"' >"$WORK/npy.dict"
  { cat "$WORK/npy.dict"; printf '%s\n' '"PK\x03\x04"' '"PK\x01\x02"' '"PK\x05\x06"' '"PK\x06\x06"' \
    '"PK\x06\x07"' '"\x08\x00"' '"\x00\x00"' '"\xff\xff\xff\xff"' '".npy"'; } >"$WORK/npz.dict"
  { grep -v npy "$WORK/npz.dict" | grep -v NUMPY; printf '%s\n' '"archive/data.pkl"' '"archive/version"' \
    '"archive/data/0"' '"\x80\x02"' '"ctorch._utils\x0a_rebuild_tensor_v2\x0a"' \
    '"ctorch._utils\x0a_rebuild_parameter\x0a"' '"ccollections\x0aOrderedDict\x0a"' \
    '"ctorch\x0aFloatStorage\x0a"' '"ctorch\x0aLongStorage\x0a"' '"X\x07\x00\x00\x00storage"' \
    '"Q"' '"R"' '"("' '"t"' '"}"' '"]"' '"u"' '"e"' '"q"' '"h"' '"."' '"\x8a\x08"' \
    '"c__main__\x0aNet\x0a"' '"ctorch.nn\x0aLinear\x0a"' '"c__builtin__\x0aset\x0a"' '"\x81"' \
    '"b"'; } >"$WORK/pt.dict"
  printf '%s\n' '","' '"\x0a"' '"\x0d\x0a"' '"nan"' '"inf"' '"-inf"' '"e+38"' '"e-45"' '"-"' \
    '"."' '" "' '"\x09"' '"0x1p3"' >"$WORK/csv.dict"
}

make_seeds
mkdir -p "$WORK/crashes" "$WORK/logs"
nice_cmd=()
[ -n "${FUZZ_NICE:-}" ] && nice_cmd=(nice -n "$FUZZ_NICE")

# run_one NAME SECONDS: one libFuzzer run; prints its summary line
found=0
run_one() {
  local name=$1 secs=$2 log=$WORK/logs/$1.log
  mkdir -p "$WORK/corpus/$name"
  local before
  # crash-, leak-, timeout-, oom- artifacts (slow-unit- is only the slowest input)
  before=$(ls "$WORK/crashes" | grep -c -E "^$name-(crash|leak|timeout|oom)-")
  # -timeout: a hang (the watchdog's Ctrl-C did not stop it within 30 s of wall clock, ample on a loaded machine);
  # -rss_limit_mb/-malloc_limit_mb: the harnesses cap memory far below these
  local t0=$SECONDS rc
  # the CPU time too: on a shared machine the wall-clock rate says little
  local TIMEFORMAT='%U %S'
  { time "${nice_cmd[@]}" "$DIR/fuzz_$name" "$WORK/corpus/$name" "$WORK/seeds/$name" \
    -dict="$WORK/$name.dict" -max_total_time="$secs" -timeout=30 -rss_limit_mb=3072 \
    -malloc_limit_mb=3072 -max_len=8192 -close_fd_mask=3 -print_final_stats=1 \
    -artifact_prefix="$WORK/crashes/$name-" </dev/null >"$log" 2>&1; rc=$?; } 2>"$log.cpu"
  local elapsed=$((SECONDS - t0)) cpu
  cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$log.cpu")
  local execs rate cov ft corp after
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  corp=$(ls "$WORK/corpus/$name" | wc -l)
  after=$(ls "$WORK/crashes" | grep -c -E "^$name-(crash|leak|timeout|oom)-")
  local per_cpu="?"
  [ -n "$execs" ] && [ "${cpu:-0}" -gt 0 ] && per_cpu=$((execs / cpu))
  echo "fuzz $name: ${execs:-?} executions in ${elapsed}s (${cpu:-?}s of CPU), ${rate:-?}/s (${per_cpu}/CPU-s), cov ${cov:-?} ft ${ft:-?}, corpus $corp, crashes $((after - before)) (log: $log)"
  if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
    found=1
    grep -m 3 -E 'ERROR|SUMMARY|runtime error|deadly signal|timeout' "$log" | sed 's/^/    /'
  fi
}

set -- $names
if [ "$mode" = smoke ]; then
  for name in "$@"; do run_one "$name" 5; done
else
  each=$((seconds / $#))
  [ "$each" -ge 1 ] || each=1
  for name in "$@"; do run_one "$name" "$each"; done
fi
[ "$found" -eq 0 ]
