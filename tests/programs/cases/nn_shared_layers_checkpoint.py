# Parameters by hand: one layer used twice inside a Sequential (so it is one set of weights), our own
# initialisers applied with .apply, a checkpoint saved and loaded into fresh models, and helpers that pick a
# device and fall back to the CPU.
import os
import tempfile

import torch
from torch import nn

batch = torch.rand(size=(3, 5))
tied = nn.Linear(6, 6)
net = nn.Sequential(nn.Linear(5, 6), nn.Tanh(), tied, nn.Tanh(), tied, nn.Tanh(), nn.Linear(6, 2))
print(net(batch))
print(net[2].weight.data[1] == net[4].weight.data[1])
net[4].weight.data[1, 3] = -7                # change it through one position...
print(net[2].weight.data[1] == net[4].weight.data[1])   # ...and the other sees it: it is the same layer
print(list(net.state_dict().keys()))
print(len(list(net.parameters())), len(list(net.named_modules())))


def small_start(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, mean=0, std=0.05)
        nn.init.zeros_(m.bias)


def sparse_start(m):
    if type(m) == nn.Linear:
        first = [(name, param.shape) for name, param in m.named_parameters()][0]
        print("start", *first)
        nn.init.uniform_(m.weight, -4, 4)
        m.weight.data *= m.weight.data.abs() >= 2     # keep only the larger half of the values


net.apply(small_start)
print(net[0].weight.data[1], net[0].bias.data[1])
net.apply(sparse_start)
print(net[0].weight[:2])
net[0].weight.data[:] -= 0.5
print(net[0].weight.data[1])

folder = tempfile.mkdtemp()
path = os.path.join(folder, 'tied.params')
torch.save(net.state_dict(), path)
copy = nn.Sequential(nn.Linear(5, 6), nn.Tanh(), tied, nn.Tanh(), tied, nn.Tanh(), nn.Linear(6, 2))
print(copy.load_state_dict(torch.load(path)))
print(copy.eval())
print(copy(batch) == net(batch))
untied = nn.Sequential(nn.Linear(5, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(),
                       nn.Linear(6, 2))
print(untied.load_state_dict(torch.load(path)))
print(torch.equal(untied[2].weight, net[2].weight), untied[2] is untied[4])


def pick_device(k=0):
    """The k-th GPU if there is one, else the CPU."""
    if torch.cuda.device_count() > k:
        return torch.device(f'cuda:{k}')
    return torch.device('cpu')


def every_device():
    gpus = [torch.device(f'cuda:{k}') for k in range(torch.cuda.device_count())]
    return gpus or [torch.device('cpu')]


print(pick_device(), pick_device(3), every_device())
ones = torch.ones(3, 5, device=pick_device())
net = net.to(device=pick_device())
print(net(ones).device, net[0].weight.data.device)
