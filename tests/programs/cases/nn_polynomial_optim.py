# Fitting a curve with a polynomial three ways, with fewer steps than a tutorial would take: an
# nn.Linear over the powers of x updated by hand, the same model with an optimizer, and a Module of our
# own whose coefficients are one Parameter vector.
import torch

x = torch.linspace(-2.0, 2.0, 400)
target = torch.exp(x / 2)
powers = torch.stack([x, x * x], dim=1)          # features x and x^2
print(powers.shape, powers[:2])

fit = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.Flatten(0, 1))
sum_of_squares = torch.nn.MSELoss(reduction="sum")
for step in range(240):
    loss = sum_of_squares(fit(powers), target)
    if step % 80 == 79:
        print(step, round(loss.item(), 3))
    fit.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in fit.parameters():
            param.sub_(2e-4 * param.grad)
lin = fit[0]
print(f"by hand: {lin.bias.item():.3f} + {lin.weight[0, 0].item():.3f} x + {lin.weight[0, 1].item():.3f} x^2")

fit = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.Flatten(0, 1))
opt = torch.optim.RMSprop(fit.parameters(), lr=5e-3)
for step in range(240):
    loss = sum_of_squares(fit(powers), target)
    if step % 80 == 79:
        print(step, round(loss.item(), 3))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(opt)


class Quadratic(torch.nn.Module):
    """c0 + c1 x + c2 x^2, its three coefficients in one Parameter."""

    def __init__(self):
        super().__init__()
        self.coef = torch.nn.Parameter(torch.randn(3) * 0.1)

    def forward(self, t):
        return self.coef[0] + self.coef[1] * t + self.coef[2] * t ** 2

    def describe(self):
        c0, c1, c2 = self.coef.tolist()
        return f"{c0:.3f} + {c1:.3f} x + {c2:.3f} x^2"


quad = Quadratic()
opt = torch.optim.SGD(quad.parameters(), lr=2e-4, momentum=0.5)
for step in range(240):
    loss = sum_of_squares(quad(x), target)
    if step % 80 == 79:
        print(step, round(loss.item(), 3))
    opt.zero_grad()
    loss.backward()
    opt.step()
print("module:", quad.describe())
print(list(quad.state_dict().keys()), quad.coef.grad.shape, quad.coef.is_leaf)
