# Odds and ends: functions reached through torch.functional, an old-style backward hook and a forward hook
# that report what passes through a layer, and DataParallel on a machine without GPUs.
import torch
import torch.functional as TF
import torch.nn as nn
import torch.nn.functional as F

print(TF.einsum("ab,bc->ac", torch.full((2, 4), 0.5), torch.ones(4, 3)))
print(TF.broadcast_tensors(torch.ones(3, 1), torch.zeros(2))[0].shape)


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 2, 3)
        self.c2 = nn.Conv2d(2, 3, 3)
        self.out = nn.Linear(27, 2)

    def forward(self, x):
        x = F.relu(self.c2(F.relu(self.c1(x))))
        return self.out(x.view(-1, 27))


net = Stack()


def report_backward(module, grad_in, grad_out):
    print(f"backward through {type(module).__name__}:")
    print("  gradients in:", len(grad_in), "first of size", grad_in[0].size())
    print("  gradient out of size", grad_out[0].size(), "with norm", grad_out[0].norm())


net.c2.register_backward_hook(report_backward)
y = net(torch.randn(1, 1, 7, 7))
y.sum().backward()


def report_forward(module, inputs, output):
    print(f"forward through {type(module).__name__}:", type(inputs).__name__, len(inputs),
          "output", output.data.size(), output.data.norm())


net.c1.register_forward_hook(report_forward)
net(torch.randn(1, 1, 7, 7))
spread = nn.DataParallel(Stack())
print(spread)
print(spread(torch.randn(3, 1, 7, 7)).shape, spread.device_ids)
if torch.cuda.device_count() > 1:
    print("spreading over", torch.cuda.device_count(), "GPUs")
print(torch.cuda.device_count())
