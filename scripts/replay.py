#!/usr/bin/env python3
"""An independent replay of solarmy's CSV files, sharing no code with the Rust checker.

usage: replay.py MODEL LEVEL ARMY_CSV PLAY_CSV
       replay.py --board MODEL VACANCY FINISH PLAY_CSV
MODEL is a bundled army's name (conway, skew, diagonal, hexagonal, pablito: read from
models/NAME.toml) or the path of any model file (TOML, schema in models/README.md); this
script reads the file itself with Python's tomllib. Coordinates in the CSV files put the
target at the origin, with one column per dimension (x,y or x,y,z).
A board model (start kind "board") takes the second form: VACANCY and FINISH are x,y; the
start is every hole of the model but the vacancy (computed here, not read), and the play
must end with exactly one man, on the finish.
Prints 'ok MEN JUMPS' and exits 0 when the play is legal and ends on the target; exits 1
naming the first illegal jump or a bad model, 2 on a bad command line.
time:  under a second for any army solarmy finds.
"""
import argparse, csv, os, sys, tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AXES = "xyz"

def load(model):
    path = model if model.endswith(".toml") else os.path.join(ROOT, "models", model + ".toml")
    with open(path, "rb") as f:
        m = tomllib.load(f)
    dim = m["dimension"]
    assert dim in (2, 3), "model: dimension must be 2 or 3"
    target = tuple(m.get("target", [0] * dim))
    dirs = [tuple(d) for d in m["directions"]]
    cells = m["cells"]
    if isinstance(cells, list):
        cells = {tuple(v - t for v, t in zip(c, target)) for c in cells}
    return dim, dirs, cells, m["start"]

def is_cell(cells, c):
    if cells == "all":
        return True
    if cells == "even":
        return sum(c) % 2 == 0
    if cells == "triangle":
        return 0 <= c[0] <= c[1]
    if isinstance(cells, set):
        return c in cells
    raise AssertionError(f"model: unknown cells {cells!r}")

def in_start(start, c, level):
    kind = start["kind"]
    if kind == "half-space":
        return c[-1] >= level
    if kind == "outside":
        dist = max(map(abs, c)) if start["metric"] == "chebyshev" else sum(map(abs, c))
        return dist >= level
    raise AssertionError(f"model: start kind {kind!r} is not an army's")

def point(row, prefix, dim):
    return tuple(int(row[prefix + a]) for a in AXES[:dim])

def board_main(argv):
    if len(argv) != 4:
        sys.exit("usage: replay.py --board MODEL VACANCY FINISH PLAY_CSV")
    model, vacancy, finish, play_csv = argv
    dim, dirs, cells, start = load(model)
    assert start["kind"] == "board" and isinstance(cells, set), "model: not a board"
    v, f = (tuple(int(t) for t in a.split(",")) for a in (vacancy, finish))
    assert v in cells and f in cells, "vacancy or finish is not a hole"
    occ = cells - {v}
    jumps = list(csv.DictReader(open(play_csv)))
    for i, r in enumerate(jumps, 1):
        a, b, c = (point(r, p, dim) for p in ("from_", "over_", "to_"))
        d = tuple(q - p for p, q in zip(a, b))
        assert d in dirs and c == tuple(q + e for q, e in zip(b, d)), f"jump {i} not a jump"
        assert all(p in cells for p in (a, b, c)), f"jump {i} leaves the board"
        assert a in occ and b in occ and c not in occ, f"jump {i} illegal"
        occ -= {a, b}
        occ.add(c)
    assert occ == {f}, f"the play ends with {len(occ)} men, not one on the finish"
    print(f"ok {len(cells) - 1} {len(jumps)}")

def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--board":
        return board_main(sys.argv[2:])
    ap = argparse.ArgumentParser(prog="replay.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("level", type=int)
    ap.add_argument("army_csv")
    ap.add_argument("play_csv")
    a = ap.parse_args()
    level, army_csv, play_csv = a.level, a.army_csv, a.play_csv
    dim, dirs, cells, start = load(a.model)
    men = [point(r, "", dim) for r in csv.DictReader(open(army_csv))]
    occ = set(men)
    assert len(occ) == len(men), "duplicate men"
    for c in men:
        assert in_start(start, c, level) and is_cell(cells, c), f"bad start cell {c}"
    jumps = list(csv.DictReader(open(play_csv)))
    for i, r in enumerate(jumps, 1):
        a, b, c = (point(r, p, dim) for p in ("from_", "over_", "to_"))
        d = tuple(q - p for p, q in zip(a, b))
        assert d in dirs and c == tuple(q + e for q, e in zip(b, d)), f"jump {i} not a jump"
        assert all(is_cell(cells, p) for p in (a, b, c)), f"jump {i} leaves the board"
        assert a in occ and b in occ and c not in occ, f"jump {i} illegal"
        occ -= {a, b}
        occ.add(c)
    assert (0,) * dim in occ, "target not reached"
    print(f"ok {len(men)} {len(jumps)}")

if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        sys.exit(f"replay.py: {e}")
    except (OSError, ValueError, KeyError, TypeError, tomllib.TOMLDecodeError) as e:
        sys.exit(f"replay.py: unreadable input: {e}")
