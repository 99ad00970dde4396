"""viz.jacobian and viz.vjp (gradlab/viz/jacobian.py): the numbers against live PyTorch
(torch.autograd.functional.jacobian, y.backward(v), torch.autograd.grad) on generated functions, the HTML
holding those numbers, the refusals, the languages, and the panel at the start of the backward player."""
import html
import re

import numpy as np
import pytest

import gradlab
from gradlab import viz
from gradlab.viz import i18n
from gradlab.viz.jacobian import MAX_ELEMENTS, number_text, vjp_html

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch

# Functions written once and run on both libraries: `m` is gradlab or torch, `c` the constants (numpy
# arrays, made into m's tensors), x the input. Elementwise, mixing, reducing, and 2-D outputs.
FUNCTIONS = {
    "square": lambda m, c: lambda x: x * x,
    "exp_sin": lambda m, c: lambda x: x.exp() * x.sin() + 2,
    "tanh": lambda m, c: lambda x: m.tanh(3 * x),
    "flip": lambda m, c: lambda x: x * x.flip(0),
    "matmul": lambda m, c: lambda x: x @ m.tensor(c["A"]),
    "sum": lambda m, c: lambda x: x.sum(),
    "cumsum": lambda m, c: lambda x: x.cumsum(0),
    "softmax": lambda m, c: lambda x: x.softmax(0),
    "outer": lambda m, c: lambda x: x[:, None] * x[None, :],          # 1-D in, 2-D out
    "scaled_outer": lambda m, c: lambda x: m.outer(x, x.exp()) * m.tensor(c["B"]),
}
SHAPES = [(1,), (3,), (4,)]
MATRIX_FUNCTIONS = {                                                   # 2-D input
    "rows": lambda m, c: lambda X: X.sum(0),
    "gram": lambda m, c: lambda X: X.T @ X,
    "affine": lambda m, c: lambda X: X @ m.tensor(c["W"]) + 1,
}


def constants(n, seed):
    rng = np.random.default_rng(seed)
    return {"A": rng.standard_normal((n, 3)).astype(np.float32),
            "B": rng.standard_normal((n, n)).astype(np.float32),
            "W": rng.standard_normal((3, 2)).astype(np.float32)}


def both(array):
    """The same values as a gradlab and a torch tensor."""
    return gradlab.tensor(array.copy()), torch.tensor(array.copy())


def cases():
    for k, (name, make) in enumerate(FUNCTIONS.items()):
        for shape in SHAPES:
            yield pytest.param(make, shape, k, id=f"{name}-{shape[0]}")
    for k, (name, make) in enumerate(MATRIX_FUNCTIONS.items()):
        yield pytest.param(make, (2, 3), 100 + k, id=f"{name}-2x3")


def html_numbers(page):
    """Every table cell's text in the page."""
    return re.findall(r"<td[^>]*>([^<]*)</td>", page)


# --- jacobian(f, x) ---------------------------------------------------------------------------------
@pytest.mark.parametrize("make,shape,seed", list(cases()))
def test_jacobian_matches_torch(make, shape, seed):
    rng = np.random.default_rng(seed)
    c = constants(shape[0], seed)
    xg, xt = both(rng.standard_normal(shape).astype(np.float32))
    view = viz.jacobian(make(gradlab, c), xg, max_shown=64)        # every cell shown (the cut: below)
    expected = torch.autograd.functional.jacobian(make(torch, c), xt)
    assert isinstance(view.J, gradlab.Tensor) and view.jacobian is view.J
    assert tuple(view.J.shape) == tuple(expected.shape)
    np.testing.assert_allclose(view.J.numpy(), expected.numpy(), rtol=1e-5, atol=1e-6)

    (block,) = view.blocks
    out_shape = tuple(expected.shape[:len(expected.shape) - len(shape)])
    assert block.output_shape == out_shape and block.input_shape == shape
    rows, cols = int(np.prod(out_shape, dtype=int)), int(np.prod(shape))
    np.testing.assert_allclose(block.matrix, expected.numpy().reshape(rows, cols), rtol=1e-5, atol=1e-6)

    bundle = view._repr_mimebundle_()
    page = bundle["text/html"]
    # every value, in row-major order, as the table shows it
    assert html_numbers(page) == [number_text(v) for v in block.matrix.reshape(-1)]
    labels = [html.unescape(s) for s in re.findall(r"<th[^>]*>([^<]+)</th>", page)]
    if len(out_shape) == 0:
        assert "∂y" in labels
    elif len(out_shape) == 1:
        assert [f"∂y[{i}]" for i in range(rows)] == [s for s in labels if s.startswith("∂y")]
    else:
        assert f"∂y[{out_shape[0] - 1},{out_shape[1] - 1}]" in labels
        assert "row-major" in page
    x_labels = [s for s in labels if s.startswith("∂x") or s.startswith("∂X")]
    assert len(x_labels) == cols
    # the text is PyTorch's printed Jacobian under a heading
    assert repr(view.J) in bundle["text/plain"] and "Jacobian of y with respect to" in bundle["text/plain"]


def test_jacobian_of_several_inputs_names_them_by_parameter():
    rng = np.random.default_rng(7)
    xg, xt = both(rng.standard_normal(3).astype(np.float32))
    wg, wt = both(rng.standard_normal((3, 2)).astype(np.float32))

    def f(x, w):
        return (x @ w).tanh() * w.sum()

    view = viz.jacobian(f, (xg, wg))
    expected = torch.autograd.functional.jacobian(f, (xt, wt))
    assert isinstance(view.J, tuple) and len(view.J) == 2
    for got, want in zip(view.J, expected):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    assert [(b.output, b.input) for b in view.blocks] == [("y", "x"), ("y", "w")]
    page = view._repr_mimebundle_()["text/html"]
    assert "Jacobian of y with respect to x" in page and "Jacobian of y with respect to w" in page
    assert "∂w[2,1]" in page
    # names= (a mapping such as locals()) and output_name= win over the parameter names
    named = viz.jacobian(f, (xg, wg), names={"inputs": xg, "weights": wg}, output_name="h")
    assert [(b.output, b.input) for b in named.blocks] == [("h", "inputs"), ("h", "weights")]


def test_jacobian_of_a_function_returning_a_tuple():
    rng = np.random.default_rng(3)
    xg, xt = both(rng.standard_normal(3).astype(np.float32))
    view = viz.jacobian(lambda x: (x.exp(), x.sum()), xg)
    expected = torch.autograd.functional.jacobian(lambda x: (x.exp(), x.sum()), xt)
    assert [(b.output, b.output_shape) for b in view.blocks] == [("y0", (3,)), ("y1", ())]
    for got, want in zip(view.J, expected):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5)


def test_jacobian_of_several_inputs_and_outputs():
    rng = np.random.default_rng(4)
    pg, pt = both(rng.standard_normal(2).astype(np.float32))
    qg, qt = both(rng.standard_normal(3).astype(np.float32))
    view = viz.jacobian(lambda p, q: (p * 2, q.sum() * p), (pg, qg))
    expected = torch.autograd.functional.jacobian(lambda p, q: (p * 2, q.sum() * p), (pt, qt))
    assert [(b.output, b.input) for b in view.blocks] == [("y0", "p"), ("y0", "q"), ("y1", "p"), ("y1", "q")]
    for i in range(2):
        for j in range(2):
            np.testing.assert_allclose(view.J[i][j].numpy(), expected[i][j].numpy(), rtol=1e-6)
    assert view._repr_mimebundle_()["text/html"].count("gradlab-matrix") == 4


def test_large_jacobian_is_cut_with_a_note():
    rng = np.random.default_rng(1)
    xg, xt = both(rng.standard_normal(40).astype(np.float32))
    view = viz.jacobian(lambda x: x.exp().cumsum(0), xg)
    np.testing.assert_allclose(view.J.numpy(), torch.autograd.functional.jacobian(
        lambda x: x.exp().cumsum(0), xt).numpy(), rtol=1e-5)
    bundle = view._repr_mimebundle_()
    page = bundle["text/html"]
    assert "J has shape [40, 40]" in page and "showing 12 of its 40 rows and 12 of its 40 columns" in page
    assert page.count("<tr ") == 1 + 12 + 1            # header, 12 rows, the ⋮ row
    assert "⋯" in page and "⋮" in page and "∂y[39]" in page and "∂x[39]" in page
    assert len(page) < 40_000
    assert len(bundle["text/plain"].splitlines()) < 20  # PyTorch's summarised text, not 40 rows


# --- vjp(y, x, v) -------------------------------------------------------------------------------------
def vjp_case(make, shape, seed):
    """y recorded in both libraries from the same x, and a random v of y's shape."""
    rng = np.random.default_rng(seed)
    c = constants(shape[0], seed)
    xg, xt = both(rng.standard_normal(shape).astype(np.float32))
    xg.requires_grad_()
    xt.requires_grad_()
    yg, yt = make(gradlab, c)(xg), make(torch, c)(xt)
    vg, vt = both(rng.standard_normal(tuple(yt.shape)).astype(np.float32))
    return (xg, yg, vg), (xt, yt, vt), c


@pytest.mark.parametrize("make,shape,seed", list(cases()))
def test_vjp_is_what_backward_adds_into_grad(make, shape, seed):
    (xg, yg, vg), (xt, yt, vt), c = vjp_case(make, shape, seed)
    panel = viz.vjp(yg, xg, vg)
    (part,) = panel.data.inputs
    expected_J = torch.autograd.functional.jacobian(make(torch, c), xt.detach())
    np.testing.assert_allclose(part.J, expected_J.numpy().reshape(yt.numel(), xt.numel()), rtol=1e-5, atol=1e-6)
    assert panel.J is part.J
    # vᵀJ is what torch.autograd.grad returns and what y.backward(v) puts into x.grad
    (want,) = torch.autograd.grad(yt, xt, vt, retain_graph=True)
    yt.backward(vt)
    np.testing.assert_allclose(part.result, want.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(part.result, xt.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(part.result.reshape(-1), vg.numpy().reshape(-1) @ part.J, rtol=1e-4, atol=1e-5)
    # .grad untouched, graph intact: the real backward still runs and gives torch's numbers
    assert xg.grad is None
    yg.backward(vg)
    np.testing.assert_allclose(xg.grad.numpy(), xt.grad.numpy(), rtol=1e-5, atol=1e-6)

    page = panel._repr_mimebundle_()["text/html"]
    cells = html_numbers(page)
    n_v, n_J = yt.numel(), yt.numel() * xt.numel()
    assert cells[:n_v] == [number_text(v) for v in vg.numpy().reshape(-1)]
    assert cells[n_v:n_v + n_J] == [number_text(v) for v in part.J.reshape(-1)]
    assert cells[n_v + n_J:] == [number_text(v) for v in part.result.reshape(-1)]
    assert page.index("vᵀ") < page.index("J = ∂y/∂x") < page.index("vᵀJ")
    text = html.unescape(page)
    assert "exactly what y.backward(v) adds into x.grad" in text and "autograd.grad(y, x, v)" in text


def test_the_tutorials_example():
    """The autograd tutorial's y = x * 2 * 2 ... with v = [0.1, 1.0, 0.0001], names from locals()."""
    def run(m):
        m.manual_seed(0)
        x = m.randn(3, requires_grad=True)
        y = x * 2
        while y.data.norm() < 1000:
            y = y * 2
        return x, y, m.tensor([0.1, 1.0, 0.0001], dtype=m.float)

    x, y, v = run(gradlab)
    panel = viz.vjp(y, x, v, names={"x": x, "y": y, "v": v})
    xt, yt, vt = run(torch)
    yt.backward(vt)
    scale = float(yt[0].detach() / xt[0].detach())          # the power of two the loop reached
    np.testing.assert_allclose(panel.J, np.eye(3) * scale, rtol=1e-6)
    np.testing.assert_allclose(panel.data.inputs[0].result, xt.grad.numpy(), rtol=1e-6)
    bundle = panel._repr_mimebundle_()
    assert "y.backward(v)" in bundle["text/plain"]
    cells = html_numbers(bundle["text/html"])
    assert cells[:3] == ["0.1", "1", "0.0001"]
    assert cells[3:12] == [number_text(scale) if i == j else "0" for i in range(3) for j in range(3)]
    assert cells[-3:] == [number_text(g) for g in xt.grad.numpy()]


def test_vjp_with_several_inputs_and_a_2d_output():
    rng = np.random.default_rng(11)
    a = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal((3, 2)).astype(np.float32)
    v = rng.standard_normal((2, 2)).astype(np.float32)
    ag, bg = gradlab.tensor(a, requires_grad=True), gradlab.tensor(b, requires_grad=True)
    at, bt = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    zg, zt = (ag @ bg).sigmoid(), (at @ bt).sigmoid()
    panel = viz.vjp(zg, (ag, bg), gradlab.tensor(v), names={"a": ag, "b": bg, "z": zg})
    zt.backward(torch.tensor(v))
    Ja, Jb = torch.autograd.functional.jacobian(lambda p, q: (p @ q).sigmoid(), (at.detach(), bt.detach()))
    pa, pb = panel.data.inputs
    assert (pa.name, pb.name, panel.data.y) == ("a", "b", "z")
    np.testing.assert_allclose(pa.J, Ja.numpy().reshape(4, 6), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(pb.J, Jb.numpy().reshape(4, 6), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(pa.result, at.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(pb.result, bt.grad.numpy(), rtol=1e-5, atol=1e-6)
    page = html.unescape(panel._repr_mimebundle_()["text/html"])
    assert "J = ∂z/∂a" in page and "J = ∂z/∂b" in page and "∂z[1,1]" in page and "∂b[2,1]" in page
    assert "autograd.grad(z, (a, b), v)" in page and "adds into b.grad" in page
    assert "z has shape [2, 2]: its elements are numbered in row-major order" in page


def test_scalar_output_without_v_uses_one():
    xg = gradlab.tensor([1.0, -2.0, 0.5], requires_grad=True)
    xt = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    panel = viz.vjp((xg * xg).sum(), xg)
    (xt * xt).sum().backward()
    np.testing.assert_allclose(panel.data.inputs[0].result, xt.grad.numpy())
    np.testing.assert_array_equal(panel.data.v, np.ones(()))
    page = panel._repr_mimebundle_()["text/html"]
    assert "y.backward()" in page and "so v is 1" in page


def test_vjp_leaves_retained_grads_alone():
    x = gradlab.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.retain_grad()
    y = h * h
    viz.vjp(y, x, gradlab.tensor([1.0, 0.5]))
    assert h.grad is None and x.grad is None
    xt = torch.tensor([1.0, 2.0], requires_grad=True)
    ht = xt * 3
    ht.retain_grad()
    (ht * ht).backward(torch.tensor([1.0, 0.5]))
    y.backward(gradlab.tensor([1.0, 0.5]))
    np.testing.assert_allclose(h.grad.numpy(), ht.grad.numpy())
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy())


# --- refusals -------------------------------------------------------------------------------------------
def torch_error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value), str(info.value)


def test_wrong_v_gets_backwards_error():
    xg, xt = gradlab.ones(3, requires_grad=True), torch.ones(3, requires_grad=True)
    yg, yt = xg * 2, xt * 2
    for vg, vt in [(gradlab.ones(2), torch.ones(2)), (gradlab.ones(3, 1), torch.ones(3, 1)),
                   (None, None), ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])]:
        kind, message = torch_error(lambda: yt.backward(vt, retain_graph=True))
        with pytest.raises(kind) as info:
            viz.vjp(yg, xg, vg)
        assert str(info.value) == message
    assert xg.grad is None
    yg.backward(gradlab.ones(3))                    # the graph is still there
    assert xg.grad.tolist() == [2.0, 2.0, 2.0]


def test_freed_graph_says_what_to_do():
    xg, xt = gradlab.ones(3, requires_grad=True), torch.ones(3, requires_grad=True)
    yg, yt = xg.exp() * xg, xt.exp() * xt
    yg.backward(gradlab.ones(3))
    yt.backward(torch.ones(3))
    _, message = torch_error(lambda: yt.backward(torch.ones(3)))
    with pytest.raises(RuntimeError) as info:
        viz.vjp(yg, xg, gradlab.ones(3))
    assert str(info.value).startswith(message)
    assert "viz.vjp(y, x, v) before y.backward(v)" in str(info.value)


def test_no_graph_and_unused_inputs_get_autograds_errors():
    xg, xt = gradlab.ones(3), torch.ones(3)
    wg, wt = gradlab.ones(3, requires_grad=True), torch.ones(3, requires_grad=True)
    for args_g, args_t in [((xg * 2, xg, gradlab.ones(3)), (xt * 2, xt, torch.ones(3))),
                           ((wg * 2, (wg, gradlab.ones(2, requires_grad=True)), gradlab.ones(3)),
                            (wt * 2, (wt, torch.ones(2, requires_grad=True)), torch.ones(3)))]:
        kind, message = torch_error(lambda: torch.autograd.grad(*args_t))
        with pytest.raises(kind) as info:
            viz.vjp(*args_g)
        assert str(info.value) == message


def test_too_large_is_refused_with_the_shape():
    x = gradlab.ones(5, 4, requires_grad=True)
    with pytest.raises(ValueError, match=r"y has shape \[5, 4\] \(20 elements\), more than 16.*smaller example"):
        viz.vjp(x * 2, x, gradlab.ones(5, 4))
    w = gradlab.ones(20, requires_grad=True)
    with pytest.raises(ValueError, match=r"w has shape \[20\] \(20 elements\)"):
        viz.vjp(w.sum(), w, names={"w": w})
    assert w.grad is None and x.grad is None
    assert MAX_ELEMENTS == 16
    viz.vjp(x * 2, x, gradlab.ones(5, 4), max_elements=20)      # a larger limit when asked
    with pytest.raises(TypeError, match="expects the Tensor y"):
        viz.vjp([1.0], x, None)


# --- languages --------------------------------------------------------------------------------------------
# What may stay in Latin letters in Korean and Chinese: identifiers as PyTorch spells them, the tensors' names
_IDENTIFIERS = re.compile(r"backward\(\w*\)|autograd\.grad|retain_graph=True|\.grad(?![A-Za-z])|reshape\(-1\)|\.J(?![A-Za-z])")


@pytest.mark.parametrize("lang,script,term", [("ko", r"[\uac00-\ud7a3]", "야코비안"), ("zh", r"[\u4e00-\u9fff]", "雅可比")])
def test_korean_and_chinese(lang, script, term):
    x = gradlab.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    pages = [viz.jacobian(lambda x: x.exp().sum(0), x, lang=lang)._repr_mimebundle_()["text/html"],
             viz.jacobian(lambda x: x.repeat(3, 3), x, lang=lang, max_shown=4)._repr_mimebundle_()["text/html"],
             viz.vjp(x * x, x, gradlab.ones(2, 2), lang=lang)._repr_mimebundle_()["text/html"],
             viz.vjp((x * x).sum(), x, lang=lang)._repr_mimebundle_()["text/html"]]
    for page in pages:
        assert f'lang="{lang}"' in page and term in page
        text = html.unescape(re.sub(r"<[^>]+>", " ", page))
        text = _IDENTIFIERS.sub(" ", text)
        assert re.search(script, text)
        assert not re.findall(r"[A-Za-z]{2,}", text), re.findall(r"[A-Za-z]{2,}", text)
    assert i18n.get_language() == "en"


# --- the player's start frame -------------------------------------------------------------------------
def test_player_starts_with_the_vjp_panel():
    (xg, yg, vg), (xt, yt, vt), _ = vjp_case(FUNCTIONS["flip"], (3,), 5)
    player = viz.animate_backward(yg, gradient=vg, names={"x": xg, "y": yg, "v": vg})
    yt.backward(vt)
    np.testing.assert_allclose(xg.grad.numpy(), xt.grad.numpy(), rtol=1e-6)
    data = player.recording.vjp
    np.testing.assert_allclose(data.inputs[0].result, xt.grad.numpy(), rtol=1e-6)
    first, rest = player.frames_html[0], player.frames_html[1:]
    assert "gradlab-vjp" in first and not any("gradlab-vjp" in h for h in rest)
    cells = html_numbers(first.split('class="gradlab-start-vjp"')[1])
    assert cells == [number_text(v) for v in
                     list(vg.numpy()) + list(data.inputs[0].J.reshape(-1)) + list(data.inputs[0].result)]
    assert "adds into x.grad" in first


def test_player_without_the_panel():
    """No gradient=, a large tensor, or a bad v: no panel, and the real backward reports its own error."""
    x = gradlab.ones(3, requires_grad=True)
    assert viz.animate_backward((x * x).sum()).recording.vjp is None
    w = gradlab.ones(7, requires_grad=True)
    assert viz.animate_backward(w * 2, gradient=gradlab.ones(7)).recording.vjp is None
    q = x * 2
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        viz.animate_backward(q, gradient=gradlab.ones(2))


@pytest.mark.parametrize("lang", ["ko", "zh"])
def test_player_panel_in_korean_and_chinese(lang):
    x = gradlab.tensor([1.0, 2.0], requires_grad=True)
    y = x * x.flip(0)
    player = viz.animate_backward(y, gradient=gradlab.tensor([1.0, -1.0]), names={"x": x, "y": y}, lang=lang)
    with i18n.using(lang):
        panel = vjp_html(player.recording.vjp, compact=True)
    assert panel in player.frames_html[0]
    text = html.unescape(re.sub(r"<[^>]+>", " ", panel))
    assert ("벡터-야코비안 곱" if lang == "ko" else "向量-雅可比积") in text
    assert not re.findall(r"[A-Za-z]{2,}", re.sub(r"backward\(\)|\.grad(?![A-Za-z])", " ", text))


def test_a_non_leaf_input_is_said_to_keep_no_grad():
    """vjp with respect to an intermediate tensor: autograd.grad's numbers; backward stores them only
    when that tensor retains its gradient."""
    xg, xt = gradlab.tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 2.0], requires_grad=True)
    hg, ht = xg.exp(), xt.exp()
    yg, yt = hg * hg.flip(0), ht * ht.flip(0)
    v = [1.0, -0.5]
    panel = viz.vjp(yg, hg, gradlab.tensor(v), names={"h": hg, "y": yg})
    (want,) = torch.autograd.grad(yt, ht, torch.tensor(v), retain_graph=True)
    np.testing.assert_allclose(panel.data.inputs[0].result, want.numpy(), rtol=1e-6)
    assert not panel.data.inputs[0].stored
    text = html.unescape(panel._repr_mimebundle_()["text/html"])
    assert "h is not a leaf, so h.grad keeps nothing unless you call h.retain_grad() first" in text
    hg.retain_grad()
    assert viz.vjp(yg, hg, gradlab.tensor(v)).data.inputs[0].stored
    ht.retain_grad()
    yt.backward(torch.tensor(v))
    yg.backward(gradlab.tensor(v))
    np.testing.assert_allclose(hg.grad.numpy(), ht.grad.numpy(), rtol=1e-6)
