#!/usr/bin/env python3
"""Teeko's values from drop16's tables beside GamesmanOne's database, position by position.

Draws --count positions by random play from the empty board (a length drawn uniformly from 0 to
--plies, the game's end stopping it sooner, so both phases are met), answers each from drop16's
tables (the Python module, drop16py.Tables) and from GamesmanOne's database
(bench/teeko/gamesman-query.sh), and prints one JSON line: how many were compared, how many of
each value, and every disagreement (value, or distance where one side wins; GamesmanOne gives a
draw remoteness 0 and drop16 none, so draws compare by value). Exit 1 on any disagreement.

  PYTHONPATH=build/python bench/teeko/compare.py --tables DIR [--count 300] [--seed 1]
      [--variant teeko|teeko:advanced]   (GamesmanOne's Teeko variant 0 or 1)
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys

import drop16py


def play(fen, move):
    """The FEN after a legal move ("c3" a drop, "c3d4" a step): the moves come from drop16py."""
    board, side = fen.split()
    rows = [list(''.join('.' * int(c) if c.isdigit() else c for c in r)) for r in board.split('/')]
    cell = lambda sq: (5 - int(sq[1]), ord(sq[0]) - ord('a'))  # (row from the top, file)
    if len(move) == 4:
        r, f = cell(move[:2])
        rows[r][f] = '.'
    r, f = cell(move[-2:])
    rows[r][f] = 'X' if side == 'x' else 'O'
    text = '/'.join(''.join(row) for row in rows)
    for n in range(5, 0, -1):
        text = text.replace('.' * n, str(n))
    return text + (' o' if side == 'x' else ' x')


def sample(variant, count, plies, seed):
    rng = random.Random(seed)
    seen, out = set(), []
    while len(out) < count:
        fen = '5/5/5/5/5 x'
        for _ in range(rng.randint(0, plies)):
            moves = drop16py.moves(variant, fen)
            if not moves:
                break
            fen = play(fen, rng.choice(moves))
        if fen not in seen:
            seen.add(fen)
            out.append(fen)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--tables', required=True)
    ap.add_argument('--count', type=int, default=300)
    ap.add_argument('--plies', type=int, default=60)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--variant', choices=['teeko', 'teeko:advanced'], default='teeko')
    a = ap.parse_args()
    fens = sample(a.variant, a.count, a.plies, a.seed)
    tables = drop16py.Tables(a.tables)
    ours = {f: tables.probe(f) for f in fens}
    query = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gamesman-query.sh')
    gamesman_variant = '1' if a.variant == 'teeko:advanced' else '0'
    r = subprocess.run([query, '--variant', gamesman_variant], input='\n'.join(fens) + '\n', capture_output=True, text=True)
    theirs = {}
    for line in r.stdout.splitlines():
        fen, value, remoteness = line.split('\t')
        theirs[fen] = (value, remoteness)
    values, differ = collections.Counter(), []
    for f in fens:
        o, (value, remoteness) = ours[f], theirs.get(f, ('missing', ''))
        values[o['value']] += 1
        same = o['value'] == value and (value == 'draw' or str(o['dte']) == remoteness)
        if not same:
            differ.append({'fen': f, 'drop16': [o['value'], o['dte']],
                           'gamesman': [value, remoteness]})
    print(json.dumps({'compared': len(fens), 'values': values, 'disagreements': len(differ),
                      'first_disagreements': differ[:10], 'seed': a.seed,
                      'variant': a.variant}))
    sys.exit(1 if differ else 0)


if __name__ == '__main__':
    main()
