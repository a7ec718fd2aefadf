#!/bin/sh
# install-deps.sh — makes sure the Debian packages Ag builds and tests with are
# present: a C compiler and make, pkg-config, GNU Readline, Check, OpenBLAS
# (the header to build, and the library ag loads at its first matrix product), and
# Graphviz (only for the tests that render graphs; Ag itself runs without it)
# and Python 3 (only for the test generator of tests/fuzz; Ag does not use it);
# optionally clang with its libFuzzer runtime (only for make fuzz).
# As root it installs what is missing with apt-get; otherwise it prints the
# exact command to run and stops.
set -e

PACKAGES="gcc make pkg-config libreadline-dev check libsubunit-dev libopenblas-dev libopenblas0-pthread graphviz python3"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

# Optional: clang and its libFuzzer runtime, for `make fuzz` (and the short
# fuzzing run of `make test`, which is skipped with a message without them).
# Installed when missing and possible; never an error.
optional_fuzzing() {
  if command -v clang >/dev/null 2>&1; then
    major=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
  else
    major=$(apt-cache policy clang 2>/dev/null | sed -n 's/^ *Candidate: *1:\{0,1\}\([0-9]*\).*/\1/p' | head -n 1)
  fi
  want=""
  command -v clang >/dev/null 2>&1 || want="clang"
  if [ -n "$major" ] && ! dpkg-query -W -f='${Status}' "libclang-rt-$major-dev" 2>/dev/null | grep -q "install ok installed"; then
    want="$want libclang-rt-$major-dev"
  fi
  [ -z "$want" ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: optional, for make fuzz: apt-get install -y$want (skipping)" >&2
    return 0
  fi
  # shellcheck disable=SC2086
  apt-get install -y -qq $want >/dev/null 2>&1 ||
    echo "install-deps: optional packages$want not installed; make fuzz will be skipped" >&2
}

if [ -z "$missing" ]; then
  optional_fuzzing
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: missing packages:$missing (and no apt-get here); install them by hand" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing Debian packages:$missing" >&2
  echo "run:  sudo apt-get update && sudo apt-get install -y$missing" >&2
  exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq $missing >/dev/null
optional_fuzzing
