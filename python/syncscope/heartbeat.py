"""Heartbeats on a thread and a socket of their own, bound to the session token of the worker's
Welcome, as engine/worker/heartbeat_sender.cpp sends them: the coordinator tells a live worker that is
busy computing from a dead one, and its acknowledgements tell this worker whether the coordinator
still waits for it (a message lost with a dropped connection)."""

import threading
import time

import zmq

from . import wire
from .errors import SyncScopeError

PERIOD_S = 0.25


class HeartbeatSender:
    def __init__(self, context, endpoint, make_socket, routing_id, worker_id, session_token, timeout_s):
        self._context = context
        self._endpoint = endpoint
        self._make_socket = make_socket  # a DEALER with the worker role's security (sealed.data_socket)
        self._routing_id = routing_id
        self._worker_id = worker_id
        self._token = session_token
        self._timeout = timeout_s
        self._quit = threading.Event()
        self._lost = threading.Event()
        self._rejoin = threading.Event()  # the coordinator replaced a parameter shard: register again
        self._last_awaiting = 0.0  # monotonic times of the latest acks saying so; floats are swapped whole
        self._last_not_awaiting = 0.0
        self._run_over = threading.Event()  # the acks said the run is over (this worker's stop was lost)
        self.final_version = 0
        self._leaving = threading.Event()
        self.error = None
        self._thread = threading.Thread(target=self._loop, name="syncscope-heartbeat", daemon=True)
        self._thread.start()

    def stop(self, leaving=False):
        """Stops the heartbeats; `leaving`: the worker heard the run is over, and the last heartbeat says
        so (the coordinator need not stay up for it), as it does once the acks said the run is over."""
        if leaving:
            self._leaving.set()
        self._quit.set()
        self._thread.join()

    def run_over(self):
        """True once an ack said the run is over (protocol 1.15): its stop went down with a dropped connection."""
        return self._run_over.is_set()

    def coordinator_lost(self):
        return self._lost.is_set()

    def rejoin_asked(self):
        """True once the coordinator said the run's parameter shards changed (a lost one replaced)."""
        return self._rejoin.is_set()

    def coordinator_awaiting_for(self, span_s):
        """True when recent acks say the coordinator waits for this worker, and have said so for span_s."""
        now = time.monotonic()
        return (self._last_awaiting > 0 and now - self._last_awaiting < 1.0
                and now - self._last_not_awaiting > span_s)

    def _loop(self):
        # The socket lives and dies on this thread.
        socket = self._make_socket()
        try:
            socket.linger = 0
            socket.routing_id = self._routing_id.encode()
            socket.connect(self._endpoint)
            hello = wire.pb.Envelope()
            hello.register.heartbeat_only = True
            hello.register.worker_id = self._worker_id
            hello.register.session_token = self._token
            wire.send(socket, hello)
            last_reply = last_sent = time.monotonic()
            while not self._quit.is_set():
                if socket.poll(50):
                    last_reply = self._drain(socket) or last_reply
                if time.monotonic() - last_reply > self._timeout:
                    self._lost.set()
                if time.monotonic() - last_sent >= PERIOD_S:
                    beat = wire.pb.Envelope()
                    beat.heartbeat.worker_id = self._worker_id
                    beat.heartbeat.session_token = self._token
                    wire.send(socket, beat)
                    last_sent = time.monotonic()
            if self._leaving.is_set() or self._run_over.is_set():
                last = wire.pb.Envelope()
                last.heartbeat.worker_id = self._worker_id
                last.heartbeat.session_token = self._token
                last.heartbeat.leaving = True
                wire.send(socket, last)
                socket.close(linger=250)  # it goes out as the socket closes, or is given up
        except (zmq.ZMQError, SyncScopeError) as error:
            self.error = error
            self._lost.set()
        finally:
            socket.close(linger=0)

    def _drain(self, socket):
        """Reads every waiting reply; returns when the latest acknowledgement came, or None."""
        # Only an acknowledgement is a sign of life: a refusal is an answer, not a heartbeat.
        replied = None
        while socket.poll(0):
            try:
                envelope, _ = wire.receive(socket, 0)
            except SyncScopeError:
                continue  # counted by nobody here; a broken ack is simply not a sign of life
            if envelope.HasField("heartbeat_ack"):
                now = replied = time.monotonic()
                if envelope.heartbeat_ack.awaiting_worker:
                    self._last_awaiting = now
                else:
                    self._last_not_awaiting = now
                if envelope.heartbeat_ack.run_over:
                    self.final_version = envelope.heartbeat_ack.version
                    self._run_over.set()
            elif envelope.HasField("error") and envelope.error.code == wire.pb.Error.NOT_REGISTERED:
                self._lost.set()  # a restarted coordinator: rejoin now
            elif envelope.HasField("error") and envelope.error.code == wire.pb.Error.LAYOUT_CHANGED:
                self._rejoin.set()
        return replied
