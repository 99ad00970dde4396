"""The player's words: one caption per frame and the short texts of values, in the active language.

Values are written for people, not as PyTorch prints them: '0.25', '2.25 everywhere', '[[1, 2], [3, 4]]',
or a range with the shape for larger tensors. Every sentence comes from viz/i18n.py (`t(key)`), so a
Korean or Chinese player says the same things in the tutorials' words.
"""
import numpy as np

from ..formulas import result_text
from ..i18n import t


# --- values ---------------------------------------------------------------------------------------
def _num(v):
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    v = float(v)
    if v == 0:
        return "0"
    return f"{v:.4g}"


def _nested(a):
    if a.ndim == 0:
        return _num(a)
    return "[" + ", ".join(_nested(row) for row in a) + "]"


def value_text(a, limit=6):
    """'0.25', '2.25 everywhere', '[[1, 2], [3, 4]]', or a summary for larger tensors."""
    if a is None:
        return "None"
    a = np.asarray(a)
    if a.size == 1 and a.ndim == 0:
        return _num(a)
    if a.size == 0:
        return t("empty")
    flat = a.reshape(-1)
    if np.all(flat == flat[0]):
        return t("everywhere", v=_num(flat[0]))
    if a.size <= limit:
        return _nested(a)
    shape = "×".join(map(str, a.shape))
    return t("range", lo=_num(flat.min()), hi=_num(flat.max()), shape=shape)


def sum_text(terms, total):
    """'4.5 + 4.5 = 9 everywhere' when every term is constant, else each value written out."""
    arrays = [np.asarray(v) for v in terms if v is not None] + [np.asarray(total)]
    constant = all(a.size > 1 and np.all(a.reshape(-1) == a.reshape(-1)[0]) for a in arrays) and \
        len({a.shape for a in arrays}) == 1
    if constant:
        words = ["None" if v is None else _num(np.asarray(v).reshape(-1)[0]) for v in terms]
        return " + ".join(words) + " = " + t("everywhere", v=_num(arrays[-1].reshape(-1)[0]))
    words = ["None" if v is None else value_text(v) for v in terms]
    return " + ".join(words) + f" = {value_text(total)}"


def short_value(a):
    """Edge labels: even shorter."""
    text = value_text(a, limit=4)
    return text if len(text) <= 28 else t("shape", shape="×".join(map(str, np.asarray(a).shape)))


def step_text(frame, n_frames):
    return t("step_start") if frame.index == 0 else t("step_of", i=frame.index, n=n_frames - 1)


# --- captions -------------------------------------------------------------------------------------
def grad_name(tensor_name):
    if not tensor_name:
        return None
    # "dL/d2.bias" would read like a second derivative: a name that is not a plain identifier gets brackets
    return f"dL/d{tensor_name}" if tensor_name.isidentifier() else f"dL/d({tensor_name})"


def start_caption(rec, root_grad):
    """Step 0: where backward starts and with which gradient."""
    name = rec.root_name
    value = value_text(root_grad)
    # "changes exactly as fast as itself" explains the implicit 1 of a scalar; a passed gradient= is the user's
    implicit = np.all(np.asarray(root_grad) == 1) and not rec.gradient_given
    if name:
        if implicit:
            return t("start_implicit_named", name=name, g=grad_name(name), value=value)
        return t("start_given_named", name=name, value=value)
    if implicit:
        return t("start_implicit", value=value)
    return t("start_given", value=value)


def node_caption(rec, frame, accumulated):
    """A node's step: what it received, what it sends where, which buffers now wait for more.
    accumulated: the GradAccumulated event of an AccumulateGrad's step (None when nothing was added)."""
    info = frame.node
    by_id = {n.id: n for n in rec.nodes}
    received = [g for g in frame.received if g is not None]
    rtext = value_text(received[0]) if received else t("nothing")
    own = grad_name(info.tensor)
    got = t("got_named", own=own, value=rtext) if own else t("got_unnamed", value=rtext)

    if info.is_accumulate:
        leaf = next(p for p in frame.grads if p.node == info.id)
        if accumulated is None:
            return t("acc_nothing", got=got, leaf=leaf.leaf)
        old, add, new = accumulated.old, accumulated.added, accumulated.new
        if old is None:
            return t("acc_store", got=got, leaf=leaf.leaf, new=value_text(new))
        return t("acc_add", got=got, leaf=leaf.leaf, sum=sum_text([old, add], new))

    text = t("fn_received", title=info.title, got=got)
    if not frame.sent:
        return text + t("nothing_to_send")
    groups = []                  # ((receiving node id, output_nr), [SentGradient, ...]), in order
    for s in frame.sent:
        key = (s.edge.src, s.edge.output_nr)
        for g in groups:
            if g[0] == key:
                g[1].append(s)
                break
        else:
            groups.append((key, [s]))
    n_inputs = len(info.inputs)
    parts = []
    for (target, _), items in groups:
        tinfo = by_id[target]
        tname = tinfo.tensor
        what = f"{grad_name(tname)} = " if tname else ""
        if len(items) == 1:
            dest = tinfo.title if not tname or tinfo.is_accumulate else t("dest_grad_fn", title=tinfo.title,
                                                                           tensor=tname)
            parts.append(t("send_one", what=what, value=value_text(items[0].value), dest=dest))
        else:
            who = tname or t("output_of", title=tinfo.title)
            both = t("both_inputs") if len(items) == 2 == n_inputs else t("n_inputs", n=len(items))
            same = t("both_are") if len(items) == 2 else t("all_are")
            values = [value_text(s.value) for s in items]
            each = values[0] if len(set(values)) == 1 else t("and_values").join(values)
            parts.append(t("send_many", what=what, each=each, both=both, same=same, who=who,
                           total=value_text(items[-1].buffer_total)))
    text += t("sends_intro") + t("sends_join").join(parts)
    constants = n_inputs - len(frame.sent)
    if constants > 0 and len(frame.sent) >= 1:
        text += t("one_constant") if constants == 1 else t("n_constants", n=constants)
    for (target, _), items in groups:
        if items[-1].remaining > 0:
            tinfo = by_id[target]
            total = value_text(items[-1].buffer_total)
            text += (t("waits_one", title=tinfo.title, total=total) if items[-1].remaining == 1
                     else t("waits_n", title=tinfo.title, total=total, n=items[-1].remaining))
    return text + t("end")


def rule_text(formulas):
    """' Chain rule: grad_self = grad * other = 0.75 * 3 = 2.25.' for the slots that sent a gradient
    (empty when the node has no formula: AccumulateGrad, a custom Function)."""
    lines = [f.line(_result(f)) if f.value is not None else f"grad_{f.slot} = {f.text}" for f in formulas]
    if not lines:
        return ""
    return t("rule", lines=t("rule_join").join(lines))


def _result(step):
    """The formula's value as the input receives it; when broadcasting made the formula's result larger
    than the input, the sum that brings it back is said ('... , summed to 10 values')."""
    text = result_text(step.value, step.constant)
    if step.summed_from is None:
        return text
    return t("summed_to", shape="×".join(map(str, step.summed_from)), result=text)


MAX_PATHS = 8


def paths_text(rec, frames, leaf_id):
    """At a leaf's step, the whole chain rule: dL/dx is the sum, over every path from the output to x, of
    the product of the local factors along it ('0.25 × 3 × 3 × 1 + 0.25 × 3 × 3 × 1 = 4.5': the
    tutorial's 1/4 · 3 · 2y · 1). A factor is what a node sent along an edge over what it received,
    which is the local derivative when every gradient on the path is one repeated number (elementwise
    ops on constant gradients). Empty otherwise, or when the paths are too many to read."""
    received, sent, out_edges = {}, {}, {}
    for f in frames:
        if f.node is None:
            continue
        if f.received and f.received[0] is not None:
            received[f.node.id] = np.asarray(f.received[0])
        for s in f.sent:
            sent[s.edge.id] = np.asarray(s.value)
            out_edges.setdefault(f.node.id, []).append(s.edge)
    start = frames[1].node.id if len(frames) > 1 and frames[1].node is not None else None
    if start is None or start not in received:
        return ""
    paths, stack = [], [(start, [])]
    while stack:                       # (explicit stack; a graph small enough to animate)
        node, factors = stack.pop()
        if node == leaf_id:
            paths.append(factors)
            if len(paths) > MAX_PATHS:
                return ""
            continue
        for edge in out_edges.get(node, ()):
            factor = _factor(sent.get(edge.id), received.get(node))
            if factor is None:
                return ""
            stack.append((edge.src, factors + [factor]))
    if not paths or len(paths) > MAX_PATHS:
        return ""
    total = sum(float(np.prod(p)) for p in paths)
    got = received.get(leaf_id)
    if got is None or not _one_value(got) or not np.isclose(total, float(got.reshape(-1)[0]), rtol=1e-5):
        return ""
    terms = " + ".join(" × ".join(_num(f) for f in p) for p in reversed(paths))
    return t("paths", n=len(paths), terms=terms, total=_num(total))


def _one_value(a):
    flat = a.reshape(-1)
    return flat.size > 0 and bool(np.all(flat == flat[0]))


def _factor(out, into):
    """What a node multiplied the gradient by along one edge, when both are one repeated number."""
    if out is None or into is None or not _one_value(out) or not _one_value(into):
        return None
    a, b = float(out.reshape(-1)[0]), float(into.reshape(-1)[0])
    return None if b == 0 else a / b
