# Models built from ModuleDict, ModuleList, ParameterList and ParameterDict.
import torch
from torch import nn

torch.manual_seed(7)

class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(6, 8), nn.Tanh())
        self.heads = nn.ModuleDict({
            "age": nn.Linear(8, 1),
            "kind": nn.Sequential(nn.Linear(8, 3), nn.LogSoftmax(dim=1)),
        })
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(1)) for _ in range(2)])
        self.offsets = nn.ParameterDict({"age": nn.Parameter(torch.zeros(1))})

    def forward(self, x, head):
        h = self.trunk(x)
        out = self.heads[head](h)
        if head in self.offsets:
            out = out * self.scales[0] + self.offsets[head]
        return out

net = MultiHead()
print(net)
print(net.scales)
print(net.offsets)
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
x = torch.randn(4, 6)
print(net(x, "age"))
print(net(x, "kind").exp().sum(dim=1))
print(list(net.heads.keys()), len(net.heads), "kind" in net.heads)
for key, module in net.heads.items():
    print(key, "->", module)

net.heads["extra"] = nn.Identity()
print([n for n, _ in net.named_children()], [n for n, _ in net.heads.named_children()])
print(net.heads.pop("extra"))
net.scales.append(nn.Parameter(torch.full((2,), 0.5)))
print(len(net.scales), net.scales[-1])
print(list(net.state_dict().keys()))
print(sum(p.numel() for p in net.parameters()))

layers = nn.ModuleList([nn.Linear(3, 3) for _ in range(3)])
z = torch.ones(1, 3)
for layer in layers:
    z = torch.relu(layer(z))
print(z)
print(layers[1:])
unflatten = nn.Sequential(nn.Linear(4, 12), nn.Unflatten(1, (3, 4)))
print(unflatten, unflatten(torch.randn(2, 4)).shape)
print(net.heads["missing"])
