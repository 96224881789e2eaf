"""The flat parameter layout every SyncScope peer shares: a model's trainable parameters in
model.parameters() order, then its floating-point buffers (BatchNorm's running statistics) in
model.buffers() order, each flattened row-major, one after the other as float32. Workers push
gradients (and their buffers' values, where the buffers are) and receive parameters and buffers in
it, and the first worker of a run of an external model sends its initial values in it. The
coordinator sets the buffers of each update to the batch-weighted mean of its workers' values
(`serve --buffers B`, B = buffer_count(model)); integer buffers (BatchNorm's num_batches_tracked)
stay with each process."""

import numpy as np
import torch

from .errors import SyncScopeError


def trainable_parameters(model):
    """The parameters that make up the flat buffer, in its order: those that require a gradient, each
    once (a parameter tied to two places, e.g. shared embedding and output weights, is one entry, as in
    model.parameters()). Frozen ones (requires_grad=False) stay out: every process keeps its own."""
    named = [(name, p) for name, p in model.named_parameters() if p.requires_grad]
    if not named:
        raise SyncScopeError("the model has no trainable parameters")
    for name, p in named:
        if p.dtype != torch.float32:
            # Not cast: float64 would lose precision silently, and float16/bfloat16 training needs a
            # float32 master copy that the user's script (not the wire) should own.
            raise SyncScopeError("parameter '%s' is %s; SyncScope trains float32 parameters (the wire's type): "
                                 "call model.float() before joining, or freeze it (requires_grad=False)"
                                 % (name, str(p.dtype).replace("torch.", "")))
    return [p for _, p in named]


def parameter_names(model):
    """The names of trainable_parameters(model), in the same order."""
    return [name for name, p in model.named_parameters() if p.requires_grad]


def float_buffers(model):
    """The buffers that travel with the model, in the flat layout's order after the parameters:
    (name, tensor) of each floating-point buffer in the model's state_dict (persistent ones), each
    once. They must be float32, as the parameters."""
    persistent = set(model.state_dict(keep_vars=True).keys())
    named = [(name, b) for name, b in model.named_buffers() if name in persistent and b.is_floating_point()]
    for name, b in named:
        if b.dtype != torch.float32:
            raise SyncScopeError("buffer '%s' is %s; SyncScope carries float32 buffers (the wire's type): call "
                                 "model.float() before joining" % (name, str(b.dtype).replace("torch.", "")))
    return named


def buffer_count(model):
    """How many values of the flat layout are buffers (`serve --buffers`)."""
    return sum(b.numel() for _, b in float_buffers(model))


def parameter_count(model):
    """The flat layout's length: trainable parameters and floating-point buffers (`serve --parameters`)."""
    return sum(p.numel() for p in trainable_parameters(model)) + buffer_count(model)


def _tensors(model):
    return trainable_parameters(model) + [b for _, b in float_buffers(model)]


def flatten(model):
    """A float32 numpy copy of the model's parameters and buffers in the flat layout (on the host)."""
    with torch.no_grad():
        return torch.cat([t.detach().reshape(-1).to("cpu") for t in _tensors(model)]).numpy()


def load_flat(model, flat):
    """Copies a flat float32 buffer (numpy) into the model's parameters and buffers."""
    tensors = _tensors(model)
    expected = sum(t.numel() for t in tensors)
    if len(flat) != expected:
        raise SyncScopeError("a flat buffer of %d values for a model of %d parameters and buffers" % (len(flat), expected))
    source = torch.from_numpy(np.asarray(flat, dtype=np.float32))
    offset = 0
    with torch.no_grad():
        for t in tensors:
            n = t.numel()
            t.copy_(source[offset:offset + n].view_as(t).to(t.device))
            offset += n
