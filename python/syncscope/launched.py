"""A worker started by the engine (`syncscope-engine run` or `launch --hosts/--slurm` with
`--worker-command "python3 train.py ..."`): its environment says where the run is, in the names
engine/launch/worker_command.h sets (torchrun's where torchrun has one).

    w = syncscope.Worker(model=model, train_examples=60000)   # connect and keys from the environment
    if syncscope.rank() == 0:                                  # one of them may evaluate, in a thread
        threading.Thread(target=syncscope.Evaluator(model=twin, evaluate=f, **syncscope.environment()).run).start()
"""

import os

from .errors import SyncScopeError

CONNECT, CREDENTIALS, DATA_PLANE, INSECURE = ("SYNCSCOPE_CONNECT", "SYNCSCOPE_CREDENTIALS", "SYNCSCOPE_DATA_PLANE",
                                              "SYNCSCOPE_INSECURE")
RANK, LOCAL_RANK, WORLD_SIZE = "RANK", "LOCAL_RANK", "WORLD_SIZE"
SEED = "SYNCSCOPE_SEED"


def environment():
    """Worker's and Evaluator's connection arguments from the environment the engine set:
    dict(connect=..., credentials=..., insecure=..., data_plane=...)."""
    connect = os.environ.get(CONNECT)
    if not connect:
        raise SyncScopeError("no coordinator to connect to: pass connect=\"tcp://HOST:PORT\", or start this script "
                             "with `syncscope-engine run --worker-command ...` (or launch --hosts/--slurm), which "
                             "sets %s" % CONNECT)
    return {"connect": connect, "credentials": os.environ.get(CREDENTIALS) or None,
            "insecure": os.environ.get(INSECURE) == "1", "data_plane": os.environ.get(DATA_PLANE) or "encrypted"}


def connection(connect, credentials, insecure, data_plane):
    """(connect, credentials, insecure, data_plane) as given, or, without an address, from the environment
    the engine set (a --worker-command or --evaluator-command); given credentials are kept."""
    if connect is not None:
        return connect, credentials, insecure, data_plane
    launched = environment()
    return launched["connect"], credentials or launched["credentials"], launched["insecure"], launched["data_plane"]


def rank():
    """This worker's index among the run's workers, 0..world_size()-1 (0 when not started by the engine)."""
    return int(os.environ.get(RANK, "0"))


def local_rank():
    """Its index among the workers of its host."""
    return int(os.environ.get(LOCAL_RANK, "0"))


def world_size():
    """The run's workers (1 when not started by the engine)."""
    return int(os.environ.get(WORLD_SIZE, "1"))


def seed(default=1):
    """The run's --seed (for the initial model and the data order), or `default` when not started by the
    engine."""
    return int(os.environ.get(SEED, str(default)))
