"""The engine's built-in networks in PyTorch, with the engine's flat parameter layout
(engine/model/model_zoo.cpp, dense_layer.cpp): per layer the weights [out x in] row-major, then the
bias [out], layer after layer — which is nn.Linear's layout in model.parameters() order."""

import torch
from torch import nn


class NativeMlp(nn.Module):
    """`mlp`: 784-256-128-10 with ReLU (235,146 parameters)."""

    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                                    nn.Linear(128, 10))

    def forward(self, x):
        return self.layers(x)


def load_flat(model, flat):
    """Copies a flat parameter buffer (the coordinator's layout) into the model."""
    offset = 0
    with torch.no_grad():
        for p in model.parameters():
            n = p.numel()
            p.copy_(torch.tensor(flat[offset:offset + n]).view_as(p))
            offset += n
    if offset != len(flat):
        raise ValueError("the buffer holds %d values but the model has %d parameters" % (len(flat), offset))


def flat_gradient(model):
    return torch.cat([p.grad.reshape(-1) for p in model.parameters()])
