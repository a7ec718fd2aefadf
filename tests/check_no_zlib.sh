#!/bin/sh
# check_no_zlib.sh AG — a build without zlib (the AArch64 cross build,
# WebAssembly) refuses .npz with an error that says so; a build with zlib
# has nothing to check. Exit status 1 if the error is not the expected one.
AG=$1
"$AG" --platform | grep -qx 'npz: no zlib' || exit 0
if NO_COLOR=1 "$AG" -e 'save({"a": arange(3)}, "x.npz")' 2>&1 </dev/null |
  grep -q '^<string>:1: error: cannot write x.npz: .npz files need zlib, which this build of Ag lacks$'; then
  echo ".npz without zlib: ok"
else
  echo "FAIL .npz without zlib: not the expected error"
  exit 1
fi
