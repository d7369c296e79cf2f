"""drop16py against the drop16 command: the same tables solved by the command, the module's
answers compared with the command's JSON (perft --json, moves --json, query --json), and the
errors the module promises (ValueError for bad input, RuntimeError naming a damaged file).

Run by ctest (test python_module) with PYTHONPATH at the module's build directory and DROP16 the
binary; by hand: PYTHONPATH=build/python DROP16=build/drop16 python3 -m pytest -q python/
"""

import itertools
import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import drop16py

DROP16 = os.environ.get("DROP16", str(Path(__file__).resolve().parents[1] / "build" / "drop16"))
DROP = "3x3:NBK"
ROW = "spock:3x3:RK/rk"
ANALYSIS_KEYS = ("variant", "fen", "value", "dte", "moves")


def drop16(*args):
    """Runs the command, returns its JSON; it must succeed."""
    run = subprocess.run([DROP16, *args, "--json"], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def query(tables, fen):
    j = drop16("query", "--tables", str(tables), "--fen", fen)
    return {k: j[k] for k in ANALYSIS_KEYS}


@pytest.fixture(scope="session")
def drop_tables(tmp_path_factory):
    d = tmp_path_factory.mktemp("drop") / "tables"
    drop16("solve", "--variant", DROP, "--tables", str(d), "--quiet", "--threads", "1")
    return d


@pytest.fixture(scope="session")
def spock_tables(tmp_path_factory):
    d = tmp_path_factory.mktemp("spock") / "tables"
    drop16("solve", "--variant", ROW, "--tables", str(d), "--quiet", "--threads", "1")
    return d


def row_placements():
    """Every placement of R, K (blue) and r, k (red) on 3x3 with either side to move, as FENs
    written here (not by the library): the row's roots."""
    for squares in itertools.permutations(range(9), 4):
        board = ["."] * 9
        for square, piece in zip(squares, "RKrk"):
            board[square] = piece
        ranks = []
        for r in range(3):
            text, empty = "", 0
            for c in board[3 * r : 3 * r + 3]:
                if c == ".":
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + c
                empty = 0
            ranks.append(text + (str(empty) if empty else ""))
        for side in "wb":
            yield "/".join(ranks) + " " + side


def drop_walk(seed, plies):
    """The FENs of a random game from 3x3:NBK's start, its moves chosen from drop16py.moves and
    played by `drop16 show` (so each FEN is the command's)."""
    rng = random.Random(seed)
    fen = drop16("show", "--variant", DROP)["fen"]
    fens = [fen]
    for _ in range(plies):
        moves = drop16py.moves(DROP, fen)
        if not moves:
            break
        fen = drop16("show", "--variant", DROP, "--fen", fen, "--moves", rng.choice(moves))["fen"]
        fens.append(fen)
    return fens


# --- perft and moves ---

PERFT_CASES = [
    ("drop16", None, 2),
    (DROP, None, 4),
    (DROP, "3/1N1/3[BKnbk] b", 3),
    ("4x4:NBRK", None, 2),
    ("spock", None, 3),
    ("spock", "k1r/3/R1K w", 5),
    (ROW, "k1r/3/R1K b", 4),
    ("rookrace:4x4:2", None, 4),
    ("rookrace", "R6P/8/8/8/8/8/8/7r [6,8] [2,-] b", 2),
    ("nevsky:4x4:1", None, 4),
    ("nevsky:4x4:1", "4/1g2/r2b/w3 w", 3),
]


@pytest.mark.parametrize("variant,fen,depth", PERFT_CASES)
def test_perft_matches_the_command(variant, fen, depth):
    args = ["perft", "--variant", variant, "--quiet"] + (["--fen", fen] if fen else [])
    for d in range(depth + 1):
        assert drop16py.perft(variant, fen, depth=d) == drop16(*args, "--depth", str(d))["nodes"]


@pytest.mark.parametrize("variant,fen,depth", PERFT_CASES)
def test_moves_match_the_command_and_perft_1(variant, fen, depth):
    moves = drop16py.moves(variant, fen)
    args = ["moves", "--variant", variant] + (["--fen", fen] if fen else [])
    assert moves == drop16(*args)["moves"]
    assert len(moves) == drop16py.perft(variant, fen, depth=1)


# --- values per coalition (Nevsky checkers) ---

NEVSKY = "nevsky:3x3:1"


def solved_coalitions(fen, plies):
    """Every coalition's value at fen as `drop16 solve` gives it, `plies` added to distances."""
    j = drop16("solve", "--variant", NEVSKY, "--fen", fen, "--quiet")
    return {
        c["coalition"]: (c["value"], None if c["distance"] is None else c["distance"] + plies)
        for c in j["coalitions"]
    }


def listed_coalitions(values):
    return {c["coalition"]: (c["value"], c["distance"]) for c in values}


def test_coalition_values_match_the_solve_command():
    c = drop16py.Coalitions(NEVSKY)
    assert c.variant == NEVSKY
    fen = drop16("moves", "--variant", NEVSKY)["fen"]
    for _ in range(3):
        a = c.analyze(fen)
        assert a["fen"] == fen and a["family"] == "values per coalition"
        assert len(a["coalitions"]) == 14
        assert listed_coalitions(a["coalitions"]) == solved_coalitions(fen, 0)
        assert [m["move"] for m in a["moves"]] == drop16py.moves(NEVSKY, fen)
        for m in a["moves"]:
            child = drop16("moves", "--variant", NEVSKY, "--fen", fen, "--moves", m["move"])["fen"]
            assert m["fen"] == child
            assert listed_coalitions(m["coalitions"]) == solved_coalitions(child, 1)
        if not a["moves"]:
            break
        fen = a["moves"][-1]["fen"]
    assert c.analyze()["fen"] == drop16("moves", "--variant", NEVSKY)["fen"]


@pytest.mark.parametrize("fmt", ["coalitions", "coalition-tiers"])
def test_coalitions_from_tables_match_the_solve_command(tmp_path, fmt):
    tables = str(tmp_path / "tables")
    subprocess.run([DROP16, "solve", "--variant", NEVSKY, "--format", fmt, "--tables", tables,
                    "--quiet"], check=True, stdout=subprocess.DEVNULL)
    c = drop16py.Coalitions(NEVSKY, tables=tables)
    fen = drop16("moves", "--variant", NEVSKY)["fen"]
    a = c.analyze(fen)
    assert a["source"] == "tables"
    assert listed_coalitions(a["coalitions"]) == solved_coalitions(fen, 0)
    for m in a["moves"]:
        assert listed_coalitions(m["coalitions"]) == solved_coalitions(m["fen"], 1)
    with pytest.raises(ValueError):
        drop16py.Coalitions("nevsky:3x3:1:pairs", tables=tables)


def test_coalitions_past_the_memory_cap_raise_runtime_error():
    with pytest.raises(RuntimeError):
        drop16py.Coalitions("nevsky:4x4:1", memory_mb=1)


# --- tables ---


def test_drop_tables_match_query(drop_tables):
    t = drop16py.Tables(str(drop_tables))
    assert t.variant == DROP
    fens = [f for seed in range(4) for f in drop_walk(seed, 7)]
    assert len(fens) >= 20
    for fen in fens:
        expected = query(drop_tables, fen)
        assert t.analyze(fen) == expected
        probed = t.probe(fen)
        assert probed == {k: expected[k] for k in ("variant", "fen", "value", "dte")}


def test_spock_tables_match_query(spock_tables):
    t = drop16py.Tables(str(spock_tables))
    assert t.variant == ROW
    # Every root answers; several of each value are checked against the command.
    by_value = {"win": [], "draw": [], "loss": []}
    for fen in row_placements():
        by_value[t.probe(fen)["value"]].append(fen)
    assert sum(map(len, by_value.values())) == 6048
    rng = random.Random(1)
    for value, fens in by_value.items():
        assert fens, f"no root is a {value}"
        for fen in rng.sample(fens, min(5, len(fens))):
            expected = query(spock_tables, fen)
            assert t.analyze(fen) == expected
            assert t.probe(fen) == {k: expected[k] for k in ("variant", "fen", "value", "dte")}
            assert (expected["dte"] is None) == (value == "draw")


# --- errors ---


@pytest.mark.parametrize(
    "call",
    [
        lambda: drop16py.moves("9x9:Q"),
        lambda: drop16py.moves("spock:3x3:RX/rk", "k1r/3/R1K w"),
        lambda: drop16py.moves(DROP, "not a fen"),
        lambda: drop16py.moves("spock", "k1r/3/R1K x"),
        lambda: drop16py.moves(ROW),  # a row needs a position
        lambda: drop16py.moves(ROW, "k3/4/4/3K w"),  # not the row's board
        lambda: drop16py.perft(DROP, depth=-1),
        lambda: drop16py.perft("3x3:NBK:", depth=1),
        lambda: drop16py.moves("rookrace:5x5:2"),
        lambda: drop16py.moves("rookrace:4x4:2", "3r/4/PP2/R3 [0,2] [-,-] w"),
        lambda: drop16py.Coalitions("nevsky:9x9:1"),
        lambda: drop16py.Coalitions("spock"),  # not valued per coalition
        lambda: drop16py.Coalitions(NEVSKY).analyze("4/4/4/4 w"),  # no checker
    ],
)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_tables_refuse_positions_they_do_not_hold(drop_tables, spock_tables):
    with pytest.raises(ValueError):
        drop16py.Tables(str(drop_tables)).probe("4/4/4/4[NBRKnbrk] w")  # another variant
    with pytest.raises(ValueError, match="board"):
        drop16py.Tables(str(spock_tables)).analyze("k3/4/4/3K w")
    with pytest.raises(ValueError, match="not among"):
        drop16py.Tables(str(spock_tables)).probe("kr1/3/RRK w")  # another row's material


def test_missing_tables_raise_runtime_error(tmp_path):
    with pytest.raises(RuntimeError):
        drop16py.Tables(str(tmp_path))


def flip_byte(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def test_damaged_drop_table_raises_runtime_error_naming_it(drop_tables, tmp_path):
    damaged = tmp_path / "tables"
    shutil.copytree(drop_tables, damaged)
    start = drop16("show", "--variant", DROP)["fen"]
    victim = damaged / "NBKvNBK.value"  # the start's tier
    assert victim.exists()
    flip_byte(victim)
    with pytest.raises(RuntimeError, match="NBKvNBK.value"):
        t = drop16py.Tables(str(damaged))
        for fen in [start] + [f for seed in range(4) for f in drop_walk(seed, 1)]:
            t.probe(fen)


def test_damaged_spock_table_raises_runtime_error_naming_it(spock_tables, tmp_path):
    damaged = tmp_path / "tables"
    shutil.copytree(spock_tables, damaged)
    flip_byte(damaged / "spock.wdl")
    with pytest.raises(RuntimeError, match="spock.wdl"):
        t = drop16py.Tables(str(damaged))
        for fen in row_placements():
            t.probe(fen)
