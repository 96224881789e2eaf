"""Evaluator: the process that tests a run's model when the engine does not have it (a run of an
external model, `serve --model external`). It registers on the data plane with the evaluator role,
is sent the run's parameters every eval interval (the coordinator's --eval-interval), evaluates them
with the script's own function on its own test set, and reports test accuracy and loss, which the
console charts like any run's. When the run stops it is sent the final parameters; its result is the
run's final test accuracy."""

import os
import random
import socket as _socket
import time

import numpy as np
import zmq

from . import wire
from .credentials import Credentials, default_path
from .errors import CoordinatorLost, ProtocolError, SyncScopeError
from .flat_layout import load_flat, parameter_count


class Evaluator:
    """connect, credentials, insecure, data_plane: as for Worker (the worker role's keys).
    model: the PyTorch model the run trains; each parameter set it is sent is copied into it.
    evaluate: evaluate(model) -> (accuracy in 0..1, mean loss); called on this thread."""

    def __init__(self, connect, model, evaluate, credentials=None, *, insecure=False, data_plane="encrypted",
                 register_timeout=10.0):
        if data_plane not in ("encrypted", "authenticated"):
            raise SyncScopeError("data_plane must be 'encrypted' or 'authenticated', not %r" % (data_plane,))
        self.connect = connect
        self.model = model
        self._evaluate = evaluate
        self._plain = data_plane == "authenticated"
        self._credentials = None if insecure else Credentials.load(credentials or default_path())
        self._count = parameter_count(model)
        self._context = zmq.Context()
        self._socket = self._context.socket(zmq.DEALER)
        self._socket.linger = 0
        self._socket.routing_id = ("pyevaluator-%d-%016x" % (os.getpid(), random.getrandbits(64))).encode()
        if self._credentials:
            self._credentials.apply(self._socket, "worker", plain=self._plain)
        self._socket.connect(connect)
        self.results = []  # (version, accuracy, loss, seconds) of every evaluation, oldest first
        self.final = None  # the final model's (version, accuracy, loss, seconds), once the run is over
        hello = wire.pb.Envelope()
        hello.register.pid = os.getpid()
        hello.register.hostname = _socket.gethostname()[:255]
        hello.register.backend = "pytorch"
        hello.register.role = wire.pb.ROLE_EVALUATOR
        hello.register.parameter_count = self._count
        wire.send(self._socket, hello)
        if not self._socket.poll(int(register_timeout * 1000)):
            raise CoordinatorLost("no coordinator answered at %s within %g s; is a coordinator (`syncscope-engine "
                                  "serve --model external`) running there, and are these its worker credentials?"
                                  % (connect, register_timeout))
        reply, _ = self._receive()
        if not reply.HasField("welcome"):
            raise ProtocolError("the coordinator answered the evaluator's registration with no welcome")
        self._token = reply.welcome.session_token
        self.spec = reply.welcome.spec

    def run(self):
        """Evaluates what it is sent until the run is over; returns the final result (or None)."""
        report = wire.pb.Envelope()
        report.evaluation.session_token = self._token
        wire.send(self._socket, report)
        last = None
        while True:
            self._socket.poll()  # as long as the run goes on: it may be paused for hours
            reply, tensor = self._receive()
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
            seconds = time.monotonic() - start
            last = (reply.params.version, float(accuracy), float(loss), seconds)
            self.results.append(last)
            report = wire.pb.Envelope()
            e = report.evaluation
            e.session_token = self._token
            e.has_result = True
            e.version, e.accuracy, e.loss, e.seconds = last
            wire.send(self._socket, report)

    def close(self):
        self._socket.close(linger=0)
        self._context.term()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _receive(self):
        envelope, tensor = wire.receive(self._socket, self._count * 4)
        if envelope.HasField("error"):
            raise CoordinatorLost("the coordinator refused this evaluator: %s" % envelope.error.message)
        return envelope, tensor
