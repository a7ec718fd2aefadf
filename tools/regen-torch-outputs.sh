#!/bin/sh
# regen-torch-outputs.sh [NAME...] — rewrites tests/torch/NAME.out by running
# NAME.py under PyTorch 1.13 (Debian: apt-get install python3-torch). Review
# the diff afterwards: the .out files are the expectations Ag is held to.
set -e
cd "$(dirname "$0")/../tests/torch"
PY=${TORCH_PYTHON:-/usr/bin/python3}
"$PY" -c "import torch" || { echo "PyTorch is not importable by $PY" >&2; exit 1; }
if [ $# -eq 0 ]; then set -- $(ls *.py | grep -v '^agfmt.py$' | sed 's/\.py$//'); fi
for name in "$@"; do
  "$PY" "$name.py" > "$name.out.tmp" && mv "$name.out.tmp" "$name.out"
  echo "regenerated $name.out"
done
