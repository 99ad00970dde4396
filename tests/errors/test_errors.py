"""Bad input gets PyTorch's exception type and exact message (torch-parity.md section 3).

Each case is a snippet run with the name `torch` bound to gradlab; the expected type and text
are what torch 2.13 raises (copied from the parity reference). `test_torch_agrees` runs the
same snippets with real torch, so the table itself is checked against the oracle.
"""
import subprocess
import sys
import warnings

import pytest

import gradlab

HINT = (" Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False).")
INPLACE = "one of the variables needed for gradient computation has been modified by an inplace operation: "
SECOND = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second "
    "time or if you need to access saved tensors after calling backward."
)
LEAF_FLAGS = ("you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
              "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")

CASES = [
    # --- backward / grad -------------------------------------------------------------------------
    ("x = torch.ones(2, requires_grad=True); (x * 2).backward()",
     RuntimeError, "grad can be implicitly created only for scalar outputs"),
    ("x = torch.ones(2, requires_grad=True); torch.autograd.grad(x * 2, x)",
     RuntimeError, "grad can be implicitly created only for scalar outputs"),
    ("x = torch.tensor([1., 2.], requires_grad=True); y = (x * x).sum(); y.backward(); y.backward()",
     RuntimeError, SECOND),
    ("x = torch.tensor([1., 2.], requires_grad=True); y = x * x; y.sum().backward(); y.grad_fn._saved_self",
     RuntimeError, SECOND),
    ("torch.tensor(1.).backward()", RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn"),
    ("torch.ones(3).backward()", RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn"),
    ("x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    y = (x * 2).sum()\ny.backward()",
     RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn"),
    ("torch.tensor(3).backward()", RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn"),
    ("x = torch.ones(3, requires_grad=True); (x * 2).backward(torch.ones(2))", RuntimeError,
     "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of torch.Size([3])."),
    ("x = torch.ones(3, requires_grad=True); (x * 2).sum().backward(torch.ones(3))", RuntimeError,
     "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([])."),
    ("x = torch.ones(2, requires_grad=True); u = torch.ones(2, requires_grad=True); "
     "torch.autograd.grad((x * 2).sum(), [x, u])", RuntimeError,
     "The differentiated Tensor at index 1 appears to not have been used in the graph. "
     "Set allow_unused=True if this is the desired behavior."),
    ("x = torch.ones(2, requires_grad=True); torch.autograd.grad((x * 2).sum(), [torch.ones(2)])",
     RuntimeError, "One of the differentiated Tensors does not require grad"),
    ("x = torch.ones(2, requires_grad=True); x.grad.zero_()", AttributeError, "'NoneType' object has no attribute 'zero_'"),
    # a hook may replace a gradient, but not its type, dtype, size or count
    ("x = torch.ones(3, requires_grad=True); y = x * 2; y.register_hook(lambda g: g.double()); y.sum().backward()",
     RuntimeError, "hook '<lambda>' has changed the type of value (was torch.FloatTensor got torch.DoubleTensor)"),
    ("x = torch.ones(3, requires_grad=True); y = x * 2; y.register_hook(lambda g: g[:2]); y.sum().backward()",
     RuntimeError, "hook '<lambda>' has changed the size of value"),
    ("x = torch.ones(2, 3, requires_grad=True); y = x * 2; y.register_hook(lambda g: g.t()); y.sum().backward()",
     RuntimeError, "hook '<lambda>' has changed the size of value"),
    ("x = torch.ones(3, requires_grad=True, dtype=torch.float64)\ndef halve(g):\n    return g.float()\n"
     "x.register_hook(halve); (x * 2).sum().backward()",
     RuntimeError, "hook 'halve' has changed the type of value (was torch.DoubleTensor got torch.FloatTensor)"),
    ("import functools; x = torch.ones(3, requires_grad=True); y = x * 2\n"
     "y.register_hook(functools.partial(lambda g, k: g.int(), k=1)); y.sum().backward()",
     RuntimeError, "hook '<unknown>' has changed the type of value (was torch.FloatTensor got torch.IntTensor)"),
    ("x = torch.ones(3, requires_grad=True); y = x * 2; y.register_hook(lambda g: 5); y.sum().backward()",
     TypeError, "expected Variable, but hook returned 'int'"),
    ("x = torch.ones(3, requires_grad=True); y = x * 2\n"
     "y.grad_fn.register_prehook(lambda gs: (gs[0].double(),)); y.sum().backward()",
     RuntimeError, "hook '<lambda>' has changed the type of value (was torch.FloatTensor got torch.DoubleTensor)"),
    ("x = torch.ones(3, requires_grad=True); y = x * 2\n"
     "y.grad_fn.register_hook(lambda gi, go: (gi[0],)); y.sum().backward()",
     RuntimeError, "hook '<lambda>' has returned an incorrect number of values (got 1, but expected 2)"),
    ("torch.ones(2).register_hook(lambda g: g)", RuntimeError,
     "cannot register a hook on a tensor that doesn't require gradient"),
    # --- requires_grad flags ---------------------------------------------------------------------
    ("torch.tensor([1, 2], requires_grad=True)", RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
    ("torch.ones(2, dtype=torch.long, requires_grad=True)", RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
    ("torch.tensor([True], requires_grad=True)", RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
    ("torch.tensor([1, 2]).requires_grad_()", RuntimeError, "only Tensors of floating point dtype can require gradients"),
    ("t = torch.tensor([1, 2]); t.requires_grad = True", RuntimeError,
     "only Tensors of floating point and complex dtype can require gradients"),
    ("x = torch.ones(2, requires_grad=True); y = x * 2; y.requires_grad = False", RuntimeError, LEAF_FLAGS),
    ("x = torch.ones(2, requires_grad=True); y = x * 2; y.requires_grad_(False)", RuntimeError, LEAF_FLAGS),
    ("x = torch.ones(2, requires_grad=True); y = x * 2; y.requires_grad = True", RuntimeError,
     "you can only change requires_grad flags of leaf variables."),
    ("t = torch.ones(3); t.grad = torch.ones(2)", RuntimeError,
     "attempting to assign a gradient of size '[2]' to a tensor of size '[3]'. Please ensure that the gradient and "
     "the tensor are the same size"),
    # --- in-place on leaves ------------------------------------------------------------------------
    ("l = torch.ones(2, requires_grad=True); l.add_(1)", RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    ("l = torch.ones(2, requires_grad=True); l += 1", RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    ("l = torch.ones(2, requires_grad=True); l.mul_(2)", RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    ("l = torch.ones(2, requires_grad=True); l[0] = 5", RuntimeError,
     "a view of a leaf Variable that requires grad is being used in an in-place operation."),
    ("l = torch.ones(2, requires_grad=True); l[0].add_(1)", RuntimeError,
     "a view of a leaf Variable that requires grad is being used in an in-place operation."),
    # --- the version counter -----------------------------------------------------------------------
    ("x = torch.ones(3, requires_grad=True); y = x.sigmoid(); y.add_(1); y.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; expected version 0 instead." + HINT),
    ("x = torch.ones(3, requires_grad=True); y = x.exp(); y.mul_(1); y.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [3]], which is output 0 of Exp, is at version 1; expected version 0 instead." + HINT),
    ("x = torch.ones(3, requires_grad=True); y = x.tanh(); y.sub_(1); y.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [3]], which is output 0 of Tanh, is at version 1; expected version 0 instead." + HINT),
    ("x = torch.ones(3, requires_grad=True); y = x.relu(); y.add_(1); y.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [3]], which is output 0 of Relu, is at version 1; expected version 0 instead." + HINT),
    ("x = torch.ones(3, requires_grad=True); b = x + 1; c = b * b; b.add_(1); c.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [3]], which is output 0 of Add, is at version 1; expected version 0 instead." + HINT),
    ("x = torch.ones(3, requires_grad=True); b = x * 1; c = b.pow(2); b.mul_(2); c.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [3]], which is output 0 of Mul, is at version 1; expected version 0 instead." + HINT),
    ("x = torch.ones(3, requires_grad=True); b = x - 1; c = b * b; b.sub_(1); b.sub_(1); c.sum().backward()",
     RuntimeError,
     INPLACE + "[torch.FloatTensor [3]], which is output 0 of Sub, is at version 2; expected version 0 instead." + HINT),
    ("x = torch.ones(2, 2, requires_grad=True); b = x + 1; c = b @ b; b.add_(1); c.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [2, 2]], which is output 0 of Add, is at version 1; expected version 0 instead." + HINT),
    ("w = torch.ones(3, requires_grad=True); k = torch.ones(3); c = w * k; k.add_(1); c.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [3]] is at version 1; expected version 0 instead." + HINT),
    ("w = torch.ones(3, requires_grad=True); c = w * w\nwith torch.no_grad():\n    w.add_(1)\nc.sum().backward()",
     RuntimeError, INPLACE + "[torch.FloatTensor [3]] is at version 1; expected version 0 instead." + HINT),
    ("w = torch.ones(3, dtype=torch.float64, requires_grad=True); k = torch.ones(2, 2, dtype=torch.float64); "
     "c = w.sum() * k; k[0] = 3; c.sum().backward()", RuntimeError,
     INPLACE + "[torch.DoubleTensor [2, 2]] is at version 1; expected version 0 instead." + HINT),
    ("w = torch.ones(3, requires_grad=True); k = torch.ones(3); c = w * k; k[1:].add_(1); c.sum().backward()",
     RuntimeError, INPLACE + "[torch.FloatTensor [3]] is at version 1; expected version 0 instead." + HINT),
    ("w = torch.ones(3, requires_grad=True); k = torch.ones(3); c = w * k; k.detach().add_(1); k.add_(1); "
     "c.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [3]] is at version 2; expected version 0 instead." + HINT),
    ("w = torch.tensor(2., requires_grad=True); k = torch.tensor(3.); c = w * k; k.add_(1); c.backward()",
     RuntimeError, INPLACE + "[torch.FloatTensor []] is at version 1; expected version 0 instead." + HINT),
    ("p = torch.ones(3, requires_grad=True); q = p.exp(); q.detach().zero_(); q.sum().backward()", RuntimeError,
     INPLACE + "[torch.FloatTensor [3]], which is output 0 of Exp, is at version 1; expected version 0 instead." + HINT),
    # --- shapes, matmul --------------------------------------------------------------------------------
    ("torch.ones(3) + torch.ones(4)", RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"),
    ("torch.ones(2, 3) + torch.ones(3, 2)", RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1"),
    ("torch.ones(2, 3, 4) + torch.ones(3, 3, 5)", RuntimeError,
     "The size of tensor a (4) must match the size of tensor b (5) at non-singleton dimension 2"),
    ("torch.ones(4) * torch.ones(2, 3)", RuntimeError,
     "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1"),
    ("torch.ones(5, 3) - torch.ones(4, 1, 2)", RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 2"),
    ("torch.ones(2, 3, requires_grad=True) / torch.ones(3, 2)", RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1"),
    ("torch.ones(2, 3) @ torch.ones(2, 3)", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
    ("torch.ones(2, 3).mm(torch.ones(2, 3))", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
    ("torch.ones(4) @ torch.ones(3, 2)", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (1x4 and 3x2)"),
    ("torch.ones(2, 3) @ torch.ones(4)", RuntimeError, "size mismatch, got input (2), mat (2x3), vec (4)"),
    ("torch.ones(3) @ torch.ones(4)", RuntimeError,
     "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, "
     "but got 3 and 4 elements respectively"),
    ("torch.ones(5, 2, 3) @ torch.ones(5, 4, 2)", RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: [5, 4]."),
    ("torch.tensor(1.) @ torch.ones(3)", RuntimeError,
     "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
    ("torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)", RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: float != double"),
    ("torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.long)", RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: float != long int"),
    ("torch.ones(2, 3).view(4)", RuntimeError, "shape '[4]' is invalid for input of size 6"),
    ("torch.ones(2, 3).reshape(4)", RuntimeError, "shape '[4]' is invalid for input of size 6"),
    ("torch.ones(2, 3).t().view(6)", RuntimeError,
     "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
     "contiguous subspaces). Use .reshape(...) instead."),
    ("torch.cat([torch.ones(2, 3), torch.ones(2, 4)])", RuntimeError,
     "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list."),
    ("torch.stack([torch.ones(2), torch.ones(3)])", RuntimeError,
     "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1"),
    # --- conversion, indexing, construction ------------------------------------------------------------
    ("torch.ones(2, requires_grad=True).numpy()", RuntimeError,
     "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."),
    ("(torch.ones(2, requires_grad=True) * 2).numpy()", RuntimeError,
     "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."),
    ("torch.tensor([1., 2., 3.]).item()", RuntimeError, "a Tensor with 3 elements cannot be converted to Scalar"),
    ("torch.tensor([]).item()", RuntimeError, "a Tensor with 0 elements cannot be converted to Scalar"),
    ("float(torch.ones(2))", ValueError, "only one element tensors can be converted to Python scalars"),
    ("int(torch.ones(2))", ValueError, "only one element tensors can be converted to Python scalars"),
    ("bool(torch.ones(2))", RuntimeError, "Boolean value of Tensor with more than one value is ambiguous"),
    ("torch.ones(3)[5]", IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
    ("torch.ones(3).sum(2)", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 2)"),
    ("torch.tensor(1.)[0]", IndexError,
     "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a "
     "0-dim tensor to a number"),
    ("len(torch.tensor(1.))", TypeError, "len() of a 0-d tensor"),
    ("for v in torch.tensor(1.):\n    pass", TypeError, "iteration over a 0-d tensor"),
    ("torch.tensor([[1, 2], [3]])", ValueError, "expected sequence of length 2 at dim 1 (got 1)"),
    ("torch.tensor([1, 2]).mean()", RuntimeError,
     "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"),
    ("f'{torch.ones(2):.2f}'", TypeError, "unsupported format string passed to Tensor.__format__"),
]


def _run(module, code):
    ns = {"torch": module}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(code, ns)


@pytest.mark.parametrize("code, exc_type, message", CASES, ids=[c[0][:60] for c in CASES])
def test_gradlab_raises_torch_error(code, exc_type, message):
    with pytest.raises(exc_type) as info:
        _run(gradlab, code)
    assert str(info.value) == message
    assert type(info.value).__module__ == "builtins"     # no numpy (or gradlab) exception leaks through


@pytest.mark.torch
@pytest.mark.parametrize("code, exc_type, message", CASES, ids=[c[0][:60] for c in CASES])
def test_torch_agrees(code, exc_type, message):
    torch = pytest.importorskip("torch")
    with pytest.raises(exc_type) as info:
        _run(torch, code)
    assert str(info.value) == message


NO_ERROR = [
    # what section 3 lists as accepted (and the results gradlab must then give)
    ("x = torch.tensor([1., 2.], requires_grad=True); y = (x + 1).sum(); y.backward(); y.backward(); out = x.grad",
     "tensor([2., 2.])"),
    ("x = torch.ones(3, requires_grad=True); (x * 2).backward(torch.ones(3, dtype=torch.float64)); out = x.grad",
     "tensor([2., 2., 2.])"),
    ("x = torch.ones(3, requires_grad=True); (x * 2).backward(torch.ones(3, dtype=torch.long)); out = x.grad",
     "tensor([2., 2., 2.])"),
    ("l = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    l.add_(1); l[0] = 5; l *= 2\n"
     "out = (l, l._version, l.is_leaf)", "(tensor([10.,  4.], requires_grad=True), 3, True)"),
    ("w = torch.ones(3, requires_grad=True); k = torch.ones(3); c = w * k; k.data.add_(1); v = k._version; "
     "c.sum().backward(); out = (v, w.grad)", "(0, tensor([2., 2., 2.]))"),
    ("p = torch.ones(3, requires_grad=True); q = p.exp(); q.data.zero_(); q.sum().backward(); out = p.grad",
     "tensor([0., 0., 0.])"),
]


@pytest.mark.parametrize("code, expected", NO_ERROR, ids=[c[0][:60] for c in NO_ERROR])
def test_accepted_cases(code, expected):
    ns = {"torch": gradlab}
    exec(code, ns)
    assert repr(ns["out"]) == expected


WARNINGS = [
    ("x = torch.ones(2, requires_grad=True); y = x * 2; y.grad",
     "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
     "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
     "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
     "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information."),
    ("torch.tensor(torch.ones(2))",
     "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
     "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."),
    ("float(torch.ones(1, requires_grad=True))",
     "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
     "Consider using tensor.detach() first."),
    ("x = torch.ones(1, requires_grad=True); (x * 2).sum().backward(create_graph=True)",
     "Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient "
     "which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you "
     "have to use this function, make sure to reset the .grad fields of your parameters to None after use to break "
     "the cycle and avoid the leak."),
    ("torch.autograd.gradcheck(lambda t: t * 2, (torch.ones(2, requires_grad=True),))",
     "Input #0 requires gradient and is not a double precision floating point or complex. This check will likely "
     "fail if all the inputs are not of double precision floating point or complex. "),
]


def _warnings_of(module, code):
    ns = {"torch": module}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, ns)
        except RuntimeError:
            pass
    return [(w.category, str(w.message).split(" (Triggered internally")[0]) for w in caught
            if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("code, text", WARNINGS, ids=[c[0][:50] for c in WARNINGS])
def test_warnings(code, text):
    gradlab._warnings.WARNED.discard(gradlab.autograd._CREATE_GRAPH_WARNING)    # (PyTorch warns once a process)
    tensor_module = sys.modules["gradlab.tensor"]             # (this one too)
    tensor_module._WARNED.discard(tensor_module._SCALAR_WARNING)
    assert _warnings_of(gradlab, code) == [(UserWarning, text)]


@pytest.mark.torch
@pytest.mark.parametrize("code, text", WARNINGS, ids=[c[0][:50] for c in WARNINGS])
def test_warnings_torch_agrees(code, text):
    torch = pytest.importorskip("torch")
    torch.set_warn_always(True)         # warnings torch gives once per process (an earlier test may have had it)
    try:
        got = _warnings_of(torch, code)
    finally:
        torch.set_warn_always(False)
    if "create_graph=True" in code and got == []:
        return      # torch gives this one warning once per process (TORCH_WARN_ONCE); an earlier test took it
    assert got == [(UserWarning, text)]


def test_no_warning_for_item_int_or_retained_grad():
    for code in ["torch.ones(1, requires_grad=True).item()", "int(torch.ones(1, requires_grad=True))",
                 "x = torch.ones(2, requires_grad=True); y = x * 2; y.retain_grad(); y.grad",
                 "torch.ones(2, requires_grad=True).grad"]:
        assert _warnings_of(gradlab, code) == [], code


def test_nonleaf_warning_is_shown_once_per_line_by_default_filter():
    code = ("import gradlab as torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\n"
            "for _ in range(3):\n    print(y.grad)\nprint(y.grad)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout == "None\n" * 4
    assert proc.stderr.count("UserWarning: The .grad attribute of a Tensor that is not a leaf") == 2
