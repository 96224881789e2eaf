#!/usr/bin/env python3
"""Fits docs/scale.md's model of one coordinator to bench_coordinator's BENCH_SUMMARY lines (one per
worker count, modes bsp and asp): each figure against N by least squares, printed as measured vs
model at every N measured, with the extrapolation to 4,096 workers. Usage: fit_scale_model.py FILE."""
import json
import sys

MLP_BYTES = 235146 * 4
TICK_HZ = 10.0
HISTORY_TICKS, HISTORY_BYTES = 4096, 16 << 20  # TelemetryPublisher::kHistoryCap / kHistoryBytes
EXTRAPOLATE = [512, 1024, 4096]


def solve(a, b):
    """Gaussian elimination with partial pivoting: the normal equations are 2x2 or 3x3."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def fit(ns, ys, basis, relative=True):
    """Least squares of y = sum(coef_i * basis_i(N)); relative: each point weighted by 1/y (errors in %)."""
    rows = [[f(n) for f in basis] for n in ns]
    w = [1.0 / y if relative and y else 1.0 for y in ys]
    ata = [[sum(w[k] ** 2 * rows[k][i] * rows[k][j] for k in range(len(ns))) for j in range(len(basis))]
           for i in range(len(basis))]
    aty = [sum(w[k] ** 2 * rows[k][i] * ys[k] for k in range(len(ns))) for i in range(len(basis))]
    coef = solve(ata, aty)
    return coef, lambda n: sum(c * f(n) for c, f in zip(coef, basis))


def table(title, unit, ns, measured, model, scale=1.0, fmt="{:.3f}"):
    print(f"\n{title} [{unit}]")
    print(f"{'N':>6} {'measured':>12} {'model':>12} {'error':>8}")
    for n, y in zip(ns, measured):
        m = model(n)
        print(f"{n:>6} {fmt.format(y * scale):>12} {fmt.format(m * scale):>12} {100 * (m - y) / y:>7.1f}%")
    for n in EXTRAPOLATE:
        print(f"{n:>6} {'':>12} {fmt.format(model(n) * scale):>12}   (extrapolated)")


def main(path):
    rows = {}
    stream = None
    for line in open(path):
        summary = json.loads(line.split(" ", 1)[1])
        if summary["benchmark"] == "stream":
            stream = summary
            continue
        for row in summary["rows"]:
            rows[(row["mode"], row["workers"])] = row
    ns = sorted({n for (m, n) in rows if m in ("bsp", "asp")})
    linear = [lambda n: 1.0, lambda n: float(n)]
    quadratic = [lambda n: float(n), lambda n: float(n) ** 2]

    bsp = [rows[("bsp", n)] for n in ns]
    asp = [rows[("asp", n)] for n in ns]
    # bsp: a round is N gradients in and N parameter frames out; its time is N per-gradient costs,
    # and each costs more with N (scans over every worker per gradient and per release).
    round_s = [1.0 / r["updates_per_s"] for r in bsp]
    coef, model = fit(ns, round_s, quadratic)
    print(f"bsp round time T(N) = {coef[0] * 1e3:.4f} ms * N + {coef[1] * 1e6:.4f} us * N^2")
    table("bsp round time", "ms", ns, round_s, model, 1e3)
    table("bsp rounds/s", "1/s", ns, [r["updates_per_s"] for r in bsp], lambda n: 1.0 / model(n), 1.0, "{:.2f}")
    per_gradient = [1.0 / r["gradients_per_s"] for r in bsp]
    gcoef, gmodel = fit(ns, per_gradient, linear)
    print(f"\nbsp time per gradient t(N) = {gcoef[0] * 1e3:.4f} ms + {gcoef[1] * 1e6:.4f} us * N")
    table("bsp time per gradient", "ms", ns, per_gradient, gmodel, 1e3)

    service = [1.0 / r["updates_per_s"] for r in asp]
    acoef, amodel = fit(ns, service, linear)
    print(f"\nasp service time per update s(N) = {acoef[0] * 1e3:.4f} ms + {acoef[1] * 1e6:.4f} us * N")
    table("asp updates/s", "1/s", ns, [r["updates_per_s"] for r in asp], lambda n: 1.0 / amodel(n), 1.0, "{:.1f}")

    for mode, measured in (("bsp", bsp), ("asp", asp)):
        demand = [r["coordinator_cpu"] / r["gradients_per_s"] for r in measured]
        dcoef, dmodel = fit(ns, demand, linear)
        print(f"\n{mode} coordinator CPU per gradient (all its threads) = {dcoef[0] * 1e3:.4f} ms + "
              f"{dcoef[1] * 1e6:.4f} us * N")
        table(f"{mode} coordinator CPU per gradient", "ms", ns, demand, dmodel, 1e3)
        loop = [r["loop_cpu"] / r["gradients_per_s"] for r in measured]
        lcoef, lmodel = fit(ns, loop, linear)
        print(f"{mode} loop thread CPU per gradient = {lcoef[0] * 1e3:.4f} ms + {lcoef[1] * 1e6:.4f} us * N")
        table(f"{mode} loop thread CPU per gradient", "ms", ns, loop, lmodel, 1e3)

    ticks = [(r["tick_bytes"]) for r in asp]
    tcoef, tmodel = fit(ns, ticks, linear)
    print(f"\ntick bytes = {tcoef[0]:.1f} + {tcoef[1]:.2f} * N (asp ticks; at 10 Hz, 10 x that per second)")
    table("tick bytes (asp)", "B", ns, ticks, tmodel, 1.0, "{:.0f}")
    print("\nticks a subscriber received per second (the coordinator aims at 10):")
    for n, b, a in zip(ns, bsp, asp):
        print(f"{n:>6}  bsp {b['ticks_per_s']:5.1f}   asp {a['ticks_per_s']:5.1f}")
    kept = [r["snapshot_bytes_per_kept_tick"] for r in asp]
    kcoef, kmodel = fit(ns, kept, linear)
    print(f"\nsnapshot bytes per kept tick = {kcoef[0]:.1f} + {kcoef[1]:.2f} * N (asp; ticks kept without events "
          "and histograms); growth per minute at 10 Hz = 600 x that")
    table("snapshot bytes per kept tick (asp)", "B", ns, kept, kmodel, 1.0, "{:.0f}")
    print("\nsnapshot after an hour: the history holds at most min(4096 ticks, 16 MiB) of event-free, "
          "histogram-free ticks, thinned to half when either is reached")
    for n in ns + EXTRAPOLATE:
        stripped = kmodel(n)
        cap = "4096 ticks" if HISTORY_TICKS * stripped < HISTORY_BYTES else "16 MiB"
        bound = min(HISTORY_TICKS * stripped, HISTORY_BYTES)
        minutes_to_cap = bound / (stripped * 60 * TICK_HZ)
        print(f"{n:>6}: {stripped:8.0f} B/tick kept, {stripped * 600 / 1e6:6.2f} MB/min at 10 Hz; cap {cap:>10}: "
              f"{bound / 2e6:6.2f}..{bound / 1e6:6.2f} MB, first reached after {minutes_to_cap:5.1f} min; history "
              f"{bound / stripped / 2:5.0f}..{bound / stripped:5.0f} ticks")

    secure = {(m.split()[0], n): r for (m, n), r in rows.items() if m.endswith(" curve")}
    if secure:
        print("\nCURVE on every endpoint against none (updates/s, gradients/s, coordinator CPU):")
        for (mode, n), r in sorted(secure.items()):
            plain = rows[(mode, n)]
            print(f"  {mode} {n:>4}: {r['updates_per_s']:8.1f} vs {plain['updates_per_s']:8.1f} updates/s, "
                  f"{r['gradients_per_s']:7.1f} vs {plain['gradients_per_s']:7.1f} gradients/s "
                  f"({r['gradient_in_mb_per_s']:.0f} vs {plain['gradient_in_mb_per_s']:.0f} MB/s), coordinator "
                  f"{r['coordinator_cpu']:.2f} vs {plain['coordinator_cpu']:.2f} cores")

    if stream:
        print("\nloopback ceiling (bench_stream, one-way, MB/s):")
        for row in stream["rows"]:
            print(f"  {row['security']:>6} x{row['streams']}: {row['mb_per_s']:9.1f}")
        print(f"  memcpy, one thread: {stream['memcpy_mb_per_s']:.1f}")
    need = 256 * 10 * MLP_BYTES
    print(f"\nbsp 10 rounds/s at 256 workers: {need / 1e9:.2f} GB/s of gradients in and as much of parameters out "
          f"({2 * need / 1e9:.2f} GB/s through the coordinator or its aggregators together)")
    print(f"asp 2,000 updates/s: {2000 * MLP_BYTES / 1e9:.2f} GB/s in and as much out")


if __name__ == "__main__":
    main(sys.argv[1])
