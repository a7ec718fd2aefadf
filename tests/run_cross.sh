#!/bin/sh
# run_cross.sh "EMULATOR [ARG...]" AG_BINARY — the golden scripts, the shared
# conformance cases and the differential cases with AG_BINARY run under an
# emulator: an AArch64 build under qemu-aarch64, or the x86-64 build on a
# CPU without AVX2 (qemu-x86_64 -cpu Westmere). `make test-cross` runs both.
# Time limits scale with the emulator's slowness (tests/time_limit.sh); the
# environment passes through (AG_BLAS=builtin for a binary with no BLAS
# library of its architecture to load).
# A build without a line editor (`line editor: none`) also runs the REPL
# cases of tests/repl/plain through PTYDRIVER (tests/repl/ptydriver.c, built
# for this machine) when that is set.
# Exit status 1 if any suite failed.
[ $# -eq 2 ] || { echo "usage: run_cross.sh \"EMULATOR [ARG...]\" AG_BINARY" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
EMULATOR=$1
case "$2" in /*) BIN=$2 ;; *) BIN=$PWD/$2 ;; esac
[ -x "$BIN" ] || { echo "run_cross.sh: not an executable: $BIN" >&2; exit 2; }
command -v "${EMULATOR%% *}" >/dev/null 2>&1 || { echo "run_cross.sh: no ${EMULATOR%% *} (install qemu-user)" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-cross.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
# One executable that is "ag" to every runner.
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$EMULATOR" "$BIN" >"$TMP/ag"
chmod +x "$TMP/ag"
echo "== $EMULATOR $BIN: $("$TMP/ag" --platform | tr '\n' ' ')"
unset AG_TIME_SCALE
status=0
sh "$ROOT/tests/run_scripts.sh" "$TMP/ag" ${CROSS_SCRIPTS:-} || status=1
sh "$ROOT/tests/run_conformance.sh" "$TMP/ag" || status=1
sh "$ROOT/tests/run_torch_cases.sh" "$TMP/ag" || status=1
sh "$ROOT/tests/run_python_cases.sh" "$TMP/ag" || status=1
if [ -n "${PTYDRIVER:-}" ] && "$TMP/ag" --platform | grep -qx 'line editor: none'; then
  . "$ROOT/tests/time_limit.sh"
  time_scale_for "$TMP/ag"
  passed=0 failed=0
  for c in "$ROOT"/tests/repl/plain/*.pty; do
    if out=$(cd "$ROOT" && NO_COLOR=1 TERM=dumb AG_PTY_TIMEOUT=$(scaled_limit 5) "$PTYDRIVER" "$c" "$TMP/ag" 2>&1); then
      passed=$((passed + 1))
    else
      failed=$((failed + 1)) status=1
      echo "FAIL ${c#"$ROOT"/}"
      printf '%s\n' "$out" | sed 's/^/    /'
    fi
  done
  echo "REPL without a line editor: $passed passed, $failed failed"
fi
sh "$ROOT/tests/check_no_optional_libs.sh" "$TMP/ag" || status=1
exit $status
