"""The errors a SyncScope client raises: each says what went wrong and what to do about it."""


class SyncScopeError(RuntimeError):
    """Anything that stops a worker: bad credentials, a refused registration, a broken peer."""


class CoordinatorLost(SyncScopeError):
    """The coordinator stopped answering (or restarted and no longer knows this worker)."""


class ProtocolError(SyncScopeError):
    """A peer sent something this client cannot trust: another protocol version, a bad frame."""


class CoordinatorSilent(CoordinatorLost):
    """No coordinator answered at the address within the time given (none runs there yet, or any more)."""
