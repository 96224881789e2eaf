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

and starting the run's coordinator from one run plan (coordinator.py):

    plan = syncscope.default_plan()        # the engine's defaults
    plan.layout.workers = 4
    plan.spec.model = "external"           # a model of your own: its flat layout's size and buffers
    plan.external_parameters = syncscope.parameter_count(model)
    plan.spec.buffer_count = syncscope.buffer_count(model)
    with syncscope.Coordinator(plan, folder) as c:
        ...                                # workers connect to c.endpoints.data; c.wait() gives the result
"""

from .control import Steering
from .coordinator import Coordinator, Endpoints, default_plan, find_engine, write_plan
from .credentials import Credentials
from .data import ShardBatchSampler
from .errors import CoordinatorLost, CoordinatorSilent, ProtocolError, SyncScopeError
from .evaluator import Evaluator, accuracy_and_loss
from .flat_layout import buffer_count, parameter_count
from .launched import environment, local_rank, rank, seed, world_size
from .optimizer import DistributedOptimizer
from .threads import blas_threads, set_num_threads
from .worker import Worker

__all__ = ["Worker", "Evaluator", "accuracy_and_loss", "DistributedOptimizer", "ShardBatchSampler", "Steering", "Credentials", "Coordinator", "Endpoints",
           "default_plan", "write_plan", "find_engine", "SyncScopeError", "CoordinatorLost", "CoordinatorSilent",
           "ProtocolError", "parameter_count", "buffer_count", "environment", "rank", "local_rank", "world_size", "seed",
           "set_num_threads", "blas_threads"]
