#!/bin/sh
# install-deps.sh — makes sure the Debian packages Ag builds and tests with are
# present: a C compiler and make, pkg-config, GNU Readline, Check, OpenBLAS
# (the header to build, and the library ag loads at its first matrix product), and
# SLEEF (the vector math PyTorch uses on x86-64 with AVX2), zlib (.npz archives),
# Graphviz (only for the tests that render graphs; Ag itself runs without it)
# and Python 3 (only for the test generator of tests/fuzz; Ag does not use it).
# As root it installs what is missing with apt-get; otherwise it prints the
# exact command to run and stops.
set -e

PACKAGES="gcc make pkg-config libreadline-dev check libsubunit-dev libopenblas-dev libopenblas0-pthread libsleef-dev zlib1g-dev graphviz python3"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

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
