"""What `import gradlab` leaves for later (PEP 562 module __getattr__ in gradlab/__init__.py and
gradlab/nn/__init__.py), and that each of those names, once used, is what an eager import would bind."""
import inspect
import subprocess
import sys
import textwrap

import gradlab
from gradlab import _signatures
from gradlab.nn._functional import native

LATER = ("gradlab.nn.functional", "gradlab.nn.modules", "gradlab.optim", "gradlab.distributions", "gradlab.utils",
         "gradlab.testing", "gradlab.viz")


def _fresh(code):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          check=True).stdout.split()


def test_import_leaves_the_library_layers_for_later():
    loaded = _fresh(f"""
        import sys, gradlab
        print(*[m for m in {LATER!r} if m in sys.modules])""")
    assert loaded == []


def test_a_lazy_name_loads_its_module():
    assert _fresh("""
        import sys, gradlab
        gradlab.nn.Linear(2, 3); gradlab.optim.SGD; gradlab.conv2d
        print(*[m in sys.modules for m in ("gradlab.nn.modules.linear", "gradlab.optim", "gradlab.nn.functional")])
        """) == ["True"] * 3


def test_every_native_function_is_listed():
    """torch.native_* come from nn/_functional/native.py's __all__: a name added there must be listed."""
    assert set(native.__all__) <= set(gradlab._LAZY_FUNCTIONS)


def test_lazy_functions_are_checked_as_the_eager_ones():
    """Each is bound once used, with PyTorch's argument checks (and out= where PyTorch takes it)."""
    for name, (module, attribute) in gradlab._LAZY_FUNCTIONS.items():
        fn = getattr(gradlab, name)
        assert vars(gradlab)[name] is fn
        if name in _signatures.TORCH and inspect.isfunction(fn):
            assert hasattr(fn, "_signatures"), name
        assert name in dir(gradlab)
    out = gradlab.empty(3)
    result = gradlab.threshold(gradlab.tensor([0., 1., 2.]), 0.5, 9., out=out)     # (torch.threshold takes out=)
    assert result is out and out.tolist() == [9., 1., 2.]


def test_dir_lists_what_is_not_loaded_yet():
    names = _fresh("""
        import gradlab
        print("optim" in dir(gradlab), "lstm" in dir(gradlab), "Linear" in dir(gradlab.nn), "relu" in dir(gradlab.nn.functional))""")
    assert names == ["True"] * 4


def test_unknown_names_raise_pythons_attribute_error():
    for space in (gradlab, gradlab.nn):
        try:
            space.no_such_name
        except AttributeError as error:
            assert str(error) == f"module '{space.__name__}' has no attribute 'no_such_name'"
        else:
            raise AssertionError("no error")


def test_any_lazy_name_first_leaves_nn_functional_whole():
    """Whichever name loads first, nn.functional then has all its functions (its files import it back)."""
    first_of_each_module = {module: name for name, (module, _) in sorted(gradlab._LAZY_FUNCTIONS.items())}
    # (from a fresh process: tests run before this one may have added names to this process's module)
    whole = set(_fresh("import gradlab.nn.functional as F; print(*dir(F))"))
    for name in first_of_each_module.values():
        assert _fresh(f"""
            import gradlab
            gradlab.{name}
            print(sorted(set({sorted(whole)!r}) - set(dir(gradlab.nn.functional))))""") == ["[]"], name


def test_the_torch_alias_loads_what_import_leaves_for_later():
    """`python -m gradlab program.py` renames gradlab's classes to torch's modules: the modules loaded later
    must be loaded (and renamed) then too (gradlab/_alias.py's list)."""
    from gradlab import _alias
    later = {f"nn.{name}" for name in gradlab.nn._SUBMODULES} | set(gradlab._LAZY_MODULES)
    assert later <= set(_alias._LOADED_LATER)


# --- what `import gradlab` leaves undone inside the modules it loads ---------------------------------------------

def test_import_makes_no_node_class():
    """The op table's ~450 node classes are made at each row's first node (Op.node_class), not at import."""
    assert _fresh("""
        import gradlab
        from gradlab.ops.registry import OPS
        print(sum("node_class" in vars(op) for op in OPS.values()))""") == ["0"]


def test_each_rows_node_class_is_as_an_eager_one():
    """Once asked for, a row's node class is PyTorch's class name, in builtins, shared by the rows of that name,
    with a descriptor for each value the row saves; a node of the row is an instance of it."""
    from gradlab.autograd.node import SavedValue
    from gradlab.ops.registry import OPS, OpNode
    by_name = {}
    for key, op in OPS.items():
        cls = op.node_class
        assert vars(op)["node_class"] is cls, key                # (a plain attribute from then on)
        assert cls.__name__ == op.name and cls.__module__ == "builtins" and issubclass(cls, OpNode), key
        assert by_name.setdefault(op.name, cls) is cls, key
        for saved in op.saves:
            assert isinstance(getattr(cls, saved), (SavedValue, property)) or saved in vars(OpNode), (key, saved)
    x = gradlab.ones(2, requires_grad=True)
    assert type((x * 2).grad_fn) is OPS["mul"].node_class
    assert type((x * 2).grad_fn).__name__ == "MulBackward0"


def test_import_freezes_what_it_made_and_the_collector_still_works():
    """gc.freeze() at the end of `import gradlab`: the collector no longer scans (nor frees at exit) the import's
    objects; it is on as before, and a cycle the program makes later is still collected."""
    assert _fresh("""
        import gc, gradlab, weakref
        class Cycle:
            pass
        a = Cycle(); a.me = a; alive = weakref.ref(a); del a
        gc.collect()
        print(gc.isenabled(), gc.get_freeze_count() > 10000, alive() is None)""") == ["True"] * 3
    assert _fresh("""
        import gc; gc.disable()
        import gradlab
        print(gc.isenabled())""") == ["False"]


def test_made_methods_are_what_compiling_each_text_makes():
    """_tensor_methods/variants.py compiles each shape of text once and copies its code under each name: the
    methods are what compiling each one's own text would make."""
    import types
    from gradlab._tensor_methods import variants
    made_texts = []
    original = variants._made

    def recording(name, source, namespace, doc):
        fn = original(name, source, dict(namespace), doc)
        made_texts.append((fn, source, namespace))
        return fn
    variants._made = recording
    try:
        variants.methods(written={})
    finally:
        variants._made = original
    assert len(made_texts) > 50
    for fn, source, namespace in made_texts:
        space = dict(namespace, __name__=variants.__name__)
        exec(compile(source, f"<op table: Tensor.{fn.__name__}>", "exec"), space)
        eager = space[fn.__name__]
        for attribute in ("co_code", "co_consts", "co_names", "co_varnames", "co_argcount", "co_flags", "co_name",
                          "co_qualname", "co_filename", "co_firstlineno", "co_linetable"):
            assert getattr(fn.__code__, attribute) == getattr(eager.__code__, attribute), (fn.__name__, attribute)
        assert fn.__defaults__ == eager.__defaults__ and fn.__module__ == eager.__module__, fn.__name__
        assert fn.__qualname__ == f"Tensor.{fn.__name__}" and isinstance(fn, types.FunctionType)
        assert {k: v for k, v in fn.__globals__.items() if k != fn.__name__} == \
            {k: v for k, v in space.items() if k != fn.__name__}, fn.__name__
