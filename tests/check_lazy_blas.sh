#!/bin/sh
# check_lazy_blas.sh — ag loads its BLAS at the first matrix product and not
# before, and runs products on its built-in kernel when no BLAS loads.
#  - lazy loading: a script without a product (scalar autograd, the whole
#    start-up) must not load libopenblas, and one with products must load it
#    and get them right. What ld.so loaded is read from the "calling init"
#    lines of its LD_DEBUG=files trace; the last case also checks that the
#    trace shows OpenBLAS at all, so a trace that stops naming it cannot make
#    the others pass. Without such a trace (not glibc, or no OpenBLAS here)
#    these cases are reported as skipped.
#  - the fallback: with AG_BLAS naming a library that does not exist, every
#    product of a script covering each layout and dtype prints what it prints
#    with AG_BLAS=builtin (no note) and, where OpenBLAS loads, with OpenBLAS;
#    stderr holds exactly one line, the note.
# usage: sh tests/check_lazy_blas.sh AG_BINARY
# Last line: "N passed, M failed, K skipped"; exit 1 on a failure.
[ $# -eq 1 ] || { echo "usage: check_lazy_blas.sh AG_BINARY" >&2; exit 2; }
AG=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-lazyblas.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
skipped=0

fail() {
  echo "FAIL $1"
  failed=$((failed + 1))
}

# Whether LD_DEBUG traces this ag's loading of OpenBLAS at all.
traced=no
LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" NO_COLOR=1 "$AG" -e 'print(tensor([[1.0]]) @ tensor([[2.0]]))' \
  >/dev/null 2>&1 </dev/null
cat "$TMP"/ld.* 2>/dev/null | grep -q 'calling init: .*libopenblas' && traced=yes
rm -f "$TMP"/ld.*

# lazy NAME WANT_LOADED EXPECTED_STDOUT SCRIPT
lazy() {
  if [ "$traced" = no ]; then
    echo "SKIP $1: no LD_DEBUG trace of OpenBLAS here (glibc with OpenBLAS needed)"
    skipped=$((skipped + 1))
    return
  fi
  LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" NO_COLOR=1 "$AG" -e "$4" >"$TMP/out" 2>"$TMP/err" </dev/null
  rc=$?
  loaded=no
  cat "$TMP"/ld.* 2>/dev/null | grep -q 'calling init: .*libopenblas' && loaded=yes
  rm -f "$TMP"/ld.*
  if [ $rc -ne 0 ] || [ "$loaded" != "$2" ] || [ "$(cat "$TMP/out")" != "$3" ]; then
    fail "$1: exit $rc, OpenBLAS loaded: $loaded (want $2)"
    diff "$TMP/out" - <<EOF | head -10
$3
$3
EOF
    head -5 "$TMP/err"
  else
    passed=$((passed + 1))
  fi
}

lazy "start-up" no 1 'print(1)'
lazy "scalar autograd and elementwise ops" no "tensor(12.)
tensor(12.)" '
let x = tensor(2.0, requires_grad=true)
let y = x ** 2 * 3
print(y.detach())
y.backward()
print(x.grad)
let v = tensor([1.0, 2.0]) * tensor([3.0, 4.0])
let i = tensor([[1, 2]]).long() @ tensor([[3], [4]]).long()'
lazy "float32 and float64 products" yes "tensor([[ 7., 10.],
        [15., 22.]])
tensor([ 5., 11.], dtype=float64)
tensor(11.)" '
let a = tensor([[1.0, 2.0], [3.0, 4.0]])
print(a @ a)
print(a.double() @ tensor([1.0, 2.0]).double())
print(tensor([1.0, 2.0]) @ tensor([3.0, 4.0]))'

# Every path into BLAS: mm with each operand as stored, transposed or strided,
# mv both ways, dot with a stride, bmm, float32 and float64, and a gradient.
PRODUCTS='
let a = arange(12).float().reshape(3, 4) * 0.25 - 1
let b = arange(20).float().reshape(4, 5) * 0.5 - 2
print(a @ b)
print(a.t().t() @ b, b.t() @ a.t())
print(a[:, ::2] @ b[::2, :3])
print(a @ b[:, 1], b[:, 2] @ b)
print(a[0] @ a[1], a[:, 0] @ a[:, 3])
print(a.double() @ b.double(), a.double()[1] @ b.double())
print(bmm(a.reshape(1, 3, 4), b.reshape(1, 4, 5)))
let w = a.clone().requires_grad_()
(w @ b).sum().backward()
print(w.grad)
print(matmul(ones(2, 3, 4), b).shape)'
printf '%s\n' "$PRODUCTS" >"$TMP/products.ag"
AG_BLAS=builtin NO_COLOR=1 "$AG" "$TMP/products.ag" >"$TMP/builtin.out" 2>"$TMP/builtin.err" </dev/null
rc=$?
if [ $rc -ne 0 ] || [ -s "$TMP/builtin.err" ] || [ "$(wc -l <"$TMP/builtin.out")" -lt 20 ]; then
  fail "AG_BLAS=builtin: exit $rc, stderr:"
  head -5 "$TMP/builtin.err"
else
  passed=$((passed + 1))
fi

AG_BLAS=libag-no-such-blas.so NO_COLOR=1 "$AG" "$TMP/products.ag" >"$TMP/missing.out" 2>"$TMP/missing.err" </dev/null
rc=$?
note=$(head -n 1 "$TMP/missing.err")
if [ $rc -ne 0 ] || [ "$(wc -l <"$TMP/missing.err")" -ne 1 ] ||
  ! cmp -s "$TMP/builtin.out" "$TMP/missing.out"; then
  fail "no BLAS library: exit $rc; stdout differs from the built-in kernel's, or stderr is not one line:"
  diff "$TMP/builtin.out" "$TMP/missing.out" | head -10
  head -5 "$TMP/missing.err"
else
  case "$note" in
    "ag: note: no BLAS library loaded (cannot load libag-no-such-blas.so"*"); matrix products use Ag's built-in kernel"*)
      passed=$((passed + 1)) ;;
    *) fail "no BLAS library: the note reads: $note" ;;
  esac
fi

# The built-in kernel prints what the BLAS library prints (4 significant digits).
if NO_COLOR=1 "$AG" "$TMP/products.ag" >"$TMP/default.out" 2>"$TMP/default.err" </dev/null &&
  ! grep -q 'no BLAS library loaded' "$TMP/default.err"; then
  if cmp -s "$TMP/builtin.out" "$TMP/default.out"; then
    passed=$((passed + 1))
  else
    fail "the built-in kernel and the BLAS library print different products:"
    diff "$TMP/builtin.out" "$TMP/default.out" | head -10
  fi
else
  echo "SKIP built-in kernel against a BLAS library: no BLAS library loads here"
  skipped=$((skipped + 1))
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
