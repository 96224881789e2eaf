"""The flat parameter layout every SyncScope peer shares: a model's trainable parameters in
model.parameters() order, each flattened row-major, one after the other as float32. Workers push
gradients and receive parameters in it, and the first worker of a run of an external model sends
its initial parameters in it."""

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


def parameter_count(model):
    return sum(p.numel() for p in trainable_parameters(model))


def flatten(model):
    """A float32 numpy copy of the model's parameters in the flat layout (on the host)."""
    with torch.no_grad():
        return torch.cat([p.detach().reshape(-1).to("cpu") for p in trainable_parameters(model)]).numpy()


def load_flat(model, flat):
    """Copies a flat float32 buffer (numpy) into the model's parameters."""
    params = trainable_parameters(model)
    expected = sum(p.numel() for p in params)
    if len(flat) != expected:
        raise SyncScopeError("a flat buffer of %d values for a model of %d parameters" % (len(flat), expected))
    source = torch.from_numpy(np.asarray(flat, dtype=np.float32))
    offset = 0
    with torch.no_grad():
        for p in params:
            n = p.numel()
            p.copy_(source[offset:offset + n].view_as(p))
            offset += n
