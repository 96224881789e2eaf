#!/usr/bin/env python3
"""Writes the binary seed inputs of tests/fuzz/corpus/ (envelopes, recordings, IDX files).

Protobuf payloads are encoded from text by protoc against engine/proto/syncscope.proto, so the seeds
follow the real schema; framing follows recording_format.h and the IDX layout. The JSON seeds
(scenarios, experiment specs) are kept by hand. Run again after a schema change:
    tests/fuzz/make_seed_corpus.py
"""
import gzip
import pathlib
import struct
import subprocess
import zlib

HERE = pathlib.Path(__file__).resolve().parent
PROTO_DIR = HERE.parent.parent / "engine" / "proto"
CORPUS = HERE / "corpus"
FRAME_SEPARATOR = b"|FRAME|"  # fuzz_wire_codec.cpp splits its input into frames at this


def encode(message, text):
    return subprocess.run(["protoc", f"--proto_path={PROTO_DIR}", f"--encode=syncscope.wire.{message}", "syncscope.proto"],
                          input=text.encode(), stdout=subprocess.PIPE, check=True).stdout


def write(folder, name, data):
    path = CORPUS / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def floats(*values):
    return struct.pack(f"<{len(values)}f", *values)


def wire_codec():
    # Byte 0: bit 0 = a ROUTER's identity frame first, bit 1 = control-plane limits.
    def message(flags, *frames):
        return bytes([flags]) + FRAME_SEPARATOR.join(frames)

    version = "protocol_major: 1 protocol_minor: 2 "
    register = encode("Envelope", version + 'register { pid: 42 hostname: "node-a" backend: "cpu" }')
    write("wire_codec", "register", message(1, b"worker-1", register))
    push = encode("Envelope", version + "push { worker_id: 1 has_gradient: true base_version: 3 batch_size: 64 loss: 0.5 }")
    write("wire_codec", "push_with_gradient", message(1, b"worker-1", push, floats(0.25, -1.0, 2.0, 0.0)))
    welcome = encode("Envelope", version + 'welcome { worker_id: 1 spec { model: "mlp" batch_size: 64 seed: 7 '
                                           "shard_count: 2 parameter_count: 4 learning_rate: 0.1 } "
                                           "shard_index: 1 session_token: 99 }")
    write("wire_codec", "welcome", message(0, welcome))
    params = encode("Envelope", version + "params { version: 4 batch_size: 64 slowdown { factor: 2 fixed_delay_ms: 5 } }")
    write("wire_codec", "params_with_tensor", message(0, params, floats(1.0, 2.0)))
    heartbeat = encode("Envelope", version + "heartbeat { worker_id: 1 session_token: 99 }")
    write("wire_codec", "heartbeat", message(1, b"worker-1-hb", heartbeat))
    control = encode("Envelope", version + "correlation_id: 5 control { set_groups { count: 2 by: GROUP_EXPLICIT "
                                           "assignment { key: 3 value: 1 } } }")
    write("wire_codec", "control_set_groups", message(3, b"console", control))
    error = encode("Envelope", version + 'correlation_id: 5 error { message: "refused" }')
    write("wire_codec", "error_reply", message(2, error))
    other_major = encode("Envelope", "protocol_major: 2 protocol_minor: 0 heartbeat_ack { }")
    write("wire_codec", "other_major_version", message(0, other_major))


def recording():
    def frame(payload):
        return struct.pack("<II", len(payload), zlib.crc32(payload)) + payload

    header = encode("RecordingHeader", 'protocol_major: 1 protocol_minor: 2 spec { model: "mlp" batch_size: 64 '
                                       "shard_count: 2 parameter_count: 4 } mode { mode: GROUPED group_count: 2 "
                                       "group_by: GROUP_EXPLICIT assignment { key: 1 value: 1 } } "
                                       "start_unix_ms: 1700000000000 expected_workers: 2 run_id: 7")
    records = [
        encode("Record", "tick { time_s: 1.5 state: 1 version: 3 learning_rate: 0.1 test_accuracy: -1 "
                         "workers { worker_id: 1 staleness_histogram: [2, 1] slowdown { factor: 2 } } "
                         'events { kind: EVENT_START detail: "bsp" } }'),
        encode("Record", "update { time_s: 1.6 version: 4 mode: BSP contributions { worker_id: 0 staleness: 1 weight: 0.5 } }"),
        encode("Record", 'drop { time_s: 1.7 worker_id: 1 base_version: 1 version: 4 reason: "too stale" }'),
        encode("Record", "release { time_s: 1.8 worker_id: 1 version: 4 clock: 3 min_clock: 2 held_ms: 1.5 }"),
        encode("Record", 'event { kind: EVENT_AUTO decision { verdict: SWITCHES current_label: "bsp" '
                         'chosen { label: "ksync K=1" settings { mode: KSYNC k: 1 } } } }'),
    ]
    magic = b"SSREC01\n"
    whole = magic + frame(header) + b"".join(frame(r) for r in records)
    write("recording_reader", "header_only", magic + frame(header))
    write("recording_reader", "five_records", whole)
    write("recording_reader", "cut_off_tail", whole[:-3])
    bad = bytearray(magic + frame(header) + frame(records[1]))
    bad[-1] ^= 0xFF  # the checksum no longer matches
    write("recording_reader", "bad_checksum", bytes(bad))


def idx():
    def big_endian(*values):
        return struct.pack(f">{len(values)}I", *values)

    images = big_endian(0x803, 2, 3, 3) + bytes(range(18))
    labels = big_endian(0x801, 3) + bytes([0, 9, 4])
    write("idx_reader", "images_plain", images)
    write("idx_reader", "labels_plain", labels)
    # mtime 0: the same bytes on every run, so regenerating changes nothing.
    write("idx_reader", "images.gz", gzip.compress(images, mtime=0))
    write("idx_reader", "labels.gz", gzip.compress(labels, mtime=0))
    write("idx_reader", "images_trailing_byte", images + b"\x00")


if __name__ == "__main__":
    wire_codec()
    recording()
    idx()
