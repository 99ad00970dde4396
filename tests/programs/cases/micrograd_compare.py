# A tiny scalar autograd engine checked against torch, in the spirit of micrograd's tests.
import math
import torch


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data, self.grad = data, 0.0
        self._backward = lambda: None
        self._prev, self._op = set(_children), _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __pow__(self, k):
        out = Value(self.data ** k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad
        out._backward = _backward
        return out

    def relu(self):
        out = Value(max(0.0, self.data), (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t ** 2) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

    __radd__ = __add__
    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other ** -1


def test_sanity_check():
    x = Value(-4.0)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xmg, ymg = x, y
    x = torch.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xpt, ypt = x, y
    assert ymg.data == ypt.data.item()
    assert xmg.grad == xpt.grad.item()
    print("forward", ypt.data.item(), "grad", xpt.grad.item(), ypt.grad_fn)


def test_more_ops():
    a, b = Value(-4.0), Value(2.0)
    c = a + b
    d = a * b + b ** 3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e ** 2
    g = f / 2.0
    g += 10.0 / f
    g.backward()
    amg, bmg, gmg = a, b, g
    a = torch.Tensor([-4.0]).double()
    b = torch.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b ** 3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e ** 2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    tol = 1e-6
    assert abs(gmg.data - g.data.item()) < tol
    assert abs(amg.grad - a.grad.item()) < tol
    assert abs(bmg.grad - b.grad.item()) < tol
    print(g.data.item(), a.grad.item(), b.grad.item())
    print(a.grad, g.grad_fn, g.grad_fn.next_functions)


def neuron():
    x1, x2 = torch.Tensor([2.0]).double(), torch.Tensor([0.0]).double()
    w1, w2 = torch.Tensor([-3.0]).double(), torch.Tensor([1.0]).double()
    b = torch.Tensor([6.8813735870195432]).double()
    for t in (x1, x2, w1, w2, b):
        t.requires_grad = True
    n = x1 * w1 + x2 * w2 + b
    o = torch.tanh(n)
    print(o.data.item())
    o.backward()
    print("---")
    for name, t in (("x2", x2), ("w2", w2), ("x1", x1), ("w1", w1)):
        print(name, t.grad.item())
    mg = (Value(2.0) * Value(-3.0) + Value(0.0) * Value(1.0) + Value(6.8813735870195432)).tanh()
    print(round(mg.data, 6) == round(o.item(), 6))


test_sanity_check()
test_more_ops()
neuron()
