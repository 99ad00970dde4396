# Gradients of matrix functions, as the autograd notes check them by hand.
import torch

torch.manual_seed(2)
A = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
d = torch.det(A)
d.backward()
print("det:", d, "grad:", A.grad)
print("det * inv(A).T:", (d * torch.inverse(A).T).detach())

A.grad = None
torch.inverse(A).sum().backward()
print("d sum(inv(A)) / dA:", A.grad)

A.grad = None
torch.logdet(A).backward()
print("d logdet / dA:", A.grad)

# least squares by the normal equations, gradients flowing through solve
X = torch.randn(20, 2)
true_w = torch.tensor([0.6, -1.7])
y = X @ true_w - 0.9
Xb = torch.cat([X, torch.ones(20, 1)], dim=1)
w = torch.linalg.solve(Xb.T @ Xb, Xb.T @ y)
print("w:", w)

# addmm: a linear layer by hand, with beta and alpha
W = torch.randn(3, 2, requires_grad=True)
bias = torch.zeros(2, requires_grad=True)
inputs = torch.randn(4, 3)
out = torch.addmm(bias, inputs, W)
print(out.shape, out.grad_fn.name())
out.pow(2).mean().backward()
print(W.grad.shape, bias.grad)
print(torch.addmm(torch.ones(2, 2), torch.eye(2), torch.eye(2), beta=0.5, alpha=2))
print(torch.addmv(torch.zeros(2), torch.ones(2, 3), torch.arange(3.0)))
batch1, batch2 = torch.ones(3, 2, 4), torch.ones(3, 4, 2)
print(torch.baddbmm(torch.zeros(3, 2, 2), batch1, batch2).shape, torch.addbmm(torch.zeros(2, 2), batch1, batch2))

# the cross product: a torque
r = torch.tensor([1.0, 0.0, 0.0], requires_grad=True)
F = torch.tensor([0.0, 2.0, 0.0])
tau = torch.linalg.cross(r, F)
print("torque:", tau)
tau[2].backward()
print(r.grad)
print(torch.cross(torch.eye(3), torch.ones(3, 3), dim=1))

# gradient descent to find a matrix inverse
target = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
B = torch.zeros(2, 2, requires_grad=True)
opt = torch.optim.SGD([B], lr=0.02)
for step in range(300):
    opt.zero_grad()
    loss = ((target @ B - torch.eye(2)) ** 2).sum()
    loss.backward()
    opt.step()
print(loss.item() < 1e-3, B.detach().round(decimals=2), torch.inverse(target))
