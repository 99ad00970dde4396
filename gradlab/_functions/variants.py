"""gradlab.<fn> forms made from the op table: for a row declared with "function" (and for its aliases),
`gradlab.exp(x)` is `x.exp()`, as torch.exp and Tensor.exp share one kernel in PyTorch (`method_form`).

The rule, as for Tensor's methods (_tensor_methods/variants.py): a function written by hand wins.
gradlab/__init__.py passes every name it has bound by then as `written`; those are written in the files
beside this one (gradlab.reshape takes its sizes as one tuple, where x.reshape(2, 3) takes ints too)
or come from the ops (gradlab.cat, gradlab.where). A row with "function" but no "method" has no method
to call, so its function must be among them: a missing one stops the import.
"""
from ..ops.registry import OPS
from ._common import method_form


def function_forms(written):
    """{name: gradlab.<name>} for every function form the op table declares that `written` lacks."""
    made = {}
    for key, op in OPS.items():
        if "function" not in op.variants:
            continue
        for name in (key, *op.aliases):
            if name in written:
                continue
            if "method" not in op.variants:
                raise ImportError(f"gradlab.{name}: the row {key!r} has no method to call; write the function by hand")
            made[name] = method_form(name, key)
    return made
