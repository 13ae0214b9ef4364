"""Curves as PNGs through gnuplot (pngcairo): pingpong.png (latency and bandwidth) and
collectives_Nranks.png (time per call of each collective against size, log-log)."""
import os
import shutil
import subprocess

from .report import series

STYLE = {  # colour and dash per run, the same in every picture
    "zmpi": ("#d62728", 1), "zmpi-tcp": ("#ff7f0e", 2), "ompi-sm": ("#1f77b4", 1),
    "ompi-tcp": ("#17becf", 2), "mpich": ("#2ca02c", 1), "zmq": ("#7f7f7f", 3),
}
OPS = ["allreduce", "bcast", "alltoall", "allgather"]


def _data_file(work, records, name, key):
    data = {s: v for s, v in series(records, name, *key).items() if s}  # log axes: no 0 B
    if not data:
        return None
    path = os.path.join(work, f"{name}_{'_'.join(map(str, key))}.dat")
    with open(path, "w") as f:
        f.writelines(f"{s} {v}\n" for s, v in sorted(data.items()))
    return path


def _panel(work, records, names, key, title, ylabel):
    plots = []
    for n in names:
        path = _data_file(work, records, n, key)
        if path:
            colour, dash = STYLE.get(n, ("#000000", 1))
            plots.append(f"'{path}' using 1:2 with linespoints lw 2 pt 7 ps 0.5 dt {dash} "
                         f"lc rgb '{colour}' title '{n}'")
    if not plots:  # keeps the layout: an empty frame that says so
        return (f"set title '{title}: no data'; unset logscale y; set key off\n"
                "plot [1:2] [0:1] -1 notitle; set logscale y 10\n")
    return (f"set title '{title}'; set ylabel '{ylabel}'; set key top left\n"
            "plot " + ", ".join(plots) + "\n")


def _common(first, last, factor):
    return ("set logscale x 2; set logscale y 10; set grid; set format x '%.0b%B'\n"
            f"set xrange [{first}:{last}]; set xtics {first},{factor}\n"
            "set xlabel 'bytes'; set format y '%g'\n")


def draw(out_dir, records, names, machine, work):
    """Writes the PNGs into out_dir (data files into work); returns their paths ([] without
    gnuplot)."""
    if not shutil.which("gnuplot"):
        return []
    scripts = []
    png = os.path.join(out_dir, "pingpong.png")
    if any(r["bench"] == "pingpong" for r in records):
        scripts.append((png,
            f"set terminal pngcairo size 1100,450 font ',9'; set output '{png}'\n"
            f"set multiplot layout 1,2 title 'ping-pong, 2 ranks, {machine}'\n" + _common(1, 4 << 20, 16) +
            _panel(work, records, names, ("pingpong", 2, "pingpong", "latency_us"),
                   "one-way latency (median)", "microseconds") +
            _panel(work, records, names, ("pingpong", 2, "pingpong", "bandwidth_MBps"),
                   "bandwidth", "MB/s") + "unset multiplot\n"))
    for ranks in sorted({r["ranks"] for r in records if r["bench"] == "collectives"}):
        png = os.path.join(out_dir, f"collectives_{ranks}ranks.png")
        body = "".join(_panel(work, records, names, ("collectives", ranks, op, "time_us"),
                              f"{op}, {ranks} ranks", "microseconds per call") for op in OPS)
        scripts.append((png,
            f"set terminal pngcairo size 1100,800 font ',9'; set output '{png}'\n"
            f"set multiplot layout 2,2 title 'collectives, {ranks} ranks (bytes per rank and "
            f"block), {machine}'\n" + _common(8, 16 << 20, 8) + body + "unset multiplot\n"))
    drawn = []
    for png, script in scripts:
        result = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True,
                                timeout=60)
        if result.returncode == 0 and os.path.exists(png):
            drawn.append(png)
        else:
            print(f"gnuplot failed for {png}: {result.stderr.strip()}")
    return drawn
