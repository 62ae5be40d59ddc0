#!/usr/bin/env python3
"""experiment-example.py [SCHEDLAB] [--write] - docs/experiments.md's
example output: the experiment file between the page's example markers
(the text tests/cli/test_sweep.sh runs) given to `schedlab reproduce`, its
table's first rows, from the current build (make docs).
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_blocks import code_block, table_main  # noqa: E402

PAGE = "docs/experiments.md"
ROWS = 2	# of the table's rows shown, then "..."


def example(schedlab):
    text = open(PAGE).read()
    m = re.search(r"<!-- example:begin -->\n```json\n(.*?)```\n<!-- example:end -->", text, re.S)
    if not m:
        sys.exit("experiment-example.py: %s has no example between its markers" % PAGE)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "example.json")
        with open(path, "w") as f:
            f.write(m.group(1))
        out = subprocess.run([os.path.abspath(schedlab), "reproduce", "example.json", "-j", "1"],
                             cwd=tmp, check=True, capture_output=True, text=True).stdout
    lines = [line.rstrip() for line in out.split("\n")]
    head = lines.index("")	# the table starts after the first blank line
    table = lines[:head + 1]
    for line in lines[head + 1:]:
        table.append(line)
        if line.startswith("test "):
            break
    rows = [line for line in lines[len(table):] if line.strip()][:ROWS]
    shown = ["$ schedlab reproduce example.json"] + table + rows + ["..."]
    return code_block(shown)


if __name__ == "__main__":
    table_main(PAGE, "experiment-example.py", example)
