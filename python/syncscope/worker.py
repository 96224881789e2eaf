"""Worker: a Python training process on the engine's data plane, exactly like `syncscope-engine work`
(engine/worker/worker.cpp): it chooses its routing id, registers, checks the Welcome, sends heartbeats on
a thread of its own, then each exchange pushes a gradient (a raw float32 frame) and waits for the
parameters the coordinator releases under whatever sync mode runs now."""

import collections
import math
import os
import random
import socket as _socket
import time

import numpy as np
import zmq

from . import wire
from .cpu_limit import CpuLimitWatch, process_cpu_ms
from .credentials import Credentials, default_path
from .errors import CoordinatorLost, CoordinatorSilent, ProtocolError, SyncScopeError
from .heartbeat import HeartbeatSender
from .launched import connection
from .sealed import data_socket
from .shard_client import ShardClient
from .telemetry import TelemetryWatcher

MAX_BATCH = 1 << 16
MAX_PARAMETERS = 1 << 31
MAX_SLOWDOWN_FACTOR = 100.0  # engine/plan/mode_catalog.cpp's limits
MAX_DELAY_MS = 60000.0
LOST_MESSAGE_AFTER_S = 3.0  # how long both sides wait for each other before a message counts as lost
PREFETCHED_BATCH_SIZES = 8  # earlier assigned sizes a gradient may still be computed on (a prefetching loader)
MOVE_TIMEOUT_S = 5.0  # for an aggregator's welcome after a move (engine/worker/worker.cpp's kMoveTimeoutSeconds)


class _RunOver(Exception):
    """Registering again, the worker heard the run is over (Error.RUN_OVER): it ends as if stopped."""


def validate_welcome(welcome):
    """A coordinator is a peer like any other: what it sends is checked before it is relied on."""
    spec = welcome.spec

    def bad(what):
        return ProtocolError("the coordinator sent a run spec with %s; is it a SyncScope coordinator of this "
                             "release?" % what)
    if spec.shard_count == 0 or welcome.shard_index >= spec.shard_count:
        raise bad("shard %d of %d" % (welcome.shard_index, spec.shard_count))
    if spec.batch_size == 0 or spec.batch_size > MAX_BATCH:
        raise bad("batch size %d" % spec.batch_size)
    if spec.parameter_count == 0 or spec.parameter_count > MAX_PARAMETERS:
        raise bad("%d parameters" % spec.parameter_count)
    if len(spec.model) > 64 or len(spec.data_dir) > 4096:
        raise bad("an over-long model name or data folder")


def validate_params(params):
    s = params.slowdown

    def within(value, lo, hi):
        return math.isfinite(value) and lo <= value <= hi
    factor = s.factor if s.factor != 0 else 1.0  # a proto3 default: no slowdown set
    ok = (within(factor, 1.0, MAX_SLOWDOWN_FACTOR) and within(s.fixed_delay_ms, 0, MAX_DELAY_MS)
          and within(s.network_delay_ms, 0, MAX_DELAY_MS) and within(s.transient_probability, 0, 1)
          and (s.transient_probability == 0 or within(s.transient_factor, 1.0, MAX_SLOWDOWN_FACTOR)))
    if not ok:
        raise ProtocolError("the coordinator sent a nonsensical slowdown: %s" % str(s).replace("\n", " "))
    if params.batch_size > MAX_BATCH:
        raise ProtocolError("the coordinator asked for a batch of %d" % params.batch_size)


class Worker:
    """One worker of a SyncScope run. Registers at once; `wrap()` joins the training.

    connect: the coordinator's data endpoint, "tcp://HOST:PORT". Left out, it and the credentials, insecure
        and data_plane come from the environment the engine gives a --worker-command (syncscope.environment()).
    credentials: the worker role's file (from `syncscope-engine keygen --role worker`, or the
        coordinator's own); None: the default path. insecure=True: no authentication (a coordinator
        run with --insecure, loopback only).
    data_plane: "encrypted" (sealed frames, syncscope/sealed.py) or "authenticated" (the workers' token, tensors in the clear), as
        the coordinator's --data-plane.
    telemetry: the coordinator's telemetry endpoint, for the mode and group hooks; it takes view or
        steer keys (from `credentials`, or `telemetry_credentials`): the data plane does not say the mode.
    model: the PyTorch model this worker trains. A run of an external model (`serve --model external
        --parameters N --buffers B`, syncscope.parameter_count(model) and buffer_count(model)) needs it:
        the first worker's parameters and buffers become the run's initial ones. For a run of a native
        model its parameter count is checked at registration.
    train_examples: with `model`, the training-set size (all workers together), for the run's epochs.
    retry: when the coordinator goes away (killed, its host rebooted) wait for it and register again,
        every second, as `syncscope-engine work --retry` does: a coordinator resumed from a checkpoint
        (`serve --resume`) finds its workers back. Without it a lost coordinator raises CoordinatorLost.
    """

    def __init__(self, connect=None, credentials=None, *, insecure=False, data_plane="encrypted", telemetry=None,
                 telemetry_credentials=None, backend="pytorch", coordinator_timeout=3.0, register_timeout=10.0,
                 model=None, train_examples=0, retry=False):
        # Started by the engine (--worker-command) without an address: where the run is, from the environment.
        connect, credentials, insecure, data_plane = connection(connect, credentials, insecure, data_plane)
        if data_plane not in ("encrypted", "authenticated"):
            raise SyncScopeError("data_plane must be 'encrypted' or 'authenticated', not %r" % (data_plane,))
        self.connect = connect
        self._plain = data_plane == "authenticated"
        self._credentials = None if insecure else Credentials.load(credentials or default_path())
        if self._credentials and not self._plain and not self._credentials.has("worker"):
            raise SyncScopeError("credentials '%s' hold no worker keys (make them with `syncscope-engine keygen "
                                 "--role worker --out FILE`)" % self._credentials.path)
        self._backend = backend
        self._initial = None  # sent until the first Welcome
        self._buffers = 0  # of the model's flat layout (serve --buffers)
        if model is not None:
            from .flat_layout import buffer_count, flatten  # torch only where a model is given
            self._initial = flatten(model)
            self._buffers = buffer_count(model)
        self._train_examples = int(train_examples)
        if self._initial is not None and self._train_examples <= 0:
            raise SyncScopeError("Worker(model=...) needs train_examples, the training-set size (for the run's "
                                 "epochs), e.g. train_examples=len(train_set)")
        self._coordinator_timeout = coordinator_timeout
        self._retry = bool(retry)
        self._earlier_batches = collections.deque(maxlen=PREFETCHED_BATCH_SIZES)
        self._cpu_limit = CpuLimitWatch()
        self._cpu_ms_at_push = None  # the process's CPU time at its previous push
        self._register_timeout = register_timeout
        self.routing_id = "pyworker-%d-%016x" % (os.getpid(), random.getrandbits(64))
        self._context = zmq.Context()
        self._socket = None
        self._heartbeat = None
        self._welcome = None
        self.stopped = False
        self.version = None  # of the parameters held now
        self.slowdown = wire.pb.Slowdown()
        self._telemetry = None
        if telemetry:
            watch = (Credentials.load(telemetry_credentials) if telemetry_credentials else self._credentials)
            self._telemetry = TelemetryWatcher(self._context, telemetry, watch)
        self._register()

    # ---- the run as the Welcome describes it ----

    @property
    def spec(self):
        """The run spec (model, batch size, seed, learning rate, ...): syncscope_pb2.RunSpec."""
        return self._welcome.spec

    @property
    def worker_id(self):
        return self._welcome.worker_id

    @property
    def shard_index(self):
        return self._welcome.shard_index

    @property
    def shard_count(self):
        return self._welcome.spec.shard_count

    @property
    def batch_size(self):
        """The batch the coordinator assigned for the next gradient (elastic mode changes it)."""
        return self._batch

    def assigned_earlier(self, batch_size):
        """Whether the coordinator assigned this size before its latest change (one of the last
        PREFETCHED_BATCH_SIZES): a batch a prefetching DataLoader drew before a change has it."""
        return batch_size != self._batch and batch_size in self._earlier_batches

    def shard(self, sample_count):
        """The training sample indices of this worker's shard: index i belongs to shard i mod shard_count."""
        return range(self.shard_index, sample_count, self.shard_count)

    # ---- hooks ----

    def on_mode_change(self, callback):
        """callback(settings: syncscope_pb2.ModeSettings), on the training thread, at the next step
        after the coordinator's mode changed (and once for the mode it runs when first seen)."""
        self._watcher("on_mode_change").mode_hooks.append(callback)

    def on_group_change(self, callback):
        """callback(group: int), on the training thread, when this worker's group changes."""
        self._watcher("on_group_change").group_hooks.append(callback)

    def _watcher(self, what):
        if not self._telemetry:
            raise SyncScopeError(
                "%s needs the coordinator's telemetry endpoint: Worker(..., telemetry='tcp://HOST:PORT') with view "
                "or steer keys (telemetry_credentials=FILE from `syncscope-engine keygen --role view`); the data "
                "plane does not carry the mode" % what)
        return self._telemetry

    def fire_hooks(self):
        """Runs the hooks of mode and group changes seen since the last call (step() calls it)."""
        if self._telemetry:
            self._telemetry.fire(self.worker_id)

    # ---- joining the training ----

    def wrap(self, optimizer, model):
        """Joins the training with a PyTorch model: returns a DistributedOptimizer whose step() pushes the
        model's gradient and copies in the parameters the coordinator releases. The coordinator applies
        the update with the run's SGD (learning rate, momentum, weight decay): `optimizer` (or None) only
        names the parameters and zeroes gradients; its own step() is never called."""
        from .optimizer import DistributedOptimizer
        return DistributedOptimizer(self, optimizer, model)

    def pull(self):
        """The first exchange: asks for parameters without a gradient. Returns the parameter frame, or
        None when the run is over."""
        if self.stopped:
            return None
        envelope = wire.pb.Envelope()
        envelope.push.worker_id = self.worker_id
        self._sent_at = time.monotonic()
        wire.send(self._socket, envelope)
        return self._await_params()

    def push(self, gradient, loss, compute_ms, batch_size):
        """Pushes a gradient (float32, parameter_count long, any buffer: sent without a copy) computed on
        the parameters held now, then waits for the next ones. Returns the parameter frame, or None when
        the run is over. compute_ms is reported as measured; injected slowdown is waited here."""
        if self.stopped:
            return None
        if self.version is None:
            raise SyncScopeError("push() before pull(): a gradient needs the parameters it was computed on")
        compute_ms += self._straggle(compute_ms)
        if self.slowdown.network_delay_ms > 0:
            time.sleep(self.slowdown.network_delay_ms / 1000.0)
        envelope = wire.pb.Envelope()
        p = envelope.push
        p.worker_id = self.worker_id
        p.has_gradient = True
        p.base_version = self.version  # the oldest of the shards' ranges in a sharded run
        p.batch_size = batch_size
        p.loss = loss
        p.compute_ms = compute_ms
        p.comm_ms = self._comm_ms
        p.wait_ms = self._wait_ms
        cpu_ms = process_cpu_ms()
        if self._cpu_ms_at_push is not None:
            p.cpu_ms = cpu_ms - self._cpu_ms_at_push
        self._cpu_ms_at_push = cpu_ms
        p.cpu_limit = self._cpu_limit.cores()
        self._sent_at = time.monotonic()
        if self._shards is not None:  # the ranges to the shards first; the coordinator waits for their word
            self._sequence += 1
            self._trackers = self._shards.push(gradient, self._sequence, self.version)
            p.sequence = self._sequence
            p.newest_base_version = self._newest_version
            wire.send(self._socket, envelope)
        else:
            self._trackers = [self._send_tensor(envelope, gradient)]
        return self._await_params()

    def wait_gradient_sent(self):
        """Blocks until ZeroMQ has let go of the last gradient buffer (it is sent without a copy)."""
        for tracker in self._trackers:
            tracker.wait()
        self._trackers = []

    def close(self):
        if self._heartbeat:
            self._heartbeat.stop()
            self._heartbeat = None
        if self._telemetry:
            self._telemetry.stop()
            self._telemetry = None
        if self._shards is not None:
            self._shards.close()
            self._shards = None
        if self._socket is not None:
            self._socket.close(linger=0)
            self._socket = None
        self._context.term()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- the protocol ----

    _trackers = []
    _shards = None          # a sharded run's ShardClient: where the model lives
    _sequence = 0           # of the last gradient pushed (sharded runs)
    _newest_version = None  # the newest of the shards' ranges held now
    _sent_at = 0.0
    _lost_why = None        # why the next registration is a re-registration, where not the heartbeat's word
    _comm_ms = 0.0
    _wait_ms = 0.0

    def _data_socket(self):
        """A DEALER with the worker role's security (sealed on the encrypted data plane)."""
        return data_socket(self._context, self._credentials, self._plain)

    def _send_tensor(self, envelope, tensor):
        envelope.protocol_major = wire.PROTOCOL_MAJOR
        envelope.protocol_minor = wire.PROTOCOL_MINOR
        self._socket.send(envelope.SerializeToString(), flags=zmq.SNDMORE)
        return self._socket.send(tensor, copy=False, track=True)

    def _open(self, endpoint):
        if self._socket is not None:
            self._socket.close(linger=0)
        self._socket = self._data_socket()
        self._socket.linger = 0
        self._socket.routing_id = self.routing_id.encode()  # chosen once: a re-registration is the same worker
        self._socket.connect(endpoint)

    def _hello(self):
        hello = wire.pb.Envelope()
        hello.register.pid = os.getpid()
        hello.register.hostname = _socket.gethostname()[:255]
        hello.register.backend = self._backend
        hello.register.parameter_shards = True  # it can pull from and push to parameter shards
        hello.register.movable = True  # it follows Params.move_to to a group aggregator
        return hello

    def _register(self):
        if self._heartbeat:
            self._heartbeat.stop()
            self._heartbeat = None
        self._open(self.connect)
        hello = self._hello()
        if self._initial is not None:
            hello.register.parameter_count = len(self._initial)
            hello.register.buffer_count = self._buffers
            hello.register.train_examples = self._train_examples
        elif self._welcome is not None:  # registering again: its model is the size the run's is
            hello.register.parameter_count = self._welcome.spec.parameter_count
            hello.register.buffer_count = self._welcome.spec.buffer_count
        wire.send(self._socket, hello)
        reply, _ = self._await(self._register_timeout, registering=True)
        if reply.HasField("error") and reply.error.code == wire.pb.Error.INITIAL_PARAMETERS_NEEDED:
            wire.send(self._socket, hello, self._initial)  # the first worker of a run of an external model
            reply, _ = self._await(self._register_timeout, registering=True)
        if not reply.HasField("welcome"):
            raise ProtocolError("the coordinator answered registration with no welcome")
        validate_welcome(reply.welcome)
        self._initial = None  # the run has its initial parameters now (this worker's or another's)
        self._welcome = reply.welcome
        self._batch = reply.welcome.spec.batch_size
        self._max_tensor = reply.welcome.spec.parameter_count * 4
        if self._shards is not None:
            self._shards.close()
            self._shards = None
        if reply.welcome.parameter_shards:
            self._shards = ShardClient(self._context, reply.welcome.parameter_shards, self._data_socket,
                                       reply.welcome.worker_id, reply.welcome.session_token,
                                       reply.welcome.spec.parameter_count)
        self._heartbeat = HeartbeatSender(self._context, self.connect, self._data_socket, self.routing_id + "/heartbeat",
                                          reply.welcome.worker_id, reply.welcome.session_token,
                                          self._coordinator_timeout)

    def _await(self, timeout_s, registering=False):
        deadline = time.monotonic() + timeout_s
        told_waiting = False
        while True:
            if self._socket.poll(100):
                envelope, tensor = wire.receive(self._socket, getattr(self, "_max_tensor", 0))
                if registering and envelope.HasField("heartbeat_ack"):
                    # The coordinator lives and holds this registration until its parameter shards are
                    # all there (1.9): the timeout counts silence.
                    deadline = time.monotonic() + timeout_s
                    if not told_waiting:
                        told_waiting = True
                        print("syncscope worker: the coordinator takes this worker once its parameter shards are "
                              "all there; waiting", flush=True)
                    continue
                asked = registering and self._initial is not None
                if not registering and envelope.HasField("error") and envelope.error.code == wire.pb.Error.LAYOUT_CHANGED:
                    return None, None  # a parameter shard was replaced: register again for the new ranges
                if (not registering and self._retry and envelope.HasField("error")
                        and envelope.error.code == wire.pb.Error.NOT_REGISTERED):
                    self._lost_why = "the coordinator no longer knows this worker (restarted)"
                    return None, None
                if envelope.HasField("error") and envelope.error.code == wire.pb.Error.RUN_OVER:
                    self._run_is_over("it registered again after the end", None)
                    raise _RunOver()
                if envelope.HasField("error") and not (
                        asked and envelope.error.code == wire.pb.Error.INITIAL_PARAMETERS_NEEDED):
                    raise CoordinatorLost("the coordinator refused this worker: %s" % envelope.error.message)
                return envelope, tensor
            if registering:
                if time.monotonic() > deadline:
                    raise CoordinatorSilent(
                        "no coordinator answered at %s within %g s; is a coordinator (`syncscope-engine serve`) "
                        "running at that address, and are these the worker credentials it made?"
                        % (self.connect, timeout_s))
                continue
            if self._heartbeat.run_over():
                return self._run_is_over("its stop was lost; the heartbeat acknowledgements said so",
                                         self._heartbeat.final_version)
            if self._heartbeat.rejoin_asked():
                return None, None
            if (time.monotonic() - self._sent_at > LOST_MESSAGE_AFTER_S
                    and self._heartbeat.coordinator_awaiting_for(LOST_MESSAGE_AFTER_S)):
                return None, None  # the push or its answer went down with a dropped connection
            if self._heartbeat.coordinator_lost():
                if self._retry:
                    self._lost_why = "the coordinator stopped answering"
                    return None, None
                raise CoordinatorLost("the coordinator at %s stopped answering (no heartbeat reply for %g s); a "
                                      "worker made with retry=True waits for a resumed one"
                                      % (self.connect, self._coordinator_timeout))

    def _run_is_over(self, how, version):
        """The run's end heard another way than its stop (which went down with a dropped connection):
        returns a stop as the coordinator would have sent it."""
        print("syncscope worker %d: the run is over (%s%s)" % (
            self.worker_id, "" if version is None else "model version %d; " % version, how), flush=True)
        envelope = wire.pb.Envelope()
        envelope.params.stop = True
        envelope.params.version = version if version is not None else (self.version or 0)
        return envelope, None

    def _await_params(self):
        try:
            return self._next_params()
        except _RunOver:  # it registered again after the end (its stop was lost): as stopped
            self.stopped = True
            return None

    def _next_params(self):
        while True:
            envelope, tensor = self._await(0)
            if envelope is None:  # a message was lost, or a shard replaced: register again (same id back)
                return self._register_again()
            if not envelope.HasField("params"):
                continue  # a late reply of another kind
            params = envelope.params
            if params.move_to:
                self._move_to(params.move_to)
                continue
            if params.stop:
                self.stopped = True
                self.version = params.version
                if self._heartbeat:  # its last heartbeat says it leaves
                    self._heartbeat.stop(leaving=True)
                    self._heartbeat = None
                return None
            validate_params(params)
            if params.from_shards:
                if self._shards is None:
                    raise ProtocolError("the coordinator sent no parameter shards to pull from")
                try:
                    values, oldest, newest = self._shards.pull(
                        params.version,
                        lambda: not self._heartbeat.coordinator_lost() and not self._heartbeat.rejoin_asked())
                except CoordinatorLost:
                    if not (self._heartbeat.rejoin_asked() or self._retry):
                        raise
                    self._lost_why = "the coordinator or a parameter shard stopped answering"
                    return self._register_again()  # a shard it pulled from was lost and replaced
            elif tensor is None or len(tensor.buffer) != self.spec.parameter_count * 4:
                raise ProtocolError("the coordinator sent parameters of the wrong size")
            else:
                values, oldest, newest = np.frombuffer(tensor.buffer, dtype=np.float32), params.version, params.version
            round_trip_ms = (time.monotonic() - self._sent_at) * 1000.0
            self._wait_ms = params.held_ms
            self._comm_ms = max(0.0, round_trip_ms - self._wait_ms)
            self.version = oldest  # staleness counts from the oldest range, so it is never understated
            self._newest_version = newest
            self.slowdown = params.slowdown
            if params.batch_size > 0 and params.batch_size != self._batch:
                self._earlier_batches.append(self._batch)  # a prefetching loader's batches may still have it
                self._batch = params.batch_size
            return values

    def _move_to(self, endpoint):
        """The coordinator deals this worker to a group aggregator: the same session, registered there
        (heartbeats still go to the coordinator). Where the aggregator does not answer, back to the
        coordinator, naming the address it could not reach."""
        try:
            self._register_moved(endpoint, "", MOVE_TIMEOUT_S)
        except CoordinatorSilent as error:
            print("syncscope worker %d: could not move to the aggregator at %s (%s); registering again at %s"
                  % (self.worker_id, endpoint, error, self.connect), flush=True)
            self._register_moved(self.connect, endpoint, self._register_timeout)

    def _register_moved(self, endpoint, unreachable, timeout_s):
        self._open(endpoint)
        hello = self._hello()
        hello.register.worker_id = self.worker_id
        hello.register.session_token = self._welcome.session_token
        hello.register.unreachable = unreachable
        wire.send(self._socket, hello)
        reply, _ = self._await(timeout_s, registering=True)
        if not reply.HasField("welcome") or reply.welcome.worker_id != self.worker_id:
            raise ProtocolError("the coordinator answered a move with another worker's session")
        pull = wire.pb.Envelope()
        pull.push.worker_id = self.worker_id
        self._sent_at = time.monotonic()
        wire.send(self._socket, pull)

    def _register_again(self):
        if self._heartbeat.rejoin_asked():
            why = "a parameter shard of the run was replaced"
        else:
            why = self._lost_why or "a message to the coordinator was lost"
        self._lost_why = None
        print("syncscope worker %d: %s; registering again" % (self.worker_id, why), flush=True)
        while True:
            try:
                self._register()
                break
            except CoordinatorSilent as error:  # a refusal is an answer: it ends the worker
                if not self._retry:
                    raise
                print("syncscope worker %d: %s; retrying in 1 s" % (self.worker_id, error), flush=True)
                time.sleep(1.0)
        return self.pull()

    def _straggle(self, compute_ms):
        """Injected straggling, as the native worker does it: a slower machine, a fixed delay, a hiccup."""
        s = self.slowdown
        extra = (max(1.0, s.factor) - 1.0) * compute_ms + s.fixed_delay_ms
        if s.transient_probability > 0 and random.random() < s.transient_probability:
            extra += (max(1.0, s.transient_factor) - 1.0) * compute_ms
        if extra > 0:
            time.sleep(extra / 1000.0)
        return extra
