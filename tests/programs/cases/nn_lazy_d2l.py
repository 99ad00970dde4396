# Layers whose input size is inferred, model construction and parameter access as d2l's builders' guide.
import torch
from torch import nn
from torch.nn import functional as F

net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
print(net[0].weight)
X = torch.rand(size=(2, 4))
print(net(X).shape)
print(net)
print(net[2].state_dict())
print(type(net[2].bias), net[2].bias.data)
print(*[(name, param.shape) for name, param in net.named_parameters()])


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.LazyLinear(16)
        self.out = nn.LazyLinear(3)

    def forward(self, X):
        return self.out(F.relu(self.hidden(X)))


m = MLP()
print(m)
print(m(X))


def init_normal(module):
    if type(module) == nn.Linear:
        nn.init.normal_(module.weight, mean=0, std=0.01)
        nn.init.zeros_(module.bias)


def init_xavier(module):
    if type(module) == nn.Linear:
        nn.init.xavier_uniform_(module.weight)


m.apply(init_normal)
print(m.hidden.weight[0], m.hidden.bias[0])
m.out.apply(init_xavier)
print(m.out.weight.data[0])

cnn = nn.Sequential(nn.LazyConv2d(4, kernel_size=3, padding=1), nn.Identity(),
                    nn.ReLU(), nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(), nn.LazyLinear(5))
print(cnn)
x = torch.rand(3, 1, 8, 8)
for layer in cnn:
    x = layer(x)
    print(layer.__class__.__name__, "output shape:\t", x.shape)
print(cnn)
shared = nn.LazyLinear(8)
net2 = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.LazyLinear(1))
net2(X)
print(net2[2].weight.data[0] == net2[4].weight.data[0])
net2[2].weight.data[0, 0] = 100
print(net2[2].weight.data[0] == net2[4].weight.data[0])
try:
    nn.LazyLinear(3).weight.shape
except RuntimeError as e:
    print("RuntimeError:", e)
torch.save(net.state_dict(), "_tmp_lazy.params")
clone = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
clone.load_state_dict(torch.load("_tmp_lazy.params"))
import os
os.remove("_tmp_lazy.params")
print(clone(X) == net(X))
print(clone)
