"""A plain-text drawing of the same graph, for terminals and for readers without Graphviz.

It reads the walked Graph backwards, from each root towards the leaves (the way backward runs):
under a tensor comes the Function that made it (or the leaf's AccumulateGrad); under a Function
come its inputs, labelled with their slot. A node reached a second time (fan-out, diamonds) is
written once and then referred to as "(see above)". Iterative: a stack, no recursion.
"""
from .graph import FunctionNode, TensorNode, walk

_BRANCH, _LAST, _PIPE, _SPACE = "├── ", "└── ", "│   ", "    "


class TextDrawing(str):
    """A str whose repr is itself, so that a notebook cell shows the drawing, not a quoted string."""

    def __repr__(self):
        return str(self)

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


def _one_line(text):
    return " ".join(part.strip() for part in text.split("\n"))


def describe(node):
    """One line for a node."""
    if isinstance(node, TensorNode):
        shape = "scalar" if not node.shape else str(tuple(node.shape))
        parts = [node.name or "(tensor)", node.kind, shape]
        if node.dtype != "float32":
            parts.append(node.dtype)
        line = "  ".join(parts) + "  " + _one_line(node.values_text)
        if node.grad_text is not None:
            line += "  grad " + _one_line(node.grad_text)
        return line
    line = node.name
    extras = [f"{slot} = {text}" for slot, text in node.constants]
    if node.kind == "accumulate" and node.variable is None and node.variable_name:
        extras.append(f"into {node.variable_name}.grad")
    if extras:
        line += "  (" + ", ".join(extras) + ")"
    return line


def _saved_lines(node):
    lines = []
    for slot, shape, saved_v, now_v, stale in getattr(node, "saved", ()):
        state = f"stale (v{now_v} ≠ v{saved_v})" if stale else f"v{saved_v}"
        lines.append(f"saved {slot} {tuple(shape)} {state}")
    if getattr(node, "freed", False):
        lines.append("saved values freed by backward")
    return lines


def tree_text(graph):
    """The text drawing of a walked Graph."""
    children = {n.id: [] for n in graph.nodes}
    for e in graph.edges:
        if e.kind == "grad_fn":                  # Function -> the tensor it made: the Function goes under it
            children[e.dst].append((None, e.src))
        elif e.kind in ("data", "next"):         # input -> Function: the input goes under the Function
            children[e.dst].append((e.label, e.src))
    by_id = {n.id: n for n in graph.nodes}
    lines, seen = [], set()
    # stack of (node id, slot label, prefix for this line, prefix for its children)
    stack = [(rid, None, "", "") for rid in reversed(graph.roots)]
    while stack:
        nid, label, prefix, child_prefix = stack.pop()
        node = by_id[nid]
        text = (f"{label}: " if label else "") + describe(node)
        if nid in seen:
            short = (node.name or "(tensor)") if isinstance(node, TensorNode) else node.name
            lines.append(prefix + (f"{label}: " if label else "") + short + "  (see above)")
            continue
        seen.add(nid)
        lines.append(prefix + text)
        kids = children[nid]
        extra = _saved_lines(node)
        for i, line in enumerate(extra):
            last = i == len(extra) - 1 and not kids
            lines.append(child_prefix + (_LAST if last else _BRANCH) + line)
        for i in reversed(range(len(kids))):
            slot, kid = kids[i]
            last = i == len(kids) - 1
            stack.append((kid, slot, child_prefix + (_LAST if last else _BRANCH),
                          child_prefix + (_SPACE if last else _PIPE)))
    lines.extend(graph.notes)
    return TextDrawing("\n".join(lines))


def tree(root, names=None, show_saved=False, max_nodes=400):
    """A text drawing of the graph behind root (a Tensor, a Node, or a list of them); print it or show it."""
    return tree_text(walk(root, names=names, show_saved=show_saved, max_nodes=max_nodes))
