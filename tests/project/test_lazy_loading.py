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
