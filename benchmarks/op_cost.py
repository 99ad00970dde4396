"""Where the time of one recorded op goes: gradlab next to numpy and PyTorch, per op and per node.

    .venv/bin/python benchmarks/op_cost.py            # about 20 s
    .venv/bin/python benchmarks/op_cost.py --quick    # a few iterations: checks the script runs

The per-op targets of issue 9 (tutorial and chain at 0.6x PyTorch) ask for a recorded op *and*
its backward node in about 3 us together. This script shows what each piece costs on this machine,
so the note can say why those targets are missed: the numpy work is a small part, and the rest is
Python objects and calls that every recorded op needs (a Tensor, a node, its edges, a saved value).

Everything runs on 10-element float32 vectors (the chain workload's size), with timeit (which turns
the garbage collector off while it times), best of 5 repeats.
"""
import argparse
import gc
import os
import sys
import timeit
import weakref

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402

import gradlab  # noqa: E402
from gradlab.autograd.node import SavedTensor  # noqa: E402
from gradlab.ops import OPS  # noqa: E402


def best_us(stmt, namespace, number, setup="pass"):
    """Best time of one execution of stmt, in microseconds."""
    return min(timeit.repeat(stmt, setup, globals=namespace, number=number, repeat=5)) / number * 1e6


def chain_backward_us(lib, n_ops, number):
    """Per node: a plain backward through a chain of n_ops multiplications, built in the setup."""
    ns = {"lib": lib, "np": np, "n": n_ops}
    setup = ("w = lib.tensor(np.full(10, 1.0001, np.float32), requires_grad=True)\n"
             "h = lib.tensor(np.ones(10, np.float32), requires_grad=True)\n"
             "outs = []\n"
             "for _ in range({reps}):\n"
             "    t = h\n"
             "    for _ in range(n): t = t * w\n"
             "    outs.append(t.sum())\n"
             "it = iter(outs)").format(reps=number * 5)
    total = min(timeit.repeat("next(it).backward()", setup, globals=ns, number=number, repeat=5)) / number
    return total / n_ops * 1e6


def tracked_objects(make, n=200):
    """Objects the garbage collector tracks that one call of make() leaves alive (kept results).

    Every such object counts towards the next collection; while a graph is alive they pile up, and
    each full collection walks all of them (and everything else in the process). In the chain
    workload, with torch imported, collections once took more time than gradlab itself."""
    gc.collect()
    gc.disable()
    try:
        keep = []
        before = gc.get_count()[0]
        for _ in range(n):
            keep.append(make())
        return (gc.get_count()[0] - before) / n
    finally:
        gc.enable()


def measure(quick=False):
    number = 200 if quick else 100_000
    a, b = np.ones(10, np.float32), np.full(10, 2.0, np.float32)
    x, y = gradlab.tensor(a), gradlab.tensor(b)
    w = gradlab.tensor(b, requires_grad=True)
    h = gradlab.tensor(a, requires_grad=True) * 1.0          # a non-leaf, as inside a chain
    mul = OPS["mul"]
    ns = dict(np=np, a=a, b=b, x=x, y=y, w=w, h=h, gradlab=gradlab, weakref=weakref,
              SavedTensor=SavedTensor, node_class=mul.node_class, keep=[])
    rows = [
        ("numpy: np.multiply(a, b), the work itself", best_us("np.multiply(a, b)", ns, number)),
        ("gradlab: x * y, nothing recorded", best_us("x * y", ns, number)),
        ("gradlab: h * w, recorded (result kept)", best_us("keep.append(h * w)", ns, number)),
        ("  of which a Tensor object", best_us("gradlab.Tensor._make(a)", ns, number)),
        ("  of which a node object", best_us("node_class()", ns, number)),
        ("  of which a saved value", best_us("SavedTensor(h)", ns, number)),
        ("  of which edges + weak reference to the output",
         best_us("((h.grad_fn, 0), (None, 0)); weakref.ref(h)", ns, number)),
    ]
    ns["keep"].clear()
    objects = [("gradlab: h * w, objects tracked by the garbage collector", tracked_objects(lambda: h * w))]
    n_ops, reps = (50, 5) if quick else (1000, 20)
    rows.append(("gradlab: backward, per MulBackward0 node", chain_backward_us(gradlab, n_ops, reps)))
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        torch.set_num_threads(1)
        tx = torch.tensor(a)
        tw = torch.tensor(b, requires_grad=True)
        th = torch.tensor(a, requires_grad=True) * 1.0
        tns = dict(tx=tx, tw=tw, th=th, keep=[])
        rows.append(("torch: x * y, nothing recorded", best_us("tx * tx", tns, number)))
        rows.append(("torch: h * w, recorded (result kept)", best_us("keep.append(th * tw)", tns, number)))
        rows.append(("torch: backward, per MulBackward0 node", chain_backward_us(torch, n_ops, reps)))
        objects.append(("torch: h * w, objects tracked by the garbage collector", tracked_objects(lambda: th * tw)))
    return rows, objects


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few iterations (checks that it runs)")
    args = parser.parse_args()
    rows, objects = measure(args.quick)
    width = max(len(label) for label, _ in rows + objects)
    for label, us in rows:
        print(f"{label:<{width}}  {us:7.2f} us")
    for label, count in objects:
        print(f"{label:<{width}}  {count:7.1f}")


if __name__ == "__main__":
    main()
