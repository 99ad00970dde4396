# Tensor attributes from the docs' "Tensor Views" and "Tensor Attributes" pages, and the new_* factories.
import torch

base = torch.arange(12.).reshape(3, 4)
for name, view in [("row", base[1]), ("column", base[:, 2]), ("block", base[1:, 2:]), ("transposed", base.t())]:
    print(name, view.shape, view.stride(), view.storage_offset(), view.is_contiguous())
print(base.nbytes, base.itemsize, base.element_size(), base[0].nbytes)
print(base.layout, base.device, base.dtype, base.is_cuda)

m = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
print(m.T)
print(m.mT)
print(m.H)
print(m.mH.shape, torch.ones(2, 3, 4).mT.shape)
(m.H * torch.tensor([[1.], [2.], [3.]])).sum().backward()
print(m.grad)

template = torch.tensor([1, 2], dtype=torch.float64)
print(template.new_zeros(2, 3))
print(template.new_ones((2,)), template.new_full((3,), 7))
print(template.new_tensor([[1, 2]]), template.new_empty(4).shape)
print(template.new_zeros(2, dtype=torch.int64, requires_grad=False))
print(torch.zeros(size=(2, 2)), torch.ones(2, 3, dtype=torch.int32))
print(torch.full((2,), 0.5, requires_grad=True), torch.arange(start=1, end=10, step=4))
print(torch.randn(size=(2,)), torch.tensor(data=[1.5, 2.5], dtype=torch.float16))

v = torch.ones(3)
print(v.H)
