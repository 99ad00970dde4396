# Approximate the bump 1 / (1 + 4t^2) on [-1, 1] by an even polynomial, three ways: scalar tensors updated
# by hand, an nn.Linear on the columns t^2 and t^4, and a hand-written autograd.Function for the bump itself.
import torch

torch.manual_seed(11)
t = torch.linspace(-1, 1, 201)
bump = 1 / (1 + 4 * t ** 2)

# 1. Three scalar coefficients and plain gradient descent; we apply each step ourselves.
c0, c2, c4 = (torch.randn((), requires_grad=True) for _ in range(3))
step_size = 2e-3
for step in range(1, 601):
    guess = c0 + c2 * t ** 2 + c4 * t ** 4
    miss = (guess - bump).pow(2).sum()
    if step % 200 == 0:
        print(f"step {step}: squared miss {miss.item()}")
    miss.backward()
    with torch.no_grad():                      # the update itself must not be recorded
        for c in (c0, c2, c4):
            c -= step_size * c.grad
            c.grad = None                      # forget this step's gradient before the next backward
print(f"bump ~ {c0.item()} + {c2.item()} t^2 + {c4.item()} t^4")

# 2. The same model as a layer: each row of `columns` holds (t^2, t^4), the layer's weights play c2 and c4.
#    This time the points are visited one at a time, in a new random order each pass, with SGD and momentum.
powers = torch.tensor([2, 4])
columns = t.unsqueeze(-1).pow(powers)
print(columns.shape)
net = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.Flatten(0, 1))
criterion = torch.nn.MSELoss(reduction="sum")
opt = torch.optim.SGD(net.parameters(), lr=1 / 32, momentum=0.9)   # a power of two: lr * grad is exact
for sweep in range(1, 4):
    running = 0.0
    for i in torch.randperm(len(t)).tolist():
        miss = criterion(net(columns[i:i + 1]), bump[i:i + 1])
        running += miss.item()
        opt.zero_grad()
        miss.backward()
        opt.step()
    print(f"sweep {sweep}: summed squared miss {running}")
layer = net[0]
print(layer.bias.item(), layer.weight[:, 0].item(), layer.weight[:, 1].item())


# 3. The bump as an autograd.Function whose derivative, -8u / (1 + 4u^2)^2, we wrote out ourselves.
class Bump(torch.autograd.Function):
    @staticmethod
    def forward(ctx, u):
        ctx.save_for_backward(u)
        return 1 / (1 + 4 * u ** 2)

    @staticmethod
    def backward(ctx, grad_out):
        u, = ctx.saved_tensors
        return grad_out * -8 * u / (1 + 4 * u ** 2) ** 2


width = torch.full((), 1.5, requires_grad=True)
total = Bump.apply(width * t).sum()
total.backward()
print(total, width.grad)
width.grad.zero_()
total = (1 / (1 + 4 * (width * t) ** 2)).sum()  # the same sum, differentiated by autograd this time
total.backward()
print(total, width.grad)
