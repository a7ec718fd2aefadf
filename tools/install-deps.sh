#!/bin/sh
# install-deps.sh [GROUP...] — makes sure the packages Ag builds and tests with
# are present. Groups:
#   (default)  a C compiler and make, pkg-config, GNU Readline, Check,
#              SLEEF (the vector math PyTorch uses on x86-64 with AVX2), zlib
#              (.npz archives), utf8proc (Python's unicodedata), OpenBLAS
#              (the library ag loads at its first matrix product;
#              without it products run on a slower built-in kernel), Graphviz
#              (only for the tests that render graphs) and Python 3 (only for
#              the test generator of tests/fuzz); optionally, never an error,
#              Clang with its libFuzzer runtime (for `make fuzz`)
#   clang      Clang and libedit, for `make test-clang`
#   cross      the AArch64 cross compiler and qemu's user-mode emulators, for
#              `make test-cross` (the cross build needs no arm64 libraries:
#              its REPL reads plain lines and its products run on the built-in
#              kernel, so no Debian multiarch is involved)
#   wasm       emscripten and node, for `make wasm`
#   web        npm and Chromium, for `make web` and `make test-web`
# On Debian and Ubuntu: as root it installs what is missing with apt-get;
# otherwise it prints the exact command to run and stops. On macOS: it
# prints the `brew install` line for what is missing and stops. Elsewhere it
# checks for the tools themselves and names what it cannot find.
set -e

[ $# -gt 0 ] || set -- base

debian_packages() {
  for group in "$@"; do
    case "$group" in
      # The Jupyter kernel (kernel/: xeus with its JSON and ZeroMQ headers,
      # C++), plots (gnuplot; optional at run time like Graphviz) and the
      # kernel's tests (Jupyter's client, its kernel test suite, nbclient).
      base) echo "gcc make pkg-config libreadline-dev check libsubunit-dev libsleef-dev zlib1g-dev libutf8proc-dev libopenblas0-pthread graphviz python3" \
              "g++ xeus-dev nlohmann-json3-dev libzmq3-dev cppzmq-dev gnuplot-nox" \
              "python3-jupyter-client python3-jupyter-kernel-test python3-nbclient python3-nbformat" ;;
      clang) echo "clang libedit-dev" ;;
      cross) echo "gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user" ;;
      wasm) echo "emscripten nodejs" ;;
      # npm comes with NodeSource's nodejs, apart from Debian's
      web) echo "chromium"; command -v npm >/dev/null 2>&1 || echo "npm" ;;
      *) echo "install-deps: unknown group $group" >&2; exit 2 ;;
    esac
  done
}

# Homebrew formulas (Xcode's command line tools bring cc, make and Clang;
# Accelerate stands in for OpenBLAS if it is missing).
brew_formulas() {
  for group in "$@"; do
    case "$group" in
      base) echo "readline check pkg-config sleef utf8proc openblas graphviz python3 gnuplot" ;;
      clang) ;;
      cross) ;;
      wasm) echo "emscripten node" ;;
      web) ;; # test-web finds a Chrome or Chromium of its own (CHROMIUM=path)
      *) echo "install-deps: unknown group $group" >&2; exit 2 ;;
    esac
  done
}

if [ "$(uname -s)" = Darwin ]; then
  case " $* " in
    *" cross "*) echo "install-deps: make test-cross needs Linux (qemu-user); a Mac runs its own arm64 build natively" >&2; exit 1 ;;
  esac
  command -v brew >/dev/null 2>&1 || {
    echo "install-deps: Homebrew is needed (https://brew.sh), then:" >&2
    echo "run:  brew install $(brew_formulas "$@" | tr '\n' ' ')" >&2
    exit 1
  }
  missing=""
  for f in $(brew_formulas "$@"); do
    brew list --versions "$f" >/dev/null 2>&1 || missing="$missing $f"
  done
  [ -z "$missing" ] && exit 0
  echo "install-deps: missing Homebrew formulas:$missing" >&2
  echo "run:  brew install$missing" >&2
  exit 1
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
  # Not Debian: look for the tools and libraries themselves.
  missing=""
  for tool in cc make pkg-config; do command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"; done
  pkg-config --exists check 2>/dev/null || missing="$missing check(unit-test library)"
  [ -z "$missing" ] && exit 0
  echo "install-deps: not found:$missing; install them with this system's package manager" >&2
  exit 1
fi

missing=""
for p in $(debian_packages "$@"); do
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
