# Debugging gradients: anomaly detection on a NaN, then checking custom gradients numerically.
import torch

x = torch.tensor([0.0, 4.0], requires_grad=True)
y = (torch.sqrt(x) * torch.tensor([0.0, 1.0])).sum()
y.backward(retain_graph=True)
print("without anomaly mode:", x.grad)

x.grad = None
with torch.autograd.detect_anomaly():
    try:
        y.backward()
    except RuntimeError as err:
        print("caught:", err)
print(torch.is_anomaly_enabled())

torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(False)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 3

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return 3 * a ** 2 * grad


torch.manual_seed(1)
a = torch.randn(4, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, (a,)))
print(torch.autograd.gradgradcheck(Cube.apply, (a,)))
print(torch.rand(3))
b = torch.randn(2, 3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradgradcheck(lambda p, q: (p.unsqueeze(0) * q).tanh(), (a[:3].detach().requires_grad_(), b)))
print(torch.randn(2))
