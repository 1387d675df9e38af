"""Reading the problem section of a VIPR 1.1 file, writing it as free MPS, and comparing two
problems up to the names and order of their variables and constraints. Used by
scripts/scip-exact: the program our checker builds (`solarmy check --vipr-unsolved`'s
`-problem.vipr`) goes to exact SCIP as MPS, and the certificate SCIP writes must be about
the same problem, which only a comparison of the two problem sections can tell (viprchk
verifies a certificate against its own problem section, whatever that is).

Only what our exports use is read: integer or rational numbers, `OBJ` with a plain
objective, `RTP infeas`. Numbers are kept as Fractions (exact).

Also builds viprchk, the format's reference checker, for scripts/vipr-check and
scripts/scip-exact alike ([viprchk])."""
import os, subprocess, sys
from fractions import Fraction


def viprchk(root):
    """viprchk built from its C++ source ($VIPRCHK_SOURCE, else tests/vipr/viprchk.cpp) into
    ROOT/target/, rebuilt when the source is newer; exits with a line saying why when it
    cannot be."""
    source = os.environ.get("VIPRCHK_SOURCE") or os.path.join(root, "tests", "vipr", "viprchk.cpp")
    if not os.path.exists(source):
        sys.exit(f"viprchk: no source at {source} (set VIPRCHK_SOURCE or --viprchk)")
    exe = os.path.join(root, "target", "viprchk")
    if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(source):
        return exe
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    p = subprocess.run(["g++", "-O2", "-std=c++17", "-o", exe + ".tmp", source, "-lgmpxx",
                        "-lgmp"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("viprchk: g++ could not build it (run scripts/setup): " + p.stderr)
    os.replace(exe + ".tmp", exe)
    return exe


def _tokens(path):
    """The file's words, comment lines (a '%' as the first word) left out. Reads until the
    `DER` section's header: a certificate's derivations can be gigabytes."""
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("%"):
                continue
            for w in words:
                yield w
            if words[0] == "DER":
                return


def read(path):
    """The problem of a VIPR file: {'vars': [names], 'int': set of indices, 'obj': (sense,
    {j: a}), 'cons': [(name, sense, rhs, {j: a})], 'bounds': how many of 'cons' come first
    as bounds, 'rtp': words}."""
    t = _tokens(path)
    nxt = lambda: next(t)
    p = {"vars": [], "int": set(), "obj": None, "cons": [], "bounds": 0, "rtp": None}
    for section in t:
        if section == "VER":
            nxt()
        elif section == "VAR":
            p["vars"] = [nxt() for _ in range(int(nxt()))]
        elif section == "INT":
            p["int"] = {int(nxt()) for _ in range(int(nxt()))}
        elif section == "OBJ":
            sense = nxt()
            p["obj"] = (sense, _terms(nxt))
        elif section == "CON":
            m, p["bounds"] = int(nxt()), int(nxt())
            for _ in range(m):
                name, sense, rhs = nxt(), nxt(), Fraction(nxt())
                p["cons"].append((name, sense, rhs, _terms(nxt)))
        elif section == "RTP":
            kind = nxt()
            p["rtp"] = [kind] if kind == "infeas" else [kind, nxt(), nxt()]
        elif section == "SOL":
            for _ in range(int(nxt())):
                nxt()
                _terms(nxt)
        elif section == "DER":
            break
    return p


def _terms(nxt):
    """`p i1 a1 … ip ap` (or `OBJ`, which our files never use in a constraint)."""
    w = nxt()
    if w == "OBJ":
        raise ValueError("a constraint that names OBJ is not supported")
    out = {}
    for _ in range(int(w)):
        j = int(nxt())
        out[j] = out.get(j, 0) + Fraction(nxt())
    return {j: a for j, a in out.items() if a != 0}


def _num(x):
    return str(x.numerator) if x.denominator == 1 else repr(float(x))


def bounds_of(p):
    """Each variable's (lower, upper) from the single-variable constraints (None: none)."""
    lo, hi = [None] * len(p["vars"]), [None] * len(p["vars"])
    for name, sense, rhs, terms in p["cons"]:
        if len(terms) != 1:
            continue
        (j, a), = terms.items()
        v = rhs / a
        # a·x <= rhs bounds x from above when a > 0, from below when a < 0; E both ways.
        upper = sense == "E" or (sense == "L") == (a > 0)
        lower = sense == "E" or (sense == "G") == (a > 0)
        if upper:
            hi[j] = v if hi[j] is None else min(hi[j], v)
        if lower:
            lo[j] = v if lo[j] is None else max(lo[j], v)
    return lo, hi


def to_mps(p, name):
    """Free MPS text of the problem: the bound constraints (the first `bounds` ones, each
    on one variable) as BOUNDS with both sides written (MPS's defaults differ between
    readers for integer columns), the others as rows; the objective zero when it is."""
    for c in p["cons"]:
        if any(x.denominator != 1 for x in [c[2], *c[3].values()]):
            raise ValueError(f"{c[0]}: fractions are not written to MPS here")
    n = len(p["vars"])
    lo, hi = [None] * n, [None] * n
    for _, sense, rhs, terms in p["cons"][: p["bounds"]]:
        (j, a), = terms.items()
        if a != 1:
            raise ValueError("a bound constraint with a coefficient other than 1")
        if sense in "GE":
            lo[j] = rhs
        if sense in "LE":
            hi[j] = rhs
    rows = p["cons"][p["bounds"]:]
    cols = [[] for _ in range(n)]
    for name_, _, _, terms in rows:
        for j, a in terms.items():
            cols[j].append((name_, a))
    obj = p["obj"][1] if p["obj"] else {}
    out = [f"NAME {name}", "ROWS", " N obj"]
    out += [f" {s} {r}" for r, s, _, _ in rows]
    out.append("COLUMNS")
    marker = False
    for j, v in enumerate(p["vars"]):
        want = j in p["int"]
        if want != marker:
            out.append(f" M{j} 'MARKER' '{'INTORG' if want else 'INTEND'}'")
            marker = want
        entries = ([("obj", obj[j])] if j in obj else []) + cols[j]
        if not entries:
            entries = [("obj", 0)]
        out += [f" {v} {r} {_num(a)}" for r, a in entries]
    if marker:
        out.append(" MEND 'MARKER' 'INTEND'")
    out.append("RHS")
    out += [f" rhs {r} {_num(b)}" for r, _, b, _ in rows if b != 0]
    out.append("BOUNDS")
    for j, v in enumerate(p["vars"]):
        if lo[j] is None:
            out.append(f" MI bnd {v}")
        else:
            out.append(f" LO bnd {v} {_num(lo[j])}")
        out.append(f" PL bnd {v}" if hi[j] is None else f" UP bnd {v} {_num(hi[j])}")
    out.append("ENDATA")
    return "\n".join(out) + "\n"


def canonical(p):
    """The problem with names instead of indices and its constraints as a sorted list, bounds
    folded into one (lower, upper) per variable: two files of the same problem written in
    another order, or with bounds written as rows, give the same value. Each row is scaled
    so that it reads the same whichever side it was written from (G rows as -L)."""
    lo, hi = bounds_of(p)
    vars_ = p["vars"]
    bounds = {vars_[j]: (lo[j], hi[j], j in p["int"]) for j in range(len(vars_))}
    rows = []
    for name, sense, rhs, terms in p["cons"]:
        if len(terms) <= 1:
            continue  # bounds (already folded) and empty rows
        t = tuple(sorted((vars_[j], a) for j, a in terms.items()))
        if sense == "G" or (sense == "E" and t[0][1] < 0):
            t, rhs = tuple((v, -a) for v, a in t), -rhs
            sense = "L" if sense == "G" else "E"
        rows.append((sense, t, rhs))
    return bounds, sorted(rows)


def same_problem(a, b):
    """Whether two read problems are the same up to names' order: (True, '') or (False, why).
    SCIP names the transformed problem's variables t_<name>: that prefix is taken off `b`'s
    names when every one has it and `a`'s do not."""
    if all(v.startswith("t_") for v in b["vars"]) and not all(v.startswith("t_") for v in a["vars"]):
        b = dict(b, vars=[v[2:] for v in b["vars"]])
    ba, ra = canonical(a)
    bb, rb = canonical(b)
    if set(ba) != set(bb):
        only = sorted(set(ba) ^ set(bb))[:3]
        return False, f"variables differ ({len(ba)} and {len(bb)}; e.g. {only})"
    diff = [v for v in ba if ba[v] != bb[v]]
    if diff:
        v = diff[0]
        return False, f"{len(diff)} variables' bounds or integrality differ, e.g. {v}: {ba[v]} and {bb[v]}"
    if ra != rb:
        return False, f"rows differ ({len(ra)} and {len(rb)})"
    return True, ""
