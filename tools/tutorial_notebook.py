#!/usr/bin/python3
"""docs/tutorial.ipynb from docs/tutorial.md: the one source is the Markdown.

Text becomes Markdown cells; each ```ag snippet a code cell, with the
```text block that follows it (blank lines between, as tests/run_tutorial.sh
reads them) kept in the cell's metadata as ag.expected. With --execute the
notebook is run top to bottom by nbclient on the installed Ag kernel, so it
is committed with its outputs: the graph pictures and plots inline.

usage: tools/tutorial_notebook.py [--execute] docs/tutorial.md docs/tutorial.ipynb
(`make notebook` installs the kernel into a temporary prefix and runs this.)
"""
import os
import sys
import tempfile

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook


def blocks(markdown):
    """Yields ("text", lines), ("ag", code) and ("expected", text) in order."""
    text, lines = [], iter(markdown.splitlines())
    last_code = False
    for line in lines:
        fence = line.strip()
        if fence in ("```ag", "```text") and (fence == "```ag" or last_code):
            body = []
            for inner in lines:
                if inner.strip().startswith("```"):
                    break
                body.append(inner)
            if fence == "```ag":
                if text:
                    yield "text", text
                text = []
                yield "ag", "\n".join(body)
                last_code = True
            else:
                yield "expected", "\n".join(body) + "\n"
                last_code = False
            continue
        if line.strip():
            last_code = False
        text.append(line)
    if text:
        yield "text", text


def build(markdown):
    nb = new_notebook()
    nb.metadata = {
        "kernelspec": {"name": "ag", "display_name": "Ag", "language": "ag"},
        "language_info": {"name": "ag", "file_extension": ".ag", "mimetype": "text/x-ag"},
    }
    for kind, body in blocks(markdown):
        if kind == "text":
            source = "\n".join(body).strip("\n")
            if source:
                nb.cells.append(new_markdown_cell(source))
        elif kind == "ag":
            nb.cells.append(new_code_cell(body, metadata={"ag": {"expected": None}}))
        else:
            nb.cells[-1].metadata["ag"]["expected"] = body
    return nb


def execute(nb, workdir):
    from nbclient import NotebookClient
    client = NotebookClient(nb, kernel_name="ag", timeout=120,
                            resources={"metadata": {"path": workdir}})
    client.execute()
    return nb


def main(argv):
    run = "--execute" in argv
    args = [a for a in argv if a != "--execute"]
    if len(args) != 2:
        sys.exit(__doc__)
    with open(args[0], encoding="utf-8") as f:
        nb = build(f.read())
    if run:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["TMPDIR"] = tmp  # plot.show() files of the run
            execute(nb, tmp)
    tmp_path = args[1] + ".tmp"
    with open(tmp_path, "w", encoding="utf-8") as f:
        nbformat.write(nb, f)
    os.replace(tmp_path, args[1])


if __name__ == "__main__":
    main(sys.argv[1:])
