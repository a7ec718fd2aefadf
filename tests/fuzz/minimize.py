#!/usr/bin/env python3
"""Shrink a failing fuzz program line by line while the failure persists.

usage: minimize.py AG_BINARY FILE.ag PATTERN [DIR]
PATTERN is a regular expression searched in stderr (e.g. LeakSanitizer, or
'tensor/shape.c'); exit statuses >= 128 other than 124 also count as the
failure when PATTERN is "signal". DIR (default: a temporary directory with the
corrupt files) is passed to the program as args[0] and is its cwd.
Writes FILE.min.ag. Standard library only.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tensor_programs  # noqa: E402


def fails(ag, lines, pattern, directory):
    path = os.path.join(directory, "_min.ag")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    try:
        p = subprocess.run([ag, path, directory], cwd=directory, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=20,
                           env=dict(os.environ, NO_COLOR="1"))
    except subprocess.TimeoutExpired:
        return False
    err = p.stderr.decode("utf-8", "replace")
    if pattern == "signal":
        return p.returncode < 0 or (p.returncode >= 128 and p.returncode != 124)
    return re.search(pattern, err) is not None


def main():
    ag, src, pattern = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    directory = sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp(prefix="ag-min.")
    gen_tensor_programs.write_corrupt_files(directory)
    lines = open(src).read().splitlines()
    if not fails(ag, lines, pattern, directory):
        sys.exit("the program does not fail with %r" % pattern)
    chunk = max(1, len(lines) // 2)
    while chunk >= 1:
        i = 0
        changed = False
        while i < len(lines):
            trial = lines[:i] + lines[i + chunk:]
            if fails(ag, trial, pattern, directory):
                lines = trial
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    out = os.path.splitext(src)[0] + ".min.ag"
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print("-> " + out, file=sys.stderr)


if __name__ == "__main__":
    main()
