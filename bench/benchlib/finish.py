"""The end of a benchmark run, the same for every runner: the result files and curves into
out_dir, the ratio table and key figures on stdout, and the exit status."""
import os

from . import plot, report


def finish(suite, meta, names, out_dir, scratch, where=""):
    """Writes and prints what the suite measured; returns 1 when a zmpi job failed, timed
    out, computed a wrong result or measured nothing, else 0. `where` names the layout
    (", 2 namespace hosts") in the headings."""
    meta["load_after"] = "%.2f %.2f %.2f" % os.getloadavg()
    meta["load_per_job"] = suite.loads
    report.write_files(out_dir, meta, suite.records, suite.problems, names)
    machine = f"{meta.get('cpu', '?')}, {meta['cores']} cores{where}"
    pngs = plot.draw(out_dir, suite.records, names, machine, scratch)
    print(f"\nzmpi/peer ratios (median over sizes, min-max); time and memory: < 1 = zmpi "
          f"better; BANDWIDTH: > 1 = zmpi better. {machine}, load {meta['load_before']} -> "
          f"{meta['load_after']}\n")
    print(report.ratio_table(suite.records))
    print("\nkey figures\n")
    print(report.absolute_table(suite.records, names))
    if suite.problems:
        print("\nproblems\n" + "\n".join(f"  {p['mpi']}: {p['what']}" for p in suite.problems))
    print(f"\nwritten: {out_dir}/results.json results.csv results.txt results.md "
          + " ".join(os.path.basename(p) for p in pngs))
    zmpi_failed = any(p["mpi"].startswith("zmpi") for p in suite.problems)
    no_data = any(n.startswith("zmpi") for n in names) and not any(
        r["mpi"].startswith("zmpi") for r in suite.records)
    return 1 if zmpi_failed or no_data else 0
