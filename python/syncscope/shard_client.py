"""A worker's side of a run whose model lives on parameter shards (`serve --shards S`), as the native
worker's engine/worker/shard_client.cpp: one DEALER per shard, authenticated like the data plane; a
gradient's ranges go to their shards under (worker, session token, sequence), and the parameters of
a version come back as every shard's range of it. What a shard sends is checked like the
coordinator's. With `--shard-replicas R` the Welcome lists each range's copies one after another: a
gradient goes to every copy, a pull to the first copy of each range."""

import time

import numpy as np
import zmq

from . import wire
from .errors import CoordinatorLost, ProtocolError
from .sealed import SealedSocket

HANDSHAKE_WAIT_S = 10.0  # a push waits this long for a shard link's handshake (engine: ShardClient's)

PULL_TIMEOUT_S = 60.0  # as the native worker's kShardPullTimeout


def validate_ranges(ranges, parameter_count):
    """The Welcome's shards: contiguous, in order, covering the model, each with an endpoint; a range's
    copies follow it with the same bounds."""
    following = 0
    for i, r in enumerate(ranges):
        prev = ranges[i - 1] if i else None
        copy = prev is not None and (r.index, r.begin, r.end) == (prev.index, prev.begin, prev.end)
        expected = prev.index + 1 if prev is not None else 0
        if ((not copy and (r.index != expected or r.begin != following)) or r.end <= r.begin
                or not r.endpoint.startswith(("tcp://", "ipc://"))):
            raise ProtocolError("the coordinator sent parameter shard %d as [%d, %d) at %r; is it a SyncScope "
                                "coordinator of this release?" % (r.index, r.begin, r.end, r.endpoint))
        following = r.end
    if following != parameter_count:
        raise ProtocolError("the coordinator's parameter shards cover %d of the model's %d parameters"
                            % (following, parameter_count))


class ShardClient:
    def __init__(self, context, ranges, make_socket, worker_id, session_token, parameter_count):
        validate_ranges(ranges, parameter_count)
        self._ranges = [(r.begin, r.end, r.endpoint) for r in ranges]
        # Pulls go to the first copy of each range.
        self._pull_from = [k for k, r in enumerate(ranges) if k == 0 or r.index != ranges[k - 1].index]
        self._worker_id = worker_id
        self._session_token = session_token
        self._count = parameter_count
        self._next_request = 1
        self._sockets = []
        for _, _, endpoint in self._ranges:
            sock = make_socket()  # the worker role's security (sealed.data_socket)
            sock.linger = 0
            sock.connect(endpoint)
            if isinstance(sock, SealedSocket):
                sock.start()
            self._sockets.append(sock)
        self._poller = zmq.Poller()
        for k in self._pull_from:
            self._poller.register(self._sockets[k], zmq.POLLIN)

    def push(self, gradient, sequence, base_version):
        """Sends each shard its range of `gradient` (float32, the whole model; slices sent without a copy).
        Returns the trackers of the frames (ZeroMQ lets go of the buffer when all are done)."""
        flat = np.asarray(gradient, dtype=np.float32).reshape(-1)
        if flat.size != self._count:
            raise ProtocolError("a gradient of %d values for a model of %d parameters" % (flat.size, self._count))
        trackers = []
        for (begin, end, _), sock in zip(self._ranges, self._sockets):
            if isinstance(sock, SealedSocket) and not sock.established:
                sock.await_ready(HANDSHAKE_WAIT_S)  # a copy only pushed to is never read otherwise
            envelope = wire.pb.Envelope()
            p = envelope.shard_push
            p.worker_id = self._worker_id
            p.session_token = self._session_token
            p.sequence = sequence
            p.base_version = base_version
            envelope.protocol_major = wire.PROTOCOL_MAJOR
            envelope.protocol_minor = wire.PROTOCOL_MINOR
            sock.send(envelope.SerializeToString(), flags=zmq.SNDMORE)
            trackers.append(sock.send(memoryview(flat[begin:end]), copy=False, track=True))
        return trackers

    def pull(self, version, keep_waiting):
        """Every shard's range of `version`, as one float32 array, and the oldest and newest version the
        shards answered with (a shard that no longer held `version` sends its newest, and says so)."""
        request = self._next_request
        self._next_request += 1
        for k in self._pull_from:
            envelope = wire.pb.Envelope()
            envelope.shard_pull.version = version
            envelope.shard_pull.request_id = request
            wire.send(self._sockets[k], envelope)
        params = np.empty(self._count, dtype=np.float32)
        answered = [k not in self._pull_from for k in range(len(self._sockets))]
        oldest, newest = None, None
        start = time.monotonic()
        while not all(answered):
            if time.monotonic() - start > PULL_TIMEOUT_S or not keep_waiting():
                silent = answered.index(False)
                raise CoordinatorLost("parameter shard %d at %s had not sent its part of version %d after %.1f s "
                                      "(is it running, and reachable from this node?)"
                                      % (silent, self._ranges[silent][2], version, time.monotonic() - start))
            ready = dict(self._poller.poll(100))
            for k in self._pull_from:
                sock = self._sockets[k]
                if isinstance(sock, SealedSocket):
                    if not sock.poll(0):  # handshake frames are read here; only a message that opened counts
                        continue
                elif sock not in ready:
                    continue
                begin, end, _ = self._ranges[k]
                envelope, tensor = wire.receive(sock, (end - begin) * 4)
                if envelope.HasField("error"):
                    raise CoordinatorLost("parameter shard %d refused this worker: %s" % (k, envelope.error.message))
                if not envelope.HasField("shard_params") or envelope.shard_params.request_id != request or answered[k]:
                    continue  # a late answer to an earlier pull
                if tensor is None or len(tensor.buffer) != (end - begin) * 4:
                    raise ProtocolError("parameter shard %d sent %d bytes for its %d parameters"
                                        % (k, 0 if tensor is None else len(tensor.buffer), end - begin))
                params[begin:end] = np.frombuffer(tensor.buffer, dtype=np.float32)
                answered[k] = True
                got = envelope.shard_params.version
                oldest = got if oldest is None else min(oldest, got)
                newest = got if newest is None else max(newest, got)
        return params, oldest, newest

    def close(self):
        for sock in self._sockets:
            sock.close(linger=0)
        self._sockets = []
