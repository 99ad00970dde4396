# A scalar autograd engine of our own, about forty lines, checked against torch the way scalar-autograd
# projects test themselves: the same expression in both, values and gradients compared.
import math
import torch


class Scalar:
    """A number that remembers which numbers it was made from and the local derivative to each."""

    def __init__(self, value, parents=()):
        self.value, self.grad = value, 0.0
        self.parents = parents            # ((parent, d self / d parent), ...)

    @staticmethod
    def lift(x):
        return x if isinstance(x, Scalar) else Scalar(float(x))

    def __add__(self, other):
        other = Scalar.lift(other)
        return Scalar(self.value + other.value, ((self, 1.0), (other, 1.0)))

    def __mul__(self, other):
        other = Scalar.lift(other)
        return Scalar(self.value * other.value, ((self, other.value), (other, self.value)))

    def __pow__(self, k):
        return Scalar(self.value ** k, ((self, k * self.value ** (k - 1)),))

    def relu(self):
        return Scalar(max(0.0, self.value), ((self, 1.0 if self.value > 0 else 0.0),))

    def tanh(self):
        t = math.tanh(self.value)
        return Scalar(t, ((self, 1 - t * t),))

    __radd__, __rmul__ = __add__, __mul__

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-Scalar.lift(other))

    def __rsub__(self, other):
        return Scalar.lift(other) + (-self)

    def __truediv__(self, other):
        return self * Scalar.lift(other) ** -1

    def __rtruediv__(self, other):
        return Scalar.lift(other) * self ** -1

    def backward(self):
        # order the graph so that every number comes after all the numbers made from it (no recursion)
        order, seen, stack = [], set(), [(self, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
            elif id(node) not in seen:
                seen.add(id(node))
                stack.append((node, True))
                stack.extend((p, False) for p, _ in node.parents)
        self.grad = 1.0
        for node in reversed(order):
            for parent, local in node.parents:
                parent.grad += local * node.grad


def double_leaf(v):
    t = torch.Tensor([v]).double()
    t.requires_grad = True
    return t


def expression(x, y):
    """Written once, run on Scalars and on tensors."""
    s = x * y + 3 - x
    t = (s * 2).relu() + (y - s).relu() * x
    u = t ** 2 / 4 + 1 / (t + 5)
    return u - s * y


def compare(xv, yv):
    xs, ys = Scalar(xv), Scalar(yv)
    mine = expression(xs, ys)
    mine.backward()
    xt, yt = double_leaf(xv), double_leaf(yv)
    theirs = expression(xt, yt)
    theirs.backward()
    close = all(abs(a - b) < 1e-9 for a, b in ((mine.value, theirs.item()), (xs.grad, xt.grad.item()),
                                               (ys.grad, yt.grad.item())))
    print(f"x={xv:+.2f} y={yv:+.2f}: value {theirs.data.item():.6f} grads {xt.grad.item():.6f} "
          f"{yt.grad.item():.6f} agree={close}")
    return theirs


for xv, yv in ((1.0, 2.0), (-1.5, 0.5), (2.5, -3.0), (0.0, 4.0)):
    last = compare(xv, yv)
print(last.grad_fn, last.grad_fn.next_functions)

# one neuron: tanh(w . x + b) (torch.Tensor([v]) is float32 first: these values survive that exactly)
xs = [Scalar(0.5), Scalar(-1.0)]
ws = [Scalar(-2.0), Scalar(0.25)]
neuron = (xs[0] * ws[0] + xs[1] * ws[1] + 0.75).tanh()
neuron.backward()
xt, wt = [double_leaf(0.5), double_leaf(-1.0)], [double_leaf(-2.0), double_leaf(0.25)]
out = torch.tanh(xt[0] * wt[0] + xt[1] * wt[1] + 0.75)
out.backward()
print(out.data.item(), [w.grad.item() for w in wt])
print([abs(w.grad - t.grad.item()) < 1e-12 for w, t in zip(ws, wt)])   # (values a float32 holds exactly)
