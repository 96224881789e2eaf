"""syncscope: PyTorch training scripts as workers of a SyncScope run (the engine's data plane), in
the shape of Horovod's DistributedOptimizer:

    w = syncscope.Worker(connect="tcp://HOST:5555", credentials="worker.credentials")
    opt = w.wrap(None, model)              # the coordinator owns the optimiser
    while opt.running:
        x, y = next_batch(opt.batch_size)  # the batch size the coordinator assigns
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step(loss)                     # push the gradient, copy in the released parameters
"""

from .control import Steering
from .credentials import Credentials
from .errors import CoordinatorLost, ProtocolError, SyncScopeError
from .evaluator import Evaluator
from .optimizer import DistributedOptimizer
from .worker import Worker

__all__ = ["Worker", "Evaluator", "DistributedOptimizer", "Steering", "Credentials", "SyncScopeError",
           "CoordinatorLost", "ProtocolError"]
