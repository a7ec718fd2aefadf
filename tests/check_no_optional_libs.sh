#!/bin/sh
# check_no_optional_libs.sh AG — a build without an optional library (the
# AArch64 cross build, WebAssembly: no zlib, no utf8proc) gives an error that
# says so where the library is needed: .npz files need zlib, Python's
# unicodedata needs utf8proc. What the build has is not checked. Exit status
# 1 if an error is not the expected one.
AG=$1
status=0

# check PLATFORM_LINE PROGRAM EXPECTED_STDERR_LINE WHAT
check() {
  "$AG" --platform | grep -qx "$1" || return 0
  if NO_COLOR=1 "$AG" -e "$2" 2>&1 </dev/null | grep -qxF "$3"; then
    echo "$4: ok"
  else
    echo "FAIL $4: not the expected error"
    status=1
  fi
}

check 'npz: no zlib' 'save({"a": arange(3)}, "x.npz")' \
  '<string>:1: error: cannot write x.npz: .npz files need zlib, which this build of Ag lacks' \
  ".npz without zlib"
check 'unicodedata: none' 'import unicodedata; unicodedata.normalize("NFD", "e")' \
  '<string>:1: error: unicodedata needs utf8proc, which this build of Ag was made without (install libutf8proc-dev and rebuild)' \
  "unicodedata without utf8proc"
exit $status
