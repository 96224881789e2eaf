"""Mini-batches of a worker's shard, in the size the coordinator assigns each step (elastic mode
changes it), each pass over the shard in a new order, as a native worker draws them."""

import numpy as np
import torch


def shuffled_batches(opt, sample_count, seed):
    """Yields index tensors into the shard (0..sample_count-1) while the run goes on: each holds
    opt.batch_size indices (the whole shard where that is smaller)."""
    rng = np.random.default_rng(seed)
    order, cursor = rng.permutation(sample_count), 0
    while opt.running:
        n = min(opt.batch_size, sample_count)
        if cursor + n > len(order):  # the next pass over the shard, in a new order
            order, cursor = rng.permutation(sample_count), 0
        yield torch.from_numpy(order[cursor:cursor + n])
        cursor += n
