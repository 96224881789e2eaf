#!/usr/bin/env python3
"""A PyTorch worker for the engine to start (`--worker-command`): a small CNN with BatchNorm on
Fashion-MNIST, its shard of the training set drawn by a DataLoader in the batch size the coordinator
assigns. It finds the run in its environment (syncscope.Worker() with no address); the worker of rank
0 also evaluates the run's model, in a thread, so the run has test accuracy.

    export PYTHONPATH=$PWD/python:$PWD/build/python
    build/app/syncscope-engine run --workers 4 --model external $(python3 python/examples/train_worker.py --layout) \\
        --epochs 2 --worker-command "python3 $PWD/python/examples/train_worker.py"

`launch --hosts FILE` and `launch --slurm` take the same flags (packaging/slurm/syncscope-pytorch.sbatch).
"""

import argparse
import os
import sys
import threading

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the package beside this folder

import syncscope  # noqa: E402
from syncscope.fashion_mnist import load_split  # noqa: E402


def make_model():
    torch.manual_seed(1)  # every worker builds the same initial model; the first one's is the run's
    return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(32 * 7 * 7, 10))


def evaluator(data):
    images, labels = map(torch.from_numpy, load_split("t10k", data))

    return syncscope.Evaluator(model=make_model(), evaluate=lambda m: syncscope.accuracy_and_loss(m, images, labels),
                               **syncscope.environment())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layout", action="store_true", help="print the coordinator's flags for this model and exit")
    parser.add_argument("--data", help="the Fashion-MNIST folder (default: the dataset-fashion-mnist package's)")
    args = parser.parse_args()
    model = make_model()
    if args.layout:
        print("--parameters %d --buffers %d" % (syncscope.parameter_count(model), syncscope.buffer_count(model)))
        return
    syncscope.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    images, labels = load_split("train", args.data)
    train_set = torch.utils.data.TensorDataset(torch.from_numpy(images), torch.from_numpy(labels))
    testing = None
    if syncscope.rank() == 0:
        testing = threading.Thread(target=evaluator(args.data).run, daemon=True)
        testing.start()
    worker = syncscope.Worker(model=model, train_examples=len(train_set))
    opt = worker.wrap(None, model)
    model.train()
    loader = torch.utils.data.DataLoader(train_set, batch_sampler=syncscope.ShardBatchSampler(opt, len(train_set)))
    for x, y in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step(loss, batch_size=len(y))
    print("rank %d (worker %d): the run is over at model version %d" % (syncscope.rank(), worker.worker_id,
                                                                         opt.version), flush=True)
    worker.close()
    if testing is not None:
        testing.join(timeout=120)  # the final model's evaluation, which the coordinator waits for


if __name__ == "__main__":
    try:
        main()
    except syncscope.SyncScopeError as error:
        sys.exit("train_worker: %s" % error)
