# Lazy layers: sizes that are only known once data has gone through; a model class of our own built from
# lazy layers, initialisers applied afterwards, a small lazy CNN walked layer by layer, a lazy layer used
# twice, the error for a weight that is not there yet, and a state_dict loaded into fresh lazy layers.
import os
import tempfile

import torch
from torch import nn
from torch.nn import functional as F

net = nn.Sequential(nn.LazyLinear(5), nn.Tanh(), nn.LazyLinear(2))
print(net[0].weight)                         # not materialised yet
batch = torch.rand(size=(3, 7))
print(net(batch).shape)                      # now the input size (7) is known
print(net)
print(net[2].state_dict())
print(type(net[2].bias), net[2].bias.data)
print(*[(name, param.shape) for name, param in net.named_parameters()])


class Encoder(nn.Module):
    def __init__(self, width=10, codes=4):
        super().__init__()
        self.inner = nn.LazyLinear(width)
        self.code = nn.LazyLinear(codes)

    def forward(self, x):
        return self.code(F.relu(self.inner(x)))


enc = Encoder()
print(enc)
print(enc(batch))


def zero_mean_small(module):
    if type(module) == nn.Linear:
        nn.init.normal_(module.weight, mean=0, std=0.02)
        nn.init.zeros_(module.bias)


def glorot(module):
    if type(module) == nn.Linear:
        nn.init.xavier_uniform_(module.weight)


enc.apply(zero_mean_small)
print(enc.inner.weight[1], enc.inner.bias[1])
enc.code.apply(glorot)
print(enc.code.weight.data[1])

cnn = nn.Sequential(nn.LazyConv2d(3, kernel_size=3, padding=1), nn.Identity(), nn.ReLU(),
                    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(), nn.LazyLinear(4))
print(cnn)
x = torch.rand(2, 2, 6, 6)
for layer in cnn:
    x = layer(x)
    print(f"{layer.__class__.__name__:>10s} -> {tuple(x.shape)}")
print(cnn)
twice = nn.LazyLinear(5)
net2 = nn.Sequential(nn.LazyLinear(5), nn.Tanh(), twice, nn.Tanh(), twice, nn.Tanh(), nn.LazyLinear(1))
net2(batch)
print(net2[2].weight.data[1] == net2[4].weight.data[1])
net2[4].weight.data[1, 2] = 42
print(net2[2].weight.data[1] == net2[4].weight.data[1])
try:
    nn.LazyLinear(2).weight.shape
except RuntimeError as e:
    print("RuntimeError:", e)
path = os.path.join(tempfile.mkdtemp(), "lazy.params")
torch.save(net.state_dict(), path)
fresh = nn.Sequential(nn.LazyLinear(5), nn.Tanh(), nn.LazyLinear(2))
fresh.load_state_dict(torch.load(path))
os.remove(path)
print(fresh(batch) == net(batch))
print(fresh)
