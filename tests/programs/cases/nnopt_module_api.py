# Module bookkeeping: buffers, modes, walking the tree, initialising, saving and loading state.
import torch
import torch.nn as nn

torch.manual_seed(5)

class Normalizer(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.register_buffer("mean", torch.zeros(features))
        self.register_buffer("calls", torch.tensor(0), persistent=False)
        self.scale = nn.Parameter(torch.ones(features))

    def forward(self, x):
        if self.training:
            self.mean = 0.9 * self.mean + 0.1 * x.mean(dim=0)
            self.calls += 1
        return (x - self.mean) * self.scale

    def extra_repr(self):
        return f"features={self.scale.numel()}"

model = nn.Sequential(Normalizer(3), nn.Linear(3, 2), nn.PReLU(), nn.Linear(2, 1))
print(model)
x = torch.randn(8, 3)
model(x)
model.eval()
print(model.training, [m.training for m in model.children()])
model(x)
print(model[0].mean, model[0].calls)
model.train()

def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.zeros_(m.bias)
        print("initialised", m)
model.apply(init_weights)

print([name for name, _ in model.named_modules()])
print([name for name, _ in model.named_buffers()])
print([name for name, _ in model.named_parameters()])
sd = model.state_dict()
print(sd.keys())
print(sd["0.mean"])
clone = nn.Sequential(Normalizer(3), nn.Linear(3, 2), nn.PReLU(), nn.Linear(2, 1))
print(clone.load_state_dict(sd))
print(torch.equal(clone[1].weight, model[1].weight))
model.double()
print(model[1].weight.dtype, model[0].mean.dtype, model[0].calls.dtype)
model.requires_grad_(False)
print(all(not p.requires_grad for p in model.parameters()))
print(model.get_submodule("2"))
del sd["3.bias"]
sd["3.gain"] = torch.ones(1)
print(clone.load_state_dict(sd, strict=False))
clone.load_state_dict(sd)
