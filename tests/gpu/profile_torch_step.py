#!/usr/bin/python3
"""PyTorch's cnn training step on CUDA under torch.profiler: which kernels it runs and for how long,
to set beside SyncScope's CUDA backend (no Nsight on the lent machines). Usage:
  python3 tests/gpu/profile_torch_step.py [BATCH] [tf32|fp32]"""
import sys
import torch
from torch import nn

batch = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.allow_tf32 = (sys.argv[2] if len(sys.argv) > 2 else "tf32") == "tf32"
model = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Conv2d(16, 32, 5), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.Linear(800, 128), nn.ReLU(), nn.Linear(128, 10)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4, foreach=True)
x = torch.randn(batch, 1, 28, 28, device="cuda")
y = torch.randint(0, 10, (batch,), device="cuda")
loss_fn = nn.CrossEntropyLoss()

def step():
    opt.zero_grad(set_to_none=True)
    loss_fn(model(x), y).backward()
    opt.step()

for _ in range(50):  # warm-up: cudnn.benchmark measures here
    step()
torch.cuda.synchronize()
steps = 100
from torch.profiler import profile, ProfilerActivity
with profile(activities=[ProfilerActivity.CUDA]) as prof:
    for _ in range(steps):
        step()
    torch.cuda.synchronize()
rows = {}
for e in prof.events():
    if e.device_type.name == "CUDA":
        rows.setdefault(e.name, [0, 0.0])
        rows[e.name][0] += 1
        rows[e.name][1] += e.device_time if hasattr(e, "device_time") else e.cuda_time
total = sum(v[1] for v in rows.values())
print(f"batch {batch}, {sys.argv[2] if len(sys.argv) > 2 else 'tf32'}: GPU time per step {total / steps:.1f} us "
      f"({batch / (total / steps) * 1e6:,.0f} samples/s if the GPU never idled)")
for name, (count, us) in sorted(rows.items(), key=lambda kv: -kv[1][1]):
    print(f"{us / steps:9.1f} us/step  {count / steps:4.1f}x  {name[:150]}")
