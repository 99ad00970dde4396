# Double precision everywhere, as numerical notebooks switch it on: what the default dtype changes.
import torch

print(torch.get_default_dtype())
print(torch.tensor([1.5]).dtype, torch.zeros(2).dtype, torch.arange(0, 1, 0.5).dtype)

torch.set_default_dtype(torch.float64)
print(torch.get_default_dtype())
values = torch.tensor([0.1, 0.2])
print(values.dtype, values.sum().item())
print(torch.ones(2, 2).dtype, torch.rand(2).dtype, torch.randn(3).tolist())
print(torch.linspace(0, 1, 5).tolist(), torch.full((2,), 1 / 3).tolist())
print(torch.nn.Linear(2, 2).weight.dtype, torch.Tensor([1, 2]).dtype, torch.tensor(2).dtype)
print((torch.tensor([1, 2]) * 0.5).dtype, torch.tensor([1j]).dtype)
print(torch.finfo().eps, torch.finfo(torch.float32).eps)

torch.set_default_dtype(torch.float32)
print(torch.tensor([0.1, 0.2]).sum().item(), torch.get_default_dtype())

torch.set_default_tensor_type(torch.DoubleTensor)
print(torch.get_default_dtype(), torch.tensor([1.0]).dtype)
torch.set_default_tensor_type("torch.FloatTensor")
print(torch.get_default_dtype())

try:
    torch.set_default_dtype(torch.int64)
except TypeError as e:
    print("TypeError:", e)
torch.set_default_dtype("float64")
