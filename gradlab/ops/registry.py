"""The op table: every differentiable operation, its forward and its gradients, in one place.

An op is declared once:

    @op("mul", "MulBackward0", ("self", "other"), variants=("function", "method", "inplace"),
        saves={"self": ("other",), "other": ("self",)},
        self=lambda g, n: g * n.other,
        other=lambda g, n: g * n.self)
    def mul(self, other):
        return np.multiply(self, other)       # (ops/arithmetic.py's also rounds float16 as PyTorch does)

* the forward takes numpy arrays (and plain parameters) and returns a numpy array;
* one gradient formula per differentiable input, named after the input. A formula gets the
  gradient `g` of the output and the node `n`, whose attributes are the saved tensors (`n.self`,
  `n.other`, `n.result`), the op's parameters (`n.dim`) and the Python scalars it was called with.
  Formulas use operators and the functions of ops/dual.py (`dual.cos(n.self)`), so the same
  formula runs on numpy arrays in a plain backward (fast: no Tensors, no graph) and on Tensors with
  `create_graph=True` (it then records a graph of its own: gradients of gradients). The engine
  chooses: `node.apply(grads, as_arrays)`, and `n` gives saved values in that mode;
* a formula returns the gradient at the output's (broadcast) shape: the node sums it back to each
  input's shape in one place (`sum_to_shape`). No formula unbroadcasts by hand;
* `saves` lists what the formulas read, for all of them or (a dict) for each input's formula. Only
  those are kept, and only those make an in-place change an error at backward time (PyTorch's
  version counter);
* a node that saved something (a tensor, a Python scalar of a saved slot, or a numpy array
  parameter such as an index or a mask: PyTorch keeps all of them as tensors) is spent after a
  backward without retain_graph, and a second backward through it raises PyTorch's error. A node
  that saved nothing (AddBackward0, views) may run again. `saved_params=` corrects the rule for
  the ops where PyTorch differs;
* `variants` says which public forms the row has under its key, as native_functions.yaml's
  `variants: function, method` does: "function" is `gradlab.exp(x)`, "method" `x.exp()`, and
  "inplace" `x.exp_()` (PyTorch declares that one as an entry of its own, `exp_`). `aliases` are
  PyTorch's other names for the same forms (`arcsin` for `asin`). A row without variants is
  internal: one of the nodes a public method chooses between (`sum_dim`, `clamp_tensor`). The tensor
  layer makes the plain forms from this (`_tensor_methods/variants.py`, `_functions/variants.py`)
  and writes by hand the ones that check or convert their arguments.
* `check` (optional) takes the op's arguments as given (Tensors, before promotion) and raises PyTorch's
  error for what its C++ refuses before it builds its TensorIterator (relu and neg of a bool tensor),
  so also before an in-place form's overlap check (`relu_` of an expanded bool tensor names the bool).

* each formula has a text a student can read (`grad * other`): read from its lambda, or given by
  `shows={slot: text}` where the code is written for rounding or speed (ops/formula_text.py). The
  player shows it with the step's numbers, and a test evaluates it against the engine's gradient.

Tests, docs and the visualizer read `OPS`: a new op is tested by the existing tests once it has
sample inputs in `tests/ops/op_samples.py`.
"""
import inspect
import weakref

import numpy as np

from .. import _device
from .._dtype import category, c64_to_c32, default_np, from_numpy_dtype, result_np_dtype, through_float, half_scalar
from . import complex32
from .._tensor_core import InferenceVersionCounter, Tensor, empty_layout
from ..autograd import grad_mode
from ..autograd import node as _node
from ..autograd.forward_grads import APPLY_HOOK as _FORWARD_AD
from ..autograd.node import (AsTensors, Node, SavedTensor, SavedValue, accumulator_of, check_guards,  # noqa: F401
                             FallbackAttribute, edge_of, make_node_class, saved_entry)

OPS = {}
_NODE_CLASSES = {}


class OpNode(Node):
    """The grad_fn of an op from the table: runs the op's formulas."""

    # (no __getattr__: Op.__init__ sets a descriptor for each name the fallback serves, see Node)
    _static_attributes = True

    def apply(self, grad_outputs, as_arrays=False):
        """The op's formulas, one per input slot that wants a gradient.

        With as_arrays (a backward without create_graph) `g` and the saved values (`n.other`) are
        numpy arrays, so `g * n.other` is one numpy multiply, with no Tensor around it. Otherwise
        they are Tensors and the same formulas record a graph of the gradient. Functions that
        formulas call (`cos`, `mm`, `sum_keepdim`, ...) come from ops/dual.py and take both."""
        op = self._op
        saved = self._saved
        if self._c32 and as_arrays:
            return self._apply_c32(grad_outputs)
        if saved:       # PyTorch unpacks every saved tensor first: one changed in place raises, read or not
            for value in saved.values():
                if _changed(value):
                    _raise_changed(self, saved)
        if self._guards is not None:
            check_guards(self)
        if op.num_outputs == 1:
            g = grad_outputs[0]
        elif op.undefined_grads:        # (formulas written as FunctionsManual's, which test grads[i].defined())
            g = list(grad_outputs)
        else:   # outputs that received no gradient count as zeros (which ones: for PyTorch's `.defined()`)
            g = _zeros_for_undefined(grad_outputs, self._output_meta, as_arrays)
            self._undefined = self._undefined_outputs = tuple(gi is None for gi in grad_outputs)
        if not as_arrays:
            if op.num_outputs != 1:
                # (a graph of the gradient records PyTorch's formula, which tests grad.defined(): see dual.defined)
                self._defined = tuple(gi is not None for gi in grad_outputs)
            return self._apply_on_tensors(g)
        # a plain backward: g and the saved values (`n.other`) are arrays
        grads = [None] * len(self.next_functions)
        edges, metas = self.next_functions, self._input_meta
        g_meta = None
        n_edges = len(edges)            # (cat's row has slots for more tensors than a call gives)
        for i, formula in op._formula_slots:
            if i >= n_edges:
                break
            if edges[i][0] is None:
                continue
            grad = formula(g, self)
            if grad is None:
                continue
            meta = metas[i]
            if meta is None:            # None: the input was shaped like g
                if g_meta is None:
                    g_meta = (g.shape, g.dtype)
                meta = g_meta
            elif meta[1].kind not in "fc":      # (an integer tensor that requires grad: see _integer_history)
                raise RuntimeError(NOT_DIFFERENTIABLE_GRAD)
            # (a formula's result is most often already at the input's shape and dtype)
            if not isinstance(grad, _ndarray) or grad.shape != meta[0] or grad.dtype != meta[1]:
                grad = dual.data(sum_to_shape(grad, meta))     # (a ZeroArray stays)
            grads[i] = grad
        return grads

    _c32 = False        # (set on a node with a complex32 operand or result)

    def _apply_c32(self, grad_outputs):
        """apply() for a node with complex32 operands or results (arrays only): its formulas run on complex64
        values (gradients and saved values converted), each gradient then rounded back to its input's dtype:
        complex32 (as PyTorch's ComplexHalf kernels round each result) or another."""
        view = _Complex64View(self)
        g_in = [complex32.as_c64(gi) for gi in grad_outputs]
        if self._saved:
            for value in self._saved.values():
                if _changed(value):
                    _raise_changed(self, self._saved)
        g = g_in[0] if self._op.num_outputs == 1 else g_in
        first = grad_outputs[0]
        grads = [None] * len(self.next_functions)
        for i, formula in self._op._formula_slots:
            if i >= len(self.next_functions) or self.next_functions[i][0] is None:
                continue
            grad = formula(g, view)
            if grad is None:
                continue
            meta = self._input_meta[i] or (first.shape, first.dtype)
            if meta[1].kind not in "fcV":
                raise RuntimeError(NOT_DIFFERENTIABLE_GRAD)
            if meta[1].kind == "V":
                grads[i] = c64_to_c32(dual.data(sum_to_shape(complex32.as_c64(np.asarray(grad)),
                                                             (meta[0], np.dtype(np.complex64)))))
            else:
                grads[i] = dual.data(sum_to_shape(np.asarray(grad), meta))
        return grads

    def _apply_on_tensors(self, g):
        """apply() with Tensors: the formulas record a graph of the gradient (create_graph, or a node
        called by hand)."""
        n = AsTensors(self) if self._saved else self
        grads = []
        for (child, _), formula, meta in zip(self.next_functions, self._op.formulas, self._input_meta):
            if child is None or formula is None:
                grads.append(None)
                continue
            grad = formula(g, n)
            if grad is not None:            # None: an undefined gradient (PyTorch's norm at p=0)
                grad = sum_to_shape(grad, meta or (g._data.shape, g._data.dtype))
            grads.append(grad)
        return grads


class _Complex64View:
    """A node as _apply_c32's formulas see it: every attribute the node's, a complex32 array as complex64."""
    __slots__ = ("_node",)

    def __init__(self, node):
        self._node = node

    def __getattribute__(self, name):
        return complex32.as_c64(getattr(object.__getattribute__(self, "_node"), name))


def out_c32(out):
    return (out[0] if type(out) is tuple and out else out).dtype.kind == "V"


def _raise_changed(node, saved):
    """PyTorch's version error for the first changed saved tensor in its order: by name (`other` before
    `self`, `mat2` before `self`), as its generated backward functions unpack them."""
    name = min(n for n, v in saved.items() if _changed(v))
    raise RuntimeError(saved_entry(saved[name])._version_message(node))


def _changed(value):
    """Whether a saved value (a SavedTensor, or an input saved as itself at version 0) was changed in
    place since it was saved (a value with an unpack hook is the hook's to give back)."""
    if type(value) is not SavedTensor:
        counter = value._vc
        return counter is not None and counter[0] != 0
    return value.counter[0] != value.version and value.hook is None


def _zeros_for_undefined(grad_outputs, output_meta, as_arrays):
    # (out of OpNode.apply: a comprehension there reading `as_arrays` would make it a cell, paid by every node)
    return [gi if gi is not None else _zeros(meta, as_arrays) for gi, meta in zip(grad_outputs, output_meta)]


def _zeros(meta, as_arrays):
    zeros = np.zeros(meta[0], meta[1])
    return zeros if as_arrays else Tensor._make(zeros)


def node_class(name, base=OpNode):
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        cls = _NODE_CLASSES[name] = make_node_class(name, base)
    return cls


class _NodeClassAtFirstUse:
    """Op.node_class, made at the row's first node rather than at import: some 450 classes cost 44M of the 726M
    instructions of `import gradlab`. A non-data descriptor: the class it makes is stored on the row, and from
    then on the row's own attribute is what a read finds. (Its price: apply's read of op.node_class is not
    specialized by Python 3.11, ~200 instructions an op, 0.6%; an Op.__getattr__ would unspecialize every
    attribute read of every row, 12%.)"""

    def __get__(self, op, owner=None):
        if op is None:
            return self
        cls = op.node_class = node_class(op.name)
        for saved_name in op.saves:          # node.other reads the saved value directly
            if not hasattr(cls, saved_name):
                setattr(cls, saved_name, SavedValue(saved_name))
        for name in _fallback_names(op):     # (PyTorch's `_saved_other`, ...: see Node._static_attributes)
            if not hasattr(cls, name):
                setattr(cls, name, FallbackAttribute(name))
        return cls


class Op:
    """One row of the op table."""

    node_class = _NodeClassAtFirstUse()

    def __init__(self, key, name, forward, inputs, formulas, saves, num_outputs=1, promote=True,
                 float_result=False, cast_result=True, saved_params=None, variants=(), aliases=(), shows=None,
                 check=None, saves_outputs=(), undefined_grads=False):
        self.key = key
        # an op with several outputs: its formulas get None for an output that received no gradient (PyTorch's
        # undefined gradient), rather than zeros
        self.undefined_grads = undefined_grads
        # outputs PyTorch saves for the backward of an op with several (aminmax's min and max): checked for
        # in-place changes before the backward (aminmax's formula reads them, see reduction.py)
        self.saves_outputs = saves_outputs
        self.check = check                # the arguments as given -> raises PyTorch's first error, or None
        self.variants = variants          # the public forms under `key`: "function", "method", "inplace"
        self.aliases = aliases            # other names of those forms (asin: arcsin)
        self.name = name                  # PyTorch's grad_fn class name
        self.forward = forward            # numpy arrays -> numpy array (or tuple for several outputs)
        self.inputs = inputs              # names of the tensor input slots, in PyTorch's order
        self.formulas = formulas          # one formula (or None) per input slot
        self.shows = shows                # {slot: readable text} where the formula's code reads badly (formula_text.py)
        # What the formulas read: a tuple of names (inputs and/or "result"), or a dict from input slot
        # to the names *that slot's* formula reads, so that `x * 3` keeps nothing of x alive (the
        # formula for the constant 3 is never run), as PyTorch does.
        self.saves_by_slot = saves if isinstance(saves, dict) else None
        saves = tuple(sorted({n for names in saves.values() for n in names})) if isinstance(saves, dict) else saves
        self.saves = saves
        self.num_outputs = num_outputs
        self.promote = promote            # apply torch's type promotion to the inputs
        self.float_result = float_result  # integer inputs give a float result (div, exp, ...)
        self.cast_result = cast_result    # False: the forward chose the result dtype (sum of bools is int64)
        # The parameters PyTorch saves as tensors (so that the node is spent after a backward, see
        # Node._release). None: the numpy arrays among them (indices, masks, targets); an op says
        # otherwise where PyTorch differs: () for as_strided (its positions are only geometry),
        # ("key",) for CopySlices (spent even when its index is a plain int).
        self.saved_params = saved_params
        # (argument index, name, slots whose formula reads it) for each saved input: an input is
        # saved only when one of those slots will receive a gradient
        self._saved_inputs = tuple(
            (i, n, tuple(j for j, slot in enumerate(inputs)
                         if self.saves_by_slot is None or n in self.saves_by_slot.get(slot, ())))
            for i, n in enumerate(inputs) if n in saves)
        # the forward's parameter defaults (alpha=1, beta=1.0, ...): formulas read them from the node
        # even when the caller left them out
        self.defaults = {name: value for name, value in _defaults(forward).items() if name not in inputs}
        self._saves_result = "result" in saves
        self._unchanged_meta = (None,) * len(inputs)     # every input shaped like the output
        # (slot, formula) for the slots that have one: what a backward runs
        self._formula_slots = tuple((i, f) for i, f in enumerate(formulas) if f is not None)

    def __call__(self, *args, **params):
        return apply(self, args, params)

    def __repr__(self):
        return f"<op {self.key} -> {self.name}>"


def _fallback_names(op):
    """The names Node._getattr_fallback may serve on op's nodes: `_saved_<name>` and `_raw_saved_<name>` for each
    input, saved value and parameter of the forward, PyTorch's `_saved_<name>_sym_sizes` for a `<name>_sizes`
    parameter (and `_saved_self_sym_numel`), and ExpandBackward0's `self_sizes`."""
    code = getattr(op.forward, "__code__", None)
    if code is None or hasattr(op.forward, "__wrapped__"):
        params = tuple(inspect.signature(op.forward).parameters)
    else:
        params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    names = set(op.inputs) | set(op.saves) | set(params) | set(op.defaults)
    found = []
    for name in sorted(names):
        found += ["_saved_" + name, "_raw_saved_" + name]
        if name.endswith("_sizes"):
            found.append("_saved_" + name[:-len("_sizes")] + "_sym_sizes")
    if "self_sizes" in names:
        found.append("_saved_self_sym_numel")
    if op.key == "expand":          # (ExpandBackward0's sizes come from the node's meta: see _getattr_fallback)
        found += ["self_sizes", "_saved_self_sizes", "_saved_self_sym_sizes"]
    found += ["_saved_" + name + "_sym_sizes" for name in _node._SIZES_SAVED.get(op.key, ())]   # (MmBackward0's)
    found += ["_saved_" + (key[:-6] + "_sym_sizes" if key.endswith("_sizes") else key)     # (PyTorch's own names)
              for cls, key in _node._PYTORCH_NAMES if cls == op.name]
    found += ["_raw_saved_" + key for cls, key in _node._PYTORCH_NAMES if cls == op.name and key == "weight"]
    return found


def _defaults(fn):
    """{parameter: default} of a function, read from the function itself (inspect.signature costs ~30 us,
    and the op table has some 400 rows to build at import)."""
    code = getattr(fn, "__code__", None)
    if code is None or hasattr(fn, "__wrapped__"):
        return {name: p.default for name, p in inspect.signature(fn).parameters.items()
                if p.default is not inspect.Parameter.empty}
    positional = code.co_varnames[:code.co_argcount]
    values = fn.__defaults__ or ()
    found = dict(zip(positional[len(positional) - len(values):], values))
    found.update(fn.__kwdefaults__ or {})
    return found


VARIANTS = ("function", "method", "inplace")


def op(key, name, /, inputs=("self",), saves=(), num_outputs=1, promote=True, float_result=False, cast_result=True,
       saved_params=None, variants=(), aliases=(), shows=None, check=None, saves_outputs=(), undefined_grads=False,
       **formulas):
    """Register `forward` in the op table (see the module docstring). (key and name are positional: an input may
    be called `key`, as attention's is.)"""
    unknown = (set(formulas) | set(shows or ())) - set(inputs)
    if unknown:
        raise TypeError(f"{key}: formulas for unknown inputs {unknown}")
    if not set(variants) <= set(VARIANTS) or isinstance(variants, str):
        raise TypeError(f"{key}: variants must be a tuple of {VARIANTS}, not {variants!r}")
    if aliases and not variants:
        raise TypeError(f"{key}: aliases name the row's public forms, and it has none")
    if key in OPS:                   # a second row of one op would silently replace the first
        raise TypeError(f"{key}: declared twice in the op table ({OPS[key].forward.__module__} and this one)")

    def register(forward):
        OPS[key] = Op(key, name, forward, inputs, tuple(formulas.get(n) for n in inputs), saves,
                      num_outputs, promote, float_result, cast_result, saved_params, tuple(variants), tuple(aliases),
                      shows, check, tuple(saves_outputs), undefined_grads)
        return OPS[key]
    return register


def refuse_inference_saved(op, args):
    """PyTorch saves an op's inputs for backward before it runs the kernel: an inference tensor it would
    save is refused before the kernel's own checks (a shape mismatch) can speak. Called where gradlab
    checks those before apply."""
    if not grad_mode._state["enabled"]:
        return
    needs = [isinstance(a, Tensor) and (a._grad_fn is not None or a._requires_grad) for a in args]
    for i, _, readers in op._saved_inputs:
        a = args[i] if i < len(args) else None
        if isinstance(a, Tensor) and type(a._vc) is InferenceVersionCounter and any(
                j < len(needs) and needs[j] for j in readers):
            raise RuntimeError(_node.INFERENCE_SAVED)


def refuse_bool(message):
    """A `check` refusing a bool self, as PyTorch's TORCH_CHECK(self.scalar_type() != kBool, message) before
    its TensorIterator."""
    def check(self, *rest):
        if isinstance(self, Tensor) and self._data.dtype.kind == "b":
            raise RuntimeError(message)
    return check


def no_complex_autograd(name, kernel_refuses=True):
    """A `check` for an op whose derivative PyTorch has no complex formula for: a complex output that would need a
    gradient is refused. (PyTorch checks after its kernel: where the kernel refuses complex inputs itself, only an
    empty input, which runs no kernel, gets this far.)"""
    def check(self, *rest):
        if (isinstance(self, Tensor) and self._data.dtype.kind == "c" and not (kernel_refuses and self._data.size)
                and self.requires_grad and grad_mode._state["enabled"]):
            raise RuntimeError(f"{name} does not support automatic differentiation for outputs with complex dtype.")
    return check


def refuse_complex(message, error=NotImplementedError, *arrays):
    """PyTorch's refusal of complex operands for an ordering op (no complex loop: complex numbers have no
    order), raised by a forward on its promoted arrays. `message` may name the kernel's dtype as {dtype}."""
    dtype = np.result_type(*arrays)
    if dtype.kind in "cV":
        raise error(message.format(dtype=from_numpy_dtype(dtype)._legacy[:-len("Tensor")]))


_new = object.__new__
_weak_ref = weakref.ref
_sequence = _node._sequence

_SCALAR_CATEGORY = {bool: 0, int: 1, float: 2, complex: 3}
_KIND_CATEGORY = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def _inputs(op, args, params):
    """The arrays to compute with, cast to PyTorch's result dtype (Python scalars stay scalars),
    that dtype, and whether an input requires grad: one pass over the arguments (every op runs it).

    The common case costs no cast: every tensor has one dtype and no Python scalar lifts its
    category (a float tensor times 2 stays float32). Otherwise the full rule of _dtype applies."""
    arrays = []
    dtype = None
    mixed = False
    requires = False
    top_scalar = 0                     # highest category of a Python scalar (bools never lift)
    for a in args:
        if isinstance(a, Tensor):
            data = a._data
            if dtype is None:
                dtype = data.dtype
            elif data.dtype != dtype:
                mixed = True
            if a._grad_fn is not None or a._requires_grad:
                requires = True
            arrays.append(data)
        else:
            category = _SCALAR_CATEGORY.get(type(a))
            if category is not None and category > top_scalar:
                top_scalar = category
            arrays.append(a)
    if dtype is not None and (dtype.kind == "V" or mixed and any(a.dtype.kind == "V" for a in arrays
                                                                 if isinstance(a, np.ndarray))):
        return complex32.inputs(op, args, arrays, requires, Tensor, params)      # (complex32: ops/complex32.py)
    if not op.promote:
        return arrays, None, requires
    if top_scalar > _KIND_CATEGORY[dtype.kind]:
        mixed = True
    if mixed:
        weak = [_SCALAR_CATEGORY[type(a)] for a in args if type(a) in _SCALAR_CATEGORY]
        dtype = result_np_dtype([(a._data.ndim, a._data.dtype) for a in args if isinstance(a, Tensor)], weak)
        if dtype.kind == "V":           # (float16 with a complex number or 0-d tensor: PyTorch's complex32)
            return complex32.inputs(op, args, arrays, requires, Tensor, params)
    if dtype.kind in "biu":
        if op.float_result:            # exp, div, ... of integers or bools compute in the default float dtype
            dtype = default_np()
        else:                          # integers wrap around as in PyTorch: uint8 + -3 is uint8 + 253
            arrays = [np.asarray(a).astype(dtype) if type(a) is int else a for a in arrays]
        mixed = True
    if mixed:
        arrays = [through_float(a, dtype).astype(dtype, copy=False) if isinstance(a, np.ndarray) else a for a in arrays]
        if dtype == _F16 and op.key in _READS_SECOND_AS_SCALAR and len(args) > 1 and isinstance(args[1], Tensor) \
                and args[1]._data.ndim == 0 and args[1]._data.dtype != _F16:
            # PyTorch's mul and div kernels (true, floor, trunc) read a 0-d second operand of a float16 result at float precision
            # (original_scalar_value<float>: not rounded to float16 first), as they read a Python number
            arrays[1] = args[1]._data.item()
    if dtype is _F16 and top_scalar == 2:     # (a Python float meets half as a float first: c10::Half is built from one)
        arrays = [half_scalar(a) if a.__class__ is float else a for a in arrays]
    return arrays, (dtype if op.cast_result else None), requires


_F16 = np.dtype(np.float16)
_READS_SECOND_AS_SCALAR = frozenset({"mul", "div", "div_rounding"})


# PyTorch's engine meeting the gradient of an integer tensor (one that requires grad: _integer_history)
NOT_DIFFERENTIABLE_GRAD = ('isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at '
                           '"/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp":998, please report a bug to PyTorch. ')

# the ops that write a value into a tensor of any dtype (fill_, masked_fill_, index_fill_, and x[...] = v by them):
# PyTorch's in-place kernels record their node even on an integer tensor when the value requires grad
# (and as_strided: the history a view of such a tensor reads through its base, see ops/inplace.py's _read_through)
_WRITES_ANY_DTYPE = frozenset({"fill_tensor", "masked_fill_tensor", "index_fill_tensor", "copy_slices",
                               "index_put_values", "as_strided"})


def _integer_history(op, args, out):
    """Whether an integer or bool result records a node: only those writes. An integer tensor that requires
    grad (what they leave) refused as the input of any other differentiable op with an integer result, in
    PyTorch's words (casts, `x.float()`, and the non-differentiable ops go on without a node)."""
    if op.key in _WRITES_ANY_DTYPE:
        return True
    if op.key == "copy":                 # (copy_ into an integer tensor records nothing: its history stays)
        return False
    if args and getattr(args[0], "_stands_in", False):
        return True                      # an in-place op on an integer tensor that requires grad: recorded
    if op._formula_slots and op.key != "to_dtype":
        for a in args:
            if isinstance(a, Tensor) and a._data.dtype.kind not in "fcV" and (a._grad_fn is not None or a._requires_grad):
                raise RuntimeError(f"Autograd not support dtype: {from_numpy_dtype(out.dtype)._legacy[:-6]}")
    return False


def _meta_inputs(args):
    """Whether a tensor argument is on the meta device; PyTorch's error when a meta and a cpu tensor meet
    (a 0-d cpu tensor goes with anything, as a number). The device expected is the first tensor's."""
    if _device.BACKWARD[0]:
        return any(isinstance(a, Tensor) and type(a._data) is _device.MetaArray for a in args)
    expected = None
    for a in args:
        if isinstance(a, Tensor) and (a._data.ndim or type(a._data) is _device.MetaArray):
            here = "meta" if type(a._data) is _device.MetaArray else "cpu"
            if expected is None:
                expected = here
            elif here != expected:
                raise RuntimeError(f"Tensor on device {here} is not on the expected device {expected}!")
    return expected == "meta"


def _apply_meta(op, args, params):
    """An op on meta tensors: computed on their zeros as plain arrays (every path of the op as on the CPU:
    the result's shape, dtype and layout), the results then tagged meta, as the inputs again (an in-place op
    may have given one a new array)."""
    metas = [(a, a._data, a._data.view(np.ndarray)) for a in args
             if isinstance(a, Tensor) and type(a._data) is _device.MetaArray]
    for a, _, plain in metas:
        a._data = plain
    try:
        result = apply(op, args, params)
    finally:
        for a, data, plain in metas:
            a._data = data if a._data is plain else _device.tag(a._data)
    if _device.BACKWARD[0]:          # (inside a backward formula: see _device.BACKWARD)
        return result
    for r in (result if isinstance(result, tuple) else (result,)):
        if isinstance(r, Tensor) and type(r._data) is not _device.MetaArray:
            r._data = _device.tag(r._data)
    return result


def apply(op, args, params):
    """Run an op: compute the forward with numpy, and record a node when a gradient is needed."""
    if _FORWARD_AD[0] is not None:      # inside forward_ad.dual_level, once a dual tensor exists: tangents too
        return _FORWARD_AD[0](op, args, params)
    if _device.META_MADE[0] and _meta_inputs(args):
        return _apply_meta(op, args, params)
    if op.check is not None:
        op.check(*args)
    # The arguments in one pass (what _inputs does, for the common case: every tensor of one dtype,
    # no Python number lifting its category; anything else goes to _inputs' full rule)
    arrays = []
    dtype = None
    requires = general = False
    for a in args:
        if isinstance(a, Tensor):
            data = a._data
            if dtype is None:
                dtype = data.dtype
            elif data.dtype != dtype:
                general = True
            # (the slot behind the grad_fn property, here and below: a property read is a call)
            if a._grad_fn is not None or a._requires_grad:
                requires = True
            arrays.append(data)
        else:
            if type(a) is complex:
                general = True          # (only a complex number lifts a float tensor: 2.0 * x stays float32)
            arrays.append(a)
    slow = general or dtype is None or dtype.kind not in "fc" or not op.promote or dtype is _F16
    if slow:
        arrays, dtype, requires = _inputs(op, args, params)
    elif not op.cast_result:
        dtype = None
    out = op.forward(*arrays, **params) if params else op.forward(*arrays)

    if op.num_outputs == 1:
        if type(out) is not _ndarray or (dtype is not None and out.dtype != dtype):
            out = _as_array(out, dtype)
        if not out.size and out.ndim:
            out = empty_result(op, args, params, out)      # (PyTorch's strides of an empty result: see there)
        elif out.base is None and (not out.flags.c_contiguous or _any_strided(arrays) or (
                1 in out.shape and out.ndim > 1 and _given_size_one_strides(args) and (
                    _sorts_dims(op, args, out, params) or op.key in PRESERVED_RESULT)) or (
                params and op.key == "where" and not params["condition"].flags.c_contiguous)):
            # (contiguous inputs never get here. The inputs as given, before a cast that may have
            # lost an expanded input's zero strides; where's condition is PyTorch's first operand)
            given = [a._data if isinstance(a, Tensor) else a for a in args]
            out = torch_layout(op, out, [params["condition"], *given] if op.key == "where" else given,
                               _sorts_dims(op, args, out, params))
        elif 1 in out.shape and out.ndim > 1 and out.flags.c_contiguous and _size_one_strides(out) and not (
                params and params.get("strides") is not None) and out.base is None:
            # (a clone to a memory format, `strides` given, is laid out by its forward)
            # (a forward's array made from a temporary with numpy's strides on a size-1 dim: PyTorch's instead)
            out = torch_layout(op, out, [a._data if isinstance(a, Tensor) else a for a in args],
                               _sorts_dims(op, args, out, params))
        # (an integer or bool result requires no grad: PyTorch records no node for `x.long()`; see _integer_history)
        if not requires or not grad_mode._state["enabled"] or (
                out.dtype.kind not in "fcV" and not _integer_history(op, args, out)):
            if INFERENCE_RESULTS[0] is None:
                return Tensor._make(out)
            return INFERENCE_RESULTS[0](op, args, params, Tensor._make(out))
    else:
        out = _as_arrays(out, dtype)
        if out and not out[0].size and out[0].ndim:
            out = tuple(empty_result(op, args, params, o) if not o.size and o.ndim else o for o in out)
        elif out and params and params.get("keepdim") and 1 in out[0].shape and out[0].ndim > 1 and \
                out[0].flags.c_contiguous and _size_one_strides(out[0]):
            # (numpy's strides on a size-1 dim of aminmax's keepdim results: PyTorch's instead; views kept)
            given = [a._data if isinstance(a, Tensor) else a for a in args]
            if not _views_of(out[0], given):
                out = tuple(torch_layout(op, o, given, True) for o in out)
        if not requires or not grad_mode._state["enabled"] or not out or (
                out[0].dtype.kind not in "fcV" and not _integer_history(op, args, out[0])):
            if INFERENCE_RESULTS[0] is None:
                return tuple(Tensor._make(o) for o in out)
            return INFERENCE_RESULTS[0](op, args, params, tuple(Tensor._make(o) for o in out))

    # (Node.__init__ inlined. Parameters are set one by one, never through node.__dict__: reading
    # it makes CPython build a real dict for the node, one more object for the garbage collector,
    # where setattr keeps them in the node's inline values)
    node = _new(op.node_class)
    node._sequence_nr = next(_sequence)
    node._op = op
    if slow:            # (a complex32 operand or result, never on the fast path: see OpNode._apply_c32)
        if out_c32(out) or any(isinstance(a, Tensor) and a._data.dtype.kind == "V" for a in args):
            node._c32 = True
    if op.defaults:
        for name, value in op.defaults.items():
            setattr(node, name, value)
    if params:
        for name, value in params.items():
            setattr(node, name, value)
        # an index, mask or target is a tensor PyTorch saves: the node is then spent after a
        # backward (an empty _saved tells the engine to free it; see Node._release)
        if op.saved_params or (op.saved_params is None and _has_array(params)):
            node._saved = {}
    # From here to the end: autograd/node.py's `record(node, args, result or results)`, inlined
    # (calling it made the tutorial workload 14-26% slower). Keep the two twins alike: a test
    # compares their nodes for every op sample (tests/autograd/test_engine.py).
    # What backward reduces each input's gradient to: (shape, dtype), or None for an input shaped
    # like the output (most inputs; no reduction needed, and nothing to keep: one shared tuple)
    if op.num_outputs == 1:
        out_shape, out_dtype = out.shape, out.dtype
    else:
        out_shape = out_dtype = None
    edges = []
    meta = None
    i = 0
    wired = args if len(args) <= len(op.inputs) else args[:len(op.inputs)]
    for a in wired:
        if isinstance(a, Tensor):
            fn = a._grad_fn
            if fn is not None:
                edges.append((fn, a._output_nr))
            elif a._requires_grad:
                edges.append((accumulator_of(a), 0))
            else:
                edges.append(_NO_EDGE)
            data = a._data
            if data.shape != out_shape or data.dtype != out_dtype:
                if meta is None:
                    meta = [None] * len(wired)
                meta[i] = (data.shape, data.dtype)
        else:
            edges.append(_NO_EDGE)
            setattr(node, op.inputs[i], a)       # a Python scalar, read by formulas as n.<name>
        i += 1
    node.next_functions = tuple(edges)
    node._input_meta = op._unchanged_meta if meta is None else tuple(meta)
    saved = None
    for i, name, readers in op._saved_inputs:
        a = args[i]
        if a is not None:
            for j in readers:
                if edges[j][0] is not None:
                    if saved is None:
                        saved = node._saved = {}
                    if isinstance(a, Tensor):
                        if ORIGINAL_SELF:           # (an in-place op: PyTorch saves a clone of self, see below)
                            a = ORIGINAL_SELF.get(id(a), a)
                        # (the tensor itself at version 0 without saved_tensors_hooks: node.saved_entry)
                        # (and SavedTensor's checks for the rest: a changed tensor, an inference tensor's counter)
                        vc = a._vc
                        saved[name] = SavedTensor(a) if _SAVED_TENSORS_HOOKS or vc is not None and (
                            vc[0] or type(vc) is not list) else a
                    # (a Python scalar stays a node attribute, but PyTorch saved it as a tensor too:
                    # the non-None _saved makes the node spent after a backward, like PyTorch's)
                    break
    if op.num_outputs == 1:
        # (Tensor._make inlined: grad mode is on here, so never inference_mode's _make)
        result = _new(Tensor)
        result._data = out if out.size or not out.ndim else empty_layout(out)
        result._requires_grad = False
        result._grad_fn = node
        result._output_nr = 0
        result._vc = None
        result._grad = None
        result._retains_grad = False
        result._hooks = None
        result._base = None
        result._accumulator = None
        result._views = None
        result._zerotensor = False
        node._output_ref = _weak_ref(result)
        if op._saves_result:            # (node._save, inlined)
            if saved is None:
                saved = node._saved = {}
            if _SAVED_TENSORS_HOOKS:
                saved["result"] = SavedTensor(result, True)
            else:                       # (SavedTensor(result, True), inlined: a fresh result is at version 0)
                s = saved["result"] = _new(SavedTensor)
                s.counter = result._vc = [0]
                s.version = 0
                s.is_output = True
                s.hook = None
                s.tensor = None
                s.array = out
                s.output_nr = 0
        return result
    return _multi_output_results(op, node, out)


# (apply's steps for several outputs, out of its body: a comprehension there reading `dtype` or `node` would
# make them cells, which every call of apply pays for, one output or several)
def _as_arrays(out, dtype):
    return tuple(_as_array(o, dtype) for o in out)


def _multi_output_results(op, node, out):
    results = tuple(Tensor._make(o, node, i) for i, o in enumerate(out))
    if op.saves_outputs:
        node._guards = tuple(SavedTensor(results[i], True) for i in op.saves_outputs)
    node._num_outputs = len(results)
    node._output_meta = tuple((o.shape, o.dtype) for o in out)
    node._output_refs = tuple(weakref.ref(r) for r in results)
    return results


_NO_EDGE = (None, 0)
# What an op's result looks like when its inputs are inference tensors, outside inference_mode: None until the first
# tensor is made under inference_mode, then gradlab/_tensor_methods/attributes.py's _inference_result
INFERENCE_RESULTS = [None]
_SAVED_TENSORS_HOOKS = _node.SAVED_TENSORS_HOOKS

# An in-place op whose formulas read self (x.sin_(): grad * self.cos()) saves, as PyTorch's generated code does,
# `original_self = self.clone()`: a copy made before the change, recorded (CloneBackward0 in a graph of the
# gradient). ops/inplace.py's run_inplace puts {id(the stand-in for self): that clone} here while the op records.
ORIGINAL_SELF = {}


_ndarray = np.ndarray

# ops whose result PyTorch allocates contiguous whatever the inputs' layout (not TensorIterator's)
# ("index" lays out its non-contiguous results itself, as views: only its contiguous ones come here;
# rpow, `2 ** x`, is PyTorch's pow(Scalar, Tensor))
CONTIGUOUS_RESULT = {"softmax", "log_softmax", "masked_fill", "masked_fill_tensor", "cumsum", "roll", "gather",
                     "index_select", "repeat", "index", "rpow", "block_diag", "logcumsumexp", "renorm",
                     "linalg_pinv", "linalg_matrix_exp", "mm", "bmm", "mv", "addmm", "addmv", "baddbmm", "addbmm",
                     "log_sigmoid",     # (log_sigmoid_forward: a contiguous result and buffer, not TensorIterator's)
                     # (structured kernels whose result is allocated contiguous: self is copied into it)
                     "scatter", "scatter_value", "scatter_add_src", "scatter_add", "index_add", "index_add_alpha",
                     "index_copy", "masked_scatter", "tril", "triu",
                     "topk", "cummax", "cummin"}      # (these three hand over a view of their contiguous result)


def _any_strided(arrays):
    """Is an input array not C-contiguous (numpy's own order for the result may then not be PyTorch's)?"""
    for a in arrays:
        if type(a) is _ndarray and not a.flags.c_contiguous:
            return True
    return False


def _size_one_strides(a):
    """Does a (numpy calls it C-contiguous) hold a size-1 dim with another stride than C order's (x.t() of a row,
    stride (1, n))? PyTorch's elementwise result follows such strides (TensorIterator's dims sorted by them), and
    a later mm's backward reads them (its column-major test)."""
    if a.ndim < 2 or not a.size:
        return False
    expected = a.itemsize
    for n, st in zip(reversed(a.shape), reversed(a.strides)):
        if st != expected:
            return True
        expected *= n
    return False


def _given_size_one_strides(args):
    """Does a tensor argument, as given (before a cast to the result dtype), have _size_one_strides?"""
    for a in args:
        if isinstance(a, Tensor) and _size_one_strides(a._data):
            return True
    return False


def sorts_size_one(out, given, general):
    """Must a result that numpy made C-contiguous be laid out again (torch_layout) because an input's size-1 dims
    carry strides of another order? Only on TensorIterator's general path, which sorts the dims by the strides:
    `general` (a Python number or a 0-d operand) or an input of another shape than the result's; its fast path
    (every operand contiguous and shaped like the result) keeps the result contiguous."""
    if out.ndim < 2 or 1 not in out.shape:
        return False
    if not any(type(g) is _ndarray and _size_one_strides(g) for g in given):
        return False
    return general or any(type(g) is not _ndarray or g.shape != out.shape for g in given)


# rows of C++'s Scalar overloads (mul.Scalar, add.Scalar, ...): PyTorch wraps the number as a 0-d operand
_SCALAR_OPERAND_ROWS = frozenset(("mul_scalar", "nn_add_scalar", "sub_scalar", "nn_div_by_number", "rsub"))


def _sorts_dims(op, args, out, params=None):
    """Does PyTorch's TensorIterator sort the dims by stride here? Not on its fast path, taken when every operand
    is contiguous (size-1 dims aside) and shaped like the result: a unary op, x + x. A Python number (x * 2, a
    wrapped 0-d operand) or a broadcast operand sends it to the general path, which sorts."""
    if op.key in _SCALAR_OPERAND_ROWS:
        return True
    if params and "other" in params and not isinstance(params["other"], Tensor):
        return True        # (a number passed as a parameter, x.remainder(2): a wrapped 0-d operand)
    for a in args:
        if a is None or (isinstance(a, Tensor) and "_undefined_operand" in a.__dict__):
            continue        # (an undefined operand, clamp's missing max: TensorIterator skips it)
        if not isinstance(a, Tensor) or a._data.shape != out.shape:
            return True
    return False


def torch_layout(op, out, arrays, general=None):
    """Lay a new, non-contiguous result out in memory as PyTorch would (numpy picks its own order).

    An elementwise result (shaped like the broadcast inputs) follows the inputs' layout, as
    PyTorch's TensorIterator does (`reorder_dimensions`): the dims are sorted by the inputs'
    strides, the first input deciding, a broadcast (stride 0) dim deciding nothing, equal strides
    putting the smaller dim first. Any other result (a reduction, a matmul) is contiguous.

    An empty result: TensorIterator's fast path (`general` False: every operand shaped like the result, and
    an empty tensor is contiguous) allocates it contiguously; its general path gives the sorted dims
    `compatible_stride`s, each the product of the sizes before it, so 0 after a dim of size 0
    (`x.t() > 0` of a (0, 3) x has strides (1, 0)), unless the order found is C order's."""
    if not out.ndim:           # a 0-d result has no layout (np.ascontiguousarray would make it 1-d)
        return out
    for a in arrays:
        if a is out:           # the forward gave back an input (no copy): keep it as it is
            return out
    if op is not None and op.key in _JOINED:
        return out                 # (the forward laid it out: joined_layout)
    shape = out.shape
    nd = len(shape)
    if op is not None and _preserves(op, arrays) and op.key not in CONTIGUOUS_RESULT and arrays[0].shape == shape:
        # (empty_like(self) with preserve_format: self's strides when dense, else dense ones in self's order)
        return preserved_layout(out, arrays[0])
    strides = []
    operands = []       # (the arrays of TensorIterator's operands: after its casts)
    common = None
    if len({a.dtype for a in arrays if type(a) is np.ndarray}) > 1:
        # (on the CPU, TensorIterator first copies an input of another dtype than the common one with .to(),
        # preserve_format: an expanded or overlapping input is then dense, in its own order)
        common = result_np_dtype([(a.ndim, a.dtype) for a in arrays if type(a) is np.ndarray], [])
    for a in arrays:
        if type(a) is not np.ndarray or not a.ndim:
            continue        # a 0-d input or a Python number is broadcast: it decides nothing
        if common is not None and a.dtype != common and a.size:
            a = np.lib.stride_tricks.as_strided(np.empty(1, a.dtype), a.shape, [
                s * a.itemsize for s in preserved_strides(a.shape, [s // a.itemsize for s in a.strides])])
        operands.append(a)
        lead = nd - a.ndim
        if lead < 0 or (op is not None and op.key in CONTIGUOUS_RESULT) or any(
                n != 1 and n != shape[lead + i] for i, n in enumerate(a.shape)):
            return torch_contiguous(out)       # not an elementwise result
        strides.append((0,) * lead + tuple(0 if n == 1 and shape[lead + i] != 1 else s
                                           for i, (n, s) in enumerate(zip(a.shape, _byte_strides(a)))))
    if general is None:        # (TensorIterator's fast path: every operand shaped like the result; callers that
        # do not say are on the general path when the result has elements)
        general = any(type(a) is not np.ndarray or a.shape != shape for a in arrays) if not out.size else True
    if not out.size:
        if not strides or not general:
            return torch_contiguous(out)
    elif not strides:
        return torch_contiguous(out)
    elif not general:
        # TensorIterator's fast paths: every operand contiguous gives a contiguous result; every operand dense
        # without overlap, with the same strides, gives the result those strides (size-1 dims' included)
        # (or every operand channels-last contiguous, a 4-d or 5-d result channels-last strides)
        given = operands
        if all(a.flags.c_contiguous for a in given):
            return torch_contiguous(out)
        first = [s // given[0].itemsize for s in given[0].strides]
        made = None
        if nd in (4, 5) and all(_channels_last_contiguous(a.shape, [s // a.itemsize for s in a.strides])
                                for a in given):
            made = channels_last_strides(shape)
        elif all([s // a.itemsize for s in a.strides] == first for a in given[1:]) and _dense(shape, first):
            made = first
        if made is not None:
            result = np.lib.stride_tricks.as_strided(np.empty(out.size, out.dtype), shape,
                                                     [s * out.itemsize for s in made])
            result[...] = out
            return result

    def should_swap(d0, d1):
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return 1 if s0 > s1 else -1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(nd - 1, -1, -1))       # perm[0] is the fastest-moving dim
    for i in range(1, nd):                  # PyTorch's insertion sort, ties left alone
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    if not out.size:
        if perm == list(range(nd - 1, -1, -1)):
            return torch_contiguous(out)        # (C order: allocated as torch.empty(shape))
        made, step = [0] * nd, out.itemsize      # (compatible_stride: no max(size, 1) here)
        for d in perm:
            made[d] = step
            step *= shape[d]
        return np.lib.stride_tricks.as_strided(out, shape, made)
    order = perm[::-1]                       # slowest first: allocate so, then view in dim order
    result = np.empty([shape[d] for d in order], out.dtype).transpose(np.argsort(order))
    result[...] = out
    return result


# the ops whose forward lays out its result itself (rot90 as PyTorch's flip + transpose, the Fourier transforms as
# MKL's _exec_fft, an advanced index as TensorIterator's index kernel: ops/shape.py's _index_layout)
_JOINED = {"cat", "stack", "rot90", "fft_r2c", "fft_c2c", "fft_c2r", "index"}


def _byte_strides(a):
    """a's strides in bytes as PyTorch has them: numpy gives a new empty array zero strides, PyTorch
    contiguous ones (a size 0 counting as 1)."""
    if a.size or any(a.strides) or not a.ndim:
        return a.strides
    return tuple(s * a.itemsize for s in contiguous_strides(a.shape))


def contiguous_strides(shape):
    """PyTorch's C-order strides, in elements (a dim of size 0 or 1 counts as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return strides[::-1]


def preserved_strides(shape, strides):
    """The strides of PyTorch's copy with preserve_format: the same strides when the tensor is dense
    and does not overlap itself, else dense strides in the order of the tensor's own (its
    infer_dense_strides: an expanded dim, of stride 0, keeps its place)."""
    if 0 in shape:
        return list(strides)                       # (no elements: dense by definition)
    order = sorted((i for i in range(len(shape)) if shape[i] >= 2), key=lambda i: strides[i])
    step = 1
    for i in order:
        if strides[i] != step:
            break
        step *= shape[i]
    else:
        return list(strides)                       # dense and non-overlapping
    perm = list(range(len(shape)))[::-1]           # perm[0] is the innermost dim
    for k in range(1, len(perm)):                  # insertion sort, stable, stride-0 dims stay put
        d1 = k
        for d0 in range(k - 1, -1, -1):
            a, b = perm[d0], perm[d1]
            if strides[a] == 0 or strides[b] == 0:
                continue
            if strides[a] < strides[b]:
                break
            if strides[a] > strides[b] or shape[a] > shape[b]:
                perm[d0], perm[d1] = b, a
                d1 = d0
    out, step = [0] * len(shape), 1
    for i in perm:
        out[i] = step
        step *= max(shape[i], 1)
    return out


def _channels_last_order(nd):
    return (1, 3, 2, 0) if nd == 4 else (1, 4, 3, 2, 0)       # (C innermost, then W, H, (D,) N)


def _channels_last_contiguous(shape, strides):
    """PyTorch's is_contiguous(channels_last) of a 4-d (or channels_last_3d of a 5-d) tensor: dims laid out
    C innermost, then W, H, (D,) N, a size-1 dim's stride counting for nothing."""
    expected = 1
    for d in _channels_last_order(len(shape)):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def channels_last_strides(shape):
    """PyTorch's get_channels_last_strides_2d/3d, in elements (the sizes as they are: a size 0 gives 0)."""
    strides, step = [0] * len(shape), 1
    for d in _channels_last_order(len(shape)):
        strides[d] = step
        step *= shape[d]
    return strides


def _dense(shape, strides):
    """PyTorch's is_non_overlapping_and_dense: the dims of size 2 or more, sorted by stride, are laid out
    one after the other."""
    step = 1
    for i in sorted((i for i in range(len(shape)) if shape[i] >= 2), key=lambda i: strides[i]):
        if strides[i] != step:
            return False
        step *= shape[i]
    return True


def torch_contiguous(out):
    """out laid out in C order with PyTorch's strides: numpy calls an array with any stride on a size-1 dim
    C-contiguous (so does PyTorch), but prints and keeps them; PyTorch's new tensor has C order's."""
    if not out.ndim:
        return out              # (np.ascontiguousarray would make a 0-d array 1-d)
    out = np.ascontiguousarray(out)
    if 1 in out.shape or not out.size:
        c = tuple(s * out.itemsize for s in contiguous_strides(out.shape))
        if out.strides != c:
            out = np.lib.stride_tricks.as_strided(out, out.shape, c, subok=True)
    return out


def _views_of(out, arrays):
    """Is out a view of one of arrays (or of what they view)? Follows numpy's bases, as_strided's too."""
    owners = set()
    for a in arrays:
        while isinstance(a, np.ndarray):
            owners.add(id(a))
            a = a.base if isinstance(a.base, np.ndarray) else getattr(a.base, "base", None)
    b = out.base
    while b is not None:
        if id(b) in owners:
            return True
        b = b.base if isinstance(b, np.ndarray) or isinstance(getattr(b, "base", None), np.ndarray) else None
    return False


# ops whose result PyTorch allocates like self with preserve_format (empty_like(self) or the sort's own rule):
# self's strides when it is dense, as every empty tensor is (so an empty result keeps an empty self's strides)
PRESERVED_RESULT = {"clone", "to_dtype", "flip", "roll", "sort", "sort_stable", "nan_to_num",
                    "conj"}        # (conj is PyTorch's view with a bit set: the same strides)


def empty_like_strides(out, like):
    """An empty out given like's strides (an empty tensor is dense: PyTorch's empty_like(like) keeps them)."""
    return np.lib.stride_tricks.as_strided(out, out.shape, [s // like.itemsize * out.itemsize
                                                            for s in _byte_strides(like)])


# complex to real ops that allocate with empty_like(self) (unary_op_impl_with_complex_to_float)
_COMPLEX_TO_REAL = {"abs", "angle"}


def _preserves(op, arrays):
    """Does op allocate its result with empty_like(self, preserve_format)?"""
    if not arrays or type(arrays[0]) is not np.ndarray:
        return False
    return op.key in PRESERVED_RESULT or (op.key in _COMPLEX_TO_REAL and arrays[0].dtype.kind == "c")


def preserved_layout(out, like):
    """out laid out as PyTorch's empty_like(like) with preserve_format is: like's strides when like is dense
    without overlap (an empty tensor always is), else dense strides in like's order (preserved_strides)."""
    if not out.size:
        return empty_like_strides(out, like)
    made = preserved_strides(out.shape, [s // like.itemsize for s in like.strides])
    result = np.lib.stride_tricks.as_strided(np.empty(out.size, out.dtype), out.shape, [s * out.itemsize for s in made])
    result[...] = out
    return result


def empty_result(op, args, params, out):
    """An empty result laid out as PyTorch's (numpy gives a new empty array zero strides; Tensor._make then
    makes them C order's): a view keeps its own; a copy with preserve_format (clone, .to(), flip, sort) takes
    self's strides; an elementwise result TensorIterator's (torch_layout); the rest (reductions, matmul,
    the ops of CONTIGUOUS_RESULT) C order's."""
    given = [a._data if isinstance(a, Tensor) else a for a in args]
    if any(g is out for g in given) or _views_of(out, given):
        return out
    key = op.key
    if params and params.get("strides") is not None:
        return out                  # (clone to a memory format: the forward laid it out)
    first = given[0] if given else None
    if _preserves(op, given) and first.shape == out.shape:
        return empty_like_strides(out, first)
    if key in _JOINED:
        return out
    if key in CONTIGUOUS_RESULT or (params and "keepdim" in params):
        return torch_contiguous(out)
    arrays = [params["condition"], *given] if key == "where" else given
    return torch_layout(op, out, arrays, _sorts_dims(op, args, out, params))


def _channels_last(a):
    """PyTorch's is_channels_last_strides_2d (4-d) and _3d (5-d): dims laid out C innermost, then W, H, (D,)
    N (a size-1 dim's stride counting for nothing)."""
    if type(a) is not np.ndarray or a.ndim not in (4, 5) or not a.size or a.strides[1] == 0:
        return False
    strides = [s // a.itemsize for s in a.strides]
    low = 0
    for d in ((1, 3, 2, 0) if a.ndim == 4 else (1, 4, 3, 2, 0)):
        if strides[d] < low or (d == 0 and low == strides[1]):
            return False
        low = strides[d] * (a.shape[d] if a.shape[d] > 1 else 1)
    return True


def joined_layout(out, arrays):
    """cat (and stack, which is a cat): PyTorch's result is laid out in the memory format every input
    suggests, channels_last (4-d) or channels_last_3d (5-d), else contiguously (cat's
    compute_output_memory_format)."""
    if out.ndim in (4, 5) and all(a.ndim == out.ndim and _channels_last(a) for a in arrays):
        order = (0, 2, 3, 1) if out.ndim == 4 else (0, 2, 3, 4, 1)      # N, (D,) H, W, C: C innermost
        result = np.empty([out.shape[d] for d in order], out.dtype).transpose(np.argsort(order))
        result[...] = out
        return result
    return np.ascontiguousarray(out)


def _has_array(params):
    """Whether an op's parameters hold a numpy array (an index, a mask; or one inside an index tuple)."""
    for v in params.values():
        kind = type(v)
        if kind is _ndarray:
            return True
        if kind is tuple:
            for k in v:
                if type(k) is _ndarray:
                    return True
    return False


def _as_array(out, dtype):
    if not isinstance(out, np.ndarray):
        out = np.asarray(out)
    if dtype is not None and out.dtype != dtype and out.dtype.kind != "b":
        if dtype.kind == "V":       # complex32 computed in complex64: a complex result rounded back, a real one to half
            return c64_to_c32(out) if out.dtype.kind == "c" else out.astype(np.float16)
        out = out.astype(dtype)
    return out


def sum_to_shape(g, meta):
    """Sum a gradient computed at the broadcast output shape back to an input's shape (and dtype).

    `g` is a Tensor (create_graph) or a numpy array (a plain backward); a numpy scalar that a
    formula gave becomes an array first. Broadcasting added leading dims (summed away) and
    stretched dims of size 1 (summed, kept as size 1): a bias of shape (16,) gets a (8, 16)
    gradient summed over dim 0."""
    shape, dtype = meta
    if (g.__class__ is _ndarray and g.ndim == 2 and len(shape) == 1 and g.dtype is dtype and
            (dtype is _F32 or dtype is _F64) and g.shape[1] == shape[0] > 1 and g.shape[0] > 1 and
            g.size <= summation.GRAIN and g.flags.c_contiguous):
        # (a bias's gradient, the common case: what sum_dims below gives, without its steps between)
        return summation.outer_sum(g)
    if not isinstance(g, (np.ndarray, Tensor)):
        g = np.asarray(g)
    g_shape = g._data.shape if isinstance(g, Tensor) else g.shape
    if g_shape != shape and isinstance(g, Tensor) and len(g_shape) >= len(shape):
        g = _sum_to(g, g_shape, shape)
    elif g_shape != shape:
        lead = len(g_shape) - len(shape)
        if lead < 0:           # a formula gave fewer dims than the input has: broadcast it up
            g = dual.expand(g, shape)
        else:
            stretched = _stretched(g_shape, shape, lead)
            if stretched and lead:
                # (PyTorch's at::sum_to: one sum over the leading and the stretched dims together, whose
                # order of additions differs from two sums one after the other)
                g = dual.sum_keepdim(g, tuple(range(lead)) + stretched).reshape(shape)
            elif stretched:
                g = dual.sum_keepdim(g, stretched)
            elif lead:
                g = dual.sum_dims(g, tuple(range(lead)))
    if dual.data(g).dtype != dtype:
        if dual.data(g).dtype.kind == "c" and dtype.kind != "c":    # a real input of a complex op: the real part
            g = g.real      # (PyTorch's handle_r_to_c, at::real: on a Tensor view_as_real, then select)
            if dual.data(g).dtype == dtype:
                return g
        g = dual.to_dtype(g, dtype)
    return g


def _stretched(g_shape, shape, lead):
    """The dims of g_shape that broadcasting stretched from a size 1 of shape (out of sum_to_shape: a comprehension
    there would make `g_shape` and `lead` cells, paid by every call)."""
    return tuple(lead + i for i, s in enumerate(shape) if s == 1 and g_shape[lead + i] != 1)


def _sum_to(g, g_shape, shape):
    """PyTorch's at::sum_to on a Tensor (the engine's reduction of a gradient recorded under create_graph):
    a 0-d input gets sum() (SumBackward0); otherwise one sum over the leading and the stretched dims,
    keeping them (SumBackward1), then a view dropping the leading ones (ViewBackward0)."""
    if not shape:
        return g.sum()
    lead = len(g_shape) - len(shape)
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and g_shape[lead + i] != 1)
    if dims:
        g = g.sum(dims, keepdim=True)
    return g.view(shape) if lead else g


# ops/dual.py (the helpers formulas call on arrays or Tensors) calls ops of this table, so it comes after it
from . import dual, summation  # noqa: E402
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
