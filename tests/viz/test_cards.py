"""Rich Jupyter reprs (gradlab.viz.cards): HTML cards that never change text/plain and never raise."""
import re
import statistics
import time
import warnings

import pytest

import gradlab as torch
from gradlab.autograd.node import Node
from gradlab.viz import cards as rich
from gradlab.display.printing import format_tensor
from gradlab.tensor import Tensor


def test_install_adds_html_and_keeps_repr():
    assert Tensor.__dict__["__repr__"].__module__ == "gradlab.tensor"
    before = (Tensor.__dict__["__repr__"], Node.__dict__.get("__repr__"))
    rich.install()          # idempotent, and leaves __repr__ alone
    assert (Tensor.__dict__["__repr__"], Node.__dict__.get("__repr__")) == before
    assert callable(Tensor._repr_html_) and callable(Node._repr_html_)
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    assert repr(y) == format_tensor(y._data, grad_fn_name="AddBackward0")
    assert repr(x) == "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)"
    assert re.fullmatch(r"<AddBackward0 object at 0x[0-9a-f]+>", repr(y.grad_fn))


def test_text_plain_matches_torch():
    real = pytest.importorskip("torch")
    a = real.ones(2, 2, requires_grad=True)
    b = torch.ones(2, 2, requires_grad=True)
    assert repr(b + 2) == repr(a + 2)


def test_tensor_card_content():
    x = torch.ones(2, 2, requires_grad=True)
    y = x * 3
    y.sum().backward()
    page = y._repr_html_()
    assert page.startswith('<div class="gradlab-tensor"')
    assert "<pre" in page and "tensor([[3., 3.],\n        [3., 3.]], grad_fn=&lt;MulBackward0&gt;)" in page
    for badge in ("shape [2, 2]", "torch.float32", "requires_grad=True", "is_leaf=False",
                  "grad_fn=&lt;MulBackward0&gt;"):
        assert badge in page
    assert ".grad" not in page
    leaf = x._repr_html_()
    assert "is_leaf=True" in leaf and ".grad" in leaf and "tensor([[3., 3.]," in leaf.split(".grad")[1]
    assert "grad_fn" not in leaf


def test_tensor_card_for_plain_and_other_dtypes():
    page = torch.arange(5)._repr_html_()
    assert "torch.int64" in page and "requires_grad=False" in page and "tensor([0, 1, 2, 3, 4])" in page


def test_cards_are_deterministic_and_have_no_addresses():
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    for obj in (x, y, y.grad_fn):
        first, second = obj._repr_html_(), obj._repr_html_()
        assert first == second
        assert "0x" not in re.sub(r"base64,[A-Za-z0-9+/=]+", "", first)    # (base64 text may hold "0x")


def test_tensor_card_does_not_warn_on_non_leaf_grad():
    y = torch.ones(2, requires_grad=True) * 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y._repr_html_()


def test_node_card_shows_inputs_saved_and_stale():
    x = torch.ones(2, requires_grad=True)
    a = x * 1
    b = a.exp()
    node = b.grad_fn
    page = node._repr_html_()
    assert "ExpBackward0" in page and "next_functions" in page and "MulBackward0, output 0" in page
    assert "saved tensors" in page and "version 0" in page
    b.mul_(2)
    assert "stale (v1 ≠ v0)" in node._repr_html_()
    mul = a.grad_fn._repr_html_()
    assert "AccumulateGrad, output 0" in mul and "None (constant 1)" in mul
    acc = a.grad_fn.next_functions[0][0]._repr_html_()
    assert "AccumulateGrad" in acc and "requires_grad=True" in acc


def test_node_card_neighbourhood_drawing():
    x = torch.ones(2, requires_grad=True)
    y = x + 1
    z = y * 2
    page = z.grad_fn._repr_html_()
    assert "<svg" not in page       # inline SVG would be stripped in an untrusted notebook: an <img> instead
    if "<img" in page:
        import re
        from gradlab.viz.render import svg_from_img_html
        count = int(re.search(r'data-gradlab-nodes="(\d+)"', page).group(1))
        assert svg_from_img_html(page).count('class="node"') == count
    else:
        assert "<pre" in page


def test_node_card_without_dot(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    x = torch.ones(2, requires_grad=True)
    page = (x * 2).grad_fn._repr_html_()
    assert "<svg" not in page and "data-gradlab-nodes" not in page and "Install Graphviz" in page


def test_freed_node_card():
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    node = y.grad_fn.next_functions[0][0]
    y.backward()
    assert "freed by backward" in node._repr_html_()


def test_hostile_node_name_is_escaped():
    evil = type('<img src=x onerror=alert(1)>"];evil[', (Node,), {})()
    page = evil._repr_html_()
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;&quot;];evil[" in page
    assert page.count("<img") <= 1 and "onerror" not in page.replace("onerror=alert(1)&gt;", "")


def test_card_never_raises(monkeypatch):
    x = torch.ones(2, requires_grad=True)

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(rich, "_badge", broken)
    page = x._repr_html_()
    assert page == '<pre style="margin:2px 0;padding:0;background:none">tensor([1., 1.], requires_grad=True)</pre>'
    monkeypatch.setattr(rich, "_input_rows", broken)
    assert "MulBackward0" in (x * 2).grad_fn._repr_html_() or "&lt;MulBackward0" in (x * 2).grad_fn._repr_html_()


def test_tensor_card_is_fast():
    x = torch.ones(3, 3, requires_grad=True)
    y = x * 2
    times = []
    for _ in range(50):
        start = time.perf_counter()
        y._repr_html_()
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.005, statistics.median(times)
