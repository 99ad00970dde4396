"""Each op's gradient formulas as text a student can read: `grad * other`, `grad * cos(self)`.

One source. The text comes from the formula the engine runs, in this order:

1. `shows=` on the op's row (`@op(..., shows={"self": "grad * (1 - result * result)"})`), for a
   formula whose code is written for exact rounding or speed (tanh's fused kernel) and reads badly;
2. `@shows("...")` on a formula written as a `def` (shared by several rows: sort, topk, ...);
3. otherwise the formula's own lambda, rewritten: `lambda g, n: g * n.other` reads `grad * other`,
   `dual.cos(n.self)` reads `cos(self)`, `dual.expand(g, n.self_sizes)` reads
   `grad.expand(self_sizes)`.

The text is PyTorch code, written as derivatives.yaml writes it: `grad` is the gradient arriving at
the node's output (`grads[0]`, `grads[1]` when the op has several outputs), and every other name is
what the node saved or was called with (`self`, `other`, `result`, `dim`, `self_sizes`). So
`gradlab.viz` can evaluate it with gradlab's own functions on the node's values, substitute the
numbers, and tests/ops/test_formula_text.py checks, for every op, that the text evaluates to the
gradient the engine computed. Nothing here runs during backward.

What a text may call: gradlab's functions (`exp`, `where`, `zeros_like`), Tensor methods, `F.<name>`
(nn.functional) and `linalg.<name>`, `pi`, a few builtins (`len`, `range`, `tuple`, ...), and two
helpers for what PyTorch's own backward code writes by hand (viz/formulas.py):
`restore_dims(grad, dim, keepdim)` puts back the dims a reduction removed, and
`prod_of_others(self, dim)` is, for each element, the product of the others.
"""
import ast
import inspect
import sys

# dual.<name>(x, ...) that read as a method of their first argument: dual.expand(g, s) -> grad.expand(s)
_METHODS = {"expand", "transpose", "t", "flip", "squeeze", "unsqueeze", "permute", "reshape", "roll", "cumsum",
            "mm", "bmm", "mv", "conj"}
# dual.<name>(...) that read as the public function of the same name
_FUNCTIONS = {"cos", "sin", "exp", "log", "sqrt", "rsqrt", "cosh", "sinh", "tanh", "sign", "abs", "where", "sigmoid",
              "erf", "logical_not"}
# dual.<name>(...) that read as another public expression: (format, number of arguments)
# (arguments in brackets: unparsing drops the ones precedence does not need)
_REWRITES = {"where_or_zero": ("where(({0}), ({1}), 0)", 2), "zero_where": ("where(({0}), 0, ({1}))", 2),
             "sum_keepdim": ("({0}).sum(({1}), keepdim=True)", 2), "sum_dims": ("({0}).sum(({1}))", 2),
             "mul_scalar": ("({0}) * ({1})", 2), "add_scalar": ("({0}) + ({1})", 2),
             "div_scalar": ("({0}) / ({1})", 2), "sub_scalar": ("({0}) - ({1})", 2),
             "number_minus": ("({0}) - ({1})", 2), "number_over": ("({0}) / ({1})", 2), "rsub_scalar": ("({0}) - ({1})", 2), "pow_scalar": ("({0}) ** ({1})", 2),
             "trunc_divide": ("div(({0}), ({1}), rounding_mode='trunc')", 2),
             "floor_divide": ("div(({0}), ({1}), rounding_mode='floor')", 2)}
# methods of a Tensor that a formula may call on its own (g.reshape(...))
_TENSOR_METHODS = _METHODS | {"sum", "mean", "narrow", "index_select", "gather", "scatter_add", "masked_fill",
                              "sum_to_size", "unsqueeze", "expand_as", "view", "clone", "conj"}


def shows(text):
    """Mark a formula written as a `def` with its readable text (see the module docstring)."""
    def mark(formula):
        formula.shows = text
        return formula
    return mark


def formula_text(op, slot):
    """The readable text of `op`'s gradient formula for input `slot` ('self', 'other', ...), or None
    when the slot has no formula (not differentiable there) or the text cannot be written."""
    index = op.inputs.index(slot)
    formula = op.formulas[index]
    if formula is None:
        return None
    given = (op.shows or {}).get(slot)
    if given is not None:
        return given
    marked = getattr(formula, "shows", None)
    if marked is not None:
        return marked
    return _from_lambda(formula)


def formula_texts(op):
    """{slot: text} for every input slot of `op` that has a formula (text None when not writable)."""
    return {slot: formula_text(op, slot) for slot, f in zip(op.inputs, op.formulas) if f is not None}


# --- lambdas to text -------------------------------------------------------------------------------
_CACHE = {}


def _from_lambda(formula):
    code = getattr(formula, "__code__", None)
    if code is None or formula.__name__ != "<lambda>" or code.co_freevars:
        return None            # a def, or a lambda made inside a function (its text depends on the call)
    if code not in _CACHE:
        node = _find_lambda(formula)
        _CACHE[code] = None if node is None else _Reader().text(node.body)
    return _CACHE[code]


def _find_lambda(formula):
    """The ast.Lambda in the formula's module that compiled to `formula.__code__`."""
    code = formula.__code__
    module = sys.modules.get(formula.__module__)
    try:
        source = inspect.getsource(module)
    except (TypeError, OSError):
        return None
    tree = _PARSED.get(module.__name__)
    if tree is None:
        tree = _PARSED[module.__name__] = ast.parse(source)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno]
    if len(found) > 1:   # several lambdas on one line: the one whose bytecode is this one
        found = [n for n in found if _same_code(n, code)]
    return found[0] if found else None


_PARSED = {}


def _same_code(node, code):
    compiled = compile(ast.Expression(node), "<formula>", "eval")
    inner = next(c for c in compiled.co_consts if hasattr(c, "co_code"))
    return inner.co_code == code.co_code and inner.co_names == code.co_names and inner.co_consts == code.co_consts


class _Unreadable(Exception):
    pass


class _Reader:
    """An ast expression of a formula -> readable text, or None (an unknown helper, a branch)."""

    def text(self, node):
        try:
            return ast.unparse(self.visit(node))
        except _Unreadable:
            return None

    def visit(self, node):
        if isinstance(node, ast.Name):
            if node.id == "g":
                return ast.Name("grad")
            raise _Unreadable(node.id)          # a module-level helper or constant
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "n":
            return ast.Name(node.attr)          # n.other -> other
        if isinstance(node, ast.Constant):
            return node
        if isinstance(node, ast.BinOp):
            return ast.BinOp(self.visit(node.left), node.op, self.visit(node.right))
        if isinstance(node, ast.UnaryOp):
            return ast.UnaryOp(node.op, self.visit(node.operand))
        if isinstance(node, ast.Compare):
            return ast.Compare(self.visit(node.left), node.ops, [self.visit(c) for c in node.comparators])
        if isinstance(node, ast.Call) and not node.keywords:
            return self.call(node)
        raise _Unreadable(type(node).__name__)

    def call(self, node):
        fn, args = node.func, [self.visit(a) for a in node.args]
        if isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id == "dual":
            name = fn.attr
            if name in _METHODS and args:
                return ast.Call(ast.Attribute(args[0], name), args[1:], [])
            if name in _FUNCTIONS:
                return ast.Call(ast.Name(name), args, [])
            if name in _REWRITES and len(args) == _REWRITES[name][1]:
                return ast.parse(_REWRITES[name][0].format(*map(ast.unparse, args)), mode="eval").body
            raise _Unreadable(name)
        if isinstance(fn, ast.Attribute) and fn.attr in _TENSOR_METHODS:     # g.reshape(n.self_sizes)
            return ast.Call(ast.Attribute(self.visit(fn.value), fn.attr), args, [])
        if isinstance(fn, ast.Name) and fn.id == "_alpha" and len(node.args) == 1:
            return ast.Name("alpha")            # add/sub's alpha (1 when the caller passed none)
        raise _Unreadable(ast.unparse(fn))
