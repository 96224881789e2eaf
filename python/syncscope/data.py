"""ShardBatchSampler: a torch.utils.data.DataLoader's batch sampler that draws this worker's shard of
the training set in the batch size the coordinator assigns (elastic mode changes it), as a native
worker draws its batches:

    loader = DataLoader(train_set, batch_sampler=syncscope.ShardBatchSampler(opt, len(train_set)))
    for images, labels in loader:          # ends when the run is over
        opt.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step(loss, batch_size=len(labels))
"""

import numpy as np
import torch.utils.data


class ShardBatchSampler(torch.utils.data.Sampler):
    """Batches of dataset indices from this worker's shard (index i belongs to shard i mod shard_count,
    the coordinator's rule, from the Welcome), each pass over the shard in a new order.

    opt: the DistributedOptimizer (worker.wrap(...)); its batch_size is read as each batch is drawn,
        and the sampler ends when opt.running turns False.
    dataset_size: len(dataset), all workers' samples together.
    seed: the order's seed (each worker adds its id, so no two draw alike).

    A DataLoader with num_workers > 0 draws up to num_workers x prefetch_factor batches ahead: after the
    coordinator changes the size, those few keep the old one. The coordinator takes only the size it
    assigned, so step(loss, batch_size=len(labels)) pulls instead of pushing them (opt.stale_batches);
    num_workers=0 follows a change at the next batch.
    A worker that registers again (a resumed coordinator, a replaced parameter shard) may get another
    shard; the next pass follows it."""

    def __init__(self, opt, dataset_size, seed=0):
        super().__init__(None)
        if dataset_size <= 0:
            raise ValueError("dataset_size must be positive, not %r" % (dataset_size,))
        self._opt = opt
        self._size = int(dataset_size)
        self._seed = int(seed)

    def _shard(self):
        worker = self._opt.worker
        return np.fromiter(worker.shard(self._size), dtype=np.int64), worker.shard_index, worker.shard_count

    def __iter__(self):
        rng = np.random.default_rng(self._seed * 7919 + self._opt.worker.worker_id)
        members, index, count = self._shard()
        order, cursor = rng.permutation(members), 0
        while self._opt.running:
            n = min(self._opt.batch_size, len(members))
            if cursor + n > len(order):  # the next pass, in a new order, over the shard held now
                if (self._opt.worker.shard_index, self._opt.worker.shard_count) != (index, count):
                    members, index, count = self._shard()
                    n = min(self._opt.batch_size, len(members))
                order, cursor = rng.permutation(members), 0
            yield order[cursor:cursor + n].tolist()
            cursor += n

    def __len__(self):
        """Batches in one pass over the shard at the size assigned now."""
        members = len(self._opt.worker.shard(self._size))
        return max(1, -(-members // max(1, self._opt.batch_size)))
