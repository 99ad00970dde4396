# Scalar expressions in the manner of a lecture on building autograd by hand: one-element double tensors,
# a tanh neuron, a slope checked numerically, values and gradients read with .data.item() / .grad.item().
import torch

inputs = [torch.Tensor([v]).double() for v in (1.0, -0.5)]
weights = [torch.Tensor([v]).double() for v in (0.8, 2.0)]
bias = torch.Tensor([0.25]).double()
for t in inputs + weights + [bias]:
    t.requires_grad = True
pre = inputs[0] * weights[0] + inputs[1] * weights[1] + bias
out = torch.tanh(pre)

print(out.data.item())
out.backward()

print('---')
for i in range(2):
    print(f'x{i}', inputs[i].grad.item(), f'w{i}', weights[i].grad.item())
print('b', bias.grad.item())

# a longer expression, printed to 4 places as one reads numbers off a whiteboard
p = torch.Tensor([3.0]).double()
q = torch.Tensor([-1.5]).double()
p.requires_grad = True
q.requires_grad = True
r = p * q + q ** 2
s = (r + p).relu() - (q * 2).relu()
s = s * s + p / q
v = (s - r) ** 2 / 3.0
v.backward()
print(f'{v.data.item():.4f}')
print(f'{p.grad.item():.4f}')
print(f'{q.grad.item():.4f}')
print(v.item(), p.grad.item(), q.grad.item())

# the slope of a parabola: a difference quotient against autograd
step = 1e-5


def parabola(x):
    return 2 * x ** 2 + 3 * x - 1


print(parabola(-0.5), (parabola(-0.5 + step) - parabola(-0.5)) / step)
t = torch.tensor(-0.5, requires_grad=True)
y = parabola(t)
y.backward()
print(y.item(), t.grad.item(), t.grad)
z = torch.Tensor([0.5]).double().requires_grad_()
(z.sin() * z).backward()
print(z.grad.data.item(), z.grad)
