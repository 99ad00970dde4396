# A custom module with a buffer, a ModuleDict of heads, a ParameterList, extra_repr, init with apply(), and hooks.
import torch
from torch import nn


class Standardize(nn.Module):
    """Keeps a running mean in a buffer: saved in the state_dict, moved by .to(), but not trained."""

    def __init__(self, size, momentum=0.5):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(size))
        self.register_buffer("scratch", torch.zeros(1), persistent=False)

    def forward(self, x):
        if self.training:
            self.running_mean.mul_(1 - self.momentum).add_(self.momentum * x.mean(dim=0))
        return x - self.running_mean

    def extra_repr(self):
        return f"size={self.running_mean.numel()}, momentum={self.momentum}"


class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = Standardize(3)
        self.body = nn.Linear(3, 4)
        self.heads = nn.ModuleDict({"price": nn.Linear(4, 1), "kind": nn.Linear(4, 2)})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(1)) for _ in range(2)])

    def forward(self, x):
        h = torch.relu(self.body(self.norm(x)))
        return {name: head(h) * self.scales[i] for i, (name, head) in enumerate(self.heads.items())}


torch.manual_seed(37)
model = MultiHead()
print(model)
print("buffers:", [name for name, _ in model.named_buffers()])
print("state_dict:", list(model.state_dict().keys()))
print("parameters:", [name for name, _ in model.named_parameters()])


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.bias, 0.1)
        nn.init.ones_(m.weight)


model.apply(init_weights)
print("after apply:", model.heads["kind"].weight)

calls = []
handle = model.body.register_forward_hook(lambda m, inp, out: calls.append(tuple(out.shape)))
x = torch.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
out = model(x)
print({k: v.detach() for k, v in out.items()})
print("hook saw:", calls)
print("running_mean:", model.norm.running_mean)
handle.remove()
model(x)
print("hook removed, calls:", len(calls))

loss = out["price"].sum() + out["kind"].pow(2).sum()
loss.backward()
print("scale grads:", [p.grad for p in model.scales])
print("buffer has no grad:", model.norm.running_mean.requires_grad)

model.eval()
before = model.norm.running_mean.clone()
model(x)
print("eval keeps the buffer:", torch.equal(before, model.norm.running_mean))
print("training flags:", model.training, model.norm.training, model.heads["price"].training)

doubled = model.double()
print(doubled.norm.running_mean.dtype, doubled.body.weight.dtype, doubled.scales[0].dtype)
print("ModuleDict keys:", list(model.heads.keys()), "'kind' in heads:", "kind" in model.heads)
model.heads["extra"] = nn.Identity()
print(len(model.heads), model.heads.pop("extra"))
try:
    model.register_buffer("body", torch.zeros(1))
except KeyError as e:
    print("KeyError:", e)
try:
    model.norm.running_mean = [1, 2, 3]
except TypeError as e:
    print("TypeError:", e)
try:
    nn.ModuleDict({"a": 3})
except TypeError as e:
    print("TypeError:", e)
