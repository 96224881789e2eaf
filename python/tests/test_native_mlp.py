"""The PyTorch twin of the engine's mlp computes what the engine computes: the shared test vectors
(the engine's parameters for a seed, a Fashion-MNIST batch, the CPU backend's loss and gradient,
written by tests/unit/mlp_test_vectors.cpp) against syncscope.native_models within 1e-4."""

import subprocess

import numpy as np
import torch
import torch.nn.functional as F

from syncscope.fashion_mnist import load_split
from syncscope.native_models import NativeMlp, flat_gradient, load_flat

TOLERANCE = 1e-4


def read_vectors(path):
    data = open(path, "rb").read()
    assert data[:8] == b"SSMLPV1\0", "not an mlp test vector file"
    batch, input_size = (int(v) for v in np.frombuffer(data, np.uint32, 2, 8))
    count = int(np.frombuffer(data, np.uint64, 1, 16)[0])
    offset, fields = 24, {}
    for name, dtype, n in (("params", np.float32, count), ("images", np.float32, batch * input_size),
                           ("labels", np.int32, batch), ("loss", np.float32, 1), ("grad", np.float32, count)):
        fields[name] = np.frombuffer(data, dtype, n, offset)
        offset += n * 4
    assert offset == len(data), "trailing bytes in the vector file"
    return batch, fields


def test_pytorch_mlp_matches_the_engine(vectors_tool, tmp_path):
    path = str(tmp_path / "mlp.vectors")
    subprocess.run([vectors_tool, "--out", path, "--batch", "32", "--first", "100", "--seed", "7"], check=True,
                   timeout=120)
    batch, v = read_vectors(path)
    model = NativeMlp()
    assert sum(p.numel() for p in model.parameters()) == len(v["params"]) == 235146
    load_flat(model, v["params"])
    images = torch.tensor(v["images"]).view(batch, 1, 28, 28)
    loss = F.cross_entropy(model(images), torch.tensor(v["labels"], dtype=torch.int64))
    loss.backward()
    grad = flat_gradient(model).numpy()
    loss_difference = abs(loss.item() - float(v["loss"][0]))
    grad_difference = float(np.abs(grad - v["grad"]).max())
    print("mlp test vectors: loss %.6f (engine %.6f), max |loss diff| %.3g, max |grad diff| %.3g over %d values"
          % (loss.item(), v["loss"][0], loss_difference, grad_difference, len(grad)))
    assert loss_difference < TOLERANCE
    assert grad_difference < TOLERANCE
    # Not vacuous: the gradient has real magnitude, and a perturbed layout would be caught.
    assert np.abs(v["grad"]).max() > 1e-2
    assert np.abs(np.roll(grad, 1) - v["grad"]).max() > TOLERANCE


def test_images_are_normalised_like_the_engine(vectors_tool, tmp_path):
    path = str(tmp_path / "mlp.vectors")
    subprocess.run([vectors_tool, "--out", path, "--batch", "8", "--first", "3"], check=True, timeout=120)
    batch, v = read_vectors(path)
    images, labels = load_split("t10k")
    assert np.abs(images[3:3 + batch].reshape(-1) - v["images"]).max() < 1e-6
    assert (labels[3:3 + batch] == v["labels"]).all()
