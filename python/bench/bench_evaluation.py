#!/usr/bin/python3
"""How long an Evaluator's test of Fashion-MNIST's 10,000 test images takes, by images per forward
pass, for the example models (train_worker.py's BatchNorm CNN, custom_model.py's residual CNN), on
one CPU thread as a PyTorch worker's evaluator runs: syncscope.accuracy_and_loss at its default
(syncscope.evaluator.TEST_BATCH) against other batch sizes, the whole set in one pass included (what
a plain script often does). Each cell: the median of --repeats, the batch sizes taking turns.

    PYTHONPATH=python:build/python /usr/bin/python3 python/bench/bench_evaluation.py
Run by hand, on an otherwise idle machine; prints the CPU model beside the table."""

import argparse
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
import syncscope  # noqa: E402
from syncscope.evaluator import TEST_BATCH  # noqa: E402
from syncscope.fashion_mnist import load_split  # noqa: E402
import custom_model  # noqa: E402
import train_worker  # noqa: E402


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batches", default="%d,1000,10000" % TEST_BATCH)
    args = parser.parse_args()
    syncscope.set_num_threads(1)
    images, labels = map(torch.from_numpy, load_split("t10k"))
    batches = [int(b) for b in args.batches.split(",")]
    models = {"bn-cnn (train_worker.py)": train_worker.make_model(), "residual cnn (custom_model.py)": custom_model.ResidualCnn()}
    print("Evaluating 10,000 test images on 1 thread, %s, torch %s" % (cpu_model(), torch.__version__))
    print("| model | " + " | ".join("batch %d%s" % (b, " (default)" if b == TEST_BATCH else "") for b in batches) + " |")
    print("|---|" + "---|" * len(batches))
    for name, model in models.items():
        seconds = {b: [] for b in batches}
        for _ in range(args.repeats):
            for b in batches:  # taking turns
                started = time.monotonic()
                syncscope.accuracy_and_loss(model, images, labels, batch_size=b)
                seconds[b].append(time.monotonic() - started)
        print("| %s | " % name + " | ".join("%.2f s" % statistics.median(seconds[b]) for b in batches) + " |")


if __name__ == "__main__":
    main()
