#!/usr/bin/python3
"""Trains a model the engine does not have, a small residual CNN, on Fashion-MNIST with a SyncScope
coordinator and 4 PyTorch workers, steerable from the console like any run, and prints
`final test accuracy: X%`.

    python3 custom_model.py                      # coordinator, 4 workers, this process evaluates
    syncscope --attach tcp://127.0.0.1:5556 --credentials FOLDER/steer.credentials   # to steer it

The coordinator runs `serve --model external --parameters N`: it holds the flat parameters and the
optimiser and applies updates under whatever sync mode runs now; the first worker brings the initial
parameters, and this process is the run's evaluator (the console's accuracy chart comes from it).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the syncscope package beside this folder

import syncscope  # noqa: E402
from syncscope.fashion_mnist import load_split  # noqa: E402
from syncscope.flat_layout import buffer_count, parameter_count  # noqa: E402
from syncscope.wire import pb  # noqa: E402


# ---- the model: residual branches that start at zero so the deep path trains from the first step
# ---- (BatchNorm trains too: its running statistics travel as buffers, see train_worker.py)

class Residual(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        nn.init.zeros_(self.conv2.weight)
        nn.init.zeros_(self.conv2.bias)

    def forward(self, x):
        return F.relu(x + self.conv2(F.relu(self.conv1(x))))


class ResidualCnn(nn.Module):
    """28x28 -> conv 16 -> pool -> residual -> conv 32 -> pool -> residual -> 128 -> 10: about 3 M
    multiply-adds a sample, so 4 workers on a 2-core machine train it in minutes."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 16, 3, padding=1)
        self.block1 = Residual(16)
        self.widen = nn.Conv2d(16, 32, 3, padding=1)
        self.block2 = Residual(32)
        self.fc1 = nn.Linear(32 * 7 * 7, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.block1(F.max_pool2d(F.relu(self.stem(x)), 2))
        x = self.block2(F.max_pool2d(F.relu(self.widen(x)), 2))
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


# ---- the roles

def train(args):
    """One worker: its shard of the training set, the batch size the coordinator assigns."""
    syncscope.set_num_threads(1)
    torch.manual_seed(args.seed)  # every worker builds the same initial model; the first one's is used
    model = ResidualCnn()
    images, labels = load_split("train", args.data)
    train_set = torch.utils.data.TensorDataset(torch.from_numpy(images), torch.from_numpy(labels))
    worker = syncscope.Worker(connect=args.connect, credentials=args.credentials, model=model,
                              train_examples=len(train_set))
    tag = "worker %d" % worker.worker_id
    opt = worker.wrap(None, model)
    # This worker's shard of the set, in the batch size the coordinator assigns (elastic changes it).
    loader = torch.utils.data.DataLoader(train_set, batch_sampler=syncscope.ShardBatchSampler(opt, len(train_set),
                                                                                             args.seed))
    steps = 0
    for x, y in loader:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step(loss, batch_size=len(y))
        steps += 1
    print("%s: the run is over after %d steps (model version %d)" % (tag, steps, opt.version), flush=True)
    worker.close()


def evaluate(args):
    """The run's evaluator as a process of its own: `syncscope-engine run --model external --worker-command
    "python3 custom_model.py --role worker" --evaluator-command "python3 custom_model.py --role evaluator"`
    (the run's place from the environment the engine sets); tests every parameter set it is sent."""
    syncscope.set_num_threads(1)
    images, labels = map(torch.from_numpy, load_split("t10k", args.data))
    if args.eval_examples:  # the first N: a cheaper figure for frequent evaluations (the set is shuffled)
        images, labels = images[:args.eval_examples], labels[:args.eval_examples]
    evaluator = syncscope.Evaluator(model=ResidualCnn(),
                                    evaluate=lambda m: syncscope.accuracy_and_loss(m, images, labels))
    final = evaluator.run()
    print("evaluator: %d evaluations on %d test images; final %s" % (len(evaluator.results), len(labels),
                                                                    "none" if final is None else
                                                                    "%.2f%%" % (100 * final[1])), flush=True)
    evaluator.close()


def run(args):
    """The coordinator, the workers, and this process as the evaluator."""
    syncscope.set_num_threads(1)
    engine = syncscope.find_engine(args.engine)
    folder = args.folder or tempfile.mkdtemp(prefix="syncscope-custom-")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    # The run, once: the engine's default plan with this script's settings; serve checks it.
    plan = syncscope.default_plan(engine)
    plan.spec.model = "external"
    count = parameter_count(ResidualCnn())
    plan.external_parameters = count  # the flat layout: parameters, then floating-point buffers (BatchNorm's)
    plan.spec.buffer_count = buffer_count(ResidualCnn())
    plan.spec.batch_size = args.batch
    plan.spec.learning_rate = args.lr
    plan.spec.eval_interval_seconds = args.eval_interval
    plan.layout.workers = args.workers
    plan.mode.mode = pb.SyncMode.Value(args.mode.upper())
    plan.stop.max_epochs = args.epochs
    if args.record:
        plan.record_path = os.path.abspath(args.record)
    coordinator = syncscope.Coordinator(plan, folder, engine=engine, ports=(args.port, args.port + 1, args.port + 2))
    processes = []
    try:
        data, control, _ = coordinator.start()
        credentials = coordinator.credentials
        roles = {}
        for role in ("worker", "steer"):
            roles[role] = os.path.join(folder, role + ".credentials")
            subprocess.run([engine, "keygen", "--credentials", credentials, "--role", role, "--out", roles[role]],
                           check=True, capture_output=True)
        print("residual CNN, %d parameters; %d PyTorch workers, %s, %g epochs" % (count, args.workers, args.mode,
                                                                                args.epochs), flush=True)
        print("steer it: syncscope --attach %s --credentials %s" % (control, roles["steer"]), flush=True)
        for i in range(args.workers):
            log = open(os.path.join(folder, "worker%d.log" % i), "w")
            processes.append(subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "--role", "worker", "--connect", data, "--credentials",
                 roles["worker"], "--seed", str(args.seed)] + (["--data", args.data] if args.data else []),
                stdout=log, stderr=subprocess.STDOUT))
        images, labels = map(torch.from_numpy, load_split("t10k", args.data))
        evaluator = syncscope.Evaluator(data, ResidualCnn(), lambda m: syncscope.accuracy_and_loss(m, images, labels),
                                        credentials=roles["worker"])
        started = time.monotonic()
        final = evaluator.run()
        seconds = time.monotonic() - started
        for version, accuracy, loss, took in evaluator.results[-3:]:
            print("version %d: test accuracy %.2f%%, loss %.4f (%.1f s to evaluate)" % (version, 100 * accuracy,
                                                                                        loss, took), flush=True)
        coordinator.wait(timeout=60)
        for p in processes:
            p.wait(timeout=30)
        if final is None:
            sys.exit("custom_model: the run ended without a final evaluation; see %s" % coordinator.log_path)
        print("final test accuracy: %.2f%% (model version %d, %g epochs, %.0f s)" % (100 * final[1], final[0],
                                                                                  args.epochs, seconds), flush=True)
    except syncscope.SyncScopeError as error:
        sys.exit("custom_model: %s" % error)
    finally:
        coordinator.stop()
        for p in processes:
            if p.poll() is None:
                p.terminate()
        for p in processes:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        if not args.folder:
            shutil.rmtree(folder, ignore_errors=True)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--role", choices=["run", "worker", "evaluator"], default="run",
                        help="run (default): the whole run from this script; worker / evaluator: one process of a "
                             "run that syncscope-engine run started (--worker-command / --evaluator-command)")
    parser.add_argument("--connect", help=argparse.SUPPRESS)
    parser.add_argument("--credentials", help=argparse.SUPPRESS)
    parser.add_argument("--engine", help="the syncscope-engine binary (default: $SYNCSCOPE_ENGINE, PATH, ../../build)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--mode", default="bsp", help="the sync mode the run starts in (the console changes it)")
    parser.add_argument("--epochs", type=float, default=10)
    parser.add_argument("--batch", type=int, default=64, help="per worker")
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--eval-interval", type=float, default=15.0,
                        help="seconds between evaluations (each takes a few seconds of one core)")
    parser.add_argument("--port", type=int, default=5555, help="data port; control and telemetry take the next two")
    parser.add_argument("--seed", type=int, default=None,
                        help="initial model and data order (default: the run's --seed when the engine started this "
                             "script, else 1)")
    parser.add_argument("--data", help="folder with the Fashion-MNIST IDX .gz files")
    parser.add_argument("--record", help="write a run recording to this file")
    parser.add_argument("--folder", help="keep the credentials and logs here (default: a temporary folder)")
    parser.add_argument("--eval-examples", type=int, default=0,
                        help="--role evaluator: test on the first N test images (0: all 10,000)")
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse_arguments()
    try:
        if arguments.seed is None:
            arguments.seed = syncscope.seed()
        {"worker": train, "evaluator": evaluate, "run": run}[arguments.role](arguments)
    except syncscope.SyncScopeError as error:
        sys.exit("custom_model: %s" % error)
