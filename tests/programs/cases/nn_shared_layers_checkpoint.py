# Parameter access, custom initialisation, a layer shared by two positions of a Sequential, and a
# checkpoint of its parameters saved and loaded into a fresh copy; device helpers that fall back to the CPU.
import os
import tempfile

import torch
from torch import nn

X = torch.rand(size=(2, 4))
shared = nn.Linear(8, 8)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.Linear(8, 1))
print(net(X))
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
print(net[2].weight.data[0] == net[4].weight.data[0])
print(list(net.state_dict().keys()))
print(len(list(net.parameters())), len(list(net.named_modules())))


def init_normal(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, mean=0, std=0.01)
        nn.init.zeros_(m.bias)


def my_init(m):
    if type(m) == nn.Linear:
        print("Init", *[(name, param.shape) for name, param in m.named_parameters()][0])
        nn.init.uniform_(m.weight, -10, 10)
        m.weight.data *= m.weight.data.abs() >= 5


net.apply(init_normal)
print(net[0].weight.data[0], net[0].bias.data[0])
net.apply(my_init)
print(net[0].weight[:2])
net[0].weight.data[:] += 1
print(net[0].weight.data[0])

folder = tempfile.mkdtemp()
path = os.path.join(folder, 'mlp.params')
torch.save(net.state_dict(), path)
clone = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.Linear(8, 1))
print(clone.load_state_dict(torch.load(path)))
print(clone.eval())
print(clone(X) == net(X))
other = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(),
                      nn.Linear(8, 1))
print(other.load_state_dict(torch.load(path)))
print(torch.equal(other[4].weight, net[4].weight), other[2] is other[4])


def try_gpu(i=0):
    if torch.cuda.device_count() >= i + 1:
        return torch.device(f'cuda:{i}')
    return torch.device('cpu')


def try_all_gpus():
    devices = [torch.device(f'cuda:{i}') for i in range(torch.cuda.device_count())]
    return devices if devices else [torch.device('cpu')]


print(try_gpu(), try_gpu(10), try_all_gpus())
Y = torch.ones(2, 4, device=try_gpu())
net = net.to(device=try_gpu())
print(net(Y).device, net[0].weight.data.device)
