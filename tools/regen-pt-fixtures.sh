#!/bin/sh
# regen-pt-fixtures.sh — rewrites the .pt fixtures of tests/torch/pt_files:
# from_torch.pt, state_dict.pt and module_from_torch.pt by PyTorch 1.13
# (pt_files/gen_from_torch.py), from_ag.pt and module_from_ag.pt by Ag (what
# tests/torch/pt_save.ag, pt_module_save.ag and
# pt_module_layers.ag write), then the expected
# outputs of the pt_ cases (tools/regen-torch-outputs.sh). Needs PyTorch
# and a built Ag (AG, default build/release/ag). Review the diff afterwards.
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${TORCH_PYTHON:-/usr/bin/python3}
AG=${AG:-$ROOT/build/release/ag}
cd "$ROOT/tests/torch"
"$PY" pt_files/gen_from_torch.py
"$AG" pt_save.ag >/dev/null 2>&1 || true # writes /tmp/ag_test_pt_save.pt before comparing
cp /tmp/ag_test_pt_save.pt pt_files/from_ag.pt
"$AG" pt_module_save.ag >/dev/null 2>&1 || true
cp /tmp/ag_test_pt_module_save.pt pt_files/module_from_ag.pt
"$AG" pt_module_layers.ag >/dev/null 2>&1 || true
cp /tmp/ag_test_pt_module_layers.pt pt_files/layers_from_ag.pt
"$ROOT/tools/regen-torch-outputs.sh" pt_load pt_save pt_module_load pt_module_save pt_module_layers
