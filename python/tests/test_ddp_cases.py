"""What PyTorch's DistributedDataParallel accepts, case by case (issue 28, point 2): each model trains
through a SyncScope run (1 PyTorch worker, bsp, the coordinator's SGD with momentum and weight decay)
and its parameters after 12 steps are compared with a plain PyTorch loop of the same SGD on the same
batches; or it is refused, naming the parameter. The table in docs/python.md is this file's.

| case | rule | checked against |
|---|---|---|
| plain | trains | plain PyTorch |
| tied weights | one entry in the flat layout, both uses' gradients summed | plain PyTorch |
| BatchNorm | running statistics travel as buffers (`serve --buffers`): the update's batch-weighted mean | plain PyTorch, buffers too |
| frozen layer | not sent; every process keeps its own | plain PyTorch |
| unused branch | a zero gradient: weight decay and momentum still move it (warned) | plain PyTorch with zero gradients |
| float64 / float16 | refused, naming the parameter | the error |
| CUDA parameters | staged through pinned host memory | plain PyTorch on the GPU (skipped without one) |
"""

import warnings

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

import syncscope
from syncscope.flat_layout import buffer_count, parameter_count

LR, MOMENTUM, WEIGHT_DECAY, BATCH, STEPS = 0.05, 0.9, 0.001, 16, 12


class Tied(nn.Module):
    """An encoder and decoder sharing one weight (as tied embeddings do)."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(16, 16, bias=False)
        self.dec = nn.Linear(16, 16, bias=False)
        self.dec.weight = self.enc.weight
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        return self.head(torch.relu(self.dec(torch.relu(self.enc(x)))))


class UnusedBranch(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
        self.spare = nn.Linear(16, 4)  # never in forward(): DDP's find_unused_parameters case

    def forward(self, x):
        return self.body(x)


def plain():
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


def batchnorm():
    return nn.Sequential(nn.Linear(16, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 4))


def frozen():
    model = plain()
    model[0].requires_grad_(False)
    return model


def with_dtype(dtype):
    def make():
        model = plain()
        model[2].to(dtype)
        return model
    return make


def seeded(make):
    torch.manual_seed(3)
    return make()


def batches(device="cpu"):
    generator = torch.Generator().manual_seed(5)
    for _ in range(STEPS):
        x = torch.randn(BATCH, 16, generator=generator)
        yield x.to(device), (x[:, :4].argmax(1)).to(device)


def train_plain(model, device, zero_gradients):
    """The reference: torch.optim.SGD with the run's settings. zero_gradients: every parameter starts
    with a zero .grad, so one without a gradient in a step is updated as a zero (the unused-branch rule)."""
    if zero_gradients:
        for p in model.parameters():
            p.grad = torch.zeros_like(p)
    optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=LR, momentum=MOMENTUM,
                                weight_decay=WEIGHT_DECAY)
    for x, y in batches(device):
        optimizer.zero_grad(set_to_none=not zero_gradients)
        F.cross_entropy(model(x), y).backward()
        optimizer.step()
    return model


def train_syncscope(cluster, model, device):
    count = parameter_count(model)
    cluster.start_coordinator("--workers", "1", "--model", "external", "--parameters", str(count), "--buffers",
                              str(buffer_count(model)), "--lr", str(LR),
                              "--momentum", str(MOMENTUM), "--weight-decay", str(WEIGHT_DECAY), "--batch",
                              str(BATCH), "--until-stopped", "--schedule", "constant",
                              "--heartbeat-timeout", "0.5")  # the worker leaves first: the stop waits for that
    with syncscope.Worker(connect=cluster.endpoints["data"], credentials=cluster.keygen("worker"), model=model,
                          train_examples=STEPS * BATCH) as worker:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            opt = worker.wrap(None, model)
            for x, y in batches(device):
                opt.zero_grad()
                loss = F.cross_entropy(model(x), y)
                loss.backward()
                assert opt.step(loss)
        assert opt.version == STEPS  # one update per step: nothing dropped
    return model, [str(w.message) for w in caught]


def assert_same(ours, theirs):
    parameters, buffers = dict(theirs.named_parameters()), dict(theirs.named_buffers())
    for name, p in ours.named_parameters():
        assert torch.allclose(p.detach().cpu(), parameters[name].detach().cpu(), rtol=1e-4, atol=1e-6), (
            "%s differs from plain PyTorch by %g" % (name, (p.detach().cpu() - parameters[name].detach().cpu()).abs().max()))
    for name, b in ours.named_buffers():
        assert torch.allclose(b.detach().cpu().float(), buffers[name].detach().cpu().float(), rtol=1e-4, atol=1e-6), (
            "buffer %s differs from plain PyTorch's" % name)


@pytest.mark.parametrize("make", [plain, Tied, batchnorm, frozen], ids=["plain", "tied weights", "batchnorm", "frozen layer"])
def test_trains_as_plain_pytorch(cluster, make):
    ours, said = train_syncscope(cluster, seeded(make), "cpu")
    theirs = train_plain(seeded(make), "cpu", zero_gradients=False)
    assert_same(ours, theirs)
    assert not [s for s in said if "no gradient" in s], said
    if make is frozen:  # left alone by both
        assert torch.equal(ours[0].weight, seeded(make)[0].weight)


def test_an_unused_branch_gets_zero_gradients_and_a_warning(cluster):
    ours, said = train_syncscope(cluster, seeded(UnusedBranch), "cpu")
    assert_same(ours, train_plain(seeded(UnusedBranch), "cpu", zero_gradients=True))
    untouched = seeded(UnusedBranch).spare.weight
    assert not torch.equal(ours.spare.weight, untouched)  # weight decay moved it; plain PyTorch would not
    assert [s for s in said if "spare.weight, spare.bias had no gradient" in s], said


@pytest.mark.parametrize("dtype", [torch.float64, torch.float16], ids=["float64", "float16"])
def test_a_parameter_not_float32_is_refused_by_name(dtype):
    with pytest.raises(syncscope.SyncScopeError) as refused:
        syncscope.Worker(connect="tcp://127.0.0.1:9", insecure=True, model=seeded(with_dtype(dtype)),
                         train_examples=100, register_timeout=0.1)
    text = str(refused.value)
    assert "parameter '2.weight' is %s" % str(dtype).replace("torch.", "") in text and "model.float()" in text, text


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device here (tests/gpu/device_check.sh runs it)")
def test_parameters_on_a_cuda_device_train_as_plain_pytorch(cluster):
    ours, _ = train_syncscope(cluster, seeded(plain).cuda(), "cuda")
    assert_same(ours, train_plain(seeded(plain).cuda(), "cuda", zero_gradients=False))
