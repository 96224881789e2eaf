"""An external model's buffers (issue 28, point 1): BatchNorm's running statistics travel with the
model (`serve --buffers B`). A worker sends its buffers' values where the gradient's would be; each
update sets the run's buffers to the batch-weighted mean of its gradients' values; the evaluator,
checkpoints and later workers get them with the parameters. A CNN with BatchNorm trained by 4
PyTorch workers in bsp reaches within 1.0 point of plain PyTorch at the same epochs and global batch;
a worker whose model has other buffers than the run's is refused, saying which flag to give."""

import math
import os
import re
import time

import torch
import torch.nn.functional as F

import syncscope
from conftest import listing
from external_model import bn_cnn, make_model
from syncscope.fashion_mnist import load_split

WORKERS, BATCH, LR, MOMENTUM, WEIGHT_DECAY = 4, 32, float(os.environ.get("SYNCSCOPE_BN_LR", "0.05")), 0.9, 0.0005
# The engine's default cosine schedule, which the reference follows step by step: at a constant rate
# the last model's accuracy varies by about 0.9 points with the data order alone (3 epochs, 4 orders:
# 88.47-89.34%), with the cosine by about 0.4 (3 epochs: 89.37-89.80%; 1 epoch, 6 orders: 87.29-87.96%).
# 1 epoch in the suite (about a third of 3 epochs' 190 s on 2 cores); SYNCSCOPE_BN_EPOCHS=3 gives the
# figures in docs/python.md. SYNCSCOPE_BN_MODE measures another mode (and SYNCSCOPE_BN_LR another rate)
# against the same reference (docs/python.md has asp's figures).
EPOCHS, MODE = int(os.environ.get("SYNCSCOPE_BN_EPOCHS", "1")), os.environ.get("SYNCSCOPE_BN_MODE", "bsp")


def plain_pytorch_accuracy(images, labels, test_images, test_labels):
    """The reference: the same network, initial values and SGD, as many epochs at the global batch, the
    learning rate on the coordinator's cosine (by the epochs done when the step is taken)."""
    model = make_model("bn-cnn")
    optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM, weight_decay=WEIGHT_DECAY)
    model.train()
    for epoch in range(EPOCHS):
        order = torch.randperm(len(labels), generator=torch.Generator().manual_seed(epoch))
        for start in range(0, len(labels), WORKERS * BATCH):
            batch = order[start:start + WORKERS * BATCH]
            done = (epoch * len(labels) + start) / (EPOCHS * len(labels))
            for group in optimizer.param_groups:
                group["lr"] = 0.5 * LR * (1.0 + math.cos(math.pi * done))
            optimizer.zero_grad()
            F.cross_entropy(model(images[batch]), labels[batch]).backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        return (model(test_images).argmax(1) == test_labels).float().mean().item() * 100


def test_a_batchnorm_cnn_on_4_workers_matches_plain_pytorch(cluster):
    model = bn_cnn()
    count, buffers = syncscope.parameter_count(model), syncscope.buffer_count(model)
    assert buffers == 2 * (8 + 16)  # running means and variances, not num_batches_tracked
    cluster.start_coordinator("--workers", str(WORKERS), "--model", "external", "--parameters", str(count),
                              "--buffers", str(buffers), "--mode", MODE, "--batch", str(BATCH), "--lr", str(LR),
                              "--momentum", str(MOMENTUM), "--weight-decay", str(WEIGHT_DECAY), "--schedule",
                              "cosine", "--epochs", str(EPOCHS), "--eval-interval", "60")  # the final one is compared
    cluster.start_external("evaluator", "evaluator", "--model", "bn-cnn")
    started = time.monotonic()
    for i in range(WORKERS):
        cluster.start_external("worker-%d" % i, "worker", "--model", "bn-cnn", "--loader-workers", "0")
    assert cluster.exit_code(cluster.serve, 600) == 0, cluster.logs()
    seconds = time.monotonic() - started
    serve = cluster.output("serve")
    final = re.search(r"final test accuracy: ([\d.]+)% at model version (\d+)", serve)
    assert final, cluster.logs()
    ours = float(final.group(1))

    images, labels = map(torch.from_numpy, load_split("train"))
    test_images, test_labels = map(torch.from_numpy, load_split("t10k"))
    theirs = plain_pytorch_accuracy(images, labels, test_images, test_labels)
    print("bn-cnn, %d epochs, global batch %d: syncscope %s %d workers %.2f%% (%.0f s), plain PyTorch %.2f%%"
          % (EPOCHS, WORKERS * BATCH, MODE, WORKERS, ours, seconds, theirs))
    assert theirs > 80.0, theirs
    if MODE != "bsp":
        return  # a measurement: only bsp computes the same update as plain PyTorch
    assert abs(ours - theirs) <= 1.0, "syncscope %.2f%% against plain PyTorch %.2f%%\n%s" % (ours, theirs, cluster.logs())


def test_a_run_without_the_models_buffers_refuses_its_worker(cluster):
    model = bn_cnn()
    cluster.start_coordinator("--workers", "1", "--model", "external", "--parameters",
                              str(syncscope.parameter_count(model)), "--epochs", "1")
    worker = cluster.start_external("worker", "worker", "--model", "bn-cnn")
    assert cluster.exit_code(worker, 120) != 0
    said = cluster.output("worker")
    assert "has 0 buffers" in said and "start the coordinator with --buffers 48" in said, said


def test_buffers_on_parameter_shards_and_through_a_checkpoint(cluster):
    """Where the model lives on 2 shards, the buffers (in the second shard's range) are set there by the
    same rule; a checkpoint holds them, and the run resumed from it after a SIGKILL of the coordinator
    trains on to a BatchNorm model that tests as well as before."""
    model = bn_cnn()
    flags = ("--workers", "2", "--model", "external", "--parameters", str(syncscope.parameter_count(model)),
             "--buffers", str(syncscope.buffer_count(model)), "--batch", "64", "--epochs", "1", "--shards", "2",
             "--checkpoint-dir", os.path.join(cluster.folder, "checkpoints"), "--checkpoint-seconds", "1",
             "--eval-interval", "60")  # the final evaluation is what is checked; one every second costs a core
    data = cluster.start_coordinator(*flags)["data"]
    port = int(data.rsplit(":", 1)[1])
    for k in range(2):
        cluster.start_shard("shard-%d" % k)
    for i in range(2):
        cluster.start_external("worker-%d" % i, "worker", "--model", "bn-cnn", "--retry")
    cluster.start_external("evaluator", "evaluator", "--model", "bn-cnn", "--retry")
    checkpoints = os.path.join(cluster.folder, "checkpoints")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len([n for n in listing(checkpoints) if "periodic" in n]) < 3:
        time.sleep(0.2)
    shards = [p for p in cluster.processes if p.name.startswith("shard-")]
    for process in [cluster.serve] + shards:  # the shards too: they would end on their own, 10 s later
        process.kill()
        process.wait()
    cluster.start_coordinator(*flags, "--resume", checkpoints, name="resumed", data_port=port)
    for k in range(2):
        cluster.start_shard("shard-again-%d" % k)
    assert cluster.exit_code(cluster.serve, 300) == 0, cluster.logs()
    resumed = cluster.output("resumed")
    final = re.search(r"final test accuracy: ([\d.]+)% at model version (\d+)", resumed)
    assert "resumed" in resumed and final and float(final.group(1)) >= 80.0, cluster.logs()
    print("bn-cnn on 2 shards, resumed after a SIGKILL: %s%% at version %s" % final.groups())
