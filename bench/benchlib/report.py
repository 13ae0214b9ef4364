"""Tables and files from the suite's records: the ratio table zmpi/peer (medians), the
absolute key figures, per-size tables, results.json and results.csv."""
import csv
import json
import statistics

OPS = ["allreduce", "bcast", "alltoall", "allgather", "barrier"]
PEERS = ["ompi-sm", "ompi-tcp", "mpich", "zmq"]
KIB, MIB = 1024, 1024 * 1024


def _matching(records, *key):
    return [r for r in records if (r["mpi"], r["bench"], r["ranks"], r["op"], r["metric"]) == key]


def series(records, mpi, bench, ranks, op, metric):
    """{bytes: value} of one curve."""
    return {r["bytes"]: r["value"] for r in _matching(records, mpi, bench, ranks, op, metric)}


def values(records, mpi, bench, ranks, op, metric):
    """Every value of one measure (the samples of start-up, the ranks of memory)."""
    return [r["value"] for r in _matching(records, mpi, bench, ranks, op, metric)]


def size_label(n):
    if n is None:
        return "-"
    if n >= MIB and n % MIB == 0:
        return f"{n // MIB} MiB"
    if n >= KIB and n % KIB == 0:
        return f"{n // KIB} KiB"
    return f"{n} B"


def _curve_ratios(records, mine, peer, key, sizes):
    a, b = series(records, mine, *key), series(records, peer, *key)
    return [a[s] / b[s] for s in sorted(a) if s in b and sizes(s) and b[s] > 0]


def _scalar_ratio(records, mine, peer, key, reduce):
    a, b = values(records, mine, *key), values(records, peer, *key)
    return [reduce(a) / reduce(b)] if a and b else []


SHM_PEERS = ["ompi-sm", "ompi-tcp", "mpich"]  # zmpi's default path against every MPI
TCP_PEERS = ["ompi-tcp", "zmq"]  # zmpi forced onto tcp against tcp and the zmq floor


def ratio_rows(records):
    """(label, zmpi run, {peer: [ratios]}) for every row of the summary table. Ratios are
    zmpi/peer of the metric: times and memory (< 1: zmpi better), bandwidth (> 1: better)."""
    rows = []

    def curve(label, mine, key, sizes=lambda s: True):
        peers = TCP_PEERS if mine == "zmpi-tcp" else SHM_PEERS
        rows.append((label, mine, {p: _curve_ratios(records, mine, p, key, sizes) for p in peers}))

    def scalar(label, mine, key, reduce):
        rows.append((label, mine, {p: _scalar_ratio(records, mine, p, key, reduce) for p in SHM_PEERS}))

    lat = ("pingpong", 2, "pingpong", "latency_us")
    bw = ("pingpong", 2, "pingpong", "bandwidth_MBps")
    for mine in ("zmpi", "zmpi-tcp"):
        curve("ping-pong latency 8 B", mine, lat, lambda s: s == 8)
        curve("ping-pong latency 0 B-1 KiB", mine, lat, lambda s: s <= KIB)
        curve("ping-pong latency 2 KiB-512 KiB", mine, lat, lambda s: 2 * KIB <= s <= 512 * KIB)
        curve("ping-pong BANDWIDTH 1-4 MiB", mine, bw, lambda s: s >= MIB)
    for ranks in (2, 4):
        for op in OPS:
            key = ("collectives", ranks, op, "time_us")
            if op == "barrier":
                curve(f"barrier {ranks} ranks", "zmpi", key)
                continue
            curve(f"{op} {ranks} ranks, <= 8 KiB", "zmpi", key, lambda s: s <= 8 * KIB)
            curve(f"{op} {ranks} ranks, > 8 KiB", "zmpi", key, lambda s: s > 8 * KIB)
    for op in sorted({r["op"] for r in records if r["bench"] == "rma"}):
        key = ("rma", 2, op, "time_us")
        if op.endswith("fetch_and_op"):
            curve(f"one-sided {op}", "zmpi", key)
            continue
        curve(f"one-sided {op}, <= 4 KiB", "zmpi", key, lambda s: s <= 4 * KIB)
        curve(f"one-sided {op}, > 4 KiB", "zmpi", key, lambda s: s > 4 * KIB)
    for ranks in (2, 4):
        ratios = {p: [] for p in TCP_PEERS}
        for op in OPS:
            for p in TCP_PEERS:
                ratios[p] += _curve_ratios(records, "zmpi-tcp", p,
                                           ("collectives", ranks, op, "time_us"), lambda s: True)
        rows.append((f"all collectives {ranks} ranks, all sizes", "zmpi-tcp", ratios))
    for ranks in sorted({r["ranks"] for r in records if r["bench"] == "apps"}):
        key = ("apps", ranks, "lammps", "loop_s")
        scalar(f"LAMMPS (Debian's Open MPI binary) {ranks} ranks, loop time", "zmpi", key, statistics.median)
        rows.append((f"LAMMPS (Debian's Open MPI binary) {ranks} ranks, loop time", "zmpi-tcp",
                     {"ompi-tcp": _scalar_ratio(records, "zmpi-tcp", "ompi-tcp", key, statistics.median)}))
    for ranks in sorted({r["ranks"] for r in records if r["bench"] == "startup"}):
        scalar(f"start-up: -np {ranks} hello, wall time", "zmpi",
               ("startup", ranks, "hello", "wall_s"), statistics.median)
    for program, ranks in (("footprint", 4), ("footprint", 2), ("pingpong", 2),
                           ("collectives", 2), ("collectives", 4)):
        scalar(f"peak memory/rank (max), {program} -np {ranks}", "zmpi",
               ("memory", ranks, program, "peak_kib"), max)
    return [(label, mine, cells) for label, mine, cells in rows if any(cells.values())]


def _ratio(x):
    return f"{x:.2f}" if x >= 0.095 else f"{x:.2g}"


def _cell(ratios):
    if not ratios:
        return "-"
    median = statistics.median(ratios)
    if len(ratios) == 1:
        return _ratio(median)
    return f"{_ratio(median)} ({_ratio(min(ratios))}-{_ratio(max(ratios))})"


def ratio_table(records, markdown=False):
    rows = ratio_rows(records)
    peers = [p for p in PEERS if any(cells.get(p) for _, _, cells in rows)]
    header = ["measure", "zmpi run"] + [f"zmpi/{p}" for p in peers]
    body = [[label, mine] + [_cell(cells.get(p, [])) for p in peers] for label, mine, cells in rows]
    return _format(header, body, markdown)


def _format(header, body, markdown):
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body])
    widths = [max(len(str(row[i])) for row in [header] + body) for i in range(len(header))]
    fmt = lambda row: "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                                for i, (c, w) in enumerate(zip(row, widths)))
    return "\n".join([fmt(header), fmt(["-" * w for w in widths])] + [fmt(r) for r in body])


def absolute_table(records, names, markdown=False):
    """Key figures per MPI: the numbers behind the ratios."""
    def curve_at(name, key, size, scale=1.0, fmt="{:.2f}"):
        value = series(records, name, *key).get(size)
        return fmt.format(value * scale) if value is not None else "-"

    def scalar(name, key, reduce, scale=1.0, fmt="{:.2f}"):
        vals = values(records, name, *key)
        return fmt.format(reduce(vals) * scale) if vals else "-"

    lat = ("pingpong", 2, "pingpong", "latency_us")
    bw = ("pingpong", 2, "pingpong", "bandwidth_MBps")
    measures = [
        ("ping-pong latency 8 B, us", lambda n: curve_at(n, lat, 8)),
        ("ping-pong latency 64 KiB, us", lambda n: curve_at(n, lat, 64 * KIB, fmt="{:.1f}")),
        ("ping-pong bandwidth 4 MiB, GB/s", lambda n: curve_at(n, bw, 4 * MIB, 1e-3)),
    ]
    for ranks in (2, 4):
        for op, size in (("barrier", 0), ("allreduce", 8), ("allreduce", MIB), ("bcast", MIB),
                         ("alltoall", MIB), ("allgather", MIB)):
            key = ("collectives", ranks, op, "time_us")
            label = f"{op} {ranks} ranks" + ("" if op == "barrier" else f" {size_label(size)}")
            measures.append((f"{label}, us",
                             lambda n, key=key, size=size: curve_at(n, key, size, fmt="{:.1f}")))
    for ranks in sorted({r["ranks"] for r in records if r["bench"] == "apps"}):
        key = ("apps", ranks, "lammps", "loop_s")
        measures.append((f"LAMMPS {ranks} ranks loop (median), s",
                         lambda n, key=key: scalar(n, key, statistics.median, fmt="{:.3f}")))
    for ranks in sorted({r["ranks"] for r in records if r["bench"] == "startup"}):
        key = ("startup", ranks, "hello", "wall_s")
        measures.append((f"start-up -np {ranks} hello (median), s",
                         lambda n, key=key: scalar(n, key, statistics.median, fmt="{:.3f}")))
    for program in ("footprint", "collectives"):
        key = ("memory", 4, program, "peak_kib")
        measures.append((f"peak memory/rank {program} -np 4 (max), MiB",
                         lambda n, key=key: scalar(n, key, max, 1 / 1024, "{:.1f}")))
    body = [[label] + [f(n) for n in names] for label, f in measures]
    body = [row for row in body if any(c != "-" for c in row[1:])]
    return _format(["measure"] + names, body, markdown)


def size_tables(records, names):
    """One table per curve: each MPI's value per size and zmpi/peer ratios."""
    out = []
    curves = sorted({(r["bench"], r["ranks"], r["op"], r["metric"]) for r in records
                     if r["bench"] in ("pingpong", "collectives", "rma")},
                    key=lambda k: (k[0] != "pingpong", k[1], OPS.index(k[2]) if k[2] in OPS else -1,
                                   k[3]))
    for key in curves:
        data = {n: series(records, n, *key) for n in names}
        present = [n for n in names if data[n]]
        sizes = sorted(set().union(*[set(d) for d in data.values()]))
        pairs = [(m, p) for m in ("zmpi", "zmpi-tcp") if m in present
                 for p in (TCP_PEERS if m == "zmpi-tcp" else SHM_PEERS) if p in present]
        header = ["bytes"] + present + [f"{m}/{p}" for m, p in pairs]
        body = []
        for s in sizes:
            row = [size_label(s)] + [f"{data[n][s]:.2f}" if s in data[n] else "-" for n in present]
            row += [_ratio(data[m][s] / data[p][s]) if data[p].get(s) and s in data[m] else "-"
                    for m, p in pairs]
            body.append(row)
        out.append(f"## {key[0]} {key[2]}, {key[1]} ranks, {key[3]}\n" + _format(header, body, False))
    return "\n\n".join(out)


def write_files(out_dir, meta, records, problems, names):
    with open(f"{out_dir}/results.json", "w") as f:
        json.dump(dict(meta=meta, records=records, problems=problems,
                       ratios=[dict(measure=label, zmpi=mine, ratios=cells)
                               for label, mine, cells in ratio_rows(records)]),
                  f, indent=1)
    with open(f"{out_dir}/results.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["mpi", "bench", "ranks", "op", "bytes", "rank",
                                               "metric", "value"])
        writer.writeheader()
        writer.writerows(records)
    text = "\n\n".join([
        "# zmpi benchmark " + " ".join(f"{k}={v}" for k, v in meta.items()
                                       if k not in ("mpis", "load_per_job")),
        "# runs\n" + "\n".join(f"{k}: {v}" for k, v in meta.get("mpis", {}).items()),
        "# 1-minute load average as each job started\n"
        + "\n".join(f"{job}: {load}" for job, load in meta.get("load_per_job", [])),
        "# ratios zmpi/peer: median over sizes (min-max); time and memory < 1 = zmpi better, "
        "BANDWIDTH > 1 = zmpi better\n" + ratio_table(records),
        "# key figures\n" + absolute_table(records, names),
        "# problems\n" + ("\n".join(f"{p['mpi']}: {p['what']}" for p in problems) or "none"),
        size_tables(records, names)])
    with open(f"{out_dir}/results.txt", "w") as f:
        f.write(text + "\n")
    with open(f"{out_dir}/results.md", "w") as f:  # the tables as README shows them
        f.write(ratio_table(records, markdown=True) + "\n\n"
                + absolute_table(records, names, markdown=True) + "\n")
