#!/usr/bin/env python3
"""Fits docs/scale.md's models to bench_coordinator's BENCH_SUMMARY lines. FILE: one coordinator (one
line per worker count, modes bsp and asp): each figure against N by least squares, printed as
measured vs model at every N measured, with the extrapolation to 4,096 workers. --aggregators FILE:
bsp through A group aggregators beside bsp without (and grouped), with the model of a round through
them on these shared cores and on cores of their own. --shards FILE: asp with the model on S
parameter shards beside asp without, with the model of an update's CPU at the coordinator and at a
shard, and the rate they allow on cores of their own.
Usage: fit_scale_model.py [FILE] [--aggregators FILE] [--shards FILE]."""
import argparse
import json
import math

MLP_BYTES = 235146 * 4
TICK_HZ = 10.0
HISTORY_TICKS, HISTORY_BYTES = 4096, 16 << 20  # TelemetryPublisher::kHistoryCap / kHistoryBytes
EXTRAPOLATE = [512, 1024, 4096]
# bench_coordinator's thread groups, in cores busy: the coordinator's, the relays' (aggregators or
# shards), the simulated workers'.
COORDINATOR = ["loop_cpu", "coordinator_io_cpu"]
RELAYS = ["relay_cpu", "relay_io_cpu"]
WORKERS = ["workers_io_cpu", "worker_threads_cpu"]


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


def read_summaries(path):
    """(rows without shards by (mode, workers, aggregators), rows with shards by (mode, workers, shards),
    the stream bench's summary or None)."""
    rows, sharded = {}, {}
    stream = None
    for line in open(path):
        if not line.strip():
            continue
        summary = json.loads(line.split(" ", 1)[1])
        if summary["benchmark"] == "stream":
            stream = summary
            continue
        for row in summary["rows"]:
            if row.get("shards", 0):
                sharded[(row["mode"], row["workers"], row["shards"])] = row
            else:
                rows[(row["mode"], row["workers"], row.get("aggregators", 0))] = row
                sharded.setdefault((row["mode"], row["workers"], 0), row)
    return rows, sharded, stream


def one_coordinator(path):
    all_rows, _, stream = read_summaries(path)
    rows = {(m, n): r for (m, n, a), r in all_rows.items() if a == 0}
    ns = sorted(n for n in {n for (m, n) in rows} if ("bsp", n) in rows and ("asp", n) in rows)
    if len(ns) < 2:
        print(f"{path}: bsp and asp at two worker counts or more are needed for the one-coordinator fit")
        return
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


def per_round(row, *fields):
    """CPU-seconds per round (per update) of the named thread groups."""
    return sum(row[f] for f in fields) / row["updates_per_s"]


def through_aggregators(path):
    rows, _, _ = read_summaries(path)
    pairs = sorted((n, a) for (m, n, a) in rows if m == "bsp" and a > 0 and ("bsp", n, 0) in rows)
    if len(pairs) < 2:
        print(f"{path}: bsp with and without aggregators at two worker counts or more are needed")
        return
    print("\nbsp through A group aggregators, beside bsp without (the same invocation, taking turns); CPU in ms "
          "per round, all threads on the same 2 cores")
    print(f"{'N':>5} {'A':>3} | {'rounds/s':>8} {'A=0':>6} | {'coord':>6} {'A=0':>6} | {'agg':>6} {'agg I/O':>7} | "
          f"{'workers':>7} | {'all':>6} {'A=0':>6} | {'summed':>6} {'partial':>7}")
    coordinator, aggregator, workers = COORDINATOR, RELAYS, WORKERS
    everything = coordinator + aggregator + workers
    for n, a in pairs:
        r, d = rows[("bsp", n, a)], rows[("bsp", n, 0)]
        print(f"{n:>5} {a:>3} | {r['updates_per_s']:8.2f} {d['updates_per_s']:6.2f} | "
              f"{1e3 * per_round(r, *coordinator):6.1f} {1e3 * per_round(d, *coordinator):6.1f} | "
              f"{1e3 * per_round(r, 'relay_cpu'):6.1f} {1e3 * per_round(r, 'relay_io_cpu'):7.1f} | "
              f"{1e3 * per_round(r, *workers):7.1f} | {1e3 * per_round(r, *everything):6.1f} "
              f"{1e3 * per_round(d, *everything):6.1f} | {100 * r['summed_fraction']:5.1f}% "
              f"{100 * r['partial_sum_fraction']:6.1f}%")

    ns = [n for n, a in pairs]
    agg = [rows[("bsp", n, a)] for n, a in pairs]
    # The coordinator receives A sums and sends A fan-outs per round, plus one SGD step: a + b*A.
    ccoef, cmodel = fit([a for n, a in pairs], [per_round(r, *coordinator) for r in agg],
                        [lambda a: 1.0, lambda a: float(a)])
    print(f"\ncoordinator CPU per round (loop + its I/O) = {ccoef[0] * 1e3:.3f} ms + {ccoef[1] * 1e3:.3f} ms * A")
    # An aggregator's work is per gradient of its workers: sum over aggregators = c_agg * N.
    c_agg = [per_round(r, *aggregator) / n for n, r in zip(ns, agg)]
    c_wkr = [per_round(r, *workers) / n for n, r in zip(ns, agg)]
    print("aggregators' CPU per gradient (own + I/O threads): " +
          ", ".join(f"{1e3 * c:.3f} ms at {n}" for c, n in zip(c_agg, ns)))
    print("workers' CPU per gradient (their I/O + threads): " +
          ", ".join(f"{1e3 * c:.3f} ms at {n}" for c, n in zip(c_wkr, ns)))

    # Shared cores: the round takes all its CPU, spread over the cores the process keeps busy.
    round_s = [1.0 / r["updates_per_s"] for r in agg]
    if len({a / n for n, a in pairs}) > 1:
        scoef, smodel = fit(pairs, round_s, [lambda na: float(na[0]), lambda na: float(na[1])])
    else:  # A proportional to N: the two parts cannot be told apart
        scoef, smodel = fit(pairs, round_s, [lambda na: float(na[0])])
        scoef.append(0.0)
    print(f"\nround time on these 2 shared cores T(N, A) = {scoef[0] * 1e3:.4f} ms * N + {scoef[1] * 1e3:.4f} ms * A")
    print(f"{'N':>6} {'A':>4} {'measured ms':>12} {'model ms':>9} {'error':>7}")
    for (n, a), t in zip(pairs, round_s):
        m = smodel((n, a))
        print(f"{n:>6} {a:>4} {t * 1e3:12.1f} {m * 1e3:9.1f} {100 * (m - t) / t:6.1f}%")

    # Cores of their own: the round's critical path is the coordinator's A exchanges, then one
    # aggregator's N/A (its share of fan-out, receive and sum), then one worker's own exchange.
    cc = ccoef[1]
    ca = max(c_agg[ns.index(max(ns))], 0.0)
    cw = c_wkr[ns.index(max(ns))]
    print(f"\ncores of their own (figures at N={max(ns)}): T(N, A) = {ccoef[0] * 1e3:.3f} ms + A * {cc * 1e3:.3f} ms "
          f"+ (N/A) * {ca * 1e3:.3f} ms + {cw * 1e3:.3f} ms; best A = sqrt(N * {ca * 1e3:.3f} / {cc * 1e3:.3f})")
    for n in [256, 1024, 4096]:
        for a in sorted({round(math.sqrt(n)), max(1, round(math.sqrt(n * ca / cc))) if cc > 0 else 1}):
            t = ccoef[0] + a * cc + (n / a) * ca + cw
            nic = max(a, n / a) * MLP_BYTES / 3.1e9  # 25 Gb/s each way, the busier level of the tree
            print(f"{n:>6} workers, A={a:>3}: {t * 1e3:7.1f} ms = {1 / t:6.1f} rounds/s (CPU); a 25 Gb/s NIC per "
                  f"process moves {max(a, n / a):.0f} frames each way in >= {nic * 1e3:.0f} ms")

    grouped = sorted((m, n, a) for (m, n, a) in rows if m.startswith("grouped"))
    if grouped:
        print("\ngrouped (updates are group rounds):")
        for key in grouped:
            r = rows[key]
            print(f"  {key[0]} N={key[1]} A={key[2]}: {r['updates_per_s']:.1f} updates/s, "
                  f"{r['gradients_per_s']:.0f} gradients/s; coordinator {r['coordinator_cpu']:.2f} cores, aggregators "
                  f"{r['relay_cpu'] + r['relay_io_cpu']:.2f}, workers "
                  f"{r['workers_io_cpu'] + r['worker_threads_cpu']:.2f}; summed {100 * r['summed_fraction']:.1f}%, "
                  f"moves {r['moves']:.0f}")


def through_shards(path):
    _, rows, _ = read_summaries(path)
    keys = sorted((n, k) for (m, n, k) in rows if m == "asp" and k > 0 and ("asp", n, 0) in rows)
    if not keys:
        print(f"{path}: asp with and without parameter shards is needed")
        return
    coordinator, shards, workers = COORDINATOR, RELAYS, WORKERS
    print("\nasp with the model on S parameter shards, beside the coordinator alone (the same invocation, taking "
          "turns); CPU in ms per update, all threads on the same 2 cores")
    print(f"{'N':>5} {'S':>2} | {'updates/s':>9} {'S=0':>7} | {'rt ms':>6} {'S=0':>6} | {'coord':>6} {'S=0':>6} | "
          f"{'shards':>6} | {'workers':>7} {'S=0':>6} | {'all':>5} {'S=0':>5} | {'waited':>6} {'other':>6}")
    for n, k in keys:
        r, d = rows[("asp", n, k)], rows[("asp", n, 0)]
        print(f"{n:>5} {k:>2} | {r['updates_per_s']:9.1f} {d['updates_per_s']:7.1f} | {r['round_trip_ms']:6.2f} "
              f"{d['round_trip_ms']:6.2f} | {1e3 * per_round(r, *coordinator):6.3f} {1e3 * per_round(d, *coordinator):6.3f} | "
              f"{1e3 * per_round(r, *shards):6.3f} | {1e3 * per_round(r, *workers):7.3f} {1e3 * per_round(d, *workers):6.3f} | "
              f"{1e3 * per_round(r, *coordinator, *shards, *workers):5.3f} {1e3 * per_round(d, *coordinator, *workers):5.3f} | "
              f"{100 * r['pulls_waited_fraction']:5.1f}% {100 * r['pulls_other_fraction']:5.2f}%")
    # Per update the coordinator handles one push and one release, and sends S updates: a + b*S.
    ccoef, _ = fit([k for n, k in keys], [per_round(rows[("asp", n, k)], *coordinator) for n, k in keys],
                   [lambda k: 1.0, lambda k: float(k)])
    # Each shard handles its range of every gradient and pull (bytes / S) and a fixed set of messages:
    # all shards together = S * p0 + p1.
    pcoef, _ = fit([k for n, k in keys], [per_round(rows[("asp", n, k)], *shards) for n, k in keys],
                   [lambda k: float(k), lambda k: 1.0])
    direct = [per_round(rows[("asp", n, 0)], *coordinator) for n in sorted({n for n, k in keys})]
    print(f"\ncoordinator CPU per update = {ccoef[0] * 1e3:.4f} ms + {ccoef[1] * 1e3:.4f} ms * S "
          f"(the coordinator alone: {', '.join(f'{1e3 * c:.3f}' for c in direct)} ms)")
    print(f"one shard's CPU per update = {pcoef[0] * 1e3:.4f} ms + {pcoef[1] * 1e3:.4f} ms / S")
    print("on cores of their own (a host per shard, the workers elsewhere), asp's rate is the slower of the "
          "coordinator and one shard:")
    for k in [1, 2, 4, 8, 16]:
        coord = ccoef[0] + ccoef[1] * k
        shard = pcoef[0] + pcoef[1] / k
        nic = MLP_BYTES / k / 3.1e9  # a 25 Gb/s NIC per shard host: its range in and out per update
        print(f"  S={k:>2}: coordinator {1 / coord:8.0f}/s, a shard {1 / shard:7.0f}/s (CPU), its NIC "
              f"{1 / nic:7.0f}/s -> {min(1 / coord, 1 / shard, 1 / nic):7.0f} updates/s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("summary", nargs="?", help="BENCH_SUMMARY lines of one coordinator (and bench_stream)")
    parser.add_argument("--aggregators", help="BENCH_SUMMARY lines of bsp with and without group aggregators")
    parser.add_argument("--shards", help="BENCH_SUMMARY lines of asp with and without parameter shards")
    args = parser.parse_args()
    if args.summary:
        one_coordinator(args.summary)
    if args.aggregators:
        through_aggregators(args.aggregators)
    if args.shards:
        through_shards(args.shards)


if __name__ == "__main__":
    main()
