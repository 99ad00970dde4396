# Forward-mode automatic differentiation: a dual tensor carries a value and a direction (its tangent), and
# every operation pushes the direction forward. One forward pass gives the directional derivative J v;
# reverse mode (backward) would give v^T J. Written in the style of PyTorch's forward-mode AD tutorial.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([0.5, 1.0, 2.0])
v = torch.tensor([1.0, 0.0, 0.0])          # the direction: "how does f change when x[0] moves?"


def f(x):
    return (x.sin() * x.exp()).sum()


with fwAD.dual_level():
    dual_x = fwAD.make_dual(x, v)
    print(dual_x)
    out = f(dual_x)
    print(out)
    value, directional = fwAD.unpack_dual(out)
    print("f(x) =", value)
    print("derivative along v =", directional)

# the same number from reverse mode: the gradient, then its dot product with v
x_leaf = x.clone().requires_grad_()
f(x_leaf).backward()
print("gradient . v =", (x_leaf.grad * v).sum())

# one forward pass per direction builds the whole Jacobian of a vector function, one column at a time
W = torch.tensor([[1.0, -2.0, 0.5], [0.0, 3.0, 1.0]])
with fwAD.dual_level():
    columns = []
    for i in range(3):
        e = torch.zeros(3)
        e[i] = 1.0
        y = torch.tanh(W @ fwAD.make_dual(x, e))
        columns.append(fwAD.unpack_dual(y).tangent)
print("Jacobian by columns:\n", torch.stack(columns, dim=1))
print("torch.autograd.functional.jacobian:\n", torch.autograd.functional.jacobian(lambda t: torch.tanh(W @ t), x))

# views and in-place operations carry the tangent too
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(2, 3), torch.arange(6.0).reshape(2, 3))
    row = d[1]
    print("tangent of a row:", fwAD.unpack_dual(row).tangent)
    d.mul_(2)
    print("after d.mul_(2):", fwAD.unpack_dual(d).tangent)
    print("the row sees it:", fwAD.unpack_dual(row).tangent)

# the tangents are gone once the level ends
print(fwAD.unpack_dual(out))

# a network's parameters as dual tensors: the change of the output when the weights move along a direction
torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
params = dict(model.named_parameters())
directions = {name: torch.ones_like(p) for name, p in params.items()}
with torch.no_grad(), fwAD.dual_level():      # (no_grad is reverse mode's switch: tangents still flow)
    dual_params = {name: fwAD.make_dual(p, directions[name]) for name, p in params.items()}
    out = torch.func.functional_call(model, dual_params, (x,))
    print("output:", fwAD.unpack_dual(out).primal)
    print("its change along the direction:", fwAD.unpack_dual(out).tangent)

# the mistakes a student meets first
try:
    fwAD.make_dual(x, v)
except RuntimeError as e:
    print("RuntimeError:", e)
with fwAD.dual_level():
    for make in (lambda: fwAD.make_dual(x, torch.ones(2)), lambda: fwAD.make_dual(torch.arange(3), torch.ones(3)),
                 lambda: fwAD.dual_level().__enter__()):
        try:
            make()
        except (RuntimeError, ValueError) as e:
            print(f"{type(e).__name__}:", e)
