"""The encrypted data plane from Python (syncscope/sealed.py) against the real coordinator: the handshake
and sealed frames agree with the engine's (a sealed message is answered under the agreed keys), and a
tampered, replayed or foreign frame is dropped on either side while the connection keeps working; a
worker's keys of its own work from Python and stop working once revoked."""

import time

import zmq

from syncscope import wire
from syncscope.credentials import Credentials
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from syncscope.sealed import SEGMENT_BYTES, SealedSocket, _Frame, _GcmKey, data_socket, open_frame, seal_frame

pb = wire.pb


def strangers_push():
    envelope = pb.Envelope()
    envelope.push.worker_id = 4000000  # unknown: the coordinator answers NOT_REGISTERED
    envelope.protocol_major = wire.PROTOCOL_MAJOR
    return envelope.SerializeToString()


def answer(sock, ms):
    if not sock.poll(ms):
        return None
    envelope, _ = wire.receive(sock, 0)
    return envelope


def test_sealed_frames_agree_with_the_engine_and_bad_frames_are_dropped(cluster):
    cluster.start_coordinator("--workers", "1", "--model", "mlp", "--max-seconds", "60")
    context = zmq.Context()
    credentials = Credentials.load(cluster.keygen("worker"))
    sock = data_socket(context, credentials, plain=False)
    other = data_socket(context, credentials, plain=False)
    assert isinstance(sock, SealedSocket)
    for s in (sock, other):
        s.linger = 0
        s.connect(cluster.endpoints["data"])

    sock.send(strangers_push())  # queued until the answer; the hello goes out now
    reply = answer(sock, 5000)
    assert reply is not None and reply.error.code == pb.Error.NOT_REGISTERED, cluster.logs()
    assert sock.established
    other.send(strangers_push())
    assert answer(other, 5000) is not None

    # To the coordinator: tampered, replayed and another connection's frames get no answer.
    first = sock._seal(strangers_push())
    zmq.Socket.send(sock, first)
    assert answer(sock, 3000) is not None
    tampered = bytearray(sock._seal(strangers_push()))
    tampered[9] ^= 1
    zmq.Socket.send(sock, bytes(tampered))
    assert answer(sock, 700) is None, "a tampered frame was answered"
    zmq.Socket.send(sock, first)
    assert answer(sock, 700) is None, "a replayed frame was answered"
    for _ in range(5):
        foreign = other._seal(strangers_push())
    zmq.Socket.send(sock, foreign)
    assert answer(sock, 700) is None, "a frame under another connection's key was answered"
    sock.send(strangers_push())
    assert answer(sock, 3000) is not None, "the connection stopped working"

    # From the coordinator: the same refusals on this side.
    counter = sock._opened + 10
    good = seal_frame(sock._receive_aead, counter, b"x")
    bad = bytearray(good)
    bad[8] ^= 1
    assert sock._take([_Frame(bytes(bad))]) is None and sock.unopened == 1
    assert sock._take([_Frame(good)])[0].bytes == b"x"
    assert sock._take([_Frame(good)]) is None and sock.unopened == 2  # replayed
    # A frame of several segments: whole again, and refused cut to its first two segments.
    big = bytes(range(256)) * (3 * SEGMENT_BYTES // 256 + 7)
    frame = bytes(seal_frame(sock._receive_aead, counter + 1, big))
    assert open_frame(sock._receive_aead, frame) == (counter + 1, big)
    cut = frame[:8 + 2 * SEGMENT_BYTES] + frame[8 + len(big):8 + len(big) + 32]
    assert sock._take([_Frame(cut)]) is None and sock.unopened == 3
    context.destroy(linger=0)


def test_a_named_workers_keys_work_from_python_until_revoked(cluster):
    cluster.start_coordinator("--workers", "1", "--model", "mlp", "--max-seconds", "60")
    named = Credentials.load(cluster.keygen("worker", name="alice"))
    Credentials.load(cluster.credentials)  # the coordinator's file, named workers listed, still reads
    context = zmq.Context()
    try:
        sock = data_socket(context, named, plain=False)
        sock.linger = 0
        sock.connect(cluster.endpoints["data"])
        sock.send(strangers_push())
        reply = answer(sock, 5000)
        assert reply is not None and reply.error.code == pb.Error.NOT_REGISTERED, cluster.logs()
        cluster.revoke("alice")
        time.sleep(2.5)  # the coordinator reads its credentials file again each second
        sock.send(strangers_push())
        assert answer(sock, 1500) is None, "a revoked worker's message was answered"
    finally:
        context.destroy(linger=0)


def test_in_place_aes_gcm_makes_the_one_shot_aeads_frames():
    """The streaming AES-GCM path (sealed into one buffer) and the one-shot AEAD make the same bytes and
    open each other's frames, at sizes across segment edges; a flipped bit does not open."""
    key = os.urandom(32)
    fast, one_shot = _GcmKey(key), AESGCM(key)
    for size in (0, 1, 100, SEGMENT_BYTES - 1, SEGMENT_BYTES, SEGMENT_BYTES + 1, 940584, 4 * SEGMENT_BYTES + 3):
        data = os.urandom(size)
        frame = bytes(seal_frame(fast, 7 + size, data))
        assert frame == seal_frame(one_shot, 7 + size, data), size
        assert open_frame(fast, frame) == (7 + size, data)
        assert open_frame(one_shot, frame) == (7 + size, data)
        if size:
            bad = bytearray(frame)
            bad[8 + size // 2] ^= 1
            try:
                open_frame(fast, bytes(bad))
            except InvalidTag:
                continue
            raise AssertionError("a tampered frame of %d bytes opened" % size)
