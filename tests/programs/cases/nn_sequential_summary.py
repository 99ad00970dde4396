# Build models with nn.Sequential and OrderedDict, and print a summary table of layers and parameter counts.
from collections import OrderedDict
import torch
from torch import nn

torch.manual_seed(1)
model = nn.Sequential(OrderedDict([
    ("conv", nn.Conv2d(1, 4, kernel_size=3, padding=1)),
    ("act", nn.ReLU()),
    ("pool", nn.MaxPool2d(2)),
    ("flatten", nn.Flatten()),
    ("fc", nn.Linear(4 * 4 * 4, 10)),
]))
print(model)
print("by name:", model.conv)
print("by index:", model[1], "slice:", model[3:])
print("len:", len(model))


def summary(model, input_shape):
    x = torch.zeros(1, *input_shape)
    rows = []
    for name, layer in model.named_children():
        x = layer(x)
        count = sum(p.numel() for p in layer.parameters())
        rows.append((name, type(layer).__name__, tuple(x.shape), count))
    print(f"{'name':8} {'type':10} {'output':16} {'params':>7}")
    print("-" * 44)
    for name, kind, shape, count in rows:
        print(f"{name:8} {kind:10} {str(shape):16} {count:7,d}")
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"total {total:,} trainable {trainable:,}")
    size = sum(p.numel() * p.element_size() for p in model.parameters())
    print(f"size {size / 1024:.2f} KiB")


summary(model, (1, 8, 8))
model.fc.requires_grad_(False)
summary(model, (1, 8, 8))

# Growing, replacing and deleting layers.
model.add_module("softmax", nn.LogSoftmax(dim=1))
model.append(nn.Identity())
print([name for name, _ in model.named_children()])
model[1] = nn.LeakyReLU(0.1)
print(model.act)
del model[-1]
# Deleting renumbers the children: the OrderedDict's names are gone.
print(len(model), [name for name, _ in model.named_children()])
print(hasattr(model, "conv"), "dir has no numbers:", [k for k in dir(model) if k.isdigit()])
doubled = nn.Sequential(nn.Linear(2, 2), nn.ReLU()) * 2
print(doubled, doubled[0] is doubled[2])
print("insert:", nn.Sequential(nn.ReLU(), nn.Tanh()).insert(1, nn.Sigmoid()))

# Walking every module and every parameter.
for name, module in model.named_modules():
    print(repr(name), type(module).__name__)
print([name for name, _ in model.named_parameters()])
print({name: tuple(b.shape) for name, b in nn.BatchNorm1d(3).named_buffers()})
print(model.state_dict().keys())
print(model[0].weight.dtype, model[0].weight.device)

# A nested Sequential.
stacked = nn.Sequential(nn.Sequential(nn.Linear(2, 3), nn.ReLU()), nn.Sequential(nn.Linear(3, 1)))
print(stacked)
print([name for name, _ in stacked.named_parameters()])
out = stacked(torch.ones(5, 2))
print(out.shape, out.grad_fn)
try:
    nn.Sequential(OrderedDict([("a", nn.ReLU())]))["b"]
except (KeyError, TypeError) as e:
    print(type(e).__name__, e)
try:
    nn.Sequential(nn.Linear(2, 3), nn.Linear(4, 1))(torch.ones(1, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    model.add_module("a.b", nn.ReLU())
except KeyError as e:
    print("KeyError:", e)
