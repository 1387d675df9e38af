#!/usr/bin/env python3
"""An independent replay of solarmy's CSV files, sharing no code with the Rust checker.

usage: replay.py ARMY LEVEL ARMY_CSV PLAY_CSV
Prints 'ok MEN JUMPS' and exits 0 when the play is legal and ends on the target (0,0);
exits 1 naming the first illegal jump, 2 on a bad command line.
time:  under a second for any army solarmy finds.
"""
import argparse, csv, sys

DIRS = {
    "conway": [(1, 0), (-1, 0), (0, 1), (0, -1)],
    "skew": [(1, 1), (-1, -1), (1, -1), (-1, 1)],
    "diagonal": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)],
    "hexagonal": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)],
    "pablito": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)],
}

def on_board(army, c):
    x, y = c
    if army == "skew":
        return (x + y) % 2 == 0
    if army == "pablito":
        return 0 <= x <= y
    return True

def main():
    ap = argparse.ArgumentParser(prog="replay.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("army", choices=sorted(DIRS))
    ap.add_argument("level", type=int)
    ap.add_argument("army_csv")
    ap.add_argument("play_csv")
    a = ap.parse_args()
    army, level, army_csv, play_csv = a.army, a.level, a.army_csv, a.play_csv
    men = [(int(r["x"]), int(r["y"])) for r in csv.DictReader(open(army_csv))]
    occ = set(men)
    assert len(occ) == len(men), "duplicate men"
    for c in men:
        assert c[1] >= level and on_board(army, c), f"bad start cell {c}"
    jumps = list(csv.DictReader(open(play_csv)))
    for i, r in enumerate(jumps, 1):
        a = (int(r["from_x"]), int(r["from_y"]))
        b = (int(r["over_x"]), int(r["over_y"]))
        c = (int(r["to_x"]), int(r["to_y"]))
        d = (b[0] - a[0], b[1] - a[1])
        assert d in DIRS[army] and c == (b[0] + d[0], b[1] + d[1]), f"jump {i} not a jump"
        assert all(on_board(army, p) for p in (a, b, c)), f"jump {i} leaves the board"
        assert a in occ and b in occ and c not in occ, f"jump {i} illegal"
        occ -= {a, b}
        occ.add(c)
    assert (0, 0) in occ, "target not reached"
    print(f"ok {len(men)} {len(jumps)}")

if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        sys.exit(f"replay.py: {e}")
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"replay.py: unreadable input: {e}")
