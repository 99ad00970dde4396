"""The chain rule at one node, with its numbers: `grad_self = grad * other = 0.75 * 3 = 2.25`.

Every op of the table has, for each input slot, a readable formula (`gradlab/ops/formula_text.py`:
PyTorch code such as `grad * other`). Here that text is evaluated with gradlab's own functions on
the values the node saved, while the node is still alive (the player asks at the engine's
`NodeStarted` event, before the node runs and frees what it saved), and written out with the
numbers put in for the names. Only the standard library, numpy and gradlab's public API.
"""
import ast
import builtins
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

import gradlab
import gradlab.nn.functional
from .._dtype import from_numpy_dtype
from ..autograd import events
from ..autograd.node import AsTensors
from ..ops.formula_text import formula_text
from ..ops.registry import sum_to_shape
from .i18n import t

SMALL = 6      # tensors with at most this many elements are written out; larger ones by their shape

# what a formula's text may call besides gradlab's functions and the tensors' methods
_BUILTINS = {name: getattr(builtins, name) for name in ("len", "range", "tuple", "list", "slice", "float", "int",
                                                         "bool", "round", "isinstance")}
_BUILTINS["pi"] = np.pi

def restore_dims(t, dim, keepdim):
    """`t` with the dims a reduction removed put back as size 1, so it lines up with the input
    (PyTorch's backward of sum(dim) does the same before expanding)."""
    if keepdim or dim is None or not isinstance(t, gradlab.Tensor):
        return t
    for d in sorted(dim if isinstance(dim, (tuple, list)) else (dim,)):
        t = t.unsqueeze(d)
    return t


def prod_of_others(t, dim=None):
    """For each element, the product of the other elements reduced with it (over `dim`, or all of
    them): d(x1·x2·x3)/dx1 = x2·x3, with no division, so a zero among them is no problem."""
    a = t.detach().numpy()
    dims = tuple(range(a.ndim)) if dim is None else tuple(d % max(a.ndim, 1) for d in
                                                            (dim if isinstance(dim, (tuple, list)) else (dim,)))
    if a.ndim == 0:
        return gradlab.ones_like(t)
    rest = [d for d in range(a.ndim) if d not in dims]
    moved = np.transpose(a, rest + list(dims))
    flat = moved.reshape(moved.shape[:len(rest)] + (-1,))
    ones = np.ones(flat.shape[:-1] + (1,), a.dtype)
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], -1), -1)             # product of those before
    right = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], -1), -1)[..., ::-1]  # and of those after
    others = (left * right).reshape(moved.shape)
    return gradlab.from_numpy(np.ascontiguousarray(np.transpose(others, np.argsort(rest + list(dims)))))


_BUILTINS["restore_dims"] = restore_dims
_BUILTINS["prod_of_others"] = prod_of_others

# modules a formula's text may name: F.conv_transpose2d(...), linalg.inv(...)
# (autograd: a formula may be the vector-Jacobian product of the op itself, autograd.functional.vjp(...))
_MODULES = {"F": gradlab.nn.functional, "linalg": gradlab.linalg, "nn": gradlab.nn, "special": gradlab.special,
            "autograd": gradlab.autograd}


@dataclass(frozen=True)
class FormulaStep:
    """One input slot's rule at one backward step."""
    slot: str                    # the input slot ('self', 'other')
    text: str                    # the formula: 'grad * other'
    numbers: Optional[str]       # the same with values put in: '0.75 * 3' (None when it could not be evaluated)
    value: Any                   # numpy array: what the formula gives, summed to the input's shape (or None)
    constant: bool = False       # every tensor in it holds one repeated value, written once ('2.25 everywhere')
    error: Optional[str] = None  # why it could not be evaluated
    summed_from: Optional[tuple] = None  # the formula's shape, when broadcasting made it larger than the input

    LONG = 140                   # a longer formula is shown without its numbers: they would not help

    def line(self, result_text):
        """'grad_self = grad * other = 0.75 * 3 = 2.25' (result_text: the value written for people)."""
        if self.numbers is None or self.numbers in (self.text, result_text) or len(self.text) > self.LONG:
            return f"grad_{self.slot} = {self.text} = {result_text}"
        return f"grad_{self.slot} = {self.text} = {self.numbers} = {result_text}"


class _Names(dict):
    """The names a formula's text reads, looked up when first read: `grad`, what the node saved or was
    called with (`self`, `other`, `dim`), then gradlab's functions (`cos`, `where`)."""

    def __init__(self, node, grads):
        super().__init__()
        self.node = node
        self.view = AsTensors(node)          # saved values as Tensors (no graph: evaluated under no_grad)
        self.grads = grads

    def __missing__(self, name):
        if name == "grad":
            value = self.grads[0]
        elif name == "grads":
            value = tuple(self.grads)
        else:
            value = self._attribute(name)
        self[name] = value
        return value

    def _attribute(self, name):
        try:
            return _as_value(getattr(self.view, name))
        except AttributeError:
            pass
        op = getattr(self.node, "_op", None)
        if op is not None and name in op.defaults:
            return op.defaults[name]
        if name in _BUILTINS:
            return _BUILTINS[name]
        if name in _MODULES:
            return _MODULES[name]
        value = getattr(gradlab, name, None)
        if callable(value):
            return _numbers_too(value) if name in _MATH else value
        raise KeyError(name)


def _as_value(value):
    if isinstance(value, np.dtype):          # a dtype the node keeps as numpy's (ToCopyBackward0's source)
        return from_numpy_dtype(value)
    if isinstance(value, np.ndarray):
        return gradlab.from_numpy(value.copy()) if value.dtype.kind != "b" or value.ndim else gradlab.tensor(bool(value))
    return value


_MATH = {"exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "erf", "log1p", "expm1", "cosh",
         "sinh", "abs", "sign"}


def _numbers_too(fn):
    """gradlab.log(2) wants a Tensor; a formula's text may write log(2) for the constant."""
    def call(*args, **kwargs):
        if args and isinstance(args[0], (int, float)) and not isinstance(args[0], bool):
            args = (gradlab.tensor(float(args[0]), dtype=gradlab.float64),) + args[1:]
        return fn(*args, **kwargs)
    return call


def _grads(node, grad_outputs):
    """The gradients a node received as Tensors; an output that received none counts as zeros (as the
    engine counts it)."""
    meta = getattr(node, "_output_meta", None) or ()
    return tuple(gradlab.from_numpy(np.array(g)) if g is not None
                 else gradlab.from_numpy(np.zeros(meta[i][0], meta[i][1])) if i < len(meta) and meta[i] else None
                 for i, g in enumerate(grad_outputs))


def evaluate(text, node, grad_outputs):
    """The formula `text` evaluated on `node`'s values and the gradients it received (numpy arrays, one
    per output; None for an output that received none), as a gradlab Tensor at the output's shape."""
    return _evaluate(text, _Names(node, _grads(node, grad_outputs)))


def _evaluate(text, names):
    # no graph is recorded, and nothing reported: a formula may run a backward of its own (nn.grad)
    with gradlab.no_grad(), events.paused():
        code = compile(ast.fix_missing_locations(_ConjCalls().visit(ast.parse(text, mode="eval"))), "<formula>", "eval")
        return eval(code, {"__builtins__": {}, "__conj__": _conj}, names)


class _ConjCalls(ast.NodeTransformer):
    """`other.conj()` read by _conj: in PyTorch's formula `other` may be a Scalar (x * 2), whose C++ type
    has conj(); a Python number has only conjugate()."""

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "conj" and not node.args and not node.keywords:
            return ast.copy_location(ast.Call(ast.Name("__conj__", ast.Load()), [node.func.value], []), node)
        return node


class _DropConj(ast.NodeTransformer):
    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "conj" and not node.args and not node.keywords:
            return node.func.value
        return node


def _without_conj(text):
    """The text without its `.conj()` calls: of real numbers a conjugate is the number itself, so a node
    of real tensors reads as the tutorials write it (`grad * other`, not `grad * other.conj()`)."""
    return ast.unparse(_DropConj().visit(ast.parse(text, mode="eval")))


def _real_gradients(names):
    """Did the node receive only real gradients? Then its output is real, and so are the values its
    formulas conjugate (an op with a complex input and a real output, abs or angle, conjugates nothing)."""
    return all(g is None or not g.is_complex() for g in names["grads"])


def _conj(value):
    return value.conjugate() if isinstance(value, (int, float, complex)) else value.conj()


def steps(node, grad_outputs):
    """The FormulaSteps of a node the engine is about to run (empty for nodes with no op table row:
    AccumulateGrad, a custom Function). A formula that cannot be evaluated keeps its text, without numbers."""
    op = getattr(node, "_op", None)
    if op is None:
        return ()
    out = []
    names = _Names(node, _grads(node, grad_outputs))       # (shared by the slots: each value read once)
    for i, ((child, _), slot) in enumerate(zip(node.next_functions, op.inputs)):
        text = formula_text(op, slot) if child is not None else None
        if text is None:
            continue
        if ".conj()" in text and _real_gradients(names):
            text = _without_conj(text)
        try:
            value = _evaluate(text, names)
            raw_shape = tuple(value.shape) if isinstance(value, gradlab.Tensor) else np.shape(value)
            value = _to_input_shape(value, node, i, names["grad"])
        except Exception as problem:   # a caption must never break the player: show the rule without numbers
            out.append(FormulaStep(slot, text, None, None, error=f"{type(problem).__name__}: {problem}"))
            continue
        numbers, constant = substitute(text, names, value)
        summed = raw_shape if raw_shape != value.shape else None
        out.append(FormulaStep(slot, text, numbers, value, constant, summed_from=summed))
    return tuple(out)


def _to_input_shape(value, node, i, grad):
    """Summed back to the input's shape, as the engine does (no meta: the input was shaped like grad)."""
    array = value.detach().numpy(force=True) if isinstance(value, gradlab.Tensor) else np.asarray(value)
    meta = node._input_meta[i] if node._input_meta else None
    if meta is None and grad is not None:
        meta = (tuple(grad.shape), grad.detach().numpy().dtype)
    return np.asarray(sum_to_shape(array, meta)) if meta is not None else array


# --- numbers in place of names ---------------------------------------------------------------------
def number_text(value):
    """A number for a formula: '0.75', '3', '-2' ('(-2)' where a sign could be misread is the caller's)."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if np.iscomplexobj(value):          # as Python writes one: '(1-2j)'
        value = complex(value)
        imag = value.imag
        return f"({number_text(value.real)}{'-' if imag < 0 else '+'}{number_text(abs(imag))}j)"
    value = float(value)
    if not np.isfinite(value):
        return str(value)                    # 'inf', '-inf', 'nan'
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.4g}"


def _array(value):
    if isinstance(value, gradlab.Tensor):
        return value.detach().numpy(force=True)
    if isinstance(value, np.ndarray):
        return value
    return None


def _nested(a):
    if a.ndim == 0:
        return number_text(a)
    return "[" + ", ".join(_nested(row) for row in a) + "]"


def _constant(a):
    flat = a.reshape(-1)
    return a.size > 0 and bool(np.all(flat == flat[0]))


def value_text(a, constant):
    """How one tensor reads inside a formula: its one value when every tensor of the formula is constant,
    its elements when it is small, else its shape."""
    if a.ndim == 0:
        return number_text(a)
    if constant:
        return number_text(a.reshape(-1)[0])
    if a.size <= SMALL:
        return _nested(a)
    return shape_text(a.shape)


def shape_text(shape):
    """A large tensor in a formula: '(64×10 values)', in the player's language."""
    return t("shape_values", shape="×".join(map(str, shape)))


def substitute(text, names, result=None):
    """(text with each tensor or number name replaced by its value, whether all were constant tensors).
    Names the formula did not read, and functions, stay as they are."""
    tree = ast.parse(text, mode="eval")
    used = {n.id: names[n.id] for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names}
    arrays = [a for a in (_array(v) for v in used.values()) if a is not None]
    if result is not None:
        arrays.append(np.asarray(result))
    constant = bool(arrays) and all(_constant(a) for a in arrays) and any(a.size > 1 for a in arrays)

    class Put(ast.NodeTransformer):
        def visit_Call(self, node):          # function names stay; their arguments get numbers
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
            if isinstance(node.func, ast.Attribute):
                node.func = self.visit(node.func)
            return node

        def visit_Attribute(self, node):     # (1).expand(...): a number before a dot needs brackets
            value = self.visit(node.value)
            if isinstance(value, ast.Name) and value.id != getattr(node.value, "id", None) \
                    and not value.id.startswith(("(", "[")):
                value = ast.Name(f"({value.id})")
            node.value = value
            return node

        def visit_Name(self, node):
            if node.id not in used:
                return node
            value = used[node.id]
            array = _array(value)
            if array is not None:
                words = value_text(array, constant)
            elif isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
                words = number_text(value)
            elif isinstance(value, tuple) and all(isinstance(v, int) for v in value):
                words = str(value) if len(value) != 1 else f"({value[0]},)"    # sizes: (2, 2)
            else:
                return node                  # a shape, a dim list, a dtype: the name reads better
            return ast.Name(f"({words})" if words.startswith("-") else words)

    return ast.unparse(Put().visit(tree)), constant


def result_text(value, constant):
    """The value a formula gave, written as its inputs were ('2.25', '[4.5, 4.5]', '(3×4)')."""
    a = np.asarray(value)
    if constant and a.ndim and a.size:
        return number_text(a.reshape(-1)[0])
    return value_text(a, False)
