"""The flat parameter layout every SyncScope peer shares: a model's trainable parameters in
model.parameters() order, each flattened row-major, one after the other as float32. Workers push
gradients and receive parameters in it, and the first worker of a run of an external model sends
its initial parameters in it."""

import numpy as np
import torch

from .errors import SyncScopeError


def trainable_parameters(model):
    """The parameters that make up the flat buffer, in its order."""
    params = [p for p in model.parameters() if p.requires_grad]
    if not params:
        raise SyncScopeError("the model has no trainable parameters")
    for p in params:
        if p.dtype != torch.float32:
            raise SyncScopeError("parameters must be float32 (the wire's type), not %s" % p.dtype)
    return params


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
