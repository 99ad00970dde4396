"""The walk from tensors to plain data (gradlab.viz.graph): what a drawing will show."""
import sys
import warnings

import pytest

import gradlab as torch
from gradlab.viz.graph import Edge, FunctionNode, TensorNode, backward_order, walk


def tutorial():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return dict(x=x, y=y, z=z, out=out)


def by_name(graph, name):
    found = [n for n in graph.nodes if getattr(n, "name", None) == name]
    assert len(found) == 1, (name, found)
    return found[0]


def functions(graph, name):
    return [n for n in graph.functions if n.name == name]


def test_tutorial_graph_nodes_and_kinds():
    v = tutorial()
    g = walk(v["out"], names=v)
    kinds = {n.name: n.kind for n in g.tensors if n.name}
    assert kinds == {"x": "leaf", "y": "intermediate", "z": "intermediate", "out": "output"}
    names = sorted(f.name for f in g.functions)
    assert names == ["AccumulateGrad", "AddBackward0", "MeanBackward0", "MulBackward0", "MulBackward0"]
    assert g.roots == [by_name(g, "out").id]
    # every edge joins two drawn nodes; ids are n0..n{N-1} in order
    ids = [n.id for n in g.nodes]
    assert ids == [f"n{i}" for i in range(len(ids))]
    assert all(e.src in ids and e.dst in ids for e in g.edges)


def test_tutorial_graph_edges():
    v = tutorial()
    g = walk(v["out"], names=v)
    x, y, z, out = (by_name(g, k) for k in ("x", "y", "z", "out"))
    mean, = functions(g, "MeanBackward0")
    add, = functions(g, "AddBackward0")
    acc, = functions(g, "AccumulateGrad")
    edges = {(e.src, e.dst, e.label, e.kind) for e in g.edges}
    assert (mean.id, out.id, None, "grad_fn") in edges          # out.grad_fn is MeanBackward0
    assert (z.id, mean.id, None, "data") in edges                # one input: no slot label
    assert (add.id, y.id, None, "grad_fn") in edges
    assert (x.id, add.id, "self", "data") in edges               # x + 2: two slots, so labelled
    assert (acc.id, x.id, None, "grad_fn") in edges and acc.variable == x.id and acc.kind == "accumulate"
    assert mean.is_grad_fn_of == out.id and add.is_grad_fn_of == y.id and acc.is_grad_fn_of is None
    assert add.constants == [("other", "2")]
    assert len(g.edges) == len(set((e.src, e.dst, e.label) for e in g.edges))


def test_fan_out_y_times_y_has_two_slots():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    w = y * y
    g = walk(w, names={"y": y})
    mul, = functions(g, "MulBackward0")
    into_mul = sorted((e.label, e.kind) for e in g.edges if e.dst == mul.id)
    assert into_mul == [("other", "data"), ("self", "data")]
    assert {e.src for e in g.edges if e.dst == mul.id} == {by_name(g, "y").id}
    # torchviz's view: both edges come from y's grad_fn
    f = walk(w, functions_only=True)
    mul, = functions(f, "MulBackward0")
    add, = functions(f, "AddBackward0")
    assert sorted((e.src, e.label, e.kind) for e in f.edges if e.dst == mul.id) == [
        (add.id, "other", "next"), (add.id, "self", "next")]


def test_diamond_shares_nodes():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x.exp()
    b = a.sin()
    c = a.cos()
    d = b + c
    g = walk(d, names=locals())
    assert len(functions(g, "ExpBackward0")) == 1 and len(functions(g, "AccumulateGrad")) == 1
    a_node = by_name(g, "a")
    assert sorted(g.node(e.dst).name for e in g.edges if e.src == a_node.id) == ["CosBackward0", "SinBackward0"]
    assert len(g.nodes) == 10   # x, AccumulateGrad, Exp, a, Sin, b, Cos, c, Add, d
    assert {n.name for n in g.tensors} == {"x", "a", "b", "c", "d"}


def test_intermediate_tensor_gone_gives_next_edge():
    x = torch.ones(3, requires_grad=True)
    out = (x * 2).sum()          # the product is not kept anywhere
    g = walk(out)
    mul, = functions(g, "MulBackward0")
    summ, = functions(g, "SumBackward0")
    assert Edge(mul.id, summ.id, None, "next") in g.edges
    assert mul.is_grad_fn_of is None
    assert len(g.tensors) == 2


def test_names_pick_short_public_names_and_ignore_non_tensors():
    x = torch.ones(2, requires_grad=True)
    y = x * 3
    names = {"_": y, "_7": y, "__": y, "result": y, "yy": y, "y": y, "x": x, "n": 3, "s": "text", "_private": x}
    g = walk(y, names=names)
    assert by_name(g, "y, yy, result").kind == "output"
    assert by_name(g, "x").kind == "leaf"
    g2 = walk(y, names={"_hidden": y})
    assert g2.tensors[0].name == "_hidden"


def test_values_small_in_full_large_summarized_and_grad_without_warning():
    x = torch.ones(2, 2, requires_grad=True)
    y = (x * 2).sum()
    y.backward()
    big = torch.arange(1000.0).requires_grad_()
    z = big * 1
    z.retain_grad()
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # reading .grad of a non-leaf must not warn
        g = walk([y, z], names=locals())
    xn = by_name(g, "x")
    assert xn.values_text == "[[1., 1.],\n [1., 1.]]"
    assert xn.grad_text == "[[2., 2.],\n [2., 2.]]"
    assert by_name(g, "y").grad_text is None
    bn = by_name(g, "big")
    assert bn.shape == (1000,) and "mean 499.5000" in bn.values_text and "max 999.0000" in bn.values_text
    assert by_name(g, "z").grad_text is None
    assert by_name(g, "x").dtype == "float32"
    assert walk(torch.ones(2, dtype=torch.float64, requires_grad=True)).tensors[0].dtype == "float64"


def test_create_graph_gradients_of_gradients():
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    v = (w ** 3).sum()
    g, = torch.autograd.grad(v, w, create_graph=True)
    h = g.sum()
    graph = walk([v, h], names=locals())
    assert len(functions(graph, "AccumulateGrad")) == 1      # shared leaf, drawn once
    assert len([n for n in graph.tensors if n.name == "w"]) == 1
    assert by_name(graph, "g").kind == "intermediate"
    # second order: the gradient graph leads back to w
    wid = by_name(graph, "w").id
    assert any(e.src == wid for e in graph.edges)
    # backward(create_graph=True): w.grad has a history and is drawn as a gradient
    w2 = torch.tensor([1.0, 2.0], requires_grad=True)
    torch._warnings.WARNED.discard(torch.autograd._CREATE_GRAPH_WARNING)    # (PyTorch warns once a process)
    with pytest.warns(UserWarning, match="reference cycle"):
        (w2 ** 2).sum().backward(create_graph=True)
    graph2 = walk([w2.grad], names={"w2": w2})
    assert graph2.tensors[0].kind == "grad"
    assert by_name(graph2, "w2").grad_text == "[2., 4.]"


def test_stale_saved_tensor_after_in_place_change():
    x = torch.ones(2, 2, requires_grad=True)
    a = x * x               # MulBackward0 saves x twice (both slots need it): stays fresh
    b = a.exp()             # ExpBackward0 saves its result b
    b.mul_(2)               # ... which this changes: version 0 -> 1
    s = b.sum()
    g = walk(s, names=locals(), show_saved=True)
    exp, = functions(g, "ExpBackward0")
    assert exp.saved == [("result", (2, 2), 0, 1, True)]
    assert exp.saved_ids == [by_name(g, "b").id]
    fresh = [f for f in g.functions if f.saved and not any(st[4] for st in f.saved)]
    assert fresh, "the other saved tensors are not stale"
    assert walk(s).functions[0].saved == []          # only with show_saved


def test_saved_edge_for_tensor_not_otherwise_linked():
    x = torch.ones(3, requires_grad=True)
    y = x.exp()      # saves its own output y: drawn as a 'saved' edge y -> ExpBackward0
    g = walk(y, names=locals(), show_saved=True)
    exp, = functions(g, "ExpBackward0")
    assert Edge(by_name(g, "y").id, exp.id, "saved result", "saved") in g.edges
    assert not [e for e in walk(y, names=locals()).edges if e.kind == "saved"]


def test_functions_only_view():
    v = tutorial()
    g = walk(v["out"], names=v, functions_only=True)
    assert all(isinstance(n, FunctionNode) for n in g.nodes)
    assert len(g.nodes) == 5 and len(g.edges) == 5          # acc->add, add->mul (x2), mul->mul, mul->mean
    assert all(e.kind == "next" for e in g.edges)
    acc, = functions(g, "AccumulateGrad")
    assert acc.variable is None and acc.variable_name == "x"


def test_freed_nodes_after_backward():
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    g = walk(y, show_saved=True)
    mul, = functions(g, "MulBackward0")
    assert mul.freed and mul.saved == []


def test_roots_can_be_a_node_and_depth_limited():
    v = tutorial()
    node = v["z"].grad_fn
    g = walk(node, names=v, max_depth=1)
    names = sorted(n.name or "?" for n in g.nodes)
    # itself, z, and the grad_fn of its input: the temporary y*y is gone (x*3 keeps nothing of it
    # alive, as in PyTorch), so the edge runs Function -> Function
    assert names == ["MulBackward0", "MulBackward0", "z"]


def test_leaf_root_and_no_grad_root():
    x = torch.ones(2, requires_grad=True)
    g = walk(x)
    assert [n.kind for n in g.nodes] == ["leaf"]
    c = torch.ones(2)
    g = walk(c)
    assert [n.kind for n in g.nodes] == ["leaf"] and g.notes


def test_custom_function_is_drawn():
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, grad):
            a, = ctx.saved_tensors
            return 2 * a * grad

    x = torch.ones(2, requires_grad=True)
    y = Square.apply(x)
    g = walk(y, names=locals(), show_saved=True)
    fn = g.node(g.roots[0])
    assert fn.kind == "output"
    node = [f for f in g.functions if f.kind == "function"][0]
    assert node.name == y.grad_fn.name() and node.saved[0][0] == "saved_0"


def test_deterministic_ids():
    first = walk(tutorial()["out"])
    second = walk(tutorial()["out"])
    assert [(n.id, type(n).__name__, getattr(n, "name", None)) for n in first.nodes] == \
           [(n.id, type(n).__name__, getattr(n, "name", None)) for n in second.nodes]
    assert first.edges == second.edges


def test_long_chain_no_recursion_and_truncation():
    x = torch.ones(3, requires_grad=True)
    y = x
    for _ in range(3000):          # far beyond the recursion limit
        y = y * 1.0
    g = walk(y, max_nodes=400)
    assert len(g.nodes) == 400 and g.truncated and "max_nodes" in g.notes[0]
    assert "truncated" in g.summary()
    full = walk(y, max_nodes=10_000)
    assert not full.truncated and len(full.functions) == 3001


def test_thousand_node_graph_walks_without_recursion():
    # (a deep graph walked by a loop, not by recursion: the walk works under a recursion limit far below its
    # depth. Its speed is measured in benchmarks/, not here: the machines are shared and noisy)
    x = torch.ones(4, requires_grad=True)
    keep = [x]
    for i in range(500):
        keep.append(keep[-1] * 1.0001)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(150)
    try:
        g = walk(keep[-1], max_nodes=2000)
    finally:
        sys.setrecursionlimit(limit)
    assert len(g.nodes) >= 1000


def test_summary_text():
    v = tutorial()
    g = walk(v["out"])
    assert g.summary() == f"<gradlab graph: {len(g.nodes)} nodes ({len(g.tensors)} tensors, " \
                          f"{len(g.functions)} functions), {len(g.edges)} edges>"
    assert "0x" not in g.summary()


def test_graph_lookup_helpers():
    v = tutorial()
    g = walk(v["out"], names=v)
    assert g.id_of(v["y"]) == by_name(g, "y").id
    assert g.id_of(v["y"].grad_fn) == functions(g, "AddBackward0")[0].id
    assert g.id_of(torch.ones(1)) is None
    assert isinstance(g.node(g.roots[0]), TensorNode)


@pytest.mark.parametrize("bad", [5, None, "out", [torch.ones(2), 3]])
def test_drawing_something_that_is_not_a_graph_says_so(bad):
    with pytest.raises(TypeError, match="draw\\(\\) expects a Tensor, a grad_fn node, or a list of them"):
        walk(bad)


def test_edges_name_their_input_slot_and_the_output_they_read():
    x = torch.ones(2, requires_grad=True)
    a, b = x.unbind(0)
    out = a * b + x.exp().sum()
    g = walk(out, functions_only=True)
    assert [e.id for e in g.edges] == [f"e{i}" for i in range(len(g.edges))]
    for e in g.edges:
        dst, src = g.node(e.dst).node_ref(), g.node(e.src).node_ref()
        assert dst.next_functions[e.input_nr] == (src, e.output_nr)
    mul = functions(g, "MulBackward0")[0]
    assert mul.inputs == ["self", "other"]
    assert sorted(e.output_nr for e in g.edges if e.dst == mul.id) == [0, 1]      # unbind's two outputs


def test_backward_order_puts_senders_first_and_prunes_to_targets():
    x = torch.ones(2, requires_grad=True)
    w = torch.ones(2, requires_grad=True)
    a = x * w
    out = (a * a + a.exp()).sum() + (x * 3).sum()
    g = walk(out, functions_only=True)
    order = backward_order(g)
    assert sorted(order) == sorted(n.id for n in g.functions)
    place = {node_id: k for k, node_id in enumerate(order)}
    assert all(place[e.dst] < place[e.src] for e in g.edges)         # a node runs after all that send to it
    acc_w = next(n.id for n in g.functions if n.kind == "accumulate" and n.node_ref().variable is w)
    pruned = backward_order(g, [acc_w])
    names = [g.node(i).name for i in pruned]
    assert pruned[-1] == acc_w and "ExpBackward0" in names and names.count("AccumulateGrad") == 1
    assert len(pruned) < len(order)                                   # x * 3 and x's AccumulateGrad are gone
