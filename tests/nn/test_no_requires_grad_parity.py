"""Arguments PyTorch's losses have no derivative for (class weights, soft_margin_loss's target, pos_weight):
one that requires grad is refused when grad mode is on, never given a silent None gradient. Generated cases
(loss x which arguments require grad x grad mode) run under gradlab and under live torch; the outcomes
(whether the result requires grad, or the exception's type and message) must be the same.
"""
import itertools

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

# x: (3, 4) scores, w: 4 class weights, t: 3 class indices, p: (3, 4) probabilities, x4: (1, 4, 2, 2), t4: its targets
LOSSES = [
    "F.nll_loss(x.log_softmax(1), t, weight=w)", "F.nll_loss(x4.log_softmax(1), t4, weight=w)",
    "F.nll_loss(x.log_softmax(1), t, w)", "F.cross_entropy(x, t, weight=w)", "F.cross_entropy(x, p, weight=w)",
    "torch.nn.NLLLoss(weight=w)(x.log_softmax(1), t)", "torch.nn.CrossEntropyLoss(weight=w)(x, t)",
    "F.multi_margin_loss(x, t, weight=w)", "F.soft_margin_loss(x, p)", "F.binary_cross_entropy(x.sigmoid(), p)",
    "F.binary_cross_entropy(x.sigmoid(), p.detach(), weight=p)", "F.binary_cross_entropy_with_logits(x, p)",
    "F.binary_cross_entropy_with_logits(x, p.detach(), weight=p)",
    "F.binary_cross_entropy_with_logits(x, p.detach(), pos_weight=w)",
    "F.binary_cross_entropy_with_logits(x, p.detach(), weight=p, pos_weight=w)",
    "F.multilabel_soft_margin_loss(x, p)", "F.multilabel_soft_margin_loss(x, p.detach(), weight=w)",
    "F.hinge_embedding_loss(x, p)",
]
REQUIRING = ["xwp", "x", "w", "p", "wp", ""]
CASES = list(itertools.product(LOSSES, REQUIRING, (True, False)))


def outcome(module, loss, requiring, grad_mode):
    gen = module.Generator().manual_seed(0)
    x = module.randn(3, 4, generator=gen).requires_grad_("x" in requiring)
    x4 = module.randn(1, 4, 2, 2, generator=gen).requires_grad_("x" in requiring)
    w = module.rand(4, generator=gen).requires_grad_("w" in requiring)
    p = module.rand(3, 4, generator=gen).requires_grad_("p" in requiring)
    namespace = {"torch": module, "F": module.nn.functional, "x": x, "x4": x4, "w": w, "p": p,
                 "t": module.tensor([1, 0, 3]), "t4": module.zeros(1, 2, 2, dtype=module.long)}
    try:
        with module.set_grad_enabled(grad_mode):
            r = eval(loss, namespace)
    except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
        return f"{type(error).__name__}: {error}"
    return r.requires_grad, None if r.grad_fn is None else r.grad_fn.name()


@pytest.mark.parametrize("loss,requiring,grad_mode", CASES)
def test_no_requires_grad_as_torch(loss, requiring, grad_mode):
    assert outcome(gradlab, loss, requiring, grad_mode) == outcome(torch, loss, requiring, grad_mode)
