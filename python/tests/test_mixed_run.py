"""A mixed run: 2 native workers (`syncscope-engine work`) and 2 PyTorch workers (join_native_mlp.py)
train the engine's mlp under one coordinator, steered live from bsp to grouped (G=2) to asp with
dynsgd, and the coordinator's own evaluation reaches 85%. The PyTorch workers' pushes reach the
telemetry like native ones (gradients applied, loss, compute time) and their mode hooks fire."""

import re
import time

from conftest import TelemetryReader
from syncscope import wire
from syncscope.control import Steering

pb = wire.pb


def applied_by(tick):
    return {w.worker_id: w.applied for w in tick.workers}


def test_two_native_and_two_pytorch_workers_reach_85_percent_across_live_switches(cluster):
    started = time.monotonic()
    cluster.start_coordinator("--workers", "4", "--model", "mlp", "--mode", "bsp", "--schedule", "constant",
                              "--max-seconds", "300", "--eval-interval", "1")
    telemetry = TelemetryReader(cluster.endpoints["telemetry"], cluster.keygen("view"))
    steering = Steering(cluster.endpoints["control"], cluster.keygen("steer"))
    try:
        cluster.start_native_worker("native-a")
        cluster.start_python_worker("pytorch-a", "--telemetry", cluster.endpoints["telemetry"],
                                    "--telemetry-credentials", cluster.keygen("view"))
        cluster.start_native_worker("native-b")
        cluster.start_python_worker("pytorch-b")
        trained = telemetry.wait_for(lambda t: t.state == pb.RUN_RUNNING and t.version >= 150, 120)
        assert trained, "bsp did not get going with 4 workers:\n" + cluster.logs()
        assert len(trained.workers) == 4

        steering.set_mode("grouped", "dynsgd", group_count=2)
        grouped = telemetry.wait_for(lambda t: t.mode.mode == pb.GROUPED and t.version >= trained.version + 150, 120)
        assert grouped, "no progress in grouped mode:\n" + cluster.logs()
        assert sorted({w.group for w in grouped.workers}) == [0, 1]

        steering.set_mode("asp", "dynsgd")
        switched = telemetry.wait_for(lambda t: t.mode.mode == pb.ASP, 30)
        assert switched, "the switch to asp never showed in the telemetry"
        # 85% on a model that has trained in asp for a while, not one carried over from bsp.
        reached = telemetry.wait_for(lambda t: t.test_accuracy >= 0.85 and t.test_version >= switched.version + 200,
                                     240)
        assert reached, "no evaluation reached 85%% after the switch to asp (last %.2f%%):\n%s" % (
            100 * telemetry.last.test_accuracy, cluster.logs())
        # Every worker, native or PyTorch, had gradients applied in asp and reported its timings.
        later = telemetry.wait_for(lambda t: True, 10)
        for w in later.workers:
            assert w.applied > applied_by(switched)[w.worker_id], "worker %d stalled in asp" % w.worker_id
            assert w.compute_ms > 0 and w.pushed > 0
        assert 0 < later.train_loss < 1.0  # the workers' losses, PyTorch ones included
        steering.stop()
    finally:
        telemetry.close()
        steering.close()
    cluster.exit_code(cluster.serve, 60)
    final = re.search(r"final test accuracy: ([\d.]+)%", cluster.output("serve"))
    # 85% is the evaluation above; the closing one comes some stale asp updates (constant learning
    # rate) later and was seen below it (84.2%, and 81.9% on a loaded machine), so it only checks
    # that the model was not wrecked on the way.
    assert final and float(final.group(1)) >= 78.0, cluster.logs()
    hooks = cluster.output("pytorch-a")
    assert "mode now BSP" in hooks and "mode now GROUPED" in hooks and "mode now ASP" in hooks, hooks
    assert "pytorch" in cluster.output("serve")  # the coordinator saw PyTorch workers join
    print("mixed run: %.2f%% at version %d (reached 85%% at version %d), %.1f s"
          % (float(final.group(1)), later.version, reached.test_version, time.monotonic() - started))
