#!/bin/sh
# run_wasm.sh AG_JS — the WebAssembly build under node (`make wasm`, run by
# .ci/run so that it cannot rot): the example programs', the autograd and the
# nn golden scripts and the shared conformance cases (products on the
# built-in kernel, chosen with AG_BLAS=builtin), the error a .npz gives
# without zlib, and the note a product prints when nothing is chosen (no
# shared libraries in WebAssembly). Exit status 1 on a failure.
[ $# -eq 1 ] || { echo "usage: run_wasm.sh AG_JS" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case "$1" in /*) JS=$1 ;; *) JS=$PWD/$1 ;; esac
command -v node >/dev/null 2>&1 || { echo "run_wasm.sh: node is needed (Debian: nodejs)" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-wasm.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
printf '#!/bin/sh\nexec node "%s" "$@"\n' "$JS" >"$TMP/ag"
chmod +x "$TMP/ag"
echo "== node $JS: $("$TMP/ag" --platform | tr '\n' ' ')"
status=0
# WebAssembly has no zlib here: the script that saves .npz is left out (the
# error it gives instead is checked below).
AG_BLAS=builtin AG_SKIP_SCRIPTS="tests/scripts/nn/training.ag" \
  sh "$ROOT/tests/run_scripts.sh" "$TMP/ag" "$ROOT/tests/scripts/examples" \
  "$ROOT/tests/scripts/autograd" "$ROOT/tests/scripts/nn" || status=1
AG_BLAS=builtin sh "$ROOT/tests/run_conformance.sh" "$TMP/ag" || status=1
sh "$ROOT/tests/check_no_optional_libs.sh" "$TMP/ag" || status=1
NO_COLOR=1 "$TMP/ag" -e 'print(tensor([[1.0, 2.0]]) @ tensor([[3.0], [4.0]]))' >"$TMP/out" 2>"$TMP/err" </dev/null
if [ "$(cat "$TMP/out")" = "tensor([[11.]])" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
  grep -q "^ag: note: no BLAS library loaded (.*WebAssembly); matrix products use Ag's built-in kernel" "$TMP/err"; then
  echo "a product without a BLAS library: ok"
else
  echo "FAIL a product without a BLAS library printed:"
  cat "$TMP/out" "$TMP/err"
  status=1
fi
exit $status
