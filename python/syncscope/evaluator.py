"""Evaluator: the process that tests a run's model when the engine does not have it (a run of an
external model, `serve --model external`). It registers on the data plane with the evaluator role,
is sent the run's parameters every eval interval (the coordinator's --eval-interval), evaluates them
with the script's own function on its own test set, and reports test accuracy and loss, which the
console charts like any run's. When the run stops it is sent the final parameters; its result is the
run's final test accuracy.

Its liveness check is ZeroMQ's own (ZMTP heartbeats, ZMQ_HEARTBEAT_IVL/TIMEOUT, and a socket monitor):
the evaluator sends nothing while it waits, maybe for hours of a paused run, so a dead coordinator
is seen as a dropped connection, not as a silence."""

import os
import random
import socket as _socket
import time

import numpy as np
import torch
import torch.nn.functional as F
import zmq
from zmq.utils.monitor import recv_monitor_message

from . import wire
from .credentials import Credentials, default_path
from .errors import CoordinatorLost, CoordinatorSilent, ProtocolError, SyncScopeError
from .flat_layout import buffer_count, load_flat, parameter_count
from .launched import connection
from .sealed import data_socket

HEARTBEAT_MS = 250  # a ZMTP ping this often; a coordinator that answers none for coordinator_timeout is gone
# Test images per forward pass in accuracy_and_loss. Small batches keep a CNN's activations in cache:
# a BatchNorm CNN on Fashion-MNIST's 10,000 test images, one CPU thread, tests in 1.2 s in batches of
# 128 and in 18 s in one batch of 10,000 (2-core AMD EPYC; python/bench/bench_evaluation.py).
TEST_BATCH = 128


def accuracy_and_loss(model, images, labels, batch_size=TEST_BATCH):
    """A classifier's (accuracy in 0..1, mean cross-entropy) on a test set, in eval mode (BatchNorm
    with its running statistics) and without autograd, batch_size images at a time: what an
    Evaluator's evaluate(model) returns, e.g. evaluate=lambda m: accuracy_and_loss(m, images, labels)."""
    model.eval()
    correct, loss = 0, 0.0
    with torch.inference_mode():
        for start in range(0, len(labels), batch_size):
            out = model(images[start:start + batch_size])
            target = labels[start:start + batch_size]
            loss += F.cross_entropy(out, target, reduction="sum").item()
            correct += (out.argmax(1) == target).sum().item()
    return correct / len(labels), loss / len(labels)


class Evaluator:
    """connect, credentials, insecure, data_plane: as for Worker (the worker role's keys). Left out, they
        come from the environment the engine gives a `run --evaluator-command` (syncscope.environment()).
    model: the PyTorch model the run trains; each parameter set it is sent is copied into it.
    evaluate: evaluate(model) -> (accuracy in 0..1, mean loss); called on this thread. A diverged model's
        NaN or infinite loss is reported as it is.
    coordinator_timeout: seconds without the coordinator's connection (dropped, or no ping answered)
        before it counts as gone: CoordinatorLost, or with retry=True, registering again every second
        until a coordinator answers (one resumed from a checkpoint, `serve --resume`)."""

    def __init__(self, connect=None, model=None, evaluate=None, credentials=None, *, insecure=False,
                 data_plane="encrypted", register_timeout=10.0, coordinator_timeout=3.0, retry=False):
        if model is None or evaluate is None:
            raise SyncScopeError("Evaluator needs the model and evaluate(model) -> (accuracy, loss)")
        # Started by the engine (--evaluator-command) without an address: where the run is, from the environment.
        connect, credentials, insecure, data_plane = connection(connect, credentials, insecure, data_plane)
        if data_plane not in ("encrypted", "authenticated"):
            raise SyncScopeError("data_plane must be 'encrypted' or 'authenticated', not %r" % (data_plane,))
        self.connect = connect
        self.model = model
        self._evaluate = evaluate
        self._plain = data_plane == "authenticated"
        self._credentials = None if insecure else Credentials.load(credentials or default_path())
        self._count = parameter_count(model)
        self._buffers = buffer_count(model)
        self._register_timeout = register_timeout
        self._coordinator_timeout = coordinator_timeout
        self._retry = bool(retry)
        self._routing_id = ("pyevaluator-%d-%016x" % (os.getpid(), random.getrandbits(64))).encode()
        self._context = zmq.Context()
        self._socket = self._monitor = None
        self.results = []  # (version, accuracy, loss, seconds) of every evaluation, oldest first
        self.final = None  # the final model's (version, accuracy, loss, seconds), once the run is over
        self._register()

    def run(self):
        """Evaluates what it is sent until the run is over; returns the final result (or None)."""
        self._ask()
        last = None
        while True:
            reply, tensor = self._next()
            if reply is None:  # the coordinator went away and one answers again: a fresh session
                self._ask()
                continue
            if not reply.HasField("params"):
                continue
            if reply.params.stop:
                self.final = last if last is not None and last[0] == reply.params.version else None
                return self.final
            if tensor is None or len(tensor.buffer) != self._count * 4:
                raise ProtocolError("the coordinator sent parameters of the wrong size")
            start = time.monotonic()
            load_flat(self.model, np.frombuffer(tensor.buffer, dtype=np.float32))
            accuracy, loss = self._evaluate(self.model)
            if not 0.0 <= float(accuracy) <= 1.0 or float(loss) < 0:  # NaN accuracy too; a NaN loss is a diverged model's
                raise SyncScopeError("evaluate(model) returned accuracy %r and loss %r: the accuracy must be a fraction "
                                     "in 0..1 (not a percentage) and the loss not negative" % (accuracy, loss))
            seconds = time.monotonic() - start
            last = (reply.params.version, float(accuracy), float(loss), seconds)
            self.results.append(last)
            self._ask(last)

    def close(self):
        self._close_socket()
        self._context.term()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- the session ----

    def _open(self):
        self._close_socket()
        self._socket = data_socket(self._context, self._credentials, self._plain)
        self._socket.linger = 0
        self._socket.routing_id = self._routing_id
        self._socket.setsockopt(zmq.HEARTBEAT_IVL, HEARTBEAT_MS)
        self._socket.setsockopt(zmq.HEARTBEAT_TIMEOUT, int(self._coordinator_timeout * 1000))
        self._monitor = self._socket.get_monitor_socket(zmq.EVENT_DISCONNECTED)
        self._socket.connect(self.connect)

    def _close_socket(self):
        if self._socket is not None:
            self._socket.disable_monitor()
            self._monitor.close(linger=0)
            self._socket.close(linger=0)
            self._socket = self._monitor = None

    def _register(self, timeout_s=None):
        timeout_s = self._register_timeout if timeout_s is None else timeout_s
        self._open()
        hello = wire.pb.Envelope()
        hello.register.pid = os.getpid()
        hello.register.hostname = _socket.gethostname()[:255]
        hello.register.backend = "pytorch"
        hello.register.role = wire.pb.ROLE_EVALUATOR
        hello.register.parameter_count = self._count
        hello.register.buffer_count = self._buffers
        wire.send(self._socket, hello)
        if not self._socket.poll(int(timeout_s * 1000)):
            raise CoordinatorSilent("no coordinator answered at %s within %g s; is a coordinator (`syncscope-engine "
                                    "serve --model external`) running there, and are these its worker credentials?"
                                    % (self.connect, timeout_s))
        reply, _ = self._receive()
        if not reply.HasField("welcome"):
            raise ProtocolError("the coordinator answered the evaluator's registration with no welcome")
        self._token = reply.welcome.session_token
        self.spec = reply.welcome.spec

    def _register_again(self, why):
        """Registers anew once a coordinator answers; gives up after coordinator_timeout unless retry."""
        print("syncscope evaluator: %s; registering again" % why, flush=True)
        deadline = time.monotonic() + self._coordinator_timeout
        while True:
            left = deadline - time.monotonic()
            try:
                return self._register(self._register_timeout if self._retry else max(0.5, left))
            except CoordinatorSilent as error:
                if not self._retry and time.monotonic() > deadline:
                    raise CoordinatorLost("the coordinator at %s went away (%s) and none answered since; an evaluator "
                                          "made with retry=True waits for a resumed one" % (self.connect, why))
                print("syncscope evaluator: %s; retrying in 1 s" % error, flush=True)
                time.sleep(1.0)

    def _ask(self, result=None):
        """Asks for the next parameters, with the result on the last ones (if any)."""
        report = wire.pb.Envelope()
        e = report.evaluation
        e.session_token = self._token
        if result is not None:
            e.has_result = True
            e.version, e.accuracy, e.loss, e.seconds = result
        wire.send(self._socket, report)

    def _next(self):
        """The next message; None after the coordinator went away and the evaluator registered again.
        Waits as long as the run goes on: it may be paused for hours."""
        poller = zmq.Poller()
        poller.register(self._socket, zmq.POLLIN)
        poller.register(self._monitor, zmq.POLLIN)
        while True:
            ready = dict(poller.poll())
            # First: the stop before the connection closes behind it. The socket's own poll, not the
            # poller's word: on the encrypted data plane a coordinator that restarted opens with a
            # sealed-link handshake, which is taken in there and is no message (waiting for one after
            # it would miss the dropped connection below, and the registration it calls for).
            if self._socket in ready and self._socket.poll(0):
                try:
                    return self._receive()
                except CoordinatorLost as error:
                    if not (self._retry and getattr(error, "not_registered", False)):
                        raise
                    self._register_again("a restarted coordinator does not know this evaluator")
                    return None, None
            if self._monitor in ready and recv_monitor_message(self._monitor)["event"] == zmq.EVENT_DISCONNECTED:
                self._register_again("the connection to the coordinator dropped")
                return None, None

    def _receive(self):
        envelope, tensor = wire.receive(self._socket, self._count * 4)
        if envelope.HasField("error"):
            error = CoordinatorLost("the coordinator refused this evaluator: %s" % envelope.error.message)
            error.not_registered = envelope.error.code == wire.pb.Error.NOT_REGISTERED
            raise error
        return envelope, tensor
