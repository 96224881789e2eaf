"""Fashion-MNIST from the IDX files of Debian's dataset-fashion-mnist package, normalised exactly as
engine/model/fashion_mnist.cpp does ((pixel / 255 - 0.2860) / 0.3530), so a PyTorch worker trains on
the same numbers as a native one."""

import gzip
import os
import struct

import numpy as np

from .errors import SyncScopeError

DEFAULT_DIR = "/usr/share/datasets/fashion-mnist"
PIXEL_MEAN = np.float32(0.2860)
PIXEL_STD = np.float32(0.3530)


def _read_idx(path, expected_dims):
    try:
        with gzip.open(path, "rb") as f:
            data = f.read()
    except OSError as error:
        raise SyncScopeError("cannot read %s: %s (install dataset-fashion-mnist, or pass the folder holding the "
                             "IDX .gz files)" % (path, error)) from None
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] != 0x08 or data[3] != expected_dims:
        raise SyncScopeError("%s is not an IDX file of unsigned bytes with %d dimensions" % (path, expected_dims))
    dims = struct.unpack(">%dI" % expected_dims, data[4:4 + 4 * expected_dims])
    body = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * expected_dims)
    if body.size != int(np.prod(dims)):
        raise SyncScopeError("%s: the header promises %d values but the file holds %d" % (path, np.prod(dims),
                                                                                         body.size))
    return body.reshape(dims)


def load_split(split, folder=None):
    """(images float32 [n, 1, 28, 28] normalised, labels int64 [n]) of "train" or "t10k"."""
    folder = folder or os.environ.get("SYNCSCOPE_FASHION_MNIST_DIR") or DEFAULT_DIR
    images = _read_idx(os.path.join(folder, "%s-images-idx3-ubyte.gz" % split), 3)
    labels = _read_idx(os.path.join(folder, "%s-labels-idx1-ubyte.gz" % split), 1)
    if images.shape[0] != labels.shape[0]:
        raise SyncScopeError("%s: %d images but %d labels; the two files must come from the same release"
                             % (folder, images.shape[0], labels.shape[0]))
    normalised = (images.astype(np.float32) / np.float32(255.0) - PIXEL_MEAN) / PIXEL_STD
    return normalised.reshape(-1, 1, images.shape[1], images.shape[2]), labels.astype(np.int64)
