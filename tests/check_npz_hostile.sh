#!/bin/sh
# check_npz_hostile.sh — hostile .npz archives (issue 16, fault 5) and .pt
# files (issue 21), generated here by tests/gen_hostile_npz.py and
# tests/gen_hostile_pt.py rather than committed. .pt: a global or opcode that
# would run code, lying storages, views and zip fields, a missing member, a
# truncated file, deep nesting: each a clear error naming the file. .npz: directory entries
# that share one member are refused before anything is inflated; an archive
# whose members add up to more than load()'s 4 GiB is refused likewise; and a
# Ctrl-C during a long inflate stops it at once, as an Interrupted error
# (exit 130). Each error is caught in the script too, so that it is shown to
# be an ordinary catchable error. The interrupt case allows 10 s (times the
# machine's slowness, tests/time_limit.sh) after the signal (inflating the
# whole member takes several seconds even on a fast machine, and a slow or
# emulated one stops as soon as it polls).
# usage: sh tests/check_npz_hostile.sh AG_BINARY    Last line: "N passed, M failed"; exit 1 on a failure.
[ $# -eq 1 ] || { echo "usage: check_npz_hostile.sh AG_BINARY" >&2; exit 2; }
AG=$1
HERE=$(dirname "$0")
. "$HERE/time_limit.sh"
time_scale_for "$AG"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ag-npz.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
{ python3 "$HERE/gen_hostile_npz.py" "$TMP" && python3 "$HERE/gen_hostile_pt.py" "$TMP"; } || { echo "check_npz_hostile: cannot generate the archives" >&2; exit 2; }
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() {
  echo "FAIL $1"
  head -5 "$TMP/err"
  failed=$((failed + 1))
}

# refused FILE MESSAGE: load() of FILE fails with exactly MESSAGE (exit 1),
# and the same error is caught by a script
refused() {
  NO_COLOR=1 "$AG" -e "load(\"$TMP/$1\")" >"$TMP/out" 2>"$TMP/err" </dev/null
  rc=$?
  want="<string>:1: error: cannot read $TMP/$1: $2"
  if [ $rc -ne 1 ] || [ "$(head -1 "$TMP/err")" != "$want" ]; then
    echo "  want exit 1 and: $want"
    fail "$1 (exit $rc)"
    return
  fi
  caught=$(NO_COLOR=1 "$AG" -e "try { load(\"$TMP/$1\") } catch e { print(\"caught\", str(e) == \"cannot read $TMP/$1: $2\") }" 2>"$TMP/err" </dev/null)
  if [ "$caught" != "caught true" ]; then
    fail "$1: not caught as the same error (got: $caught)"
    return
  fi
  pass
}

refused shared.npz "corrupt zip: members 'a0.npy' and 'a1.npy' share their data"
refused huge.npz "the members hold more than 4 GiB uncompressed, the most load() reads"
refused evil_global.pt "refusing the pickle global 'os.system': a .pt file may only name collections.OrderedDict, builtins.set, torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter, torch's storage types (Float, Double, Half, BFloat16, Long, Int, Short, Char, Byte, BoolStorage) and the classes of modules (__main__.NAME, torch.nn.NAME)"
refused undefined_class.pt "it holds a module of class __main__.Evil, which is not a class of nn.Module this script defines (define it before load())"
refused not_a_class.pt "it holds a module of class __main__.print, which is not a class of nn.Module this script defines (define it before load())"
refused not_nn.pt "it holds a torch.nn.save, which is not a module class of Ag's nn"
refused called_class.pt "refusing to call torch.nn.Linear: a module's class is only instantiated empty (NEWOBJ)"
refused newobj_args.pt "unsupported NEWOBJ: only a module's class, with no arguments"
refused other_module.pt "refusing the pickle global 'torch.nn.modules.os.system.x': a .pt file may only name collections.OrderedDict, builtins.set, torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter, torch's storage types (Float, Double, Half, BFloat16, Long, Int, Short, Char, Byte, BoolStorage) and the classes of modules (__main__.NAME, torch.nn.NAME)"
refused module_state.pt "unsupported BUILD: an object's state is one dict"
refused evil_opcode.pt "refusing pickle opcode 0x69 ('i') at byte 3 of data.pkl: not one torch.save writes"
refused complex.pt "unsupported storage type torch.ComplexFloatStorage (Ag reads Float, Double, Half, BFloat16, Long, Int, Short, Char, Byte and BoolStorage)"
refused short_storage.pt "storage archive/data/0 holds 16 bytes, not the 8 elements of torch.FloatStorage it claims"
refused outside.pt "a tensor's size, stride and offset reach outside its storage of 4 elements"
refused missing.pt "missing member archive/data/7"
refused memo.pt "corrupt pickle: memo entry 5 is not defined"
refused noversion.pt "not a PyTorch archive: missing member archive/version"
refused deep.pt "values nested more than 200 deep"
refused truncated.pt "no zip end-of-directory record (a truncated file, or not a zip archive)"
refused lying.pt "corrupt zip: members 'archive/data.pkl' and 'archive/data/0' share their data"
refused list_key.pt "a dict key that is not a string, number, bool or None"
refused legacy.pt "PyTorch's format before 1.6, which Ag does not read (re-save it with torch.save of PyTorch 1.6 or later)"

# Ctrl-C once the script prints that it begins to inflate slow.npz's 3 GiB
# member (not after a fixed delay: a loaded machine may not have begun yet)
start=$(date +%s)
NO_COLOR=1 interrupt_when_printed "$TMP/out" loading "$(scaled_limit 10)" \
  "$AG" -e "print(\"loading\", flush=true)
let m = load(\"$TMP/slow.npz\")" 2>"$TMP/err" </dev/null
rc=$?
took=$(($(date +%s) - start))
if [ $rc -eq 130 ] && grep -q 'Interrupted' "$TMP/err"; then
  pass
else
  fail "slow.npz: Ctrl-C during inflate gave exit $rc after ${took}s (want 130 within $(scaled_limit 10)s of the signal)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
