#!/bin/sh
# run_torch_cases.sh AG — the differential cases of tests/torch: each NAME.ag
# must print NAME.out, which PyTorch 1.13 produced from NAME.py
# (tools/regen-torch-outputs.sh). Needs no PyTorch.
#
# How a case is compared is written in its first lines (tests/torch/README.md):
#   (nothing)                     exactly, on every machine: Ag computes it in
#                                 its own fixed order
#   # tolerance: rtol=R atol=A    its numbers within the tolerance, on every
#                                 machine (BLAS products: the BLAS build and the
#                                 CPU pick the order of the sums)
#   # bit-exact on: avx2          exactly where `ag --platform` says the kernels
#                                 use AVX2 (x86-64 with AVX2 and FMA: PyTorch's
#                                 SLEEF kernels); elsewhere within the case's
#                                 tolerance, and the bit-exact tier is reported
#                                 as skipped
#   # needs: lapack               skipped (and reported) where the BLAS in use
#                                 has no LAPACK (the built-in kernel)
#   # needs: zlib                 skipped (and reported) in a build without zlib
#                                 (.npz and .pt files: the AArch64 cross build)
# Time limits scale with the machine (tests/time_limit.sh).
# Last line: "N passed, M failed, K bit-exact tiers skipped".
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/time_limit.sh"
AG=${1:-./ag}
case "$AG" in /*) ;; *) AG="$PWD/$AG" ;; esac
time_scale_for "$AG"
LIMIT=$(scaled_limit 20)
vector=$(NO_COLOR=1 "$AG" --platform 2>/dev/null </dev/null | sed -n 's/^vector: //p')
arch=$(NO_COLOR=1 "$AG" --platform 2>/dev/null </dev/null | sed -n 's/^arch: //p')
blas=$(NO_COLOR=1 "$AG" --platform 2>/dev/null </dev/null | sed -n 's/^blas: //p')
npz=$(NO_COLOR=1 "$AG" --platform 2>/dev/null </dev/null | sed -n 's/^npz: //p')
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-torch.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT/tests/torch" || exit 2

# header_value FILE KEY: the text after "# KEY: " in FILE's leading comments
header_value() {
  awk -v key="# $2: " '!/^#/ { exit } index($0, key) == 1 { print substr($0, length(key) + 1); exit }' "$1"
}

passed=0
failed=0
skipped=0
skipped_cases=0
for case_file in *.ag; do
  name=${case_file%.ag}
  if [ "$(header_value "$case_file" needs)" = lapack ] && [ "$blas" = builtin ]; then
    echo "SKIP tests/torch/$case_file (needs LAPACK; the BLAS in use here is the built-in kernel)"
    skipped_cases=$((skipped_cases + 1))
    continue
  fi
  if [ "$(header_value "$case_file" needs)" = zlib ] && [ "$npz" = "no zlib" ]; then
    echo "SKIP tests/torch/$case_file (needs zlib; this build has none)"
    skipped_cases=$((skipped_cases + 1))
    continue
  fi
  NO_COLOR=1 run_limited "$LIMIT" "$AG" "$case_file" >"$TMP/actual" 2>"$TMP/err" </dev/null
  echo "exit=$?" >>"$TMP/actual"
  { cat "$name.out"; echo "exit=0"; } >"$TMP/expected"
  tolerance=$(header_value "$case_file" tolerance)
  exact_on=$(header_value "$case_file" "bit-exact on")
  mode=exact
  if [ -n "$exact_on" ]; then
    case " $vector " in
      *" $exact_on "*) mode=exact ;;
      *) mode=tolerance
         echo "SKIP bit-exact tier of tests/torch/$case_file (needs $exact_on; this CPU: $arch $vector); compared within $tolerance"
         skipped=$((skipped + 1)) ;;
    esac
  elif [ -n "$tolerance" ]; then
    mode=tolerance
  fi
  if [ "$mode" = exact ]; then
    cmp -s "$TMP/expected" "$TMP/actual"
  else
    rtol=$(printf '%s\n' "$tolerance" | sed -n 's/.*rtol=\([^ ]*\).*/\1/p')
    atol=$(printf '%s\n' "$tolerance" | sed -n 's/.*atol=\([^ ]*\).*/\1/p')
    awk -v rtol="${rtol:-0}" -v atol="${atol:-0}" -f "$ROOT/tests/compare_numbers.awk" \
      "$TMP/expected" "$TMP/actual" >"$TMP/why"
  fi
  if [ $? -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL tests/torch/$case_file ($mode)"
    if [ "$mode" = exact ]; then diff "$TMP/expected" "$TMP/actual" | head -15; else head -5 "$TMP/why"; fi
    head -3 "$TMP/err"
  fi
done
echo "$passed passed, $failed failed, $skipped bit-exact tiers skipped, $skipped_cases cases skipped"
[ "$failed" -eq 0 ]
