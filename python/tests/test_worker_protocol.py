"""The Python worker's side of the data plane against a scripted peer on a real loopback socket: what
it sends (ids, versions, batch sizes, the gradient frame, timings), what it honours (batch size,
slowdown, stop) and what it refuses (another protocol version, a nonsensical Welcome, a model of
another size, credentials others may read, no coordinator at all)."""

import os
import queue
import threading
import time

import numpy as np
import pytest
import torch
import zmq

import syncscope
from syncscope import wire
from syncscope.cpu_limit import cpu_limit_cores
from syncscope.errors import CoordinatorLost, ProtocolError, SyncScopeError

pb = wire.pb


class ScriptedCoordinator:
    """A ROUTER that welcomes, acknowledges heartbeats, records pushes and answers each with the next
    scripted Params (parameters as float32), then with stop."""

    def __init__(self, parameter_count, replies, major=wire.PROTOCOL_MAJOR, shard_count=1, waiting_signs=0,
                 lost_stop=None):
        self.parameter_count = parameter_count
        # When the replies run out, the stop is lost on the way (protocol 1.15): "acknowledged": the
        # heartbeat acks then say the run is over; "registered again": they say the coordinator waits
        # for the worker, which registers again and is answered RUN_OVER.
        self.lost_stop = lost_stop
        self.stopped = False
        self.leaving = threading.Event()  # a heartbeat said the worker leaves
        self.waiting_signs = waiting_signs  # HeartbeatAcks, 0.5 s apart, before the Welcome (shards awaited)
        self.replies = list(replies)  # (Params fields dict, float array or None)
        self.major = major
        self.shard_count = shard_count
        self.pushes = queue.Queue()
        self.context = zmq.Context()
        self.socket = self.context.socket(zmq.ROUTER)
        self.socket.linger = 0
        port = self.socket.bind_to_random_port("tcp://127.0.0.1")
        self.endpoint = "tcp://127.0.0.1:%d" % port
        self.quit = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def send(self, identity, envelope, tensor=None):
        envelope.protocol_major = self.major
        envelope.protocol_minor = 0
        frames = [identity, envelope.SerializeToString()] + ([tensor.tobytes()] if tensor is not None else [])
        self.socket.send_multipart(frames)

    def loop(self):
        while not self.quit.is_set():
            if not self.socket.poll(50):
                continue
            frames = self.socket.recv_multipart()
            identity, envelope = frames[0], pb.Envelope.FromString(frames[1])
            reply = pb.Envelope()
            if envelope.HasField("register") and not envelope.register.heartbeat_only and self.stopped:
                reply.error.code, reply.error.message = pb.Error.RUN_OVER, "the run is over"
                self.send(identity, reply)
            elif envelope.HasField("register") and not envelope.register.heartbeat_only:
                for _ in range(self.waiting_signs):
                    sign = pb.Envelope()
                    sign.heartbeat_ack.awaiting_worker = False
                    self.send(identity, sign)
                    time.sleep(0.5)
                reply.welcome.worker_id = 3
                reply.welcome.session_token = 99
                reply.welcome.shard_index = 0
                spec = reply.welcome.spec
                spec.model, spec.batch_size, spec.shard_count = "tiny", 4, self.shard_count
                spec.parameter_count, spec.learning_rate = self.parameter_count, 0.1
                self.send(identity, reply)
            elif envelope.HasField("heartbeat") and envelope.heartbeat.leaving:
                self.leaving.set()
            elif envelope.HasField("register") or envelope.HasField("heartbeat"):
                reply.heartbeat_ack.awaiting_worker = self.stopped and self.lost_stop == "registered again"
                if self.stopped and self.lost_stop == "acknowledged":
                    reply.heartbeat_ack.run_over, reply.heartbeat_ack.version = True, 7
                self.send(identity, reply)
            elif envelope.HasField("push"):
                gradient = np.frombuffer(frames[2], np.float32).copy() if len(frames) > 2 else None
                self.pushes.put((envelope.push, gradient))
                if not self.replies and self.lost_stop:
                    self.stopped = True  # the stop goes down with a dropped connection
                    continue
                fields, values = self.replies.pop(0) if self.replies else ({"stop": True}, None)
                for name, value in fields.items():
                    if name == "slowdown":
                        reply.params.slowdown.CopyFrom(value)
                    else:
                        setattr(reply.params, name, value)
                if not fields.get("stop"):
                    reply.params.SetInParent()
                self.send(identity, reply, values)

    def close(self):
        self.quit.set()
        self.thread.join()
        self.socket.close(linger=0)
        self.context.term()


@pytest.fixture
def scripted():
    peers = []

    def make(*args, **kwargs):
        peers.append(ScriptedCoordinator(*args, **kwargs))
        return peers[-1]
    yield make
    for peer in peers:
        peer.close()


def tiny_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 2))  # 8 + 6 = 14


def test_step_pushes_the_flat_gradient_and_installs_released_parameters(scripted):
    first, second = np.arange(14, dtype=np.float32) / 10, np.arange(14, dtype=np.float32)[::-1] / 7
    peer = scripted(14, [({"version": 5, "batch_size": 4}, first), ({"version": 6, "batch_size": 2}, second)])
    with syncscope.Worker(connect=peer.endpoint, insecure=True) as worker:
        model = tiny_model()
        opt = worker.wrap(None, model)
        pull, _ = peer.pushes.get(timeout=5)
        assert pull.worker_id == 3 and not pull.has_gradient
        # The parameters are views of one flat buffer holding what the coordinator released.
        assert np.array_equal(opt.flat_parameters.numpy(), first) and opt.version == 5 and opt.batch_size == 4
        flat = opt.flat_parameters
        for p in model.parameters():
            assert flat.data_ptr() <= p.data_ptr() < flat.data_ptr() + flat.numel() * 4
        opt.zero_grad()
        x = torch.randn(4, 3)
        loss = model(x).pow(2).sum()
        loss.backward()
        expected = torch.cat([p.grad.reshape(-1) for p in model.parameters()]).numpy().copy()
        assert opt.flat_gradients.data_ptr() == model[0].weight.grad.data_ptr()  # no copy on the way out
        time.sleep(0.05)
        assert opt.step(loss) is True
        push, gradient = peer.pushes.get(timeout=5)
        assert push.has_gradient and push.base_version == 5 and push.batch_size == 4
        assert push.loss == pytest.approx(loss.item(), rel=1e-6)
        assert push.compute_ms >= 50  # the time since the parameters came in
        # The CPU limit of its cgroups (protocol 1.14), and no CPU time before a previous push.
        assert push.cpu_limit == cpu_limit_cores() and push.cpu_ms == 0
        assert np.array_equal(gradient, expected)
        assert np.array_equal(opt.flat_parameters.numpy(), second) and opt.version == 6
        assert opt.batch_size == 2  # the coordinator's batch for the next gradient
        with pytest.raises(SyncScopeError, match="assigned 2"):
            opt.step(loss, batch_size=3)
        assert opt.step(loss, batch_size=2) is False  # answered with stop
        last = peer.pushes.get(timeout=5)[0]
        assert not opt.running and last.batch_size == 2
        assert last.cpu_ms > 0  # the process's CPU time since the previous push (the backward pass)


@pytest.mark.parametrize("how", ["acknowledged", "registered again"])
def test_a_worker_whose_stop_was_lost_hears_the_run_is_over(scripted, how, capsys):
    """The stop lost with a dropped connection (protocol 1.15): the heartbeat acks say the run is over,
    or the worker, waiting for an answer, registers again and is answered RUN_OVER. Either way it ends
    as if stopped, and its last heartbeat says it leaves (the coordinator need not wait for it)."""
    peer = scripted(14, [({"version": 5, "batch_size": 4}, np.zeros(14, np.float32))], lost_stop=how)
    with syncscope.Worker(connect=peer.endpoint, insecure=True, retry=True) as worker:
        model = tiny_model()
        opt = worker.wrap(None, model)
        model(torch.ones(4, 3)).sum().backward()
        started = time.monotonic()
        assert opt.step(0.5) is False and worker.stopped
        assert time.monotonic() - started < 30  # (about 0.3 s and 4 s here; without 1.15, never)
        assert worker.version == (7 if how == "acknowledged" else 5)  # the acks name the last version
        assert opt.step(0.5) is False  # nothing is sent after the end
    said = capsys.readouterr().out
    assert ("heartbeat acknowledgements said so" if how == "acknowledged" else "registered again after the end") in said
    assert peer.leaving.wait(2) or how == "registered again"  # (its heartbeats had stopped to register)
    assert peer.pushes.qsize() == 2  # the pull, the push; then nothing


def test_slowdown_from_the_coordinator_is_honoured(scripted):
    slow = pb.Slowdown(factor=1.0, fixed_delay_ms=300, network_delay_ms=100)
    peer = scripted(14, [({"version": 1, "slowdown": slow}, np.zeros(14, np.float32))])
    with syncscope.Worker(connect=peer.endpoint, insecure=True) as worker:
        opt = worker.wrap(None, tiny_model())
        peer.pushes.get(timeout=5)
        started = time.monotonic()
        opt.step(0.5)
        elapsed = time.monotonic() - started
        push, _ = peer.pushes.get(timeout=5)
        assert elapsed >= 0.4  # 300 ms of injected compute, 100 ms before the push
        assert push.compute_ms >= 300


def test_nonsensical_slowdown_is_refused(scripted):
    peer = scripted(14, [({"version": 1, "slowdown": pb.Slowdown(factor=1e9)}, np.zeros(14, np.float32))])
    with syncscope.Worker(connect=peer.endpoint, insecure=True) as worker:
        with pytest.raises(ProtocolError, match="nonsensical slowdown"):
            worker.wrap(None, tiny_model())


def test_a_model_of_another_size_is_refused(scripted):
    peer = scripted(99, [])
    with syncscope.Worker(connect=peer.endpoint, insecure=True) as worker:
        with pytest.raises(SyncScopeError, match="has 14 parameters but the run's \\(tiny\\) has 99"):
            worker.wrap(None, tiny_model())


def test_another_protocol_version_is_refused(scripted):
    peer = scripted(14, [], major=wire.PROTOCOL_MAJOR + 1)
    with pytest.raises(ProtocolError, match="protocol version 2.0 is not supported"):
        syncscope.Worker(connect=peer.endpoint, insecure=True)


def test_a_nonsensical_welcome_is_refused(scripted):
    peer = scripted(14, [], shard_count=0)
    with pytest.raises(ProtocolError, match="shard 0 of 0"):
        syncscope.Worker(connect=peer.endpoint, insecure=True)


def test_no_coordinator_is_a_clear_error():
    context = zmq.Context()
    probe = context.socket(zmq.ROUTER)
    port = probe.bind_to_random_port("tcp://127.0.0.1")
    probe.close(linger=0)  # a port nobody listens on now
    context.term()
    started = time.monotonic()
    with pytest.raises(CoordinatorLost, match="no coordinator answered at tcp://127.0.0.1:%d within 1 s" % port):
        syncscope.Worker(connect="tcp://127.0.0.1:%d" % port, insecure=True, register_timeout=1.0)
    assert time.monotonic() - started < 5


def test_a_registration_held_by_a_living_coordinator_waits_past_the_timeout(scripted):
    """A coordinator waiting for its parameter shards says every second that it lives (HeartbeatAck):
    the register timeout counts silence, not the whole wait."""
    peer = scripted(14, [], waiting_signs=4)  # 2 s of signs against a timeout of 1 s
    started = time.monotonic()
    with syncscope.Worker(connect=peer.endpoint, insecure=True, register_timeout=1.0) as worker:
        assert worker.worker_id == 3 and time.monotonic() - started >= 2.0


def test_credentials_others_may_read_are_refused(tmp_path):
    path = tmp_path / "worker.credentials"
    path.write_text("server-public %s\n" % ("~" * 40))
    os.chmod(path, 0o644)
    with pytest.raises(SyncScopeError, match="may be read by others.*chmod 600"):
        syncscope.Worker(connect="tcp://127.0.0.1:1", credentials=str(path))
    os.chmod(path, 0o600)
    with pytest.raises(SyncScopeError, match="not a 40-character Z85 key"):
        syncscope.Worker(connect="tcp://127.0.0.1:1", credentials=str(path))
