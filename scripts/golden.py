#!/usr/bin/env python3
"""golden.py - the golden regression check of reproduce's simulated numbers.

  golden.py check  SCHEDLAB GOLDEN [EXPERIMENT...]
                                     compare a fresh run with GOLDEN (only the
                                     experiments named, if any: a quick look)
  golden.py update SCHEDLAB GOLDEN   rewrite GOLDEN from a fresh run (make golden)

Runs `SCHEDLAB reproduce -o json` (every built-in experiment, default seeds
and repetitions) and reduces it to one line per number: per cell, the
simulated median, the derived value (speed-ups, geometric means), the
compare machine's median, and the miss flag; per experiment, the
scoreboard's counts.  The run is deterministic (each repetition's seed is
fixed, results do not depend on the thread that ran them), so the numbers
are compared to a relative 1e-9: what moves a result moves a line, and the
change has to be acknowledged by `make golden` in the same commit.  The
output ends "golden: N passed, N failed" (tests/run.sh counts it).
"""
import json
import math
import subprocess
import sys

REL_TOL = 1e-9
MAX_SHOWN = 25


def num(x):
    return '%.12g' % x


def table(doc):
    """Ordered (key, value) pairs; key is tab-separated, value a string."""
    out = []
    for e in doc['experiments']:
        name = e['name']
        for ri, row in enumerate(e['rows']):
            for cell in row.get('cells', []):
                key = '%s\t%d:%s\t%s' % (name, ri, row.get('label', ''), cell.get('column', ''))
                sim = cell.get('simulated')
                if isinstance(sim, dict) and 'median' in sim:
                    out.append((key + '\tmedian', num(sim['median'])))
                if isinstance(cell.get('value'), (int, float)):
                    out.append((key + '\tvalue', num(cell['value'])))
                cmp_ = cell.get('compare')
                if isinstance(cmp_, dict) and 'median' in cmp_:
                    out.append((key + '\tcompare_median', num(cmp_['median'])))
                if 'miss' in cell:
                    out.append((key + '\tmiss', 'true' if cell['miss'] else 'false'))
    for s in doc.get('scoreboard', {}).get('experiments', []):
        out.append(('%s\tscoreboard\t-\twithin' % s['name'],
                    '%d/%d' % (s['within'], s['published'])))
    return out


def run(schedlab, names):
    p = subprocess.run([schedlab, 'reproduce'] + names + ['-o', 'json'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        sys.exit('golden: %s reproduce -o json exited %d' % (schedlab, p.returncode))
    return table(json.loads(p.stdout))


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            parts = line.rstrip('\n').split('\t')
            rows.append(('\t'.join(parts[:-1]), parts[-1]))
    return rows


def same(a, b):
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return abs(x - y) <= REL_TOL * max(abs(x), abs(y), 1e-300)


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ('check', 'update') or \
       (sys.argv[1] == 'update' and len(sys.argv) > 4):
        sys.exit(__doc__.split('\n\n')[1])
    mode, schedlab, golden = sys.argv[1:4]
    names = sys.argv[4:]
    got = run(schedlab, names)
    if mode == 'update':
        with open(golden, 'w') as f:
            f.write('# schedlab reproduce: simulated medians, derived values and misses of\n'
                    '# every built-in experiment (scripts/golden.py).  Regenerate with\n'
                    '# `make golden` and commit it with the change that moved the results,\n'
                    '# saying why in the message.\n'
                    '# experiment\trow\tcolumn\tfield\tvalue\n')
            for k, v in got:
                f.write('%s\t%s\n' % (k, v))
        print('golden: wrote %d values to %s' % (len(got), golden))
        return
    want = dict((k, v) for k, v in load(golden) if not names or k.split('\t')[0] in names)
    have = dict(got)
    bad = []
    for k, v in want.items():
        if k not in have:
            bad.append('missing from the run: %s (golden %s)' % (k.replace('\t', ' | '), v))
        elif not same(v, have[k]):
            bad.append('%s: golden %s, now %s' % (k.replace('\t', ' | '), v, have[k]))
    for k, v in got:
        if k not in want:
            bad.append('not in the golden file: %s = %s' % (k.replace('\t', ' | '), v))
    for line in bad[:MAX_SHOWN]:
        print('FAIL golden: ' + line)
    if len(bad) > MAX_SHOWN:
        print('FAIL golden: ... and %d more' % (len(bad) - MAX_SHOWN))
    if bad:
        print('golden: results moved; if that is intended, run `make golden` and commit '
              'tests/golden/reproduce.tsv with the reason')
    print('golden: %d passed, %d failed' % (len(want) - len([k for k in want if k not in have
                                                            or not same(want[k], have[k])]),
                                           len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
