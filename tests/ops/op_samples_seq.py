"""Sample inputs of the sequence models' rows (registered into op_samples.SAMPLES, see op_samples.py): the CTC
loss (_ctc_loss), whose log-probabilities come from a log_softmax, as PyTorch's gradient formula assumes
(through it the gradient is the true one, so gradcheck's finite differences apply); the flash attention
kernel's backward, which PyTorch cannot differentiate (raises=); and nn.utils.rnn's packing of a padded
batch (_pack_padded_sequence)."""
from hypothesis import strategies as st

from op_samples import F, Case, pick, rng, sample, uniform


@sample("_ctc_loss")
def _ctc_loss(draw):
    steps, batch, classes = draw(st.integers(1, 5)), draw(st.integers(1, 3)), draw(st.integers(2, 4))
    r = rng(draw)
    input_lengths = [int(v) for v in r.integers(1, steps + 1, batch)]
    # (at most (length + 1) // 2 labels: an alignment exists even with every label repeated, so the loss
    # is finite and finite differences apply)
    target_lengths = [int(r.integers(0, (n + 1) // 2 + 1)) for n in input_lengths]
    width = max(target_lengths)
    targets = r.integers(1, classes, (batch, width)).tolist()
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    zero_infinity = draw(st.booleans())
    fn = pick(draw, [
        lambda T, x: F(T).ctc_loss(x.log_softmax(2), T.tensor(targets, dtype=T.int64), input_lengths,
                                   target_lengths, reduction=reduction, zero_infinity=zero_infinity),
        lambda T, x: T.ctc_loss(x.log_softmax(2), T.tensor(targets, dtype=T.int64), input_lengths, target_lengths,
                                0, 0, True),
    ])
    return Case(fn, [uniform(draw, (steps, batch, classes))])


@sample("_scaled_dot_product_flash_attention_for_cpu_backward",
        raises="derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not implemented")
def _flash_attention_backward(draw):
    length, source, e = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    return Case(lambda T, q, k, v: T.autograd.grad(F(T).scaled_dot_product_attention(q, k, v).sum(), q,
                                                   create_graph=True)[0],
                [uniform(draw, (1, 2, length, e)), uniform(draw, (1, 2, source, e)), uniform(draw, (1, 2, source, e))])


@sample("_pack_padded_sequence")
def _pack_padded_sequence(draw):
    """nn.utils.rnn's packing of a padded batch (PackPaddedSequenceBackward0), its data tensor."""
    steps, batch = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    trailing = draw(st.sampled_from([(), (2,)]))
    batch_first = draw(st.booleans())
    r = rng(draw)
    lengths = sorted((int(v) for v in r.integers(1, steps + 1, batch)), reverse=True)
    lengths[0] = steps
    shape = ((batch, steps) if batch_first else (steps, batch)) + trailing
    fn = pick(draw, [
        lambda T, x: T.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=batch_first).data,
        lambda T, x: T.nn.utils.rnn.pack_padded_sequence(x, T.tensor(lengths[::-1]), batch_first=batch_first,
                                                         enforce_sorted=False).data,
    ])
    return Case(fn, [uniform(draw, shape)])
