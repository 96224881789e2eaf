"""A run of an external model (`serve --model external --parameters N`): a model the engine does not
have (softmax regression, tests/external_model.py) is trained by 2 PyTorch workers, the first of
which brings the initial parameters, and tested by an evaluator process, whose figures reach the
telemetry's accuracy and the coordinator's final line; the same where the model lives on 2 parameter
shards (the first worker's parameters reach the shards, the workers pull and push by range). Workers
that do not fit are refused with a reason: a native one, and one whose model has another size. The
workers follow the coordinator to group aggregators. With retry, workers and evaluator outlive a
killed coordinator; without it, the evaluator ends. A diverged model's NaN loss is reported, not
refused."""

import os
import re
import subprocess
import time

from conftest import TelemetryReader, listing

LINEAR_PARAMETERS = 784 * 10 + 10
MLP_PARAMETERS = 235146  # the engine's mlp, built in PyTorch (syncscope.native_models.NativeMlp)


def test_flags_of_an_external_run_are_checked(engine):
    missing = subprocess.run([engine, "serve", "--model", "external", "--insecure"], capture_output=True, text=True,
                             timeout=30)
    assert missing.returncode != 0 and "--parameters N" in missing.stderr, missing.stderr
    native = subprocess.run([engine, "serve", "--model", "mlp", "--parameters", "10", "--insecure"],
                            capture_output=True, text=True, timeout=30)
    assert native.returncode != 0 and "leave --parameters out" in native.stderr, native.stderr
    local = subprocess.run([engine, "run", "--model", "external", "--parameters", "10"], capture_output=True,
                           text=True, timeout=30)
    assert local.returncode != 0 and "serve --model external" in local.stderr, local.stderr


def test_pytorch_workers_train_an_external_model_that_an_evaluator_tests(cluster):
    cluster.start_coordinator("--workers", "2", "--model", "external", "--parameters", str(LINEAR_PARAMETERS),
                              "--lr", "0.05", "--epochs", "5", "--eval-interval", "0.5")
    telemetry = TelemetryReader(cluster.endpoints["telemetry"], cluster.keygen("view"))
    try:
        cluster.start_external("evaluator", "evaluator")
        # A native worker builds the run's model, and there is none it could build.
        native = cluster.start_native_worker("native")
        assert cluster.exit_code(native, 60) != 0
        assert "a native worker cannot join it" in cluster.output("native"), cluster.output("native")
        cluster.start_external("worker-a", "worker")
        cluster.start_external("worker-b", "worker")
        # A worker with another model: refused, naming both sizes.
        wrong = cluster.start_external("wrong", "worker", "--extra-outputs", "1")
        assert cluster.exit_code(wrong, 120) != 0
        assert "has %d parameters" % LINEAR_PARAMETERS in cluster.output("wrong"), cluster.output("wrong")
        tick = telemetry.wait_for(lambda t: t.test_version > 0 and t.test_accuracy >= 0.75, 240)
        assert tick, "the evaluator's accuracy never reached 75%% (last %s):\n%s" % (
            telemetry.last and telemetry.last.test_accuracy, cluster.logs())
        assert tick.state == 2 and len(tick.workers) == 2  # RUN_RUNNING, the two that fit
    finally:
        telemetry.close()
    cluster.exit_code(cluster.serve, 240)
    serve = cluster.output("serve")
    final = re.search(r"final test accuracy: ([\d.]+)% at model version (\d+)", serve)
    assert final and float(final.group(1)) >= 78.0, cluster.logs()
    assert "evaluator joined" in serve
    evaluator = cluster.output("evaluator")
    assert "final (%s," % final.group(2) in evaluator, evaluator  # it evaluated the final model itself


def test_an_external_model_trains_on_parameter_shards(cluster):
    """The case shards exist for, a model of the user's own: its first worker's parameters go to the
    shards, and every worker pulls and pushes ranges there (python/syncscope/shard_client.py)."""
    cluster.start_coordinator("--workers", "2", "--model", "external", "--parameters", str(LINEAR_PARAMETERS),
                              "--lr", "0.05", "--epochs", "5", "--eval-interval", "0.5", "--shards", "2")
    for k in range(2):
        cluster.start_shard("shard-%d" % k)
    cluster.start_external("evaluator", "evaluator")
    cluster.start_external("worker-a", "worker")
    cluster.start_external("worker-b", "worker")
    cluster.exit_code(cluster.serve, 240)
    serve = cluster.output("serve")
    assert cluster.serve.returncode == 0, cluster.logs()
    final = re.search(r"final test accuracy: ([\d.]+)% at model version (\d+)", serve)
    assert final and float(final.group(1)) >= 78.0, cluster.logs()
    print("an external model on 2 shards: final test accuracy %s%% at version %s" % final.groups())
    for k in range(2):
        shard = cluster.output("shard-%d" % k)
        updates = re.search(r"(\d+) updates of", shard)
        assert updates and int(updates.group(1)) == int(final.group(2)), shard  # every update went through it
        assert ", 0 of another version" in shard, shard


def test_an_external_model_on_shard_replicas_outlives_a_killed_copy(cluster):
    """--shard-replicas 2: every range on two shards, no checkpoints. A SIGKILLed copy leaves its range's
    other copy serving: nothing goes back, the PyTorch workers register again for the copies left (and
    push to both copies of each range meanwhile), and the run ends at its accuracy."""
    cluster.start_coordinator("--workers", "2", "--model", "external", "--parameters", str(LINEAR_PARAMETERS),
                              "--lr", "0.05", "--epochs", "8", "--eval-interval", "0.5", "--shards", "2",
                              "--shard-replicas", "2", "--heartbeat-timeout", "1")
    shards = [cluster.start_shard("shard-%d" % k) for k in range(4)]
    cluster.start_external("evaluator", "evaluator")
    workers = [cluster.start_external(name, "worker") for name in ("worker-a", "worker-b")]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and "all 4 are ready" not in cluster.output("serve"):
        time.sleep(0.2)
    time.sleep(3)  # training, with both copies of each range
    shards[2].kill()
    cluster.exit_code(cluster.serve, 240)
    serve = cluster.output("serve")
    assert cluster.serve.returncode == 0, cluster.logs()
    assert "served by its other copies" in serve and "goes back to" not in serve, cluster.logs()
    final = re.search(r"final test accuracy: ([\d.]+)% at model version (\d+)", serve)
    assert final and float(final.group(1)) >= 78.0, cluster.logs()
    print("an external model on 2 shards x 2 copies, one copy killed: final test accuracy %s%% at version %s"
          % final.groups())
    for name, worker in zip(("worker-a", "worker-b"), workers):
        assert cluster.exit_code(worker, 30) == 0, cluster.output(name)


def test_an_external_model_on_shards_outlives_a_killed_shard(cluster):
    """A run of PyTorch workers that keeps checkpoints loses a shard: the model goes back to the newest
    checkpoint, the workers register again (Error.LAYOUT_CHANGED) and pull from the shard started in
    its place, and the run ends at its accuracy."""
    checkpoints = os.path.join(cluster.folder, "checkpoints")
    cluster.start_coordinator("--workers", "2", "--model", "external", "--parameters", str(LINEAR_PARAMETERS),
                              "--lr", "0.05", "--epochs", "8", "--eval-interval", "0.5", "--shards", "2",
                              "--heartbeat-timeout", "1", "--checkpoint-dir", checkpoints, "--checkpoint-seconds", "1")
    shards = [cluster.start_shard("shard-%d" % k) for k in range(2)]
    cluster.start_external("evaluator", "evaluator")
    workers = [cluster.start_external(name, "worker") for name in ("worker-a", "worker-b")]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any("periodic" in name for name in listing(checkpoints)):
        time.sleep(0.2)
    assert any("periodic" in name for name in listing(checkpoints)), cluster.logs()
    shards[1].kill()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and "range of the model is lost" not in cluster.output("serve"):
        time.sleep(0.2)
    cluster.start_shard("shard-2")
    cluster.exit_code(cluster.serve, 240)
    serve = cluster.output("serve")
    assert cluster.serve.returncode == 0, cluster.logs()
    lost = re.search(r"the model goes back to .* as version \d+ \(\d+ updates? lost\)", serve)
    assert lost, cluster.logs()
    final = re.search(r"final test accuracy: ([\d.]+)% at model version (\d+)", serve)
    assert final and float(final.group(1)) >= 78.0, cluster.logs()
    print("an external model on 2 shards, one killed: %s; final test accuracy %s%% at version %s"
          % ((lost.group(0),) + final.groups()))
    for name, worker in zip(("worker-a", "worker-b"), workers):
        assert cluster.exit_code(worker, 30) == 0, cluster.output(name)
        assert "a parameter shard of the run was replaced; registering again" in cluster.output(name), cluster.output(name)


def test_pytorch_workers_follow_the_coordinator_to_group_aggregators(cluster):
    """In grouped mode each group's gradients are summed by its aggregator process: the PyTorch workers
    registered at the coordinator are dealt to them (Params.move_to), as native workers are."""
    cluster.start_coordinator("--workers", "2", "--model", "external", "--parameters", str(LINEAR_PARAMETERS),
                              "--lr", "0.002", "--target-accuracy", "83", "--max-seconds", "120", "--eval-interval",
                              "0.5", "--mode", "grouped")
    for a in range(2):
        cluster.start_aggregator("aggregator-%d" % a)
    cluster.start_external("evaluator", "evaluator")
    workers = [cluster.start_external(name, "worker") for name in ("worker-a", "worker-b")]
    assert cluster.exit_code(cluster.serve, 150) == 0, cluster.logs()
    serve = cluster.output("serve")
    assert "reached the target 83.00%" in serve, cluster.logs()
    for w in range(2):
        assert "worker %d moves to group %d's aggregator" % (w, w) in serve, serve
    for a in range(2):
        sums = re.search(r"(\d+) gradients in (\d+) sums", cluster.output("aggregator-%d" % a))
        assert sums and int(sums.group(1)) > 100, cluster.output("aggregator-%d" % a)
    for name, worker in zip(("worker-a", "worker-b"), workers):
        assert cluster.exit_code(worker, 30) == 0, cluster.output(name)


def test_a_dataloader_follows_the_elastic_batch_size(cluster):
    """ShardBatchSampler: PyTorch workers drawing from a DataLoader (2 loader processes, so batches are
    drawn ahead) train in elastic mode, where one worker made 2x slower gets smaller batches; the run
    reaches its target, and no worker is refused for a batch drawn before a size changed (those are
    not pushed)."""
    cluster.start_coordinator("--workers", "2", "--model", "external", "--parameters", str(LINEAR_PARAMETERS),
                              "--lr", "0.002", "--target-accuracy", "81", "--max-seconds", "60", "--eval-interval",
                              "0.5", "--mode", "elastic", "--rebalance-seconds", "0.5", "--slowdown", "0:2")
    cluster.start_external("evaluator", "evaluator")
    workers = [cluster.start_external(name, "worker", "--loader-workers", "2") for name in ("worker-a", "worker-b")]
    assert cluster.exit_code(cluster.serve, 150) == 0, cluster.logs()
    serve = cluster.output("serve")
    assert "reached the target 81.00%" in serve and "batch sizes by speed" in serve, cluster.logs()
    sizes = []
    for name, worker in zip(("worker-a", "worker-b"), workers):
        assert cluster.exit_code(worker, 30) == 0, cluster.output(name)
        done = re.search(r"batch sizes \[([\d, ]+)\]; (\d+) batches", cluster.output(name))
        assert done, cluster.output(name)
        sizes.append([int(n) for n in done.group(1).split(",")])
    assert any(len(s) > 1 for s in sizes), sizes  # the sizes changed, and the loader followed
    print("elastic through DataLoaders: batch sizes drawn %s" % sizes)


def test_an_external_run_outlives_a_killed_coordinator(cluster):
    """PyTorch workers and the evaluator made with retry=True wait for a coordinator SIGKILLed mid-run,
    register again with the one resumed from the run's checkpoint on the same address, and the run
    ends at its target, evaluated by the same evaluator."""
    checkpoints = os.path.join(cluster.folder, "checkpoints")
    args = ("--workers", "2", "--model", "external", "--parameters", str(LINEAR_PARAMETERS), "--lr", "0.002",
            "--target-accuracy", "83", "--max-seconds", "120", "--eval-interval", "0.5", "--checkpoint-seconds",
            "0.3")
    endpoints = cluster.start_coordinator(*args, "--checkpoint-dir", checkpoints)
    port = int(endpoints["data"].rsplit(":", 1)[1])
    processes = [cluster.start_external(name, role, "--retry")
                 for name, role in (("evaluator", "evaluator"), ("worker-a", "worker"), ("worker-b", "worker"))]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len([n for n in listing(checkpoints) if "periodic" in n]) < 2:
        time.sleep(0.1)
    assert "reached the target" not in cluster.output("serve"), "the target came before the kill:\n" + cluster.logs()
    assert len([n for n in listing(checkpoints) if "periodic" in n]) >= 2, cluster.logs()
    cluster.serve.kill()
    cluster.serve.wait()
    time.sleep(1.5)  # long enough for the workers' heartbeats to miss it
    cluster.start_coordinator(*args, "--resume", checkpoints, name="resumed", data_port=port)
    assert cluster.exit_code(cluster.serve, 150) == 0, cluster.logs()
    resumed = cluster.output("resumed")
    final = re.search(r"final test accuracy: ([\d.]+)% at model version (\d+)", resumed)
    assert "reached the target 83.00%" in resumed and final, cluster.logs()
    assert "evaluation: evaluator joined" in resumed and resumed.count("registered again") == 2, resumed
    for name, process in zip(("evaluator", "worker-a", "worker-b"), processes):
        assert cluster.exit_code(process, 30) == 0, cluster.output(name)
        assert "registering again" in cluster.output(name), cluster.output(name)
    assert "final (%s," % final.group(2) in cluster.output("evaluator"), cluster.output("evaluator")
    print("an external run, its coordinator killed and resumed: final test accuracy %s%% at version %s"
          % final.groups())


def test_an_evaluator_without_retry_ends_when_its_coordinator_dies(cluster):
    """It used to wait forever: it sends nothing between evaluations, so only ZeroMQ's heartbeats see
    a dead coordinator."""
    cluster.start_coordinator("--workers", "1", "--model", "external", "--parameters", str(LINEAR_PARAMETERS))
    evaluator = cluster.start_external("evaluator", "evaluator")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and "evaluator joined" not in cluster.output("serve"):
        time.sleep(0.1)
    assert "evaluator joined" in cluster.output("serve"), cluster.logs()
    cluster.serve.kill()
    started = time.monotonic()
    assert cluster.exit_code(evaluator, 30) != 0, cluster.output("evaluator")
    assert "went away" in cluster.output("evaluator") and "retry=True" in cluster.output("evaluator"), \
        cluster.output("evaluator")
    print("an evaluator without retry ended %.1f s after its coordinator was killed" % (time.monotonic() - started))


def test_an_evaluator_reports_a_diverged_model(cluster):
    """A learning rate that blows the model up (the mlp's network in PyTorch at lr 10): the workers'
    gradients turn NaN and are dropped, and the evaluator's loss is NaN or infinite, as the engine's own
    evaluator reports a diverged mlp's. The coordinator takes it (it used to refuse it, and the
    evaluator ended with CoordinatorLost), and the run goes on to its time limit and final evaluation."""
    cluster.start_coordinator("--workers", "1", "--model", "external", "--parameters", str(MLP_PARAMETERS),
                              "--lr", "10", "--momentum", "0.9", "--max-seconds", "8", "--eval-interval", "0.5")
    evaluator = cluster.start_external("evaluator", "evaluator", "--model", "mlp")
    cluster.start_external("worker", "worker", "--model", "mlp")
    assert cluster.exit_code(cluster.serve, 150) == 0, cluster.logs()
    assert cluster.exit_code(evaluator, 60) == 0, cluster.logs()
    serve = cluster.output("serve")
    assert "training diverged" in serve and "refused" not in serve, cluster.logs()
    final = re.search(r"final test accuracy: ([\d.]+)% at model version (\d+)", serve)
    assert final, cluster.logs()
    said = cluster.output("evaluator")
    assert re.search(r"final \(%s, [\d.e-]+, (nan|inf)" % final.group(2), said), said
