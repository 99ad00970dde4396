# Boolean masks: comparisons, logical_and/or/xor, masked_select, masked_scatter, isclose
# and nan_to_num, as data-cleaning steps in the tensor tutorials use them.
import torch

torch.manual_seed(0)
x = torch.randn(3, 4)
print(x)
positive = x > 0
small = x.abs() < 1
print(torch.logical_and(positive, small))
print(positive.logical_or(small).sum())
print(torch.logical_xor(positive, small).int())
print(torch.logical_not(positive))
print(x.masked_select(positive))
print(torch.masked_select(x, x.abs() > 1.5))

y = torch.zeros(3, 4).masked_scatter(positive, torch.arange(1.0, 13.0))
print(y)

w = torch.randn(3, 4, requires_grad=True)
kept = w.masked_select(positive)
print(kept.grad_fn.name())
(kept ** 2).sum().backward()
print(w.grad)

# comparing floats: == is too strict after arithmetic
a = torch.tensor([0.1 + 0.2, 1.0, float("nan")])
b = torch.tensor([0.3, 1.0 + 1e-7, float("nan")])
print(a == b)
print(torch.isclose(a, b))
print(torch.isclose(a, b, equal_nan=True))
print(torch.allclose(a[:2], b[:2]))

# cleaning bad values before a loss
data = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), -2.0])
print(torch.nan_to_num(data))
print(data.nan_to_num(nan=0.0, posinf=1e3, neginf=-1e3))
print(torch.nansum(data[:2]), torch.nanmean(torch.tensor([1.0, float("nan"), 3.0])))

try:
    torch.logical_and(positive, 1)
except TypeError as e:
    print("TypeError:", e)
try:
    x.masked_select(positive.float())
except RuntimeError as e:
    print("RuntimeError:", e)
