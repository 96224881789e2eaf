"""Framing of data-plane and control messages, as engine/net/wire_codec.cpp does it: an Envelope
(protobuf, metadata only) and at most one raw float32 tensor frame. Everything received is untrusted:
frame counts, sizes, the decode and the protocol version are checked before anything is used."""

import zmq

from .errors import ProtocolError, SyncScopeError

try:
    import syncscope_pb2 as pb  # generated at build time from engine/proto/syncscope.proto
    # engine/net/protocol.h's version, written at configure time: a peer of another major version is
    # refused; minors only add fields.
    from syncscope_protocol import PROTOCOL_MAJOR, PROTOCOL_MINOR
except ImportError as error:  # pragma: no cover - depends on the installation
    raise SyncScopeError(
        "the wire modules syncscope_pb2 and syncscope_protocol are missing (%s): they are generated at build "
        "time; build the target syncscope_python_proto (`cmake --build BUILD --target syncscope_python_proto`) "
        "and put BUILD/python on PYTHONPATH" % error) from None

MAX_ENVELOPE_BYTES = 1 << 20


def send(socket, envelope, tensor=None):
    """Sends an envelope stamped with this client's protocol version, and an optional tensor frame
    (anything with the buffer protocol; sent without a copy)."""
    envelope.protocol_major = PROTOCOL_MAJOR
    envelope.protocol_minor = PROTOCOL_MINOR
    data = envelope.SerializeToString()
    if tensor is None:
        socket.send(data)
    else:
        socket.send(data, flags=zmq.SNDMORE)
        socket.send(tensor, copy=False)


def receive(socket, max_tensor_bytes):
    """Reads one whole multipart message that is waiting (a DEALER's: no identity frame) and returns
    (envelope, tensor frame or None). Raises ProtocolError for a message this client must not trust."""
    frames = socket.recv_multipart(copy=False)
    if len(frames) not in (1, 2):
        raise ProtocolError("expected an envelope and at most one tensor frame, got %d frames" % len(frames))
    head = frames[0].buffer
    if len(head) == 0 or len(head) > MAX_ENVELOPE_BYTES:
        raise ProtocolError("envelope of %d bytes (limit %d)" % (len(head), MAX_ENVELOPE_BYTES))
    envelope = pb.Envelope()
    try:
        envelope.ParseFromString(bytes(head))
    except Exception as error:  # protobuf's DecodeError and friends
        raise ProtocolError("undecodable envelope (%d bytes that are not a syncscope.wire.Envelope: %s)"
                            % (len(head), error)) from None
    if envelope.protocol_major != PROTOCOL_MAJOR:
        raise ProtocolError(
            "protocol version %d.%d is not supported by this client (speaks %d.%d); use the syncscope "
            "package of the coordinator's SyncScope release"
            % (envelope.protocol_major, envelope.protocol_minor, PROTOCOL_MAJOR, PROTOCOL_MINOR))
    tensor = None
    if len(frames) == 2:
        tensor = frames[1]
        size = len(tensor.buffer)
        if size > max_tensor_bytes or size % 4 != 0:
            raise ProtocolError("tensor frame of %d bytes does not fit this run (at most %d, whole floats)"
                                % (size, max_tensor_bytes))
    return envelope, tensor

