#!/usr/bin/env python3
"""The forward search per coalition (drop16 solve --max-depth) of every row's start in
results/nevsky.md's table of the starts, against the coalition retrograde's values there.

usage: scripts/nevsky-search-crosscheck.py DROP16 MAX_DEPTH SECONDS [RESULTS_MD]

Prints each row's searched values (in the table's column order) and counts: values equal, values
different (a defect), and values left undecided (a draw, which a bounded search never proves, or
a win or loss beyond the depth reached). Exit status 1 when any value differs or a win or loss
within the depth reached was missed.
"""
import json
import re
import subprocess
import sys

COLUMNS = ['W', 'R', 'G', 'B', 'W+R', 'W+G', 'W+B', 'R+G', 'R+B', 'G+B',
           'W+R+G', 'W+R+B', 'W+G+B', 'R+G+B']


def published_starts(path):
    rows = {}
    for line in open(path):
        m = re.match(r'\| `(nevsky:[^`]+)` \| ([LWD].*)\|\s*$', line)
        if m and m.group(2).count('|') == len(COLUMNS) - 1:
            rows[m.group(1)] = [c.strip() for c in m.group(2).split('|')]
    return rows


def searched(binary, variant, depth, seconds):
    out = subprocess.run([binary, 'solve', '--variant', variant, '--max-depth', depth,
                          '--time-limit', seconds, '--memory', '4', '--json'],
                         capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    by_name = {'+'.join(p[0].upper() for p in c['players']):
               '?' if c['value'] == 'unknown' else c['value'][0].upper() + str(c['distance'])
               for c in j['coalitions']}
    return [by_name[n] for n in COLUMNS], j['search']['depth']


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    binary, depth, seconds = sys.argv[1:4]
    rows = published_starts(sys.argv[4] if len(sys.argv) == 5 else 'results/nevsky.md')
    equal = different = undecided = 0
    for variant, published in rows.items():
        got, reached = searched(binary, variant, depth, seconds)
        print(variant, 'depth', reached, ' '.join(got), flush=True)
        for g, p in zip(got, published):
            if g == p:
                equal += 1
            elif g == '?' and (p == 'D' or int(p[1:]) > reached):
                undecided += 1
            else:
                different += 1
                print('  differs:', variant, 'searched', g, 'published', p)
    print(f'{len(rows)} rows: {equal} equal, {different} different, {undecided} undecided')
    sys.exit(1 if different else 0)


if __name__ == '__main__':
    main()
