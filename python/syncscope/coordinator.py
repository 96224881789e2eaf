"""A coordinator (`syncscope-engine serve`) started from Python the way `run` and the console start theirs:
the run is one wire.RunPlan, built here once from the engine's own defaults (`syncscope-engine plan`)
and handed to the coordinator as a file (`serve --plan`), which checks it; the coordinator tells where
it listens and how its run ended on a pipe of length-prefixed ProcessReport messages
(engine/net/process_report.h), not in its printed output.

    plan = syncscope.default_plan()
    plan.spec.model = "external"
    plan.external_parameters = parameter_count(model)   # its flat layout: parameters and float buffers
    plan.spec.buffer_count = buffer_count(model)       # BatchNorm's running statistics, say
    plan.layout.workers = 4
    plan.stop.epochs = 2
    with syncscope.Coordinator(plan, folder) as coordinator:
        data, control, telemetry = coordinator.endpoints
        ...                                   # start the workers against `data`
        result = coordinator.wait()           # a wire.RunResult, or None if it said nothing
"""

import collections
import os
import select
import shutil
import struct
import subprocess
import time

from google.protobuf import text_format

from .errors import SyncScopeError
from .wire import pb

try:
    from syncscope_protocol import MAX_PROCESS_REPORT_BYTES  # engine/net/protocol.h, at configure time
except ImportError:  # pragma: no cover - a wire module generated before the constant existed
    raise SyncScopeError("syncscope_protocol.py is older than this package: rebuild the target "
                         "syncscope_python_proto") from None

Endpoints = collections.namedtuple("Endpoints", "data control telemetry")


def find_engine(given=None):
    """The syncscope-engine binary: `given`, $SYNCSCOPE_ENGINE, PATH, or the source tree's build/."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (given, os.environ.get("SYNCSCOPE_ENGINE"), shutil.which("syncscope-engine"),
                 os.path.join(here, "..", "..", "build", "app", "syncscope-engine")):
        if path and os.access(path, os.X_OK):
            return os.path.abspath(path)
    raise SyncScopeError("no syncscope-engine found: build it (./setup.sh build), put it on PATH, or set "
                         "SYNCSCOPE_ENGINE")


def default_plan(engine=None):
    """The engine's default wire.RunPlan (`syncscope-engine plan`): every default in one place, the engine."""
    engine = find_engine(engine)
    done = subprocess.run([engine, "plan"], capture_output=True, text=True)
    if done.returncode != 0:
        raise SyncScopeError("`%s plan` failed (exit %d): %s" % (engine, done.returncode, done.stderr.strip()))
    return text_format.Parse(done.stdout, pb.RunPlan())


def write_plan(plan, path):
    """Writes a plan as protobuf text, readable by its owner only (it may name credentials' folders)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text_format.MessageToString(plan))


class _ReportReader:
    """ProcessReport frames ([uint32 LE length][payload]) from the read end of a pipe."""

    def __init__(self, fd):
        self._fd, self._buffer, self.closed = fd, b"", False

    def next(self, timeout):
        """The next whole report within `timeout` seconds, else None (also once the writer is gone)."""
        deadline = time.monotonic() + timeout
        while True:
            if len(self._buffer) >= 4:
                (length,) = struct.unpack("<I", self._buffer[:4])
                if length > MAX_PROCESS_REPORT_BYTES:
                    raise SyncScopeError("the coordinator's report pipe carried a %d-byte frame: not a report" % length)
                if len(self._buffer) >= 4 + length:
                    report = pb.ProcessReport()
                    report.ParseFromString(self._buffer[4:4 + length])
                    self._buffer = self._buffer[4 + length:]
                    return report
            left = deadline - time.monotonic()
            if self.closed or self._fd is None or left <= 0:
                return None
            ready, _, _ = select.select([self._fd], [], [], left)
            if ready:
                chunk = os.read(self._fd, 65536)
                if chunk:
                    self._buffer += chunk
                else:
                    self.closed = True

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class Coordinator:
    """`syncscope-engine serve --plan` on this machine. `folder` holds the plan, the credentials (made
    0600 by the coordinator when missing) and serve.log. Ports 0 let the system choose."""

    def __init__(self, plan, folder, engine=None, credentials=None, bind="127.0.0.1", ports=(0, 0, 0)):
        self.plan, self.folder, self.engine = plan, folder, find_engine(engine)
        self.credentials = credentials or os.path.join(folder, "run.credentials")
        self.bind, self.ports = bind, ports
        self.log_path = os.path.join(folder, "serve.log")
        self.process, self.endpoints, self.result = None, None, None
        self._reports = None

    def start(self, timeout=30.0):
        """Starts the coordinator and returns its Endpoints once it listens; a plan it refuses or a
        start that fails raises SyncScopeError with what it printed."""
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        plan_path = os.path.join(self.folder, "run.plan")
        write_plan(self.plan, plan_path)
        read_end, write_end = os.pipe()
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                [self.engine, "serve", "--plan", plan_path, "--credentials", self.credentials, "--bind", self.bind,
                 "--data-port", str(self.ports[0]), "--control-port", str(self.ports[1]),
                 "--telemetry-port", str(self.ports[2]), "--report-fd", str(write_end)],
                stdout=log, stderr=subprocess.STDOUT, pass_fds=(write_end,))
        os.close(write_end)
        self._reports = _ReportReader(read_end)
        deadline = time.monotonic() + timeout
        while self.endpoints is None:
            report = self._reports.next(max(0.0, deadline - time.monotonic()))
            if report is None:
                self.stop()
                raise SyncScopeError("the coordinator did not start (%s):\n%s" % (
                    "it exited %s" % self.process.returncode if self._reports.closed else "no word in %g s" % timeout,
                    self.log()))
            if report.HasField("listening"):
                listening = report.listening
                self.endpoints = Endpoints(listening.data, listening.control, listening.telemetry)
        return self.endpoints

    def wait(self, timeout=None):
        """Waits for the run to end; returns its wire.RunResult (None if the coordinator said nothing)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.result is None and not self._reports.closed:
            left = 3600.0 if deadline is None else deadline - time.monotonic()
            if left <= 0:
                raise SyncScopeError("the run did not end within %g s" % timeout)
            report = self._reports.next(left)
            if report is not None and report.HasField("result"):
                self.result = report.result
        self.process.wait(timeout=None if deadline is None else max(1.0, deadline - time.monotonic()))
        return self.result

    def log(self):
        with open(self.log_path) as log:
            return log.read()

    def stop(self):
        """Ends the coordinator if it still runs (SIGTERM, then SIGKILL after 10 s)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._reports is not None:
            self._reports.close()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False
