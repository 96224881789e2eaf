"""Steering: a control client (DEALER to the coordinator's control ROUTER), for scripts and tests that
change the mode, the groups, a worker's slowdown or the learning rate of a running run, as a console
does. It needs the steer role's keys (`syncscope-engine keygen --role steer`)."""

import itertools
import time

import zmq

from . import wire
from .credentials import Credentials, default_path
from .errors import SyncScopeError

_MODES = {"bsp": wire.pb.BSP, "asp": wire.pb.ASP, "ssp": wire.pb.SSP, "grouped": wire.pb.GROUPED,
          "ksync": wire.pb.KSYNC, "kasync": wire.pb.KASYNC, "elastic": wire.pb.ELASTIC, "auto": wire.pb.AUTO}
_LR = {"none": wire.pb.LR_NONE, "inverse": wire.pb.LR_INVERSE, "dynsgd": wire.pb.LR_DYNSGD}
_GROUP_BY = {"round-robin": wire.pb.GROUP_ROUND_ROBIN, "speed": wire.pb.GROUP_BY_SPEED,
             "explicit": wire.pb.GROUP_EXPLICIT}


def mode_settings(mode, lr_modulation="none", **fields):
    """ModeSettings from names as on the command line: mode_settings("grouped", group_count=2)."""
    if mode not in _MODES:
        raise SyncScopeError("unknown mode %r: use one of %s" % (mode, ", ".join(_MODES)))
    if lr_modulation not in _LR:
        raise SyncScopeError("unknown lr modulation %r: use none, inverse or dynsgd" % (lr_modulation,))
    settings = wire.pb.ModeSettings(mode=_MODES[mode], lr_modulation=_LR[lr_modulation])
    for name, value in fields.items():
        if name == "group_by":
            value = _GROUP_BY[value]
        try:
            setattr(settings, name, value)
        except (AttributeError, TypeError, ValueError) as error:
            raise SyncScopeError("mode setting %s=%r: %s" % (name, value, error)) from None
    return settings


class Steering:
    def __init__(self, control, credentials=None, *, insecure=False, timeout=10.0):
        self._timeout = timeout
        self._ids = itertools.count(1)
        self._context = zmq.Context()
        self._socket = self._context.socket(zmq.DEALER)
        self._socket.linger = 0
        if not insecure:
            keys = Credentials.load(credentials or default_path())
            keys.apply(self._socket, "steer")
        self._socket.connect(control)
        self.control = control

    def request(self, request):
        """Sends a ControlRequest; returns the ControlReply, or raises with the coordinator's refusal."""
        envelope = wire.pb.Envelope(correlation_id=next(self._ids))
        envelope.control.CopyFrom(request)
        wire.send(self._socket, envelope)
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline:
            if not self._socket.poll(100):
                continue
            reply, _ = wire.receive(self._socket, 0)
            if reply.correlation_id != envelope.correlation_id:
                continue  # the answer to an earlier request that timed out
            if reply.HasField("error"):
                raise SyncScopeError("the coordinator refused the request: %s" % reply.error.message)
            if not reply.control_reply.ok:
                raise SyncScopeError("the coordinator refused the request: %s" % reply.control_reply.error)
            return reply.control_reply
        raise SyncScopeError("no answer from the coordinator's control endpoint %s within %g s; is it running, and "
                             "are these steer credentials of that coordinator?" % (self.control, self._timeout))

    def set_mode(self, mode, lr_modulation="none", **fields):
        request = wire.pb.ControlRequest()
        request.set_mode.settings.CopyFrom(mode_settings(mode, lr_modulation, **fields))
        return self.request(request)

    def set_groups(self, count, by="round-robin"):
        request = wire.pb.ControlRequest()
        request.set_groups.count = count
        request.set_groups.by = _GROUP_BY[by]
        return self.request(request)

    def stop(self):
        return self.request(wire.pb.ControlRequest(stop=True))

    def close(self):
        self._socket.close(linger=0)
        self._context.term()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
