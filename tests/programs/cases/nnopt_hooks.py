# Looking inside backward: module backward hooks report the gradients flowing through each layer.
import torch
import torch.nn as nn

torch.manual_seed(2)
net = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3))
norms = {}

def record(name):
    def hook(module, grad_input, grad_output):
        norms[name] = grad_output[0].norm().item()
        print(f"{name}: grad_output {tuple(grad_output[0].shape)}, grad_input "
              f"{[None if g is None else tuple(g.shape) for g in grad_input]}")
    return hook

handles = [layer.register_full_backward_hook(record(f"layer{i}")) for i, layer in enumerate(net)]
x = torch.randn(8, 4, requires_grad=True)
loss = net(x).pow(2).mean()
loss.backward()
print({k: round(v, 4) for k, v in norms.items()})
print(x.grad[:2])
for h in handles:
    h.remove()

# a hook that scales the gradient reaching the input
net[0].register_full_backward_hook(lambda m, gi, go: (gi[0] * 0.5,))
x.grad = None
net(x).pow(2).mean().backward()
print(x.grad[:2])

net.register_buffer("seen", torch.zeros(1))
print(net.get_buffer("seen"))
print(net.get_buffer("0.weight"))
