"""What the beginner programs in tests/programs/cases/ found (this round's: autoencoder, GAN, fine-tuning, skip-gram,
EmbeddingBag, hand-written attention, ...), as generated cases against live torch: the same call on both libraries,
compared by exception type and message, or by values."""
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402


def _outcome(fn):
    """What a call did: ('ok', value as numpy or plain Python) or ('error', type name, message)."""
    try:
        value = fn()
    except Exception as e:      # noqa: BLE001  (the exception is the result compared)
        return ("error", type(e).__name__, str(e))
    if hasattr(value, "detach"):
        value = value.detach().numpy()
    return ("ok", value)


def _same(expected, got):
    assert expected[0] == got[0], (expected, got)
    if expected[0] == "error":
        assert got[1:] == expected[1:]
    else:
        np.testing.assert_array_equal(got[1], expected[1])


def _offsets_cases(count=40):
    r = random.Random(3)
    cases = []
    for i in range(count):
        n = r.randint(0, 6)
        bags = r.randint(1, 4)
        offsets = sorted(r.randint(0, n + 1) for _ in range(bags))
        if r.random() < 0.3:
            offsets[0] = r.randint(0, 3)
        cases.append((i, n, offsets, r.choice(["int32", "int64"]), r.choice(["sum", "mean", "max"]),
                      r.random() < 0.3))
    return cases


@pytest.mark.parametrize("case", _offsets_cases(), ids=lambda c: f"{c[0]}-n{c[1]}-{c[2]}-{c[3]}-{c[4]}-last{c[5]}")
def test_embedding_bag_offsets_checks(case):
    """A first offset that is not 0 prints it as PyTorch's 0-d tensor ('[ torch.LongTensor{} ]'); a last offset past
    the input has PyTorch's wording (found by text_embeddingbag_classifier)."""
    _, n, offsets, dtype, mode, last = case
    weight = np.random.default_rng(case[0]).standard_normal((8, 3)).astype(np.float32)

    def call(lib):
        return lib.nn.functional.embedding_bag(
            lib.arange(n, dtype=getattr(lib, dtype)) % 8, lib.tensor(weight), lib.tensor(offsets,
                                                                                         dtype=getattr(lib, dtype)),
            mode=mode, include_last_offset=last)
    _same(_outcome(lambda: call(torch)), _outcome(lambda: call(gradlab)))
