"""Credentials files, read as engine/net/credentials.cpp reads them ("name value" lines, 0600 only),
and the ZeroMQ security a client socket of one role needs (CURVE, or PLAIN with the workers' token on
a data plane that is only authenticated)."""

import os
import stat

import zmq
import zmq.utils.z85

from .errors import SyncScopeError

ROLES = ("worker", "steer", "view")
_Z85_LENGTH = 40


def default_path():
    """Where `syncscope-engine serve` keeps its credentials and where clients look by default."""
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.environ.get("HOME", "."), ".config")
    return os.path.join(config, "syncscope", "credentials")


def _valid_z85(key):
    if len(key) != _Z85_LENGTH:
        return False
    try:
        return len(zmq.utils.z85.decode(key.encode("ascii"))) == 32
    except (ValueError, KeyError, UnicodeEncodeError):
        return False


class Credentials:
    """The coordinator's public key and the client key pairs of one file (a role's, from keygen, or
    the coordinator's own file with every role's)."""

    def __init__(self, path, server_public, pairs, worker_token):
        self.path = path
        self.server_public = server_public
        self.pairs = pairs  # role -> (public, secret)
        self.worker_token = worker_token

    @classmethod
    def load(cls, path):
        try:
            info = os.stat(path)
        except OSError as error:
            raise SyncScopeError("cannot read credentials '%s': %s (ask whoever runs the coordinator for a "
                                 "worker file: `syncscope-engine keygen --role worker --out FILE`)"
                                 % (path, error.strerror)) from None
        if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise SyncScopeError("credentials '%s' may be read by others (mode %o); make it private with "
                                 "`chmod 600 %s`" % (path, info.st_mode & 0o777, path))
        server_public, token, halves = "", "", {}
        with open(path, encoding="ascii", errors="replace") as text:
            for number, line in enumerate(text, 1):
                fields = line.split()
                if not fields or fields[0].startswith("#"):
                    continue
                name, value = fields[0], fields[1] if len(fields) > 1 else ""
                if name == "worker-token":
                    token = value
                    continue
                if name == "named-worker":
                    continue  # the coordinator's list of named workers (keygen --name); a client never uses it
                if not _valid_z85(value):
                    raise SyncScopeError("credentials '%s' line %d: '%s' is not a 40-character Z85 key (make a new "
                                         "file with `syncscope-engine keygen`)" % (path, number, name))
                role, _, part = name.rpartition("-")
                if name == "server-public":
                    server_public = value
                elif name == "server-secret":
                    continue  # the coordinator's own file; a client never uses it
                elif role in ROLES and part in ("public", "secret"):
                    halves.setdefault(role, {})[part] = value
                else:
                    raise SyncScopeError("credentials '%s' line %d: unknown entry '%s' (make a new file with "
                                         "`syncscope-engine keygen`)" % (path, number, name))
        if not server_public:
            raise SyncScopeError("credentials '%s' hold no server-public key" % path)
        pairs = {}
        for role, half in halves.items():
            if len(half) != 2:
                raise SyncScopeError("credentials '%s' hold half of the %s key pair" % (path, role))
            pairs[role] = (half["public"], half["secret"])
        return cls(path, server_public, pairs, token)

    def has(self, role):
        return role in self.pairs

    def apply(self, socket, role, plain=False):
        """Sets a client socket up to authenticate as `role` (before it connects)."""
        if plain:
            if role != "worker" or not self.worker_token:
                raise SyncScopeError("credentials '%s' hold no worker token for an authenticated data plane"
                                     % self.path)
            socket.plain_username = b"worker"
            socket.plain_password = self.worker_token.encode("ascii")
            return
        if role not in self.pairs:
            raise SyncScopeError("credentials '%s' hold no %s keys (make them with `syncscope-engine keygen --role %s "
                                 "--out FILE`)" % (self.path, role, role))
        public, secret = self.pairs[role]
        socket.curve_serverkey = self.server_public.encode("ascii")
        socket.curve_publickey = public.encode("ascii")
        socket.curve_secretkey = secret.encode("ascii")
