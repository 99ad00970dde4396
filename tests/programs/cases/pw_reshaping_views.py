# Rearranging dimensions: movedim, ravel, repeat_interleave, squeeze over several dims,
# and the in-place views t_, unsqueeze_, squeeze_, transpose_.
import torch

img = torch.arange(24.0).reshape(2, 3, 4)          # (C, H, W)
hwc = img.movedim(0, -1)
print(hwc.shape, torch.moveaxis(img, [0, 1], [2, 0]).shape)
print(hwc[0, 0])
print(img.ravel()[:6], img.permute(2, 1, 0).ravel()[:6])

x = torch.tensor([1, 2, 3])
print(x.repeat_interleave(2))
print(torch.repeat_interleave(x, torch.tensor([1, 0, 3])))
print(torch.repeat_interleave(torch.tensor([2, 1])))
m = torch.tensor([[1, 2], [3, 4]])
print(m.repeat_interleave(3, dim=0))
print(m.repeat_interleave(torch.tensor([1, 2]), dim=1))
print(m.repeat(2, 1), m.tile(2))

t = torch.zeros(1, 3, 1, 2)
print(t.squeeze().shape, t.squeeze((0, 2)).shape, t.squeeze(-1).shape)

v = torch.arange(6.0).reshape(2, 3)
v.t_()
print(v, v.shape, v.is_contiguous())
v.unsqueeze_(0)
print(v.shape)
v.squeeze_()
v.transpose_(0, 1)
print(v)

w = torch.arange(6.0, requires_grad=True)
h = w.reshape(2, 3) * 1
h.t_()
print(h.grad_fn.name())
h.unsqueeze_(0)
print(h.grad_fn.name(), h.shape)
(h * torch.arange(6.0).reshape(1, 3, 2)).sum().backward()
print(w.grad)

r = w.repeat_interleave(2)
print(r.grad_fn.name())
try:
    w.t_()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.repeat_interleave(-1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(2, 3, 4).t_()
except RuntimeError as e:
    print("RuntimeError:", e)
