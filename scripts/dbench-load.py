#!/usr/bin/env python3
"""dbench-load.py - count, from dbench 2.0's client_oplocks.txt, the numbers
src/workload/dbench.c takes from it (docs/workloads.md, dbench).

usage: scripts/dbench-load.py client_oplocks.txt

The load file is dbench's (github.com/sahlberg/dbench, client_oplocks.txt as of
4 Feb 2002, "nicer cleanup code": 62,477 lines).  It is not shipped here.

The client replays it in its own directory.  A file's *lifetime* runs from its
first create to the Unlink or Rename that removes its name; the load's last
lines (Unlink and Rmdir only) are dbench's clean-up and end no lifetime, so a
file alive there is *kept*.  Pages are 4 KB.  Printed:

  fresh kept   bytes of first writes to kept files' pages, and the line by
               which 99 % of them are written (the load's opening phase);
               how many kept files are written, and their mean size;
  hot kept     bytes of rewrites of kept pages, and how many distinct pages
               take them;
  temporary    bytes written to files whose lifetime ends before the
               clean-up, their distinct pages, and the lifetimes that end;
  read set     bytes read and the distinct pages they come from.
"""
import sys

PAGE = 4096


def pages(off, size):
    return range(off // PAGE, (off + size - 1) // PAGE + 1)


def live_temp_by_line(lines, io, kept, end):
    """Distinct written pages of live temporary files after each line."""
    by_line = {}
    for i, op, fid, off, size in io:
        if op == "WriteX" and fid not in kept:
            by_line.setdefault(i, []).append((fid, off, size))
    pages_of, live, out = {}, 0, []
    handle, life, lifetimes = {}, {}, 0
    for i, line in enumerate(lines):
        f = line.split(" ")
        if f[0] == "NTCreateX" and f[1] not in life:
            life[f[1]] = lifetimes
            lifetimes += 1
        elif f[0] == "Unlink" and i < end and f[1] in life:
            live -= len(pages_of.pop(life.pop(f[1]), ()))
        elif f[0] == "Rename" and i < end and f[1] in life:
            if f[2] in life:
                live -= len(pages_of.pop(life.pop(f[2]), ()))
            life[f[2]] = life.pop(f[1])
        for fid, off, size in by_line.get(i, ()):
            s = pages_of.setdefault(fid, set())
            before = len(s)
            s.update(pages(off, size))
            live += len(s) - before
        out.append(live * PAGE)
    return out


def count(lines):
    end = max(i for i, l in enumerate(lines) if not l.startswith(("Unlink", "Rmdir"))) + 1
    handle, life = {}, {}       # open handle -> lifetime; name -> lifetime
    ended, lifetimes, io = set(), 0, []
    for i, line in enumerate(lines):
        f = line.split(" ")
        op = f[0]
        if op == "NTCreateX":
            if f[1] not in life:
                life[f[1]] = lifetimes
                lifetimes += 1
            if f[-1] != "-1":
                handle[f[-1]] = life[f[1]]
        elif op in ("WriteX", "ReadX"):
            size = int(f[4])
            if size > 0:
                io.append((i, op, handle[f[1]], int(f[2]), size))
        elif op == "Unlink" and i < end and f[1] in life:
            ended.add(life.pop(f[1]))
        elif op == "Rename" and i < end and f[1] in life:
            if f[2] in life:
                ended.add(life.pop(f[2]))
            life[f[2]] = life.pop(f[1])
    kept = set(life.values())

    live_temp = live_temp_by_line(lines, io, kept, end)
    written, hot, temp_pages, read_pages = set(), set(), set(), set()
    fresh = rewrite = temp = read = 0
    fresh_by_line = []
    for i, op, fid, off, size in io:
        ps = [(fid, p) for p in pages(off, size)]
        if op == "ReadX":
            read += size
            read_pages.update(ps)
        elif fid in kept:
            new = [p for p in ps if p not in written]
            share = len(new) / len(ps)
            fresh += share * size
            rewrite += (1 - share) * size
            hot.update(p for p in ps if p in written)
            written.update(ps)
            fresh_by_line.append((i + 1, fresh))
        else:
            temp += size
            temp_pages.update(ps)
    opening = next(i for i, f in fresh_by_line if f >= 0.99 * fresh)
    steady = live_temp[opening:end]
    return {
        "lines": len(lines), "clean-up from line": end + 1,
        "fresh kept MB": fresh / 1e6, "99 % of it by line": opening,
        "kept files written": len({fid for fid, p in written}),
        "kept file mean KB": fresh / len({fid for fid, p in written}) / 1e3,
        "hot kept rewrites MB": rewrite / 1e6, "hot kept pages MB": len(hot) * PAGE / 1e6,
        "temporary writes MB": temp / 1e6, "temporary pages MB": len(temp_pages) * PAGE / 1e6,
        "temporary lifetimes ended": len(ended),
        "temporary live MB (mean)": sum(steady) / len(steady) / 1e6,
        "temporary live MB (max)": max(steady) / 1e6,
        "reads MB": read / 1e6, "read set MB": len(read_pages) * PAGE / 1e6,
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: dbench-load.py client_oplocks.txt")
    with open(sys.argv[1]) as fh:
        lines = [l.rstrip("\n") for l in fh if l.strip()]
    for k, v in count(lines).items():
        print(f"{k:28s} {v:.2f}" if isinstance(v, float) else f"{k:28s} {v}")


if __name__ == "__main__":
    main()
