"""DistributedOptimizer: the Horovod-shaped handle a training script steps. The model's parameters and
gradients are re-pointed into two flat float32 buffers in model.parameters() order, so the gradient
is pushed straight from its buffer (no copy on CPU) and the released parameters are copied in once.
The model's floating-point buffers (BatchNorm's running statistics) follow the parameters in the
first one: the gradient's tail carries their values as this worker's batches left them, and the
released ones (the coordinator's batch-weighted mean) replace them. The coordinator owns the
optimiser: it applies the update under whatever mode it runs now."""

import time
import warnings

import torch

from .errors import SyncScopeError
from .flat_layout import float_buffers, parameter_names, trainable_parameters


class DistributedOptimizer:
    def __init__(self, worker, optimizer, model):
        self.worker = worker
        self._optimizer = optimizer
        self._params = trainable_parameters(model)
        self._names = parameter_names(model)
        self._checked_unused = False
        self.stale_batches = 0  # batches drawn at a size the coordinator has since changed: not pushed
        self._check(optimizer)
        buffers = float_buffers(model)
        self._trained = sum(p.numel() for p in self._params)  # where the buffers begin
        count = self._trained + sum(b.numel() for _, b in buffers)
        if count != worker.spec.parameter_count or count - self._trained != worker.spec.buffer_count:
            raise SyncScopeError(
                "this model has %d parameters but the run's (%s) has %d (buffer values among them: %d here, %d in the "
                "run; serve --parameters and --buffers, syncscope.parameter_count and buffer_count); the flat layout "
                "(model.parameters() order, then model.buffers()) must match the coordinator's model"
                % (count, worker.spec.model or "?", worker.spec.parameter_count, count - self._trained,
                   worker.spec.buffer_count))
        device = self._params[0].device
        self._flat_params = torch.empty(count, dtype=torch.float32, device=device)
        self._flat_grads = torch.zeros(count, dtype=torch.float32, device=device)
        # Device buffers are staged on the host for the wire; CPU ones go as they are.
        self._host_grads = self._flat_grads if device.type == "cpu" else torch.zeros(count, pin_memory=True)
        self._slices = []
        offset = 0
        with torch.no_grad():
            for p in self._params:
                n = p.numel()
                self._flat_params[offset:offset + n].copy_(p.reshape(-1))
                p.data = self._flat_params[offset:offset + n].view_as(p)
                p.grad = self._flat_grads[offset:offset + n].view_as(p)
                self._slices.append((offset, n))
                offset += n
            owners = [(m, name) for m in model.modules() for name, b in m._buffers.items() if b is not None]
            for _, b in buffers:
                n = b.numel()
                view = self._flat_params[offset:offset + n]
                view.copy_(b.reshape(-1))
                for m, name in owners:  # every module that holds it (a shared one, once in the layout)
                    if m._buffers[name] is b:
                        m._buffers[name] = view.view_as(b)
                offset += n
        self._computing_since = time.monotonic()
        self._install(worker.pull())

    # ---- what a training loop reads ----

    @property
    def running(self):
        """False once the coordinator has stopped the run."""
        return not self.worker.stopped

    @property
    def batch_size(self):
        """The batch size the next gradient must be computed on (the coordinator's choice)."""
        return self.worker.batch_size

    @property
    def version(self):
        """Model version of the parameters the model holds now."""
        return self.worker.version

    @property
    def flat_parameters(self):
        return self._flat_params

    @property
    def flat_gradients(self):
        return self._flat_grads

    def zero_grad(self, set_to_none=False):
        """Zeroes the flat gradient in one pass (set_to_none is ignored: the views must stay)."""
        self.worker.wait_gradient_sent()
        self._flat_grads.zero_()
        self._reattach()

    def step(self, loss=None, batch_size=None):
        """Pushes the gradient computed since the last step, waits for the parameters the coordinator
        releases, and copies them into the model. Returns False once the run is over.

        loss: this batch's loss (a float or a tensor), shown in the coordinator's train loss.
        batch_size: the batch the gradient was computed on: `batch_size` (the assigned one, the default), or
        the whole shard where that is smaller. A batch of a size assigned before the coordinator's latest
        change (one a prefetching DataLoader drew ahead) is not pushed, since the coordinator takes only
        the size it assigned: the step pulls the current parameters instead (counted in stale_batches)."""
        if self.worker.stopped:
            return False
        compute_ms = (time.monotonic() - self._computing_since) * 1000.0
        assigned = self.worker.batch_size
        if batch_size is not None and self.worker.assigned_earlier(batch_size):
            self.stale_batches += 1
            frame = self.worker.pull()
            self._install(frame)
            return frame is not None
        if batch_size is not None and not 0 < batch_size <= assigned:
            raise SyncScopeError("the gradient was computed on a batch of %d but the coordinator assigned %d; "
                                 "draw each batch with opt.batch_size samples (fewer only where the shard is "
                                 "smaller; syncscope.ShardBatchSampler does)" % (batch_size, assigned))
        self._gather()
        if not self._checked_unused:
            self._checked_unused = True
            self._warn_unused()
        if self._trained < len(self._flat_grads):  # the buffers as this worker's batches left them
            with torch.no_grad():
                self._flat_grads[self._trained:].copy_(self._flat_params[self._trained:])
        if self._host_grads is not self._flat_grads:
            self._host_grads.copy_(self._flat_grads)
        if isinstance(loss, torch.Tensor):
            loss = loss.item()
        loss = float("nan") if loss is None else float(loss)
        frame = self.worker.push(self._host_grads.numpy(), loss, compute_ms, batch_size or assigned)
        self._install(frame)
        self.worker.fire_hooks()
        return frame is not None

    # ---- the flat buffers ----

    def _install(self, frame):
        self._computing_since = time.monotonic()
        if frame is None:
            return
        source = torch.from_numpy(frame.copy()) if self._flat_params.device.type != "cpu" else None
        with torch.no_grad():
            if source is None:
                self._flat_params.numpy()[:] = frame  # one copy, out of ZeroMQ's frame
            else:
                self._flat_params.copy_(source, non_blocking=False)

    def _gather(self):
        """Brings gradients that left the flat buffer (set_to_none, a replaced .grad) back into it."""
        with torch.no_grad():
            for p, (offset, n) in zip(self._params, self._slices):
                view = self._flat_grads[offset:offset + n]
                if p.grad is None:
                    view.zero_()  # unused in this batch
                elif p.grad.data_ptr() != view.data_ptr():
                    view.copy_(p.grad.reshape(-1))
        self._reattach()

    def _warn_unused(self):
        """Once, on the first step: parameters without a gradient (an unused branch) are pushed as zero,
        as under DDP where another rank used them; the coordinator's weight decay and momentum still
        move them, where a plain PyTorch step would skip them."""
        with torch.no_grad():
            unused = [name for name, (offset, n) in zip(self._names, self._slices)
                      if not bool(self._flat_grads[offset:offset + n].any())]
        if unused:
            spec = self.worker.spec
            warnings.warn("syncscope: %s had no gradient in the first step (an unused branch?); they are pushed as "
                          "zero gradients, and the coordinator's weight decay (%g) and momentum (%g) still move them, "
                          "unlike a plain PyTorch step: freeze them (requires_grad=False) if they never train"
                          % (", ".join(unused[:5]) + (" and %d more" % (len(unused) - 5) if len(unused) > 5 else ""),
                             spec.weight_decay, spec.momentum), stacklevel=3)

    def _reattach(self):
        for p, (offset, n) in zip(self._params, self._slices):
            view = self._flat_grads[offset:offset + n]
            if p.grad is None or p.grad.data_ptr() != view.data_ptr():
                p.grad = view.view_as(p)

    def _check(self, optimizer):
        if optimizer is None:
            return
        theirs = {id(p) for group in optimizer.param_groups for p in group["params"]}
        if theirs != {id(p) for p in self._params}:
            raise SyncScopeError("the optimizer's parameters are not the model's trainable parameters; wrap the "
                                 "optimizer of this model (or pass None)")
        spec = self.worker.spec
        warnings.warn("syncscope: the coordinator applies the updates with its SGD (lr %g, momentum %g, weight decay "
                      "%g); %s.step() is not called" % (spec.learning_rate, spec.momentum, spec.weight_decay,
                                                          type(optimizer).__name__), stacklevel=3)
