"""docs/tutorial.ipynb: up to date with docs/tutorial.md, and when nbclient
runs it top to bottom on the installed Ag kernel every cell prints what the
tutorial says it prints (ag.expected in the cell's metadata), the graph and
plot cells show their pictures as SVG and PNG, and the committed notebook
carries them.
"""
import copy
import os
import re
import sys
import tempfile
import unittest

import nbformat
from nbclient import NotebookClient

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import tutorial_notebook  # noqa: E402


def cell_text(cell):
    """What a terminal run would print: streams, and the text of displays.
    Where a graph's node was made reads "line 5" on a terminal and names the
    cell in a notebook ("In[3]:5"): the cell's name is taken back out."""
    parts = []
    for out in cell.outputs:
        if out.output_type == "stream" and out.name == "stdout":
            parts.append(out.text)
        elif out.output_type in ("display_data", "execute_result"):
            text = out.data.get("text/plain", "")
            parts.append(text if text.endswith("\n") else text + "\n")
    return re.sub(r"\bIn\[\d+\]:(\d+)", r"line \1", "".join(parts))


def has_pictures(cell):
    """A picture as SVG and as PNG: GitHub, nbviewer and an untrusted
    notebook hide SVG, PNG always shows."""
    return any(out.output_type == "display_data" and "image/svg+xml" in out.data
               and "image/png" in out.data for out in cell.outputs)


class TutorialNotebook(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(ROOT, "docs/tutorial.ipynb"), encoding="utf-8") as f:
            cls.committed = nbformat.read(f, as_version=4)
        with open(os.path.join(ROOT, "docs/tutorial.md"), encoding="utf-8") as f:
            cls.generated = tutorial_notebook.build(f.read())

    def test_generated_from_the_markdown(self):
        fresh = [(c.cell_type, c.source, c.metadata.get("ag")) for c in self.generated.cells]
        committed = [(c.cell_type, c.source, c.metadata.get("ag")) for c in self.committed.cells]
        self.assertEqual(committed, fresh, "docs/tutorial.ipynb is stale: run `make notebook`")

    def test_committed_with_the_graph_pictures_inline(self):
        graphs = [c for c in self.committed.cells if c.cell_type == "code" and "show_graph" in c.source]
        self.assertTrue(graphs)
        self.assertTrue(all(has_pictures(c) for c in graphs))

    def test_runs_top_to_bottom_with_the_tutorials_outputs(self):
        nb = copy.deepcopy(self.generated)
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["TMPDIR"] = tmp
            NotebookClient(nb, kernel_name="ag", timeout=120,
                           resources={"metadata": {"path": tmp}}).execute()
        checked = 0
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            errors = [o for o in cell.outputs if o.output_type == "error"]
            self.assertEqual(errors, [], f"cell {i} failed:\n{cell.source}")
            expected = cell.metadata["ag"]["expected"]
            if expected is not None:
                with self.subTest(cell=i):
                    self.assertEqual(cell_text(cell), expected, cell.source)
                checked += 1
            if "show_graph" in cell.source or "plot.show" in cell.source:
                self.assertTrue(has_pictures(cell), f"cell {i} shows no SVG and PNG picture")
        self.assertGreater(checked, 10)


if __name__ == "__main__":
    unittest.main(verbosity=1)
