#!/usr/bin/env python3
"""The roofline exercise's Python reference solution, as a program: the comparison baseline for
`hml roofline` in benchmarks/streaming.

roofline_analysis() below is the reference solution's function as published, unchanged. The rest is what
it needs to run on a file as `hml roofline --format csv --round` does: read the operations with the csv
module (header name,flops,memory_bytes; plain numbers), and write its list of dicts as CSV.

usage: roofline_reference.py PEAK_FLOP_PER_S PEAK_BYTES_PER_S OPERATIONS.csv [OUTPUT.csv]
"""
import csv
import sys


def roofline_analysis(
    operations: list[dict],
    peak_compute: float,
    peak_bandwidth: float
) -> list[dict]:
    ridge_point = peak_compute / peak_bandwidth
    results = []
    for op in operations:
        flops = op["flops"]
        mem_bytes = op["memory_bytes"]
        ai = flops / mem_bytes if mem_bytes > 0 else float('inf')
        attainable = min(peak_compute, ai * peak_bandwidth)
        bound = "compute-bound" if ai >= ridge_point else "memory-bound"
        efficiency = attainable / peak_compute * 100
        exec_time = flops / attainable if attainable > 0 else float('inf')
        results.append({
            "name": op.get("name", ""),
            "arithmetic_intensity": round(ai, 4),
            "attainable_flops": round(attainable, 4),
            "bound": bound,
            "efficiency": round(efficiency, 2),
            "estimated_time_s": round(exec_time, 8)
        })
    return results


def main(argv: list[str]) -> int:
    if len(argv) not in (4, 5):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    peak_compute, peak_bandwidth = float(argv[1]), float(argv[2])
    with open(argv[3], newline="") as f:
        operations = [{"name": row["name"], "flops": float(row["flops"]),
                       "memory_bytes": float(row["memory_bytes"])} for row in csv.DictReader(f)]
    results = roofline_analysis(operations, peak_compute, peak_bandwidth)
    fields = ["name", "arithmetic_intensity", "attainable_flops", "bound", "efficiency", "estimated_time_s"]
    with (open(argv[4], "w", newline="") if len(argv) == 5 else sys.stdout) as out:
        writer = csv.DictWriter(out, fieldnames=fields)
        writer.writeheader()
        writer.writerows(results)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
