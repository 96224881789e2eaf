#!/usr/bin/python3
"""Joins a native SyncScope run of the engine's `mlp` as a PyTorch worker: the same network with the
same flat parameter layout, trained on this worker's shard of Fashion-MNIST, steered like any worker.

    syncscope-engine serve --workers 4 --model mlp --credentials run.credentials &
    syncscope-engine keygen --credentials run.credentials --role worker --out worker.credentials
    syncscope-engine work --connect tcp://127.0.0.1:5555 --credentials worker.credentials &   # native
    python3 join_native_mlp.py --connect tcp://127.0.0.1:5555 --credentials worker.credentials
"""

import argparse
import sys

import torch
import torch.nn.functional as F

import syncscope
from syncscope.fashion_mnist import load_split
from syncscope.native_models import NativeMlp


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connect", required=True, help="the coordinator's data endpoint, tcp://HOST:PORT")
    parser.add_argument("--credentials", help="the worker role's credentials file (default: the engine's default path)")
    parser.add_argument("--insecure", action="store_true", help="no authentication (a coordinator run with --insecure)")
    parser.add_argument("--data-plane", default="encrypted", choices=["encrypted", "authenticated"])
    parser.add_argument("--data", help="folder with the Fashion-MNIST IDX .gz files (default: the run's)")
    parser.add_argument("--telemetry", help="telemetry endpoint, to report mode and group changes (needs view keys)")
    parser.add_argument("--telemetry-credentials", help="a view (or steer) credentials file for --telemetry")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch CPU threads (1 suits several workers)")
    return parser.parse_args()


def main():
    args = parse_arguments()
    syncscope.set_num_threads(args.threads)
    worker = syncscope.Worker(connect=args.connect, credentials=args.credentials, insecure=args.insecure,
                              data_plane=args.data_plane, telemetry=args.telemetry,
                              telemetry_credentials=args.telemetry_credentials)
    tag = "pytorch worker %d" % worker.worker_id
    if worker.spec.model != "mlp":
        sys.exit("%s: this script builds the engine's mlp but the run trains '%s'" % (tag, worker.spec.model))
    if args.telemetry:
        worker.on_mode_change(lambda s: print("%s: mode now %s" % (tag, syncscope.wire.pb.SyncMode.Name(s.mode)),
                                              flush=True))
        worker.on_group_change(lambda g: print("%s: group now %d" % (tag, g), flush=True))

    images, labels = map(torch.from_numpy, load_split("train", args.data or worker.spec.data_dir or None))
    print("%s: shard %d of %d (%d images), model mlp" % (tag, worker.shard_index, worker.shard_count,
                                                        len(worker.shard(len(labels)))), flush=True)

    torch.manual_seed(worker.spec.seed)
    model = NativeMlp()
    opt = worker.wrap(None, model)  # the first pull: the coordinator's parameters replace these
    steps = 0
    # Index lists into the whole set, from this worker's shard, in the size the coordinator assigns.
    for batch in syncscope.ShardBatchSampler(opt, len(labels), worker.spec.seed):
        opt.zero_grad()
        loss = F.cross_entropy(model(images[batch]), labels[batch])
        loss.backward()
        opt.step(loss, batch_size=len(batch))
        steps += 1
        if steps % 500 == 0:
            print("%s: %d steps, loss %.4f, model version %d" % (tag, steps, loss.item(), opt.version), flush=True)
    print("%s: the run is over after %d steps (model version %d)" % (tag, steps, opt.version), flush=True)
    worker.close()


if __name__ == "__main__":
    try:
        main()
    except syncscope.SyncScopeError as error:
        sys.exit("join_native_mlp: %s" % error)
