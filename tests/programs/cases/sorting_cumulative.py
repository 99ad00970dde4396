# Running products, running maxima and differences: returns of an investment.
import torch

growth = torch.tensor([1.10, 0.95, 1.02, 1.20, 0.90])
print(torch.cumprod(growth, dim=0))
print(growth.cumprod(0)[-1])

prices = torch.tensor([3.0, 5.0, 4.0, 6.0, 6.0, 2.0])
best = torch.cummax(prices, dim=0)
print(best)
print("drawdown:", prices - best.values)
print(prices.cummin(0))
print("daily change:", torch.diff(prices))
print(prices.diff(n=2))
print(torch.diff(prices, prepend=torch.tensor([0.0])))

grid = torch.arange(1, 7).reshape(2, 3)
print(grid.cumprod(dim=1), grid.cumprod(dim=1).dtype)
print(torch.diff(grid, dim=0))
print(torch.cumprod(grid, 1, dtype=torch.float64))

x = torch.tensor([2.0, 3.0, 0.5], requires_grad=True)
y = x.cumprod(0)
print(y)
y.sum().backward()
print(x.grad)

z = torch.tensor([1.0, 4.0, 2.0, 5.0], requires_grad=True)
cm = z.cummax(0).values
cm.sum().backward()
print(cm, z.grad)

try:
    torch.diff(torch.tensor(3.0))
except RuntimeError as e:
    print("RuntimeError:", e)
