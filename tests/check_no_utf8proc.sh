#!/bin/sh
# check_no_utf8proc.sh AG — a build without utf8proc (the AArch64 cross build,
# WebAssembly) has the unicodedata module, whose functions fail with an error
# that says so; a build with utf8proc has nothing to check. Exit status 1 if
# the error is not the expected one.
AG=$1
"$AG" --platform | grep -qx 'unicodedata: none' || exit 0
if NO_COLOR=1 "$AG" -e 'import unicodedata; unicodedata.normalize("NFD", "e")' 2>&1 </dev/null |
  grep -q '^<string>:1: error: unicodedata needs utf8proc, which this build of Ag was made without (install libutf8proc-dev and rebuild)$'; then
  echo "unicodedata without utf8proc: ok"
else
  echo "FAIL unicodedata without utf8proc: not the expected error"
  exit 1
fi
