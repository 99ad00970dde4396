"""The backward player (gradlab.viz.player): frames recorded from the real engine, the widget tree,
the exports, and bad input. Checks are on the recorded frames, never on rendered SVG text."""
import html
import re
import shutil
import warnings

import numpy as np
import pytest

import gradlab as torch
from gradlab.autograd import events
from gradlab.viz import animate_backward, record_backward
from gradlab.viz import player as viz_player
from gradlab.viz.player.html import caption_html

HAS_DOT = shutil.which("dot") is not None


def tutorial():
    """The autograd tutorial's graph: out = mean(3 * (x + 2)^2)."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return x, y, z, out


def names_of(**tensors):
    return tensors


# --- recorded frames ------------------------------------------------------------------------------
def test_nodes_run_in_engine_order_one_frame_each():
    x, y, z, out = tutorial()
    frames = record_backward(out, names=names_of(x=x, y=y, z=z, out=out))
    assert frames[0].node is None                      # the start: out's own gradient
    titles = [f.node.title for f in frames[1:]]
    assert titles == ["MeanBackward0", "MulBackward0", "MulBackward0", "AddBackward0", "AccumulateGrad"]
    assert frames[-1].node.name == "torch::autograd::AccumulateGrad"      # grad_fn.name(), exactly
    assert [f.index for f in frames] == list(range(6))
    # the *3 runs before y*y: the engine runs the newest ready node first
    assert frames[2].node.tensor == "z" and frames[3].node.tensor is None
    # each frame's highlighted node is the one running, and it is finished from then on
    for f in frames[1:]:
        assert f.finished[-1] == f.node.id
        state = viz_player.frame_state(_recording(frames), f)
        assert [k for k, v in state["nodes"].items() if v == "run" and not k.startswith("leaf_")] == [f.node.id]


def _recording(frames):
    # the drawing state needs the graph; rebuild it the same way the player does
    x, y, z, out = tutorial()
    return viz_player.record(out, names=names_of(x=x, y=y, z=z, out=out))


def test_gradients_sent_along_each_edge():
    x, y, z, out = tutorial()
    frames = record_backward(out, names=names_of(x=x, y=y, z=z, out=out))
    np.testing.assert_array_equal(frames[1].received[0], np.float32(1.0))
    sent = [[s.value for s in f.sent] for f in frames]
    assert [len(s) for s in sent] == [0, 1, 1, 2, 1, 0]   # the constant 3 and 2 get nothing
    for values, expected in [(sent[1], [0.25]), (sent[2], [0.75]), (sent[3], [2.25, 2.25]), (sent[4], [4.5])]:
        for v, e in zip(values, expected):
            assert v.shape == (2, 2)
            np.testing.assert_allclose(v, np.full((2, 2), e))


def test_y_receives_two_contributions_that_sum_before_add_runs():
    x, y, z, out = tutorial()
    frames = record_backward(out, names=names_of(x=x, y=y, z=z, out=out))
    mul = frames[3]
    assert {s.edge.src for s in mul.sent}     # edges point forward: src receives == {frames[4].node.id}       # both go to AddBackward0
    assert sorted(s.edge.input_nr for s in mul.sent) == [0, 1]
    assert [s.remaining for s in mul.sent] == [1, 0]
    np.testing.assert_allclose(mul.sent[0].buffer_total, np.full((2, 2), 2.25))
    np.testing.assert_allclose(mul.sent[1].buffer_total, np.full((2, 2), 4.5))
    (buffer,) = mul.buffers
    assert buffer.node == frames[4].node.id and buffer.remaining == 0
    assert len(buffer.contributions) == 2
    np.testing.assert_allclose(buffer.total, np.full((2, 2), 4.5))
    # before running, AddBackward0 is shown as collecting; it then receives the sum
    assert frames[4].node.id not in frames[2].waiting and frames[4].node.id in mul.waiting
    np.testing.assert_allclose(frames[4].received[0], np.full((2, 2), 4.5))
    assert "both of its inputs" in mul.caption and "y" in mul.caption and "sum" in mul.caption


def test_leaf_grad_fills_in_and_matches_plain_backward():
    x, y, z, out = tutorial()
    frames = record_backward(out, names=names_of(x=x, y=y, z=z, out=out))
    panels = [f.grads for f in frames]
    assert all(len(p) == 1 and p[0].leaf == "x" for p in panels)
    assert all(p[0].added is None for p in panels[:-1])                  # nothing until AccumulateGrad
    last = panels[-1][0]
    assert last.just_now and last.old is None
    np.testing.assert_array_equal(last.new, np.full((2, 2), 4.5, np.float32))
    np.testing.assert_array_equal(x.grad.numpy(), last.new)
    x2, _, _, out2 = tutorial()
    out2.backward()
    np.testing.assert_array_equal(x.grad.numpy(), x2.grad.numpy())


@pytest.mark.torch
def test_matches_torch():
    real = pytest.importorskip("torch")
    x, y, z, out = tutorial()
    frames = record_backward(out)
    tx = real.ones(2, 2, requires_grad=True)
    ((tx + 2) * (tx + 2) * 3).mean().backward()
    np.testing.assert_allclose(frames[-1].grads[0].new, tx.grad.numpy())


def _program(T, seed):
    """A small random program of ops gradlab and PyTorch share: fan-out, constants, several leaves."""
    rng = np.random.default_rng(seed)
    values = [T.tensor(rng.standard_normal((2, 3)).astype(np.float32), requires_grad=True)
              for _ in range(int(rng.integers(1, 4)))]
    for _ in range(int(rng.integers(2, 8))):
        op, i, j = int(rng.integers(0, 5)), int(rng.integers(len(values))), int(rng.integers(len(values)))
        a, b = values[i], values[j]
        values.append([lambda: a + b, lambda: a * b, lambda: a.tanh(), lambda: a * float(i + 2),
                       lambda: a.exp() * 0.5][op]())
    return values[-1].sum() + values[-2].mean()


def _torch_steps(out):
    """Each node PyTorch's engine runs, in order: (name, grad_outputs, grad_inputs), from node hooks."""
    steps, seen, stack = [], set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        node.register_hook(lambda gi, go, node=node: steps.append((node.name(), go, gi)))
        stack.extend(child for child, _ in node.next_functions)
    out.backward()
    return steps


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(12))
def test_frames_are_the_steps_pytorch_runs(seed):
    """Generated programs: the player's frames are PyTorch's engine steps, in its order (AccumulateGrad
    included: PyTorch runs it as soon as a leaf's gradient is complete), with its values: what each node
    received and what it sent along each edge."""
    real = pytest.importorskip("torch")
    expected = _torch_steps(_program(real, seed))
    frames = record_backward(_program(torch, seed))[1:]
    assert [f.node.name for f in frames] == [name for name, _, _ in expected]
    for frame, (_, grad_outputs, grad_inputs) in zip(frames, expected):
        for got, want in zip(frame.received, grad_outputs):
            np.testing.assert_allclose(got, want.numpy(), rtol=1e-5, atol=1e-6)
        for s in frame.sent:
            np.testing.assert_allclose(s.value, grad_inputs[s.edge.input_nr].numpy(), rtol=1e-5, atol=1e-6)
        assert {s.edge.input_nr for s in frame.sent} == {i for i, g in enumerate(grad_inputs) if g is not None}


def test_player_uses_vizs_own_graph_edges_and_writer():
    """One Edge class in gradlab.viz; edges carry their input slot and ids; names with quotes, backslashes
    and line breaks reach `dot` through the one quoting function and lay out."""
    from gradlab.viz import dot, graph
    x, y, z, out = tutorial()
    rec = viz_player.record(out, names={'we"ird\\name\nx': x, "out": out})
    assert all(type(e) is graph.Edge and e.kind == "next" for e in rec.edges)
    assert [e.id for e in rec.edges] == [f"e{i}" for i in range(len(rec.edges))]
    sent = [s.edge for f in rec.frames for s in f.sent]
    assert all(type(e) is graph.Edge for e in sent) and {e.input_nr for e in sent} == {0, 1}
    source = viz_player.graph_dot(rec)
    assert dot.quote('we"ird\\name\nx\n(leaf)') in source
    if HAS_DOT:
        from gradlab.viz.render import render_svg
        assert render_svg(source, raise_errors=True).count('class="node') == len(rec.nodes) + 1 + len(rec.leaves)


def test_second_animation_starts_from_existing_grad():
    x, y, z, out = tutorial()
    first = animate_backward(out, retain_graph=True, names=names_of(x=x, out=out))
    second = animate_backward(out, names=names_of(x=x, out=out))
    np.testing.assert_allclose(first.frames[-1].grads[0].new, np.full((2, 2), 4.5))
    start, end = second.frames[0].grads[0], second.frames[-1].grads[0]
    np.testing.assert_allclose(start.old, np.full((2, 2), 4.5))
    np.testing.assert_allclose(start.new, np.full((2, 2), 4.5))
    np.testing.assert_allclose(end.old, np.full((2, 2), 4.5))
    np.testing.assert_allclose(end.added, np.full((2, 2), 4.5))
    np.testing.assert_allclose(end.new, np.full((2, 2), 9.0))
    np.testing.assert_allclose(x.grad.numpy(), np.full((2, 2), 9.0))
    assert "4.5 + 4.5 = 9 everywhere" in second.frames[-1].caption
    assert "4.5 + 4.5 = 9 everywhere" in second.frames_html[-1]


def test_ids_and_drawing_are_deterministic():
    a = animate_backward(tutorial()[3])
    b = animate_backward(tutorial()[3])
    assert [f.node and f.node.id for f in a.frames] == [None, "n0", "n1", "n2", "n3", "n4"]
    assert a.dot_source == b.dot_source
    assert [f.caption for f in a.frames] == [f.caption for f in b.frames]


def test_value_text_is_shape_aware():
    assert viz_player.value_text(np.float32(0.25)) == "0.25"
    assert viz_player.value_text(np.full((2, 2), 2.25)) == "2.25 everywhere"
    assert viz_player.value_text(np.array([[1.0, 2.0], [3.0, 4.5]])) == "[[1, 2], [3, 4.5]]"
    assert "shape 10×10" in viz_player.value_text(np.arange(100.0).reshape(10, 10))


# --- the widget ---------------------------------------------------------------------------------------
def test_widget_tree_and_client_side_links():
    widgets = pytest.importorskip("ipywidgets")
    player = animate_backward(tutorial()[3])
    root = player.widget
    assert isinstance(root, widgets.VBox)
    controls, stack = root.children
    kinds = [type(c) for c in controls.children]
    assert widgets.Play in kinds and widgets.IntSlider in kinds and kinds.count(widgets.Button) == 2
    assert isinstance(stack, widgets.Stack) and len(stack.children) == len(player.frames) == 6
    for child, frame in zip(stack.children, player.frames):
        assert isinstance(child, widgets.HTML)
        assert f'class="gradlab-caption">{caption_html(frame)}<' in child.value
    play = next(c for c in controls.children if isinstance(c, widgets.Play))
    slider = next(c for c in controls.children if isinstance(c, widgets.IntSlider))
    link, dlink, step_link = player.links
    from ipywidgets.widgets.widget_link import DirectionalLink, Link
    assert type(link) is Link and type(dlink) is DirectionalLink and type(step_link) is Link
    assert link.source == (play, "value") and link.target == (slider, "value")
    assert dlink.source == (slider, "value") and dlink.target == (stack, "selected_index")
    stepper = next(c for c in controls.children if isinstance(c, widgets.BoundedIntText))
    assert step_link.source == (slider, "value") and step_link.target == (stepper, "value")
    assert (stepper.min, stepper.max) == (0, 5)
    assert (play.min, play.max, slider.min, slider.max) == (0, 5, 0, 5)


def test_text_plain_is_short_and_stable():
    pytest.importorskip("ipywidgets")
    player = animate_backward(tutorial()[3])
    bundle = player._repr_mimebundle_()
    assert bundle["text/plain"] == "<gradlab backward player: 6 steps>" == repr(player)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    # where the widget cannot run (an untrusted notebook, nbviewer): a picture and one line on how to play
    static = bundle["text/html"]
    assert "Run this cell to play" in static and "<svg" not in static
    if HAS_DOT:
        from gradlab.viz.render import svg_from_img_html
        assert svg_from_img_html(static).count('class="node') == player.svg.count('class="node')


@pytest.mark.skipif(not HAS_DOT, reason="needs Graphviz's dot")
def test_graph_is_drawn_once_and_restyled_per_frame():
    player = animate_backward(tutorial()[3])
    graphs = [h.split('<div class="gradlab-graph">')[1] for h in player.frames_html]
    assert all(g == graphs[0] for g in graphs)              # same SVG text, same layout, every frame
    running = viz_player.COLORS["run_fill"]
    for frame, page in zip(player.frames[1:], player.frames_html[1:]):
        assert f"g.gl_{frame.node.id}>path" in page and running in page


# --- exports ----------------------------------------------------------------------------------------
def test_save_html_is_self_contained(tmp_path):
    x, y, z, out = tutorial()
    player = animate_backward(out, names=names_of(x=x, y=y, z=z, out=out))
    path = player.save_html(tmp_path / "player.html")
    page = open(path, encoding="utf-8").read()
    for frame in player.frames:
        assert caption_html(frame) in page          # the sentence, then the chain-rule line in its own box
    assert page.count('class="gl-slide"') == len(player.frames)
    lowered = page.lower()
    assert "http://" not in lowered and "https://" not in lowered and "//cdn" not in lowered
    assert "<script" in lowered and 'type="range"' in lowered


@pytest.mark.skipif(not HAS_DOT, reason="needs Graphviz's dot")
def test_save_gif_has_one_image_per_frame(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    player = animate_backward(tutorial()[3])
    path = player.save_gif(tmp_path / "backward.gif", fps=2)
    with Image.open(path) as gif:
        assert gif.n_frames == len(player.frames)


def test_without_dot_the_player_shows_a_table(tmp_path, monkeypatch):
    pytest.importorskip("PIL.Image")
    monkeypatch.setenv("PATH", str(tmp_path))           # no `dot` anywhere
    player = animate_backward(tutorial()[3])
    assert player.svg is None
    assert all('class="gradlab-table"' in h for h in player.frames_html)
    from PIL import Image
    with Image.open(player.save_gif(tmp_path / "b.gif")) as gif:
        assert gif.n_frames == len(player.frames)


# --- bad input: the engine's errors, before anything runs --------------------------------------------
def _widget_count():
    widgets = pytest.importorskip("ipywidgets")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)      # the registry is all we need here
        return len(widgets.Widget.widgets)


def _plain_backward_error(make, **kwargs):
    with pytest.raises(Exception) as info:
        make().backward(**kwargs)
    return type(info.value), str(info.value)


def _animate_error(t, **kwargs):
    before = _widget_count()
    built = []
    original = viz_player.BackwardPlayer.__init__
    viz_player.BackwardPlayer.__init__ = lambda self, *a, **k: (built.append(1), original(self, *a, **k))[1]
    try:
        with events.record() as log:
            with pytest.raises(Exception) as info:
                animate_backward(t, **kwargs)
    finally:
        viz_player.BackwardPlayer.__init__ = original
    assert log == [] and built == []                     # backward never started, no player
    assert _widget_count() == before                     # no widget was built
    return type(info.value), str(info.value)


def test_no_graph_gives_backwards_error():
    expected = _plain_backward_error(lambda: torch.ones(2) * 2)
    assert expected[1] == "element 0 of tensors does not require grad and does not have a grad_fn"
    assert _animate_error(torch.ones(2) * 2) == expected


def test_non_scalar_without_gradient_gives_backwards_error():
    x = torch.ones(3, requires_grad=True)
    expected = _plain_backward_error(lambda: x * 2)
    assert _animate_error(x * 2) == expected
    assert x.grad is None
    player = animate_backward(x * 2, gradient=torch.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(player.frames[-1].grads[0].new, [2.0, 4.0, 6.0])


def test_freed_graph_gives_backwards_error():
    def fresh():
        x, y, z, out = tutorial()
        out.backward()
        return out
    freed = fresh()
    expected = _plain_backward_error(lambda: freed)
    assert "backward through the graph a second time" in expected[1]
    out = fresh()
    x = out.grad_fn.next_functions[0][0]     # keep a handle: nothing may change below
    kind, message = _animate_error(out)
    # PyTorch's error, then what happened in gradlab's words and what to do
    assert kind is expected[0] and message.startswith(expected[1])
    assert "animate_backward(out) runs out.backward() itself" in message and "retain_graph=True" in message
    assert x is out.grad_fn.next_functions[0][0]


def test_spent_graph_error_shows_no_gradlab_internals():
    import traceback
    x, y, z, out = tutorial()
    out.backward()
    with pytest.raises(RuntimeError) as info:
        animate_backward(out)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert [f.name for f in frames if "gradlab" in f.filename] == ["animate_backward"]
    assert info.value.__suppress_context__


def test_too_large_graph_names_the_options():
    a = torch.ones(3, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    t = b
    for _ in range(320):
        t = t * 1.01
    out = (a * 2).sum() * t.sum()
    kind, message = _animate_error(out)
    assert kind is ValueError
    assert "max_nodes=300" in message and "functions_only=True" in message and "inputs=[" in message
    assert a.grad is None and b.grad is None
    # the subgraph option works: only the part of the graph that leads to `a` is drawn and run
    player = animate_backward(out, inputs=[a], names={"a": a})
    assert [f.node.title for f in player.frames[1:]] == ["MulBackward0", "SumBackward0", "MulBackward0",
                                                         "AccumulateGrad"]
    assert b.grad is None
    np.testing.assert_allclose(a.grad.numpy(), player.frames[-1].grads[0].new)
    np.testing.assert_allclose(a.grad.numpy(), np.full(3, 2 * t.sum().item()), rtol=1e-5)


def test_something_that_is_not_a_tensor_says_so():
    with pytest.raises(TypeError, match=r"animate_backward\(\) expects the Tensor to run backward from, but got int"):
        animate_backward(5)


# --- caption wording ----------------------------------------------------------------------------------
def test_start_caption_tells_an_implicit_gradient_from_a_passed_one():
    x, y, z, out = tutorial()
    implicit = record_backward(out, names=names_of(out=out))[0].caption
    assert "dL/dout = 1" in implicit and "exactly as fast as itself" in implicit
    x, y, z, out = tutorial()
    passed = record_backward(out, gradient=torch.tensor(1.0), names=names_of(out=out))[0].caption
    assert "the gradient you passed" in passed and "as fast as itself" not in passed


def test_names_that_are_not_identifiers_are_bracketed_in_gradients():
    w = torch.ones(2, requires_grad=True)
    loss = (w * 3).sum()
    captions = " ".join(f.caption for f in record_backward(loss, names={"2.bias": w, "loss": loss}))
    assert "dL/d(2.bias)" in captions and "dL/d2.bias" not in captions


def _contrast(a, b):
    def luminance(colour):
        colour = colour.lstrip("#")
        colour = "".join(c * 2 for c in colour) if len(colour) == 3 else colour
        rgb = [int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        r, g, b_ = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_
    hi, lo = sorted([luminance(a), luminance(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_player_text_has_wcag_aa_contrast_in_any_theme():
    """The frame brings its own white background (JupyterLab's dark theme would put #555 text on #111):
    every text colour of the player's CSS and legend reaches 4.5:1 against what it sits on."""
    css = viz_player.BASE_CSS
    assert re.search(r"\.gradlab-frame\{[^}]*background:#fff", css) and "color:#212121" in css
    c = viz_player.COLORS
    text_colours = set(re.findall(r"(?<![-\w])color:(#[0-9a-fA-F]{3,6})", css)) | {c["hot"]}
    backgrounds = ["#fff"] + re.findall(r"background:(#[0-9a-fA-F]{3,6})", css)
    for colour in text_colours:
        assert _contrast(colour, "#fff") >= 4.5, colour
    for background in backgrounds + [c["run_fill"], c["wait_fill"], c["done_fill"], c["idle_fill"]]:
        assert _contrast("#212121", background) >= 4.5, background
    assert _contrast(c["text"], c["idle_fill"]) >= 4.5
    legend = re.search(r"\.gradlab-legend\{[^}]*color:(#[0-9a-fA-F]{3,6})", css).group(1)   # on its swatches
    for swatch in (c["run_fill"], c["wait_fill"], c["done_fill"]):
        assert _contrast(legend, swatch) >= 4.5, swatch


# --- the player in the notebook's language ----------------------------------------------------------
from gradlab.viz import i18n  # noqa: E402

# What may stay in Latin letters in a ko/zh player: identifiers as PyTorch spells them (the Korean and
# Chinese tutorials keep them too), the tensors' own names, and the dL/dx notation.
_IDENTIFIERS = re.compile(r"\w*Backward\d*|AccumulateGrad|grad_fn|backward\(\)|backward|\.grad(?![A-Za-z])|None|"
                          r"dL/d\(?[A-Za-z0-9_. ]+\)?|(?<![A-Za-z])(nan|inf)(?![A-Za-z])")


def _latin_words(text, names):
    text = html.unescape(re.sub(r"<style>.*?</style>|<svg.*?</svg>|<[^>]+>", " ", text, flags=re.S))
    text = _IDENTIFIERS.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", " ", text)
    text = re.sub(r"\b[gL]\b", " ", text)          # "None + g", "call it L"
    return re.findall(r"[A-Za-z]{2,}", text)


def _graphs():
    """Graphs whose captions use every kind of sentence: fan-out, waiting buffers, constants, unnamed
    tensors, an explicit gradient=, accumulation onto an existing .grad, a large tensor."""
    x, y, z, out = tutorial()
    yield out, {}, names_of(x=x, y=y, z=z, out=out)
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    yield (b * b + b).sum(), {}, {}                                       # nobody named, three paths
    w = torch.arange(12.0).reshape(3, 4).requires_grad_()
    q = (w * w).sum(1)
    yield q, {"gradient": torch.tensor([1.0, 2.0, 3.0])}, names_of(w=w, q=q)
    v = torch.ones(2, requires_grad=True)
    v.grad = torch.ones(2)
    s = (v * 3).sum()
    yield s, {}, names_of(v=v, s=s)


def test_every_english_text_has_korean_and_chinese():
    fields = re.compile(r"{(\w*)}")
    for key, texts in i18n.TEXT.items():
        assert set(texts) == set(i18n.LANGUAGES), key
        for lang in ("ko", "zh"):
            assert sorted(fields.findall(texts[lang])) == sorted(fields.findall(texts["en"])), (key, lang)
            assert texts[lang] != texts["en"] or not re.search(r"[A-Za-z]{3,}", _IDENTIFIERS.sub("", fields.sub("", texts["en"])))


@pytest.mark.parametrize("lang", ["ko", "zh"])
def test_no_english_left_in_a_korean_or_chinese_player(lang):
    script = re.compile(r"[\uac00-\ud7a3]" if lang == "ko" else r"[\u4e00-\u9fff]")
    for out, kwargs, names in _graphs():
        player = animate_backward(out, names=names, lang=lang, **kwargs)
        words = set(names) | {n.title for n in player.recording.nodes}
        assert player.lang == lang
        for f, page in zip(player.frames, player.frames_html):
            # a chain-rule line is code (`grad_self = grad * other`): its identifiers stay PyTorch's
            words |= {w for step in f.formulas for w in re.findall(r"[A-Za-z_]\w*", f"grad_{step.slot} {step.text}")}
            assert script.search(f.caption), f.caption
            assert not _latin_words(f.caption, words), (f.caption, _latin_words(f.caption, words))
            assert not _latin_words(page, words), _latin_words(page, words)      # step, panels, details, legend
        assert not _latin_words(player.static_html(), words)
        pytest.importorskip("ipywidgets")
        player.widget
        controls = [player.play.description, player.prev_button.description, player.next_button.description,
                    player.slider.description, player.prev_button.tooltip, player.next_button.tooltip,
                    player.stepper.tooltip]
        for text in controls:
            assert script.search(text) and not _latin_words(text, words), text
        # the graph's own labels ("start of backward", "(leaf)", "into x.grad") too
        labels = " ".join(a or b for a, b in re.findall(r'label=(?:"([^"]*)"|(\w+))', player.dot_source))
        labels = labels.replace("\\n", " ")
        assert not _latin_words(labels, words), _latin_words(labels, words)


def test_language_global_setting_and_default(tmp_path):
    x, y, z, out = tutorial()
    assert i18n.get_language() == "en"
    assert "starts at" in animate_backward(out, names=names_of(out=out), retain_graph=True).frames[0].caption
    from gradlab import viz
    previous = viz.set_language("zh")
    try:
        assert previous == "en" and viz.get_language() == "zh"
        player = viz.animate_backward(out, names=names_of(out=out), retain_graph=True)
        assert "开始" in player.frames[0].caption and "收到" in player.frames[1].caption and player.lang == "zh"
        # an explicit lang= wins over the global setting, and building it leaves the setting alone
        ko = viz.animate_backward(out, names=names_of(out=out), retain_graph=True, lang="ko")
        assert "시작합니다" in ko.frames[0].caption and viz.get_language() == "zh"
        # the exports keep the player's language whatever the setting is when they are made
        viz.set_language("en")
        ko.save_html(tmp_path / "ko.html")
        page = (tmp_path / "ko.html").read_text(encoding="utf-8")
        assert 'lang="ko"' in page and "재생" in page and "다음" in page
        assert "변화도" in ko.static_html() or "역전파" in ko.static_html()
    finally:
        viz.set_language("en")
    with pytest.raises(ValueError, match="lang must be one of"):
        viz.set_language("fr")
    x2, _, _, out2 = tutorial()
    with pytest.raises(ValueError, match="lang must be one of"):
        animate_backward(out2, lang="de")
    assert x2.grad is None                                  # refused before backward ran


def test_korean_and_chinese_use_the_tutorials_terms():
    text = {lang: " ".join(v[lang] for v in i18n.TEXT.values()) for lang in ("ko", "zh")}
    for term in ("변화도", "역전파", "잎 텐서", "누적"):
        assert term in text["ko"], term
    assert "기울기" not in text["ko"]
    for term in ("梯度", "反向传播", "叶子张量", "累加"):
        assert term in text["zh"], term
