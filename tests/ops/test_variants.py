"""The op table's `variants` (ops/registry.py) and the forms made from them: every declared form exists
under PyTorch's name, every form under a row's name is declared, the declarations are what PyTorch
offers for that name, the made methods are plain and checked as PyTorch checks them, and no form is
both written by hand and made (_tensor_methods/variants.py, _functions/variants.py)."""
import ast
import inspect
import pathlib
import sys

import pytest

import gradlab
from gradlab import _signatures
from gradlab._functions import variants as function_variants
from gradlab._tensor_methods import variants as method_variants
from gradlab.ops.registry import OPS, VARIANTS, op

Tensor = gradlab.Tensor
ROOT = pathlib.Path(gradlab.__file__).parent
DECLARED = {key: row for key, row in OPS.items() if row.variants}

# What PyTorch offers under a row's name and gradlab does not have yet: {key: variants}. The list only
# shrinks (test_not_yet_is_still_missing fails once a form exists).
NOT_YET = {
    "index": {"method"},
    "_trilinear": {"function"}, "_safe_softmax": {"function"},
    "_scaled_dot_product_flash_attention_for_cpu": {"function"},
    "_neg_view": {"function", "method"},        # (recorded by `.imag` of conj()'s result only)
}


def gradlab_offers(name):
    """The variants gradlab has under `name`: gradlab.<name>, Tensor.<name>, Tensor.<name>_."""
    # (getattr: a name gradlab loads at first use, torch.native_batch_norm, is bound by reading it)
    return {v for v, there in (("function", callable(getattr(gradlab, name, None))),
                               ("method", name in vars(Tensor)),
                               ("inplace", name + "_" in vars(Tensor))) if there}


def torch_offers(torch, name):
    return {v for v, there in (("function", hasattr(torch, name)), ("method", hasattr(torch.Tensor, name)),
                               ("inplace", hasattr(torch.Tensor, name + "_"))) if there}


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


# --- the field ---------------------------------------------------------------------------------------

def test_variants_are_pytorchs_words():
    for key, row in OPS.items():
        assert isinstance(row.variants, tuple) and set(row.variants) <= set(VARIANTS), key
        assert not row.aliases or row.variants, f"{key}: aliases of no form"


@pytest.mark.parametrize("bad", ["method", ("method", "inline")])
def test_op_refuses_other_variants(bad):
    with pytest.raises(TypeError, match="variants"):
        op("not_a_row", "NotABackward0", variants=bad)
    assert "not_a_row" not in OPS


# --- declared forms exist, existing forms are declared -------------------------------------------------

@pytest.mark.parametrize("key", sorted(DECLARED))
def test_every_declared_form_exists(key):
    row = OPS[key]
    assert set(row.variants) <= gradlab_offers(key), f"{key}: declares {row.variants}, has {gradlab_offers(key)}"
    for alias in row.aliases:       # an alias names the row's function and method
        assert set(row.variants) - {"inplace"} <= gradlab_offers(alias), alias


@pytest.mark.parametrize("key", sorted(OPS))
def test_every_form_under_a_rows_name_is_declared(key):
    assert gradlab_offers(key) <= set(OPS[key].variants), \
        f"gradlab has {gradlab_offers(key)} under {key!r}: declare them in the row's variants"


# --- the declarations against PyTorch ----------------------------------------------------------------

@pytest.mark.torch
@pytest.mark.parametrize("key", sorted(OPS))
def test_declared_variants_are_what_pytorch_offers(torch, key):
    declared = set(OPS[key].variants)
    assert declared <= torch_offers(torch, key), f"{key}: PyTorch has no {declared - torch_offers(torch, key)}"
    assert torch_offers(torch, key) - declared == NOT_YET.get(key, set()), \
        f"{key}: PyTorch offers {torch_offers(torch, key)}, the row declares {declared}"
    for alias in OPS[key].aliases:
        assert declared - {"inplace"} <= torch_offers(torch, alias), alias


@pytest.mark.torch
@pytest.mark.parametrize("key", sorted(NOT_YET))
def test_not_yet_is_still_missing(torch, key):
    assert NOT_YET[key] <= torch_offers(torch, key), f"{key}: PyTorch has no such form"
    assert not NOT_YET[key] & gradlab_offers(key), f"{key}: {NOT_YET[key] & gradlab_offers(key)} exists now; " \
        "declare it in the row's variants and remove it from NOT_YET"


# --- the made methods ----------------------------------------------------------------------------------

def made_here(fn):
    """Whether a Tensor attribute was made by _tensor_methods/variants.py (through the argument checks)."""
    fn = inspect.unwrap(fn)
    return getattr(fn, "__module__", None) == method_variants.__name__


MADE = sorted(name for name, fn in vars(Tensor).items() if callable(fn) and made_here(fn))


def test_the_plain_unary_ops_are_made_from_the_table():
    for key in ("exp", "log", "sin", "tanh", "sigmoid", "relu", "abs", "neg", "sqrt", "frac", "floor"):
        assert key in MADE and key + "_" in MADE, key
    for alias in ("arcsin", "absolute", "negative"):
        assert alias in MADE, alias
    # ... and the methods that check their arguments are not
    for key in ("sum", "clamp", "add", "div_", "round", "transpose"):
        assert key not in MADE, key


@pytest.mark.parametrize("name", MADE)
def test_made_methods_name_themselves_and_their_row(name):
    fn = inspect.unwrap(vars(Tensor)[name])
    # (an alias's in-place form, x.arcsin_(), is its row's: asin_)
    named = {k for k, r in DECLARED.items() for k in (k, *r.aliases)}
    row = name[:-1] if name.endswith("_") and name[:-1] in named else name
    row = next((k for k, r in DECLARED.items() if row == k or row in r.aliases), row)
    assert fn.__qualname__ == f"Tensor.{fn.__name__}"
    assert fn.__name__ in (name, row, row + "_")
    assert f"row {row!r}" in fn.__doc__ and "variants.py" in fn.__doc__
    if name in _signatures.TENSOR:                  # PyTorch's argument checks stand in front of it
        assert hasattr(vars(Tensor)[name], "_signatures"), name


@pytest.mark.parametrize("name", sorted(n for n, f in vars(gradlab).items() if getattr(f, "_row", None)))
def test_made_functions_name_their_row(name):
    fn = vars(gradlab)[name]
    assert fn._row in DECLARED and name in (fn._row, *OPS[fn._row].aliases)
    if name in _signatures.TORCH:
        assert hasattr(fn, "_signatures"), name


def test_a_made_method_computes_the_row():
    x = gradlab.tensor([0.5, 1.5], requires_grad=True)
    y = x.exp()
    assert type(y.grad_fn).__name__ == "ExpBackward0"
    z = x.detach().clone()
    assert z.sin_() is z and gradlab.equal(z, x.detach().sin())
    w = gradlab.tensor([float("nan"), 1.0])
    assert w.nan_to_num(nan=2.0).tolist() == [2.0, 1.0]
    assert gradlab.exp(x).tolist() == y.tolist()


@pytest.mark.torch
@pytest.mark.parametrize("name", MADE)
def test_made_methods_refuse_as_pytorch_does(torch, name):
    """A wrong argument gets PyTorch's TypeError, word for word (the argument parser wraps made methods)."""
    def call(lib):
        x = lib.tensor([0.5, 1.5])
        try:        # (written as a user writes it: CPython words a bound method got by getattr otherwise)
            eval(f"x.{name}('bad')")
        except TypeError as e:
            return str(e)
        return None
    assert call(gradlab) == call(torch)


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(n for n, f in vars(gradlab).items() if getattr(f, "_row", None)))
def test_made_functions_refuse_as_pytorch_does(torch, name):
    def call(lib):
        try:
            getattr(lib, name)(lib.tensor([0.5, 1.5]), "bad")
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e)
        return None
    assert call(gradlab) == call(torch)


# --- hand-written forms win, and none is one the table would make ---------------------------------------

def test_the_generators_leave_hand_written_names_alone():
    assert "exp" not in method_variants.methods(written={"exp": None, "exp_": None, "arcsin": None})
    made = method_variants.methods(written={})
    assert {"exp", "exp_", "sum", "add_"} <= set(made) and made["arcsin"] is made["asin"]
    assert "exp" not in function_variants.function_forms(written={"exp": None, "cat": None, "stack": None,
                                                                  "var_mean": None, "std_mean": None,
                                                                  "cdist": None, "max_pool2d": None, "where": None,
                                                                  "view_as_real": None, "view_as_complex": None,
                                                                  "rsub": None, "block_diag": None, "pixel_shuffle": None,
                                                                  "pixel_unshuffle": None, "channel_shuffle": None,
                                                                  **{key: None for key, row in OPS.items()
                                                                     if "function" in row.variants and "method" not in row.variants}})


def test_a_function_only_row_must_be_written_by_hand():
    with pytest.raises(ImportError, match="no method to call"):
        function_variants.function_forms(written={})


def test_method_forms_refuse_a_rows_name():
    from gradlab._functions._common import method_forms
    with pytest.raises(ImportError, match="op table"):
        method_forms("flatten", "exp")


def plain_forms_written_by_hand(source):
    """Methods in class bodies that the table makes: `def exp(self): return OPS["exp"](self)`,
    `def exp_(self): return self._inplace("exp")`, and `arcsin = asin` for a declared alias."""
    aliases = {a for row in DECLARED.values() for a in row.aliases}
    found = []
    for cls in ast.walk(ast.parse(source)):
        if not isinstance(cls, ast.ClassDef):
            continue
        for node in cls.body:
            if isinstance(node, ast.Assign):
                found += [t.id for t in node.targets if isinstance(t, ast.Name) and t.id in aliases]
                found += [e.id for t in node.targets if isinstance(t, ast.Tuple) for e in t.elts
                          if isinstance(e, ast.Name) and e.id in aliases]
            if not isinstance(node, ast.FunctionDef):
                continue
            body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
                continue
            call = body[0].value
            key = node.name[:-1] if node.name.endswith("_") else node.name
            row = DECLARED.get(key)
            params = [a.arg for a in node.args.args[1:]]
            # the method's own parameters passed on unchanged, positionally or as name=name
            passed = [a.id for a in call.args if isinstance(a, ast.Name)] + \
                     [k.arg for k in call.keywords if isinstance(k.value, ast.Name) and k.value.id == k.arg]
            constant_key = 1 if call.args and isinstance(call.args[0], ast.Constant) else 0
            if row is None or len(passed) + constant_key != len(call.args) + len(call.keywords):
                continue
            if node.name == key and "method" in row.variants and ast.unparse(call.func) == f"OPS['{key}']" \
                    and passed == ["self", *params]:
                found.append(node.name)
            if node.name == key + "_" and "inplace" in row.variants and ast.unparse(call.func) == "self._inplace" \
                    and call.args and ast.unparse(call.args[0]) == f"'{key}'" and passed == params:
                found.append(node.name)
    return found


def test_no_hand_written_method_is_one_the_table_makes():
    found = {f"{path.name}: {name}" for path in (ROOT / "_tensor_methods").glob("*.py")
             for name in plain_forms_written_by_hand(path.read_text(encoding="utf-8"))}
    assert not found, f"written by hand, but made from the op table's variants (delete them): {sorted(found)}"


def test_the_one_liner_check_sees_one():
    source = ("class _M:\n"
              "    def exp(self):\n        return OPS['exp'](self)\n"
              "    def sin_(self):\n        '''doc'''\n        return self._inplace('sin')\n"
              "    arcsin = asin\n"
              "    def add_(self, other, alpha=1):\n        return self._inplace('add', other, alpha=alpha)\n"
              "    def clamp(self, min):\n        _check(min)\n        return OPS['clamp'](self, min=min)\n"
              "    def amax(self, dim):\n        return OPS['amax'](self, dim=_dims(dim))\n")
    assert plain_forms_written_by_hand(source) == ["exp", "sin_", "arcsin", "add_"]


def test_a_method_written_twice_stops_the_import():
    hand_written = sys.modules["gradlab.tensor"]._hand_written

    class _First:
        def frobnicate(self):
            pass

    class _Second:
        def frobnicate(self):
            pass
    assert set(hand_written([_First])) == {"frobnicate"}
    with pytest.raises(ImportError, match="Tensor.frobnicate is written twice: in _First and in _Second"):
        hand_written([_First, _Second])
    with pytest.raises(ImportError, match="Tensor.shape is written twice: in _tensor_core.py"):   # the core's too
        hand_written([type("_Core", (), {"shape": None})])
