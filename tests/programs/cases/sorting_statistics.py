# Robust statistics of a batch: median, mode, k-th value, quantile-like picks.
import torch

torch.manual_seed(1)
data = torch.randint(0, 6, (3, 7)).float()
print(data)
print("median of all:", data.median())
print(data.median(dim=1))
print(torch.median(data, 0, keepdim=True))
print(data.mode(dim=1))
print(data.kthvalue(2, dim=1))
print(torch.kthvalue(data, 5, 0).values)

with_nan = torch.tensor([1.0, float("nan"), 3.0, 2.0])
print(with_nan.median(), with_nan.nanmedian())
print(torch.nanmedian(torch.tensor([[1.0, float("nan")], [4.0, 2.0]]), dim=1))

x = torch.tensor([1.0, 5.0, 2.0, 4.0, 3.0], requires_grad=True)
m = x.median()
m.backward()
print(m, x.grad)

y = torch.tensor([[1.0, 3.0, 2.0], [6.0, 5.0, 4.0]], requires_grad=True)
v = y.median(dim=1).values
print(v)
v.sum().backward()
print(y.grad)

try:
    data.kthvalue(8, dim=1)
except RuntimeError as e:
    print("RuntimeError:", e)
