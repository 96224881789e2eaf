"""TelemetryWatcher: a thread that owns a SUB socket on the coordinator's telemetry, keeps the newest
mode and each worker's group from the ticks, and lets the training thread run hooks when they change
(hooks never run on this thread, so user code needs no locks)."""

import threading

import zmq

from . import wire
from .errors import SyncScopeError


class TelemetryWatcher:
    def __init__(self, context, endpoint, credentials):
        if credentials and not (credentials.has("view") or credentials.has("steer")):
            raise SyncScopeError("credentials '%s' hold no view or steer keys, which the telemetry endpoint takes; "
                                 "pass telemetry_credentials=FILE from `syncscope-engine keygen --role view --out FILE`"
                                 % credentials.path)
        self.mode_hooks, self.group_hooks = [], []
        self._context = context
        self._endpoint = endpoint
        self._credentials = credentials
        self._lock = threading.Lock()
        self._mode = None          # newest ModeSettings bytes seen
        self._groups = {}          # worker id -> group, newest tick
        self._fired_mode = None
        self._fired_group = None
        self.ticks = 0
        self._quit = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="syncscope-telemetry", daemon=True)
        self._thread.start()

    def stop(self):
        self._quit.set()
        self._thread.join()

    def fire(self, worker_id):
        with self._lock:
            mode, group = self._mode, self._groups.get(worker_id)
        if mode is not None and mode != self._fired_mode:
            self._fired_mode = mode
            settings = wire.pb.ModeSettings()
            settings.ParseFromString(mode)
            for hook in self.mode_hooks:
                hook(settings)
        if group is not None and group != self._fired_group:
            self._fired_group = group
            for hook in self.group_hooks:
                hook(group)

    def _loop(self):
        sub = self._context.socket(zmq.SUB)
        try:
            sub.linger = 0
            if self._credentials:
                role = "view" if self._credentials.has("view") else "steer"
                self._credentials.apply(sub, role)
            sub.setsockopt(zmq.SUBSCRIBE, b"tick")
            sub.connect(self._endpoint)
            while not self._quit.is_set():
                if not sub.poll(100):
                    continue
                frames = sub.recv_multipart()
                if len(frames) != 2 or len(frames[1]) > wire.MAX_ENVELOPE_BYTES:
                    continue  # not a tick; telemetry is advisory, a bad one is skipped
                tick = wire.pb.Tick()
                try:
                    tick.ParseFromString(frames[1])
                except Exception:  # protobuf's DecodeError: skip the message, keep watching
                    continue
                with self._lock:
                    self._mode = tick.mode.SerializeToString(deterministic=True)
                    self._groups = {w.worker_id: w.group for w in tick.workers}
                    self.ticks += 1
        finally:
            sub.close(linger=0)
