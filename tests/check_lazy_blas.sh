#!/bin/sh
# check_lazy_blas.sh — ag loads OpenBLAS at the first matrix product and not
# before: a script without one (scalar autograd, the whole start-up) must not
# load libopenblas, and one with products must load it and get them right.
# What ld.so loaded is read from the "calling init" lines of its LD_DEBUG=files
# trace (glibc); the last case also checks that the trace shows OpenBLAS at
# all, so a trace that stops naming it cannot make the others pass.
# usage: sh tests/check_lazy_blas.sh AG_BINARY     Last line: "N passed, M failed"; exit 1 on a failure.
[ $# -eq 1 ] || { echo "usage: check_lazy_blas.sh AG_BINARY" >&2; exit 2; }
AG=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-lazyblas.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

# run NAME WANT_LOADED EXPECTED_STDOUT SCRIPT
run() {
  LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" NO_COLOR=1 "$AG" -e "$4" >"$TMP/out" 2>"$TMP/err" </dev/null
  rc=$?
  loaded=no
  cat "$TMP"/ld.* 2>/dev/null | grep -q 'calling init: .*libopenblas' && loaded=yes
  rm -f "$TMP"/ld.*
  if [ $rc -ne 0 ] || [ "$loaded" != "$2" ] || [ "$(cat "$TMP/out")" != "$3" ]; then
    echo "FAIL $1: exit $rc, OpenBLAS loaded: $loaded (want $2)"
    diff "$TMP/out" - <<EOF | head -10
$3
EOF
    head -5 "$TMP/err"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}

run "start-up" no 1 'print(1)'
run "scalar autograd and elementwise ops" no "tensor(12.)
tensor(12.)" '
let x = tensor(2.0, requires_grad=true)
let y = x ** 2 * 3
print(y.detach())
y.backward()
print(x.grad)
let v = tensor([1.0, 2.0]) * tensor([3.0, 4.0])
let i = tensor([[1, 2]]).long() @ tensor([[3], [4]]).long()'
run "float32 and float64 products" yes "tensor([[ 7., 10.],
        [15., 22.]])
tensor([ 5., 11.], dtype=float64)
tensor(11.)" '
let a = tensor([[1.0, 2.0], [3.0, 4.0]])
print(a @ a)
print(a.double() @ tensor([1.0, 2.0]).double())
print(tensor([1.0, 2.0]) @ tensor([3.0, 4.0]))'

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
