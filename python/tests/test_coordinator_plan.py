"""syncscope.Coordinator: a run built once as the engine's RunPlan (from `syncscope-engine plan`'s
defaults), handed to `serve --plan`, its endpoints and result read from the report pipe. A native
worker trains it; a plan the engine refuses fails with the engine's reason; the defaults are the
engine's, not a copy."""

import os
import subprocess

import pytest

import syncscope
from syncscope.wire import pb


def test_default_plan_is_the_engines(engine):
    plan = syncscope.default_plan(engine)
    assert plan.spec.model == "mlp"
    assert plan.mode.mode == pb.BSP
    assert plan.spec.batch_size > 0 and plan.spec.learning_rate > 0
    # The text the engine printed parses back to the same message (nothing dropped on the way).
    text = subprocess.run([engine, "plan"], check=True, capture_output=True, text=True, timeout=30).stdout
    again = pb.RunPlan()
    from google.protobuf import text_format
    text_format.Parse(text, again)
    assert again == plan


def test_a_planned_run_trains_and_reports(engine, tmp_path):
    plan = syncscope.default_plan(engine)
    plan.layout.workers = 1
    plan.stop.max_epochs = 0.5
    plan.stop.cosine_schedule = False
    plan.spec.eval_interval_seconds = 0.5
    folder = str(tmp_path / "run")
    with syncscope.Coordinator(plan, folder, engine=engine) as coordinator:
        data, control, telemetry = coordinator.endpoints
        assert data.startswith("tcp://127.0.0.1:") and not data.endswith(":0")
        assert len({data, control, telemetry}) == 3
        assert oct(os.stat(os.path.join(folder, "run.plan")).st_mode & 0o777) == "0o600"
        worker_keys = os.path.join(folder, "worker.credentials")
        subprocess.run([engine, "keygen", "--credentials", coordinator.credentials, "--role", "worker", "--out",
                        worker_keys], check=True, capture_output=True, timeout=30)
        worker = subprocess.Popen([engine, "work", "--connect", data, "--credentials", worker_keys, "--threads", "1"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            result = coordinator.wait(timeout=120)
        finally:
            worker.wait(timeout=30)
    assert result is not None, coordinator.log()
    assert result.failure == "", result.failure
    assert result.evaluated and result.test_accuracy > 0.70, (result, coordinator.log())
    assert result.model_version > 0


def test_a_plan_the_engine_refuses_says_why(engine, tmp_path):
    plan = syncscope.default_plan(engine)
    plan.stop.Clear()  # no epochs, no time limit, no target, not "until stopped"
    with pytest.raises(syncscope.SyncScopeError) as refused:
        syncscope.Coordinator(plan, str(tmp_path / "run"), engine=engine).start(timeout=30)
    assert "the run has no end" in str(refused.value)
