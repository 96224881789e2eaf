"""The benches' torch.distributed peer: `world` processes (spawned, as torchrun would start them) that
join one gloo process group on a free local port; rank 0 puts its answer on a queue."""

import socket

import torch.multiprocessing as mp


def run_ranks(target, world, *args, timeout=7200):
    """Calls target(rank, port, *args, out) in `world` processes and returns what rank 0 puts on `out`."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    context = mp.get_context("spawn")
    out = context.Queue()
    procs = [context.Process(target=target, args=(rank, port, *args, out)) for rank in range(world)]
    for p in procs:
        p.start()
    result = out.get(timeout=timeout)
    for p in procs:
        p.join()
    return result
