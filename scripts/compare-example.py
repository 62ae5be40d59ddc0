#!/usr/bin/env python3
"""compare-example.py [SCHEDLAB] [--write] - docs/report.md's example of
`schedlab compare`: three policies' saved runs of one small kernbench, the
commands and what compare prints of them, from the current build (make
docs), so that the page never shows numbers the code does not produce.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_blocks import code_block, table_main  # noqa: E402

W = "kernbench:jobs=2,size=4,units=40"
RUNS = [("o1.json", "o1:version=2.5.33"), ("ht.json", "ht"), ("sl.json", "sl")]
COMPARE = ["o1.json", "ht.json", "sl.json", "--metric", "elapsed_s", "--metric", "ctx_switches"]


def example(schedlab):
    schedlab = os.path.abspath(schedlab)
    lines = ["$ W=%s" % W]
    with tempfile.TemporaryDirectory() as tmp:
        for out, policy in RUNS:
            lines.append("$ schedlab run -m p4dpe-2x2ht -p %s -w $W -r 5 -o json > %s"
                         % (policy, out))
            res = subprocess.run([schedlab, "run", "-m", "p4dpe-2x2ht", "-p", policy, "-w", W,
                                  "-r", "5", "-j", "1", "-o", "json"], cwd=tmp, check=True,
                                 capture_output=True, text=True)
            with open(os.path.join(tmp, out), "w") as f:
                f.write(res.stdout)
        lines.append("$ schedlab compare " + " ".join(COMPARE))
        res = subprocess.run([schedlab, "compare"] + COMPARE, cwd=tmp, check=True,
                             capture_output=True, text=True)
    lines += [line.rstrip() for line in res.stdout.rstrip("\n").split("\n")]
    return code_block(lines)


if __name__ == "__main__":
    table_main("docs/report.md", "compare-example.py", example)
