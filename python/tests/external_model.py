#!/usr/bin/python3
"""A test's external model, as a worker (--role worker) or as the run's evaluator (--role evaluator) of
a run of `serve --model external`: softmax regression on Fashion-MNIST (--model linear, 7,850
parameters, which the engine does not have), the PyTorch twin of the engine's mlp (--model mlp,
235,146 parameters; the composition matrix's external column, whose targets are the mlp's), or a
small CNN with BatchNorm (--model bn-cnn, whose running statistics travel as buffers)."""

import argparse
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import syncscope
from syncscope.fashion_mnist import load_split
from syncscope.native_models import NativeMlp


def bn_cnn():
    """Two convolutions with BatchNorm, as most researchers' CNNs have: 9,122 trained parameters and 48
    buffer values (running means and variances; num_batches_tracked stays with each process)."""
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(16 * 7 * 7, 10))


MODELS = {"linear": None, "mlp": NativeMlp, "bn-cnn": bn_cnn}


def make_model(name, extra=0):
    torch.manual_seed(1)  # every worker starts from the same parameters, as the first one's are the run's
    if MODELS[name] is not None:
        return MODELS[name]()
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 10 + extra))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--role", choices=["worker", "evaluator"], required=True)
    parser.add_argument("--connect", help="default: from the environment `run --worker-command` sets")
    parser.add_argument("--credentials")
    parser.add_argument("--model", choices=sorted(MODELS), default="linear")
    parser.add_argument("--extra-outputs", type=int, default=0, help="a linear model of another size")
    parser.add_argument("--retry", action="store_true", help="wait for a resumed coordinator when it goes away")
    parser.add_argument("--loader-workers", type=int, default=-1,
                        help="draw batches with a DataLoader and syncscope.ShardBatchSampler, with this many loader "
                             "processes (0: in this one); default: index the shard directly")
    args = parser.parse_args()
    blas_at_start = syncscope.blas_threads()  # as OPENBLAS_NUM_THREADS left it
    syncscope.set_num_threads(1)
    model = make_model(args.model, args.extra_outputs)
    if args.role == "evaluator":
        images, labels = map(torch.from_numpy, load_split("t10k"))

        def evaluate(m):
            return syncscope.accuracy_and_loss(m, images, labels)
        evaluator = syncscope.Evaluator(args.connect, model, evaluate, credentials=args.credentials,
                                       retry=args.retry)
        final = evaluator.run()
        print("evaluator: %d evaluations, final %s" % (len(evaluator.results), final), flush=True)
        return
    images, labels = load_split("train")
    if args.connect is None:  # started by the engine (--worker-command)
        print("rank %d of %d (local rank %d), OMP_NUM_THREADS %s, seed %d, pid %d, OPENBLAS_NUM_THREADS %s, "
              "OpenBLAS loaded with %s threads"
              % (syncscope.rank(), syncscope.world_size(), syncscope.local_rank(), os.environ.get("OMP_NUM_THREADS"),
                 syncscope.seed(), os.getpid(), os.environ.get("OPENBLAS_NUM_THREADS"), blas_at_start),
              flush=True)
    worker = syncscope.Worker(connect=args.connect, credentials=args.credentials, model=model,
                              train_examples=len(labels), retry=args.retry)
    if args.loader_workers >= 0:
        return train_from_loader(worker, model, images, labels, args.loader_workers)
    shard = np.fromiter(worker.shard(len(labels)), dtype=np.int64)
    images, labels = torch.from_numpy(images[shard]), torch.from_numpy(labels[shard])
    opt = worker.wrap(None, model)
    model.train()
    rng = np.random.default_rng(worker.worker_id)
    while opt.running:
        batch = torch.from_numpy(rng.integers(0, len(labels), opt.batch_size))
        opt.zero_grad()
        loss = F.cross_entropy(model(images[batch]), labels[batch])
        loss.backward()
        opt.step(loss)
    print("worker %d: done at version %d" % (worker.worker_id, opt.version), flush=True)


def train_from_loader(worker, model, images, labels, loader_workers):
    train_set = torch.utils.data.TensorDataset(torch.from_numpy(images), torch.from_numpy(labels))
    opt = worker.wrap(None, model)
    sampler = syncscope.ShardBatchSampler(opt, len(train_set), seed=1)
    loader = torch.utils.data.DataLoader(train_set, batch_sampler=sampler, num_workers=loader_workers)
    sizes = set()
    for x, y in loader:
        sizes.add(len(y))
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step(loss, batch_size=len(y))
    print("worker %d: done at version %d; batch sizes %s; %d batches of an earlier size not pushed"
          % (worker.worker_id, opt.version, sorted(sizes), opt.stale_batches), flush=True)


if __name__ == "__main__":
    try:
        main()
    except syncscope.SyncScopeError as error:
        sys.exit("external_model: %s" % error)
