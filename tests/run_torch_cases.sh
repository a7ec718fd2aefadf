#!/bin/sh
# run_torch_cases.sh AG — the differential cases of tests/torch: each NAME.ag
# must print exactly NAME.out, which PyTorch 1.13 produced from NAME.py
# (tools/regen-torch-outputs.sh). Needs no PyTorch. Last line: "N passed, M failed".
AG=${1:-./ag}
case "$AG" in /*) ;; *) AG="$PWD/$AG" ;; esac
cd "$(dirname "$0")/torch" || exit 2
passed=0
failed=0
for case_file in *.ag; do
  name=${case_file%.ag}
  actual=$(NO_COLOR=1 timeout 20 "$AG" "$case_file" 2>/tmp/ag_torch_case.err </dev/null; echo "exit=$?")
  expected=$(cat "$name.out"; echo "exit=0")
  if [ "$actual" = "$expected" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL tests/torch/$name.ag"
    printf '%s\n' "$expected" >/tmp/ag_torch_case.expected
    printf '%s\n' "$actual" | diff /tmp/ag_torch_case.expected - | head -15
    head -3 /tmp/ag_torch_case.err
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
