"""Fixtures: the real engine binary (a coordinator with credentials, native workers) and PyTorch
workers as processes of their own, every one stopped at the end of its test. ctest passes the
binaries in SYNCSCOPE_ENGINE and SYNCSCOPE_MLP_VECTORS; without them the tests that need them skip."""

import os
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)


def _binary(variable):
    path = os.environ.get(variable)
    if not path or not os.access(path, os.X_OK):
        pytest.skip("%s is not set to a built binary (ctest sets it; by hand: %s=BUILD/...)" % (variable, variable))
    return path


@pytest.fixture
def engine():
    return _binary("SYNCSCOPE_ENGINE")


@pytest.fixture
def vectors_tool():
    return _binary("SYNCSCOPE_MLP_VECTORS")


class Cluster:
    """A coordinator (`serve`, ports chosen by the system) and the workers started against it."""

    def __init__(self, engine, folder):
        self.engine = engine
        self.folder = str(folder)
        self.processes = []
        self.credentials = os.path.join(self.folder, "run.credentials")
        self.endpoints = {}
        self.serve = None
        self._reports = None

    def keygen(self, role, name=None):
        """A role's file; with `name`, a worker's keys of its own (`keygen --name`, revocable)."""
        out = os.path.join(self.folder, "%s.credentials" % (name or role))
        subprocess.run([self.engine, "keygen", "--credentials", self.credentials, "--role", role, "--out", out]
                       + (["--name", name] if name else []), check=True, capture_output=True, timeout=30)
        return out

    def revoke(self, name):
        subprocess.run([self.engine, "revoke", "--credentials", self.credentials, "--name", name],
                       check=True, capture_output=True, timeout=30)

    def start_coordinator(self, *args, name="serve", data_port=0):
        """`serve` with these flags; where it listens comes from its report pipe (--report-fd). A
        coordinator resumed in place of a killed one takes another name and the same data_port."""
        from syncscope.coordinator import _ReportReader  # the package's own reader of ProcessReports
        if self._reports is not None:
            self._reports.close()
        read_end, write_end = os.pipe()
        self.serve = self._spawn(name, [self.engine, "serve", "--credentials", self.credentials, "--data-port",
                                        str(data_port), "--control-port", "0", "--telemetry-port", "0",
                                        "--report-fd", str(write_end), *args], pass_fds=(write_end,))
        os.close(write_end)
        self._reports = _ReportReader(read_end)  # kept open until stop(): serve reports its result too
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            report = self._reports.next(deadline - time.monotonic())
            if report is None:
                break
            if report.HasField("listening"):
                self.endpoints = {"data": report.listening.data, "control": report.listening.control,
                                  "telemetry": report.listening.telemetry}
                return self.endpoints
        raise AssertionError("the coordinator reported no endpoints:\n" + self.logs())

    def start_native_worker(self, name, *extra):
        return self._spawn(name, [self.engine, "work", "--connect", self.endpoints["data"], "--credentials",
                                  self.keygen("worker"), "--threads", "1", *extra])

    def start_shard(self, name):
        """A parameter shard (`shard`) of the coordinator's run, with the run's credentials, once it listens."""
        return self._start_relay(name, "shard", "shard ")

    def start_aggregator(self, name):
        """A group aggregator (`aggregate`) of the coordinator's run, once it listens."""
        return self._start_relay(name, "aggregate", "aggregator ")

    def _start_relay(self, name, command, first_line_prefix):
        """`command --connect DATA` with the run's credentials, once its first line says where it listens."""
        process = self._spawn(name, [self.engine, command, "--connect", self.endpoints["data"], "--credentials",
                                     self.credentials])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and process.poll() is None:
            if self.output(name).startswith(first_line_prefix) and "\n" in self.output(name):
                return process
            time.sleep(0.05)
        raise AssertionError("the %s did not start:\n%s" % (command, self.logs()))

    def start_python_worker(self, name, *extra):
        return self.start_script(name, os.path.join(PYTHON_DIR, "examples", "join_native_mlp.py"), "--connect",
                                 self.endpoints["data"], "--credentials", self.keygen("worker"), *extra)

    def start_script(self, name, script, *args):
        """A Python script (an example, a test's worker) with the syncscope package on PYTHONPATH."""
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([PYTHON_DIR, os.environ.get("PYTHONPATH", "")]))
        return self._spawn(name, [sys.executable, script, *args], env=env)

    def start_external(self, name, role, *extra):
        """tests/external_model.py as `role` (worker or evaluator) of this run, with its worker keys."""
        return self.start_script(name, os.path.join(HERE, "external_model.py"), "--role", role, "--connect",
                                 self.endpoints["data"], "--credentials", self.keygen("worker"), *extra)

    def _spawn(self, name, argv, env=None, pass_fds=()):
        log = open(os.path.join(self.folder, name + ".log"), "w")
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, pass_fds=pass_fds)
        process.name = name
        self.processes.append(process)
        return process

    def exit_code(self, process, timeout):
        """The process's exit status once it ends; a process still running after `timeout` seconds fails
        the test with every process's log (a bare TimeoutExpired would say nothing of why)."""
        try:
            return process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("%s was still running after %s s:\n%s" % (process.name, timeout, self.logs()))

    def output(self, name):
        with open(os.path.join(self.folder, name + ".log")) as log:
            return log.read()

    def logs(self):
        return "\n".join("---- %s ----\n%s" % (p.name, self.output(p.name)[-3000:]) for p in self.processes)

    def stop(self):
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._reports is not None:
            self._reports.close()


@pytest.fixture
def cluster(engine, tmp_path):
    c = Cluster(engine, tmp_path)
    yield c
    c.stop()


class TelemetryReader:
    """A SUB socket on the coordinator's telemetry (view role): waits for a tick that satisfies a test."""

    def __init__(self, endpoint, credentials):
        import zmq
        from syncscope import wire
        from syncscope.credentials import Credentials
        self._pb = wire.pb
        self._context = zmq.Context()
        self._socket = self._context.socket(zmq.SUB)
        self._socket.linger = 0
        Credentials.load(credentials).apply(self._socket, "view")
        self._socket.setsockopt(zmq.SUBSCRIBE, b"tick")
        self._socket.connect(endpoint)
        self.last = None

    def wait_for(self, predicate, timeout_s):
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not self._socket.poll(200):
                continue
            tick = self._pb.Tick.FromString(self._socket.recv_multipart()[1])
            self.last = tick
            if predicate(tick):
                return tick
        return None

    def close(self):
        self._socket.close(linger=0)
        self._context.term()


def listing(folder):
    """The names in `folder`, none while it does not exist."""
    return os.listdir(folder) if os.path.isdir(folder) else []
