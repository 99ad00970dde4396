"""autograd API: custom Function, autograd.grad, tensor and node hooks, jacobian/hessian,
gradcheck, grad-mode contexts (torch-parity.md 4.5, 5.1-5.5). Expected values are torch 2.13's;
the snippet tests also run the same code with real torch and compare the printed output."""
import contextlib
import io
import re
import warnings

import numpy as np
import pytest

import gradlab
from gradlab.autograd import Function

ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def run_snippet(module, code):
    out = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(out):
            try:
                exec(code, {"torch": module})
            except Exception as e:      # the error text is part of what is compared
                print(f"{type(e).__name__}: {e}")
    return ADDRESS.sub("0x…", out.getvalue())


class MyExp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


# --- 5.1 Function ---------------------------------------------------------------------------------------

def test_custom_function_basics():
    x = gradlab.tensor([0., 1.], requires_grad=True)
    y = MyExp.apply(x)
    assert repr(y) == "tensor([1.0000, 2.7183], grad_fn=<MyExpBackward>)"
    node = y.grad_fn
    assert re.fullmatch(r"<torch\.autograd\.function\.MyExpBackward object at 0x[0-9a-f]+>", repr(node))
    assert type(node).__name__ == node.name() == "MyExpBackward"
    assert [type(n).__name__ for n, _ in node.next_functions] == ["AccumulateGrad"]
    assert repr(node.saved_tensors) == "(tensor([1.0000, 2.7183], grad_fn=<MyExpBackward>),)"
    y.sum().backward()
    assert repr(x.grad) == "tensor([1.0000, 2.7183])"
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        node.saved_tensors
    assert MyExp.apply(gradlab.tensor([0., 1.])).grad_fn is None


def test_custom_backward_sees_tensors_whichever_values_the_engine_passes():
    """A plain backward passes numpy arrays between nodes and create_graph passes Tensors; a custom
    Function's backward is user code and always gets Tensors (its node wraps and unwraps)."""
    seen = []

    class Spy(Function):
        @staticmethod
        def forward(ctx, i):
            return i * 2

        @staticmethod
        def backward(ctx, grad_output):
            seen.append(type(grad_output))
            return grad_output * 2

    x = gradlab.tensor([1., 2.], requires_grad=True)
    node = Spy.apply(x).grad_fn
    on_arrays = node.apply([np.ones(2, np.float32)], True)
    on_tensors = node.apply([gradlab.ones(2)])
    assert seen == [gradlab.Tensor, gradlab.Tensor]
    assert type(on_arrays[0]) is np.ndarray and type(on_tensors[0]) is gradlab.Tensor
    assert on_arrays[0].tolist() == on_tensors[0].tolist() == [2., 2.]
    (Spy.apply(x) * 1).sum().backward()                          # the engine: arrays around the node
    g, = gradlab.autograd.grad(Spy.apply(x).sum(), x, create_graph=True)     # Tensors
    assert seen[2:] == [gradlab.Tensor, gradlab.Tensor] and x.grad.tolist() == g.tolist() == [2., 2.]


def test_needs_input_grad_non_tensor_args_and_grad_mode():
    log = []

    class F(Function):
        @staticmethod
        def forward(ctx, a, k, b):
            log.append(("fwd", ctx.needs_input_grad, gradlab.is_grad_enabled()))
            ctx.k = k
            return a * k + b

        @staticmethod
        def backward(ctx, g):
            log.append(("bwd", ctx.needs_input_grad, gradlab.is_grad_enabled()))
            return g * ctx.k, None, g

    x = gradlab.ones(2, requires_grad=True)
    out = F.apply(x, 3.0, gradlab.ones(2))
    assert [n is None for n, _ in out.grad_fn.next_functions] == [False, True]
    out.sum().backward()
    assert repr(x.grad) == "tensor([3., 3.])"
    assert log == [("fwd", (True, False, False), False), ("bwd", (True, False, False), False)]
    both = F.apply(x, 3.0, x).grad_fn.next_functions
    assert both[0][0] is both[1][0]


def test_function_errors():
    class Bad(Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g

    class Bad2(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return gradlab.ones(3)

    class NoBack(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

    class S(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a, 3.0)
            return a

    x = gradlab.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=re.escape(
            "function BadBackward returned an incorrect number of gradients (expected 2, got 1)")):
        Bad.apply(x, x).sum().backward()
    with pytest.raises(RuntimeError, match=re.escape(
            "Function Bad2Backward returned an invalid gradient at index 0 - got [3] but expected shape compatible "
            "with [2]")):
        Bad2.apply(x).sum().backward()
    with pytest.raises(NotImplementedError, match=re.escape(
            "You must implement either the backward or vjp method for your custom autograd.Function to use it "
            "with backward mode AD.")):
        NoBack.apply(x).sum().backward()
    with pytest.raises(TypeError, match="^save_for_backward can only save variables, but argument 1 is of type float$"):
        S.apply(x)
    with pytest.warns(DeprecationWarning, match="should not be instantiated"):
        instance = MyExp()
    with pytest.raises(RuntimeError, match=re.escape(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html#torch."
            "autograd.Function)")):
        instance(x)


FUNCTION_SNIPPETS = [
    """
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(x, n): return x ** n
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, n = inputs
        ctx.save_for_backward(x); ctx.n = n
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ctx.n * x ** (ctx.n - 1), None
x = torch.tensor([1., 2.], requires_grad=True)
y = Sq.apply(x, 3); print(y); y.sum().backward(); print(x.grad)
""",
    """
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2, a.argmax()
    @staticmethod
    def backward(ctx, g1, g2):
        print("g2", g2)
        return g1 * 2
x = torch.tensor([1., 3.], requires_grad=True)
p, q = Two.apply(x); print(p, q, q.requires_grad, q.grad_fn)
p.sum().backward(); print(x.grad)
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a): return a
    @staticmethod
    def backward(ctx, g): return g
r = Id.apply(x); print(r is x, r, r.grad_fn)
""",
]


@pytest.mark.torch
@pytest.mark.parametrize("code", FUNCTION_SNIPPETS)
def test_function_snippets_match_torch(code):
    torch = pytest.importorskip("torch")
    assert run_snippet(gradlab, code) == run_snippet(torch, code)


def test_setup_context_and_multiple_outputs_without_torch():
    out = run_snippet(gradlab, FUNCTION_SNIPPETS[0] + FUNCTION_SNIPPETS[1])
    assert out.splitlines() == [
        "tensor([1., 8.], grad_fn=<SqBackward>)", "tensor([ 3., 12.])",
        "tensor([2., 6.], grad_fn=<TwoBackward>) tensor(1) False None", "g2 tensor(0)", "tensor([2., 2.])",
        "False tensor([1., 3.], grad_fn=<IdBackward>) <torch.autograd.function.IdBackward object at 0x…>"]


# --- 5.2 autograd.grad -----------------------------------------------------------------------------------

def test_autograd_grad():
    grad = gradlab.autograd.grad
    x = gradlab.tensor([1., 2., 3.], requires_grad=True)
    assert repr(grad((x ** 2).sum(), x)) == "(tensor([2., 4., 6.]),)"
    assert x.grad is None
    assert repr(grad(x * 2, x, grad_outputs=gradlab.tensor([1., 0.1, 0.01]))) == "(tensor([2.0000, 0.2000, 0.0200]),)"
    u = gradlab.ones(1, requires_grad=True)
    assert repr(grad((x * 2).sum(), [x, u], allow_unused=True)) == "(tensor([2., 2., 2.]), None)"
    assert repr(grad((x * 2).sum(), [x, u], materialize_grads=True)) == "(tensor([2., 2., 2.]), tensor([0.]))"
    assert repr(grad([(x * 2).sum(), (x * 3).sum()], [x])) == "(tensor([5., 5., 5.]),)"
    y = (x * x).sum()
    grad(y, x)                                       # retain_graph defaults to create_graph (False)
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second time"):
        grad(y, x)


# --- 5.3 hooks ------------------------------------------------------------------------------------------

def test_tensor_hooks():
    x = gradlab.tensor([1., 2.], requires_grad=True)
    handle = x.register_hook(lambda g: g * 10)
    (x * 3).sum().backward()
    assert repr(x.grad) == "tensor([30., 30.])"
    handle.remove()
    x.grad = None
    (x * 3).sum().backward()
    assert repr(x.grad) == "tensor([3., 3.])"
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(repr(g)))           # returning None keeps the gradient
    x.grad = None
    (y * y).sum().backward()
    assert seen == ["tensor([4., 8.])"] and repr(x.grad) == "tensor([ 8., 16.])"
    z = x * 1
    z.register_hook(lambda g: g * 0)                           # replaces the gradient of a non-leaf
    x.grad = None
    (z * 5).sum().backward()
    assert repr(x.grad) == "tensor([0., 0.])"


def test_node_hooks():
    x = gradlab.tensor([1., 2.], requires_grad=True)
    y = x * 3
    log = []
    y.grad_fn.register_hook(lambda gi, go: log.append(("post", repr(gi), repr(go))))
    y.grad_fn.register_prehook(lambda go: log.append(("pre", repr(go))))
    y.sum().backward()
    assert log == [("pre", "(tensor([1., 1.]),)"), ("post", "(tensor([3., 3.]), None)", "(tensor([1., 1.]),)")]
    y = x * 3
    h = y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
    x.grad = None
    y.sum().backward(retain_graph=True)
    assert repr(x.grad) == "tensor([6., 6.])"
    h.remove()
    x.grad = None
    y.sum().backward()
    assert repr(x.grad) == "tensor([3., 3.])"


# --- 5.4 jacobian / hessian -------------------------------------------------------------------------------

def test_jacobian_and_hessian():
    F = gradlab.autograd.functional
    v = gradlab.tensor([1., 2., 3.])
    assert repr(F.jacobian(lambda x: x ** 2, v)) == \
        "tensor([[2., 0., 0.],\n        [0., 4., 0.],\n        [0., 0., 6.]])"
    assert repr(F.jacobian(lambda x: x ** 2, gradlab.tensor(3.))) == "tensor(6.)"
    a, b = gradlab.tensor([1., 2.]), gradlab.tensor([3., 4.])
    J = F.jacobian(lambda x, y: (x * y, x * x), (a, b))
    assert [[tuple(j.shape) for j in row] for row in J] == [[(2, 2), (2, 2)], [(2, 2), (2, 2)]]
    assert repr(J[0][0]) == "tensor([[3., 0.],\n        [0., 4.]])"
    assert repr(F.jacobian(lambda x: gradlab.ones(2), a)) == "tensor([[0., 0.],\n        [0., 0.]])"
    with pytest.raises(RuntimeError, match=re.escape(
            "Output 0 of the user-provided function does not require gradients. The outputs must be computed in a "
            "differentiable manner from the input when running in strict mode.")):
        F.jacobian(lambda x: gradlab.ones(2), a, strict=True)
    assert repr(F.hessian(lambda x: (x ** 3).sum(), a)) == "tensor([[ 6.,  0.],\n        [ 0., 12.]])"
    with pytest.raises(RuntimeError, match=re.escape(
            "The Tensor returned by the function given to hessian should contain a single element")):
        F.hessian(lambda x: x ** 3, a)
    assert not F.jacobian(lambda x: x ** 2, v).requires_grad


@pytest.mark.torch
def test_jacobian_snippet_matches_torch():
    torch = pytest.importorskip("torch")
    code = """
F = torch.autograd.functional
print(F.jacobian(lambda x, y: x*y, (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))
print(F.jacobian(lambda x: (x*2, x.sum()), torch.tensor([1., 2.])))
print(F.jacobian(lambda x, y: (x*y, x*x), (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))
print(F.hessian(lambda x, y: (x*y).sum(), (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))
print(F.jacobian(lambda x: x**2, torch.tensor([1., 2.]), create_graph=True).requires_grad)
"""
    assert run_snippet(gradlab, code) == run_snippet(torch, code)


# --- 5.5 gradcheck ---------------------------------------------------------------------------------------

class BadExp(Function):
    @staticmethod
    def forward(ctx, i):
        r = i.exp()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r * 2


def test_gradcheck():
    gradcheck = gradlab.autograd.gradcheck
    x = gradlab.tensor([1., 2.], dtype=gradlab.float64, requires_grad=True)
    assert gradcheck(lambda t: (t * t).sin(), (x,)) is True
    assert gradcheck(gradlab.exp, x) is True
    assert gradcheck(MyExp.apply, (x,)) is True
    bad_input = (gradlab.tensor([0., 1.], dtype=gradlab.float64, requires_grad=True),)
    assert gradcheck(BadExp.apply, bad_input, raise_exception=False) is False
    with pytest.raises(gradlab.autograd.GradcheckError) as info:
        gradcheck(BadExp.apply, bad_input)
    assert isinstance(info.value, RuntimeError)
    assert str(info.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[1.0000, 0.0000],\n        [0.0000, 2.7183]], dtype=torch.float64)\n"
        "analytical:tensor([[2.0000, 0.0000],\n        [0.0000, 5.4366]], dtype=torch.float64)\n")
    with pytest.raises(ValueError, match=re.escape(
            "gradcheck expects at least one input tensor to require gradient, but none of them have "
            "requires_grad=True.")):
        gradcheck(lambda t: t * 2, (gradlab.ones(2, dtype=gradlab.float64),))
    assert gradlab.autograd.gradgradcheck(lambda t: t ** 3, (x,)) is True


def test_gradcheck_float32_warns_and_prints_float32_jacobians():
    x = gradlab.tensor([1., 0.], requires_grad=True)
    with pytest.warns(UserWarning, match="^Input #0 requires gradient and is not a double precision"):
        with pytest.raises(RuntimeError) as info:
            gradlab.autograd.gradcheck(lambda t: t * t, (x,))
    assert "dtype=torch.float64" not in str(info.value) and str(info.value).startswith("Jacobian mismatch")


# --- 4.5 grad mode ----------------------------------------------------------------------------------------

def test_grad_mode_contexts_and_decorators():
    x = gradlab.ones(2, requires_grad=True)
    assert gradlab.is_grad_enabled()
    with gradlab.no_grad():
        assert not (x * 2).requires_grad and not gradlab.is_grad_enabled()
        with gradlab.enable_grad():
            assert (x * 2).requires_grad
        assert not gradlab.is_grad_enabled()
    assert gradlab.is_grad_enabled()
    with gradlab.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert gradlab.is_grad_enabled()

    @gradlab.no_grad()
    def f1():
        return (x * 2).requires_grad

    @gradlab.no_grad
    def f2():
        return (x * 2).requires_grad

    @gradlab.enable_grad()
    def f3():
        return (x * 2).requires_grad

    @gradlab.set_grad_enabled(False)
    def f4():
        return (x * 2).requires_grad

    assert gradlab.is_grad_enabled()        # decorating changed nothing
    assert (f1(), f2(), f4()) == (False, False, False) and gradlab.is_grad_enabled()
    with gradlab.no_grad():
        assert f3() is True and not gradlab.is_grad_enabled()
    assert f1.__name__ == "f1"
    gradlab.set_grad_enabled(False)
    try:
        assert not gradlab.is_grad_enabled() and not (x * 2).requires_grad
    finally:
        gradlab.set_grad_enabled(True)
    with gradlab.inference_mode():
        assert not (x * 2).requires_grad
    with pytest.raises(ZeroDivisionError):
        with gradlab.no_grad():
            1 / 0
    assert gradlab.is_grad_enabled()        # restored after an exception


@pytest.mark.torch
def test_grad_mode_reprs_match_torch():
    torch = pytest.importorskip("torch")
    code = """
from IPython.lib.pretty import pretty
for o in [torch.no_grad(), torch.enable_grad(), torch.set_grad_enabled(True)]:
    print(repr(o), pretty(o))
"""
    assert run_snippet(gradlab, code) == run_snippet(torch, code)
