"""The encrypted data plane (engine/net/sealed_link.h), spoken by the Python package: a DEALER whose
frames are sealed with AES-256-GCM (where the CPU has AES-NI) or ChaCha20-Poly1305, under keys agreed in
a two-frame handshake, through the `cryptography` package's X25519, HKDF-SHA256 and AEADs (OpenSSL
underneath, as in the engine). The socket keeps PLAIN with the workers' token, as the engine's does.

Handshake frames begin with 8 zero bytes, then b"SSSEAL01", a kind and a flags/cipher byte:
  hello  (this side): the salt (32 random bytes) and a one-connection X25519 public key; flags bit 0:
         this side runs AES-256-GCM
  answer (server): the cipher, its salt and one-connection key, then this side's salt echoed
  rekey  (server): it holds no keys for us (it restarted): say hello again
Keys: HKDF-SHA256 over X25519(worker secret, coordinator public) || X25519(one-connection secrets),
salt = client salt || server salt, info = b"syncscope sealed frames v1 <direction>" + both long-term
public keys; one key per direction. A sealed frame is [8-byte counter, little-endian][ciphertext]
[one 16-byte tag per 256 KiB segment of the plaintext]; segment i's nonce is i (4 bytes LE) and the
counter (8 bytes LE), every segment authenticates the counter and the plaintext's length (8 bytes LE
each), and a counter not above the last one opened is refused (replays). An envelope and its tensor
carry consecutive counters. (The engine seals a large frame's segments on several cores; here they
go one after the other.)

What is sent before the answer comes is queued (as the engine does), so sending never blocks."""

import os
import sys
import time

import zmq
from zmq.utils import z85
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .errors import ProtocolError

MAGIC = b"SSSEAL01"
HELLO, ANSWER, REKEY = 1, 2, 3
CHACHA20_POLY1305, AES_256_GCM = 1, 2
HELLO_BYTES, ANSWER_BYTES = 82, 114
COUNTER_BYTES, TAG_BYTES = 8, 16
SEGMENT_BYTES = 256 << 10  # engine/net/frame_seal.h's kSegmentBytes
MAX_QUEUED = 8  # messages kept while the handshake is pending (engine/net/sealed_link.h's limit)
AFTER_HANDSHAKE_S = 30.0  # how long a read that found only handshake frames waits for a real message


def _runs_aes_gcm():
    """Whether this CPU has AES-NI (x86-64 Linux: the `aes` flag), as the engine asks the CPU."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("flags"):
                    flags = line.split()
                    return "aes" in flags and "pclmulqdq" in flags
    except OSError:
        pass
    return False


RUNS_AES_GCM = _runs_aes_gcm()


def _raw(key):
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _direction_key(shared, salt, direction, client_public, server_public):
    info = b"syncscope sealed frames v1 " + direction + client_public + server_public
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(shared)


def _bytes(data):
    """cryptography before 39 takes only bytes."""
    return data if isinstance(data, bytes) else bytes(data)


def _nonce(counter, segment=0):
    return segment.to_bytes(4, "little") + counter.to_bytes(8, "little")


def _segments(plain_bytes):
    return max(1, -(-plain_bytes // SEGMENT_BYTES))


def _plain_size(frame_bytes):
    """The plaintext's size in a sealed frame of `frame_bytes`, or None where none seals to it."""
    if frame_bytes < COUNTER_BYTES + TAG_BYTES:
        return None
    body = frame_bytes - COUNTER_BYTES
    segments = max(1, -(-body // (SEGMENT_BYTES + TAG_BYTES)))
    plain = body - segments * TAG_BYTES
    return plain if plain >= 0 and _segments(plain) == segments else None


class _GcmKey:
    """AES-256-GCM through the streaming API, so that segments are sealed and opened straight into one
    buffer: cryptography 38 (Debian 12) has no encrypt_into, and the one-shot AEAD's copies, joins and
    fresh 1 MB allocations cost a PyTorch worker's step 5x the cipher itself (measured: 21.6 ms a step
    against 1.0 unencrypted). Frames are the same bytes AESGCM makes (tests/test_sealed.py checks)."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key


def _seal_gcm(key, counter, data, size, ad, head):
    segments = _segments(size)
    # update_into wants room for a block beyond what it writes: the tags' place takes it
    out = bytearray(COUNTER_BYTES + size + segments * TAG_BYTES + 15)
    view = memoryview(out)
    view[:COUNTER_BYTES] = head
    tags_at = COUNTER_BYTES + size
    for i in range(segments):
        begin = i * SEGMENT_BYTES
        end = min(begin + SEGMENT_BYTES, size)
        sealer = Cipher(algorithms.AES(key), modes.GCM(_nonce(counter, i))).encryptor()
        sealer.authenticate_additional_data(ad)
        sealer.update_into(data[begin:end], view[COUNTER_BYTES + begin:])
        sealer.finalize()
        view[tags_at + i * TAG_BYTES:tags_at + (i + 1) * TAG_BYTES] = sealer.tag
    return view[:tags_at + segments * TAG_BYTES]


def _open_gcm(key, counter, buffer, size, ad):
    segments = _segments(size)
    out = bytearray(size + 15)
    view = memoryview(out)
    tags_at = COUNTER_BYTES + size
    for i in range(segments):
        begin = i * SEGMENT_BYTES
        end = min(begin + SEGMENT_BYTES, size)
        tag = bytes(buffer[tags_at + i * TAG_BYTES:tags_at + (i + 1) * TAG_BYTES])
        opener = Cipher(algorithms.AES(key), modes.GCM(_nonce(counter, i), tag)).decryptor()
        opener.authenticate_additional_data(ad)
        opener.update_into(buffer[COUNTER_BYTES + begin:COUNTER_BYTES + end], view[begin:])
        opener.finalize()  # raises InvalidTag: nothing of `out` is handed out then
    return view[:size]


def seal_frame(aead, counter, data):
    """`data` sealed as the frame with `counter` (bytes, or a memoryview of a fresh buffer)."""
    data = memoryview(data).cast("B")
    size = len(data)
    head = counter.to_bytes(8, "little")
    ad = head + size.to_bytes(8, "little")
    if isinstance(aead, _GcmKey):
        return _seal_gcm(aead.key, counter, data, size, ad, head)
    texts, tags = [head], []
    for i in range(_segments(size)):
        out = aead.encrypt(_nonce(counter, i), _bytes(data[i * SEGMENT_BYTES:(i + 1) * SEGMENT_BYTES]), ad)
        texts.append(out[:-TAG_BYTES])
        tags.append(out[-TAG_BYTES:])
    return b"".join(texts + tags)


def open_frame(aead, buffer):
    """(counter, plaintext) of a sealed frame; raises InvalidTag or ValueError."""
    size = _plain_size(len(buffer))
    if size is None:
        raise ValueError("a sealed frame of %d bytes: no plaintext seals to that size" % len(buffer))
    counter = int.from_bytes(buffer[:8], "little")
    ad = _bytes(buffer[:8]) + size.to_bytes(8, "little")
    if isinstance(aead, _GcmKey):
        return counter, _open_gcm(aead.key, counter, buffer, size, ad)
    tags_at = COUNTER_BYTES + size
    parts = []
    for i in range(_segments(size)):
        begin = COUNTER_BYTES + i * SEGMENT_BYTES
        end = min(begin + SEGMENT_BYTES, tags_at)
        tag = buffer[tags_at + i * TAG_BYTES:tags_at + (i + 1) * TAG_BYTES]
        parts.append(aead.decrypt(_nonce(counter, i), _bytes(buffer[begin:end]) + _bytes(tag), ad))
    return counter, parts[0] if len(parts) == 1 else b"".join(parts)


class _Frame:
    """An opened frame, read as pyzmq's Frame is (its .buffer and .bytes)."""

    __slots__ = ("_data", "buffer")

    def __init__(self, data):
        self._data = data
        self.buffer = memoryview(data)

    @property
    def bytes(self):
        return self._data if isinstance(self._data, bytes) else self.buffer.tobytes()


class _Sent:
    """A send's tracker: a sealed frame is a copy, so ZeroMQ holds no buffer of the caller's."""

    done = True

    def wait(self, timeout=-1):
        return None


class SealedSocket(zmq.Socket):
    """A DEALER of the encrypted data plane. Made by data_socket(); use it as any DEALER: send and
    recv_multipart seal and open, poll() reports only messages that opened."""

    # pyzmq sockets take attributes set on the instance for socket options: declare ours here.
    _secret = _public = _server_public = None
    _salt = _ephemeral = None
    _send_aead = _receive_aead = None
    _sent = _opened = 0
    _parts = _queue = _stash = None
    unopened = 0

    def set_keys(self, public_z85, secret_z85, server_public_z85):
        self._public = z85.decode(public_z85.encode("ascii"))
        self._secret = X25519PrivateKey.from_private_bytes(z85.decode(secret_z85.encode("ascii")))
        self._server_public = z85.decode(server_public_z85.encode("ascii"))
        self._parts, self._queue = [], []
        self._restart()

    def _restart(self):
        self._salt = os.urandom(32)
        self._ephemeral = X25519PrivateKey.generate()
        self._send_aead = self._receive_aead = None
        self._sent = self._opened = 0

    @property
    def established(self):
        return self._send_aead is not None

    def start(self):
        """Starts the handshake now (a socket that sends but seldom reads, as a link to a shard copy
        only pushed to, must not wait for its first send)."""
        self._hello()

    def await_ready(self, timeout_s):
        """Reads handshake frames until the keys are agreed or `timeout_s` passes (then what is sent
        waits in the queue for the answer)."""
        deadline = _now() + timeout_s
        while not self.established and _now() < deadline and self._stash is None:
            self.poll(50)

    def _hello(self):
        frame = (b"\0" * COUNTER_BYTES + MAGIC + bytes([HELLO, 1 if RUNS_AES_GCM else 0]) + self._salt
                 + _raw(self._ephemeral.public_key()))
        zmq.Socket.send(self, frame)

    def _answer(self, frame):
        if len(frame) != ANSWER_BYTES or frame[82:114] != self._salt or self.established:
            return  # an answer to an earlier hello, or a repeat
        cipher = frame[17]
        if cipher not in (AES_256_GCM, CHACHA20_POLY1305):
            raise ProtocolError("the coordinator's handshake names cipher %d, which this package does not know: use "
                                "the syncscope package of the coordinator's SyncScope release" % cipher)
        server_salt, server_key = frame[18:50], frame[50:82]
        shared = (self._secret.exchange(X25519PublicKey.from_public_bytes(self._server_public))
                  + self._ephemeral.exchange(X25519PublicKey.from_public_bytes(server_key)))
        salt = self._salt + server_salt
        up = _direction_key(shared, salt, b"client to server", self._public, self._server_public)
        down = _direction_key(shared, salt, b"server to client", self._public, self._server_public)
        aead = _GcmKey if cipher == AES_256_GCM else ChaCha20Poly1305
        self._send_aead, self._receive_aead = aead(up), aead(down)
        queued, self._queue = self._queue, []
        for parts in queued:
            self._send_sealed(parts)

    def _seal(self, data):
        self._sent += 1
        return seal_frame(self._send_aead, self._sent, data)

    def _send_sealed(self, parts):
        frames = [self._seal(part) for part in parts]
        for i, frame in enumerate(frames):
            # A sealed frame is a fresh buffer nobody writes again: a large one goes without a copy
            # (pyzmq's advice: copying pays below some 64 KB).
            zmq.Socket.send(self, frame, zmq.SNDMORE if i + 1 < len(frames) else 0, copy=len(frame) < (64 << 10))

    def send(self, data, flags=0, copy=True, track=False, **kwargs):
        self._parts.append(data)
        if flags & zmq.SNDMORE:
            return None
        parts, self._parts = self._parts, []
        if self.established:
            self._send_sealed(parts)
        else:
            self._queue.append([bytes(p) for p in parts])  # the caller may reuse its buffer at once
            del self._queue[:-MAX_QUEUED]
            self._hello()  # the same salt every time: a repeat gets the same answer
        return _Sent() if track else None

    def _take(self, frames):
        """One inbound message: its opened frames, or None (a handshake frame, or one that did not open)."""
        head = frames[0].buffer
        if len(head) >= HELLO_BYTES and head[:8] == b"\0" * 8 and head[8:16] == MAGIC:
            kind = head[16]
            if kind == ANSWER:
                self._answer(bytes(head))
            elif kind == REKEY:
                if self.established:
                    self._restart()
                self._hello()
            return None
        if not self.established:
            return None  # sealed before our handshake finished: nothing can open it
        opened, previous = [], None
        for frame in frames:
            buffer = frame.buffer
            counter = int.from_bytes(buffer[:8], "little") if len(buffer) >= COUNTER_BYTES + TAG_BYTES else 0
            if counter <= self._opened or (previous is not None and counter != previous + 1):
                self._drop("a replayed, reordered or short frame (counter %d after %d)" % (counter, self._opened))
                return None
            try:
                _, plain = open_frame(self._receive_aead, buffer)
            except (InvalidTag, ValueError):
                self._drop("a frame that does not open (tampered with, cut short, or under another key)")
                return None
            opened.append(_Frame(plain))
            self._opened = previous = counter
        return opened

    def _drop(self, why):
        self.unopened += 1
        print("syncscope: dropped %s" % why, file=sys.stderr, flush=True)

    def poll(self, timeout=None, flags=zmq.POLLIN):
        if self._stash is not None:
            return zmq.POLLIN
        deadline = None if timeout is None or timeout < 0 else _now() + timeout / 1000.0
        while True:
            left = None if deadline is None else max(0, int((deadline - _now()) * 1000))
            if not zmq.Socket.poll(self, left, flags):
                return 0
            if not flags & zmq.POLLIN:
                return zmq.Socket.poll(self, 0, flags)
            taken = self._take(zmq.Socket.recv_multipart(self, copy=False))
            if taken is not None:
                self._stash = taken
                return zmq.POLLIN
            if deadline is not None and _now() >= deadline:
                return 0

    def recv_multipart(self, flags=0, copy=True, track=False):
        if self._stash is not None:
            taken, self._stash = self._stash, None
            return taken
        give_up = _now() + AFTER_HANDSHAKE_S
        while True:
            taken = self._take(zmq.Socket.recv_multipart(self, flags, copy=False))
            if taken is not None:
                return taken
            # Only a handshake (or a dropped frame) was waiting: wait for a message, bounded.
            if not zmq.Socket.poll(self, max(0, int((give_up - _now()) * 1000))):
                raise ProtocolError("no message came after the sealed link's handshake in %g s" % AFTER_HANDSHAKE_S)


_now = time.monotonic


def data_socket(context, credentials, plain):
    """A DEALER to a data endpoint (coordinator, aggregator, parameter shard) with the worker role's
    security: `credentials` None: none (--insecure); `plain`: the workers' token, frames in the clear
    (--data-plane authenticated); else sealed (the encrypted data plane, serve's default)."""
    if credentials is None:
        return context.socket(zmq.DEALER)
    if plain:
        sock = context.socket(zmq.DEALER)
        credentials.apply(sock, "worker", plain=True)
        return sock
    sock = SealedSocket(context, zmq.DEALER)  # pyzmq 24 (Debian 12) has no context.socket(socket_class=)
    if hasattr(context, "_add_socket"):
        context._add_socket(sock)  # as context.socket() does: destroy() closes it
    credentials.apply(sock, "worker", plain=True)
    public, secret = credentials.pairs["worker"]
    sock.set_keys(public, secret, credentials.server_public)
    return sock
