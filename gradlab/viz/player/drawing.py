"""The player's graph: one DOT text (written by viz/dot.py's DotWriter), laid out once by `dot`.

A frame never lays the graph out again: in the browser every node and edge carries a class (gl_n3,
gl_e5) that the frame's <style> block recolours (html.py), so nodes never move between steps. Only the
GIF bakes one frame's colours into the DOT (`frame=`), one `dot -Tpng` per frame.
"""
from ..dot import DotWriter
from ..i18n import t
from .captions import short_value

COLORS = {
    "idle_fill": "#f5f5f5", "idle_line": "#9e9e9e",
    "run_fill": "#ffd54f", "run_line": "#e65100",
    "done_fill": "#c8e6c9", "done_line": "#2e7d32",
    "wait_fill": "#ffe0b2", "wait_line": "#ef6c00",
    "tensor_fill": "#e3f2fd", "tensor_line": "#1565c0",
    "hot": "#bf360c", "text": "#424242",     # hot: 5.6:1 on white (WCAG AA asks 4.5:1)
}


def frame_state(rec, frame):
    """How each node and edge looks at a frame: node kinds run/done/wait; edges hot/sent/unsent.
    Keys are node ids, 'root', 'leaf_<AccumulateGrad id>', and edge ids ('root', 'e3', 'leaf_n4')."""
    nodes, edges = {}, {}
    for node_id in frame.waiting:
        nodes[node_id] = "wait"
    for node_id in frame.finished:
        nodes[node_id] = "done"
    if frame.node is not None:
        nodes[frame.node.id] = "run"
    else:
        nodes["root"] = "run"
        edges["root"] = "hot"
    if frame.index > 0:
        nodes["root"] = "done"
        edges["root"] = "sent"
    for edge_id, at in rec.sent_at.items():
        if at < frame.index:
            edges[edge_id] = "sent"
        elif at == frame.index:
            edges[edge_id] = "hot"
    for p in frame.grads:
        key = "leaf_" + p.node
        if p.just_now:
            nodes[key] = "run"
            edges[key] = "hot"
        elif p.added is not None:
            nodes[key] = "done"
            edges[key] = "sent"
    return {"nodes": nodes, "edges": edges}


def graph_dot(rec, functions_only=False, rankdir="TB", frame=None):
    """DOT text of the backward graph. With `frame`, colours are baked in (for the GIF); without it
    every element carries a class (gl_n3, gl_e5) that a frame's <style> block recolours.
    Edges are drawn the way gradients flow: from the node that sends to the node that receives."""
    c = COLORS
    state = frame_state(rec, frame) if frame is not None else None

    def node_style(key):
        kind = state["nodes"].get(key) if state is not None else None
        if kind is None:
            return {}
        return {"fillcolor": c[kind + "_fill"], "color": c[kind + "_line"], "penwidth": 3 if kind == "run" else 1.5}

    def edge_style(key):
        kind = state["edges"].get(key, "unsent") if state is not None else None
        if kind == "hot":
            return {"color": c["hot"], "fontcolor": c["hot"], "penwidth": 3}
        if kind == "unsent":
            return {"fontcolor": "#ffffff00"}
        return {}

    w = DotWriter("backward")
    w.defaults("graph", {"rankdir": rankdir, "fontname": "Helvetica", "nodesep": 0.5, "ranksep": 0.55,
                         "bgcolor": "white", "pad": 0.2})
    w.defaults("node", {"fontname": "Helvetica", "fontsize": 12, "shape": "box", "style": "rounded,filled",
                        "fillcolor": c["idle_fill"], "color": c["idle_line"], "penwidth": 1.5})
    w.defaults("edge", {"fontname": "Helvetica", "fontsize": 11, "color": c["idle_line"], "fontcolor": c["text"],
                        "penwidth": 1.3})
    if frame is not None:
        w.defaults("graph", {"size": "9,10", "dpi": 96})     # GIF frames: at most ~860x960 px, fast to encode
    tensor_box = {"shape": "box", "style": "filled", "fillcolor": c["tensor_fill"], "color": c["tensor_line"]}
    if not functions_only:
        label = (rec.root_name or t("output")) + "\n" + t("start_of_backward")
        w.node("root", {"label": label, **tensor_box, "class": "gl_root", **node_style("root")})
    for n in rec.nodes:
        if n.is_accumulate:
            label = t("into_grad", leaf=n.tensor or t("the_leaf"))
        else:
            label = n.title + ("\n" + t("grad_fn_of", tensor=n.tensor) if n.tensor else "")
        w.node(n.id, {"label": label, "class": f"gl_{n.id}", **node_style(n.id)})
    if not functions_only:
        if rec.nodes:
            w.edge("root", rec.nodes[0].id, {"label": f" {short_value(rec.root_grad)} ", "class": "gl_eroot",
                                             **edge_style("root")})
        for node_id, leaf in rec.leaves:
            key = "leaf_" + node_id
            w.node(key, {"label": f"{leaf}\n{t('leaf_box')}", **tensor_box, "class": f"gl_{key}", **node_style(key)})
            w.edge(node_id, key, {"label": " .grad ", "style": "dashed", "class": f"gl_e{key}", **edge_style(key)})
    for e in rec.edges:
        value = rec.edge_values.get(e.id)
        label = " " + (short_value(value) if value is not None else "") + " "
        w.edge(e.dst, e.src, {"label": label, "class": f"gl_e{e.id}", **edge_style(e.id)})
    return w.text()
