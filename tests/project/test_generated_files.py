"""Files written by tools/ are what their tools would write now: a change to the source they are made
from, without running the tool, fails here (the generated file would silently keep the old text)."""
import pathlib
import subprocess
import sys

import gradlab  # noqa: F401  (its import makes the argument wrappers)
from gradlab._argparse import _wrapper_shapes, wrappers


def test_wrapper_shapes_are_current():
    """_wrapper_shapes.py holds exactly the shapes gradlab's modules use, each as _wrapper_source writes it
    (run tools/make_wrappers.py after changing either)."""
    tool = pathlib.Path(__file__).parents[2] / "tools" / "make_wrappers.py"
    used = subprocess.run([sys.executable, str(tool), "--keys"], capture_output=True, text=True, check=True).stdout
    with open(_wrapper_shapes.__file__, encoding="utf-8") as f:
        written = f.read()
    assert written == wrappers.shapes_module_text(eval(used)), "run tools/make_wrappers.py"


def test_every_shape_import_uses_is_written_out():
    """No wrapper's text is compiled: every factory used so far is the written-out module's."""
    for key, make in wrappers._FACTORIES.items():
        assert make.__module__ == _wrapper_shapes.__name__, key


def test_a_shape_not_written_out_is_compiled(monkeypatch):
    """The check above can fail: a shape missing from the module is made from its text, and works."""
    monkeypatch.setattr(wrappers, "_FACTORIES", {})
    monkeypatch.delattr(_wrapper_shapes, "make_2_method")
    make = wrappers._factory((2, True, False))
    assert make.__module__ != _wrapper_shapes.__name__
    wrapper = make(lambda self, a=1, b=2: (self, a, b), "x", wrappers._MISSING, wrappers._trim,
                   wrappers._call, wrappers._refusal, {(int, int)}, {})
    assert wrapper("s", 3, 4) == ("s", 3, 4)
