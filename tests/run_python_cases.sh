#!/bin/sh
# CPython twins: every tests/python/NAME.ag must print exactly NAME.out, the
# output of its twin NAME.py under /usr/bin/python3 (regenerate a .out with
# `/usr/bin/python3 NAME.py > NAME.out` from tests/python after changing the .py).
#
# usage: sh tests/run_python_cases.sh AG_BINARY [NAME.ag...]
ag=$1
shift
case $ag in /*) ;; *) ag=$(pwd)/$ag ;; esac
cd "$(dirname "$0")/python" || exit 2
[ $# -gt 0 ] || set -- *.ag
pass=0 fail=0
for f in "$@"; do
  f=$(basename "$f")
  want=${f%.ag}.out
  if "$ag" "$f" 2>&1 | cmp -s - "$want"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL tests/python/$f"
    "$ag" "$f" 2>&1 | diff "$want" - | sed 's/^/    /' | head -20
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
