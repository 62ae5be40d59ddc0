"""doc_blocks.py - rewrite a generated block of a Markdown page in place.

A block sits between two HTML comments (invisible when the page is
rendered), each on a line of its own and indented as the block is:

  <!-- SCRIPT NAME -->
  ... generated lines ...
  <!-- end SCRIPT -->

The scripts that regenerate the docs' tables and examples (seed-tables.py,
schedbench-tables.py, sl-table.py, roundtrip-table.py, compare-example.py,
experiment-example.py) write through replace_block, so that the prose
around a table is kept and the table is never typed by hand, and read
schedlab's runs through run_metrics.
"""
import csv
import io
import re
import subprocess
import sys


def run_metrics(schedlab, machine, policy, workload, reps):
    """`schedlab run -o csv` of one cell: {metric: [value per seed]}, one
    value per repetition of every metric (exit otherwise)."""
    out = subprocess.run([schedlab, "run", "-m", machine, "-p", policy, "-w", workload,
                          "-r", str(reps), "-j", "1", "-o", "csv"],
                         check=True, capture_output=True, text=True).stdout
    vals = {}
    for r in csv.DictReader(io.StringIO(out)):
        vals.setdefault(r["metric"], []).append(float(r["value"]))
    for m, v in vals.items():
        if len(v) != reps:
            sys.exit("%s on %s under %s: %d values of %s, expected %d" % (workload, machine, policy,
                                                                         len(v), m, reps))
    return vals


def replace_block(path, script, name, lines):
    """Replace the block `script name` of the page at `path` by `lines`
    (without newlines), indented as its opening marker; exit if the page
    has no such block."""
    text = open(path).read()
    head = "<!-- %s%s -->" % (script, " " + name if name else "")
    pat = re.compile(r"^([ \t]*)%s\n.*?^[ \t]*<!-- end %s -->$" % (re.escape(head),
                                                                 re.escape(script)),
                     re.S | re.M)
    m = pat.search(text)
    if not m:
        sys.exit("%s: %s has no block '%s'" % (script, path, head))
    indent = m.group(1)
    body = "".join(indent + line + "\n" for line in lines)
    new = "%s%s\n%s%s<!-- end %s -->" % (indent, head, body, indent, script)
    open(path, "w").write(text[:m.start()] + new + text[m.end():])
    print("%s: %s: %s regenerated" % (script, path, head), file=sys.stderr)


def code_block(lines):
    """`lines` as an indented code block for replace_block: a blank line on
    each side keeps the markers outside it."""
    return [""] + [("    " + line).rstrip() for line in lines] + [""]


def table_main(page, script, table):
    """The command line of a script that regenerates one unnamed block:
    `SCRIPT [SCHEDLAB] [--write]` prints table(SCHEDLAB)'s lines, or with
    --write puts them in `page` (replace_block)."""
    args = [a for a in sys.argv[1:] if a != "--write"]
    schedlab = args[0] if args else "./schedlab"
    lines = table(schedlab)
    if "--write" in sys.argv[1:]:
        replace_block(page, script, "", lines)
    else:
        print("\n".join(lines))
