# Code from before PyTorch 0.4: Variable wrappers, typed tensor constructors and .type() strings.
import torch
from torch.autograd import Variable

x = Variable(torch.FloatTensor([[1, 2], [3, 4]]), requires_grad=True)
w = Variable(torch.randn(2, 2))
print(x)
print(isinstance(x, torch.Tensor), isinstance(x, Variable), isinstance(x, torch.FloatTensor))
print(w.requires_grad, x.requires_grad)

y = (x.mm(w) ** 2).sum()
y.backward()
print(y.data)
print(x.grad)
print(x.grad.data.type())

a = torch.Tensor(2, 3)
print(a.size(), a.type(), a.dtype)
b = torch.Tensor([1, 2, 3])
print(b, b.type())
c = torch.LongTensor([1.7, 2.2, -3.9])
print(c, c.type(), isinstance(c, torch.LongTensor), isinstance(c, torch.FloatTensor))
print(torch.ByteTensor([0, 1, 255]), torch.BoolTensor([0, 3]), torch.IntTensor([[1], [2]]))
print(torch.DoubleTensor([0.5]).type(torch.FloatTensor))
print(b.type(torch.LongTensor), b.type("torch.IntTensor"), b.long().type())
print(torch.Tensor().shape, torch.FloatTensor(torch.Size([0, 2])).shape)

v = Variable(torch.ones(3), volatile=True)
print(v.requires_grad)

print(b.byte(), b.char(), b.short(), b.half(), b.double())

e = torch.FloatTensor([1, 2], requires_grad=True)
