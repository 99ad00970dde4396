"""The op table declares each op once: a second row with the same key is refused when it is declared,
so a copy of an op written in another module can not silently replace the first."""
import importlib
import pkgutil

import pytest

import gradlab
from gradlab.ops import OPS
from gradlab.ops.registry import op


def test_every_module_of_gradlab_imports_with_one_row_per_key():
    # importing every module registers every row; a duplicate key would raise while importing
    for info in pkgutil.walk_packages(gradlab.__path__, "gradlab."):
        importlib.import_module(info.name)
    assert len(OPS) > 400


def test_a_second_row_for_a_key_is_refused():
    key = next(iter(OPS))
    before = OPS[key]
    with pytest.raises(TypeError, match="declared twice"):
        @op(key, "AnotherBackward0")
        def forward(a):
            return a
    assert OPS[key] is before
