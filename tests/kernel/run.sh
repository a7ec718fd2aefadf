#!/bin/sh
# Kernel tests: installs ag and ag-kernel with `make install` into a fresh
# temporary prefix and runs tests/kernel/test_kernel.py (Jupyter's kernel
# test suite and Ag's own protocol tests) and tests/kernel/test_notebook.py
# (docs/tutorial.ipynb through nbclient) against it, with that prefix's
# share/jupyter first on JUPYTER_PATH.
#
# usage: sh tests/kernel/run.sh MODE      (the build mode whose binaries to install)
# Skips, with a line saying why, only when a package cannot be had: xeus
# (no kernel was built) or Debian's Jupyter packages for /usr/bin/python3.
set -u
MODE=${1:-release}
ROOT=$(cd -- "$(dirname -- "$0")/../.." && pwd)
PY=/usr/bin/python3
cd "$ROOT" || exit 2

if [ ! -x "build/$MODE/ag-kernel" ]; then
  echo "SKIP kernel tests: build/$MODE/ag-kernel was not built (xeus-dev is missing)"
  exit 0
fi
if ! "$PY" -c 'import jupyter_client, jupyter_kernel_test, nbclient, nbformat, zmq' 2>/dev/null; then
  echo "SKIP kernel tests: $PY lacks python3-jupyter-client, python3-jupyter-kernel-test or python3-nbclient"
  exit 0
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-kernel-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
make --no-print-directory MODE="$MODE" install PREFIX="$TMP/prefix" DESTDIR= >"$TMP/install.log" 2>&1 || {
  cat "$TMP/install.log"; echo "FAIL make install"; exit 1; }
[ -f "$TMP/prefix/share/jupyter/kernels/ag/kernel.json" ] || { echo "FAIL no kernelspec installed"; exit 1; }

# BIN_NAME= installs ag under another name, with a warning when a program of
# that name is already on PATH (Debian's silversearcher-ag is an `ag`).
mkdir -p "$TMP/other" && printf '#!/bin/sh\n' >"$TMP/other/agx" && chmod +x "$TMP/other/agx"
PATH="$TMP/other:$PATH" make --no-print-directory MODE="$MODE" install PREFIX="$TMP/named" \
  BIN_NAME=agx >"$TMP/named.log" 2>&1 || { cat "$TMP/named.log"; echo "FAIL make install BIN_NAME=agx"; exit 1; }
grep -q "warning: another 'agx' is on PATH: $TMP/other/agx" "$TMP/named.log" || {
  cat "$TMP/named.log"; echo "FAIL no warning about the other agx on PATH"; exit 1; }
[ -x "$TMP/named/bin/agx" ] && [ -f "$TMP/named/share/man/man1/agx.1" ] || {
  echo "FAIL BIN_NAME=agx did not install agx and agx.1"; exit 1; }
make --no-print-directory MODE="$MODE" uninstall PREFIX="$TMP/named" BIN_NAME=agx >/dev/null 2>&1
[ -z "$(find "$TMP/named" -type f)" ] || { echo "FAIL make uninstall BIN_NAME=agx left files"; exit 1; }

# the tests' time limits scale with the machine (tests/time_limit.sh)
. "$ROOT/tests/time_limit.sh"
time_scale_for "build/$MODE/ag"
export JUPYTER_PATH="$TMP/prefix/share/jupyter" AG_PREFIX="$TMP/prefix"
export JUPYTER_RUNTIME_DIR="$TMP/runtime" JUPYTER_DATA_DIR="$TMP/data" NO_COLOR=1
[ "$MODE" = sanitize ] && export AG_KERNEL_HEAVY=0 ASAN_OPTIONS=detect_leaks=0
status=0
"$PY" tests/kernel/test_kernel.py 2>&1 || status=1
if [ -f tests/kernel/test_notebook.py ]; then
  "$PY" tests/kernel/test_notebook.py 2>&1 || status=1
fi
make --no-print-directory MODE="$MODE" uninstall PREFIX="$TMP/prefix" DESTDIR= >"$TMP/uninstall.log" 2>&1
left=$(find "$TMP/prefix" -type f | head -5)
if [ -n "$left" ]; then echo "FAIL make uninstall left: $left"; status=1; fi
[ $status -eq 0 ] && echo "kernel tests passed" || echo "kernel tests FAILED"
exit $status
