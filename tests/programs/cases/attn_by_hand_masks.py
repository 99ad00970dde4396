# Scaled dot-product attention written by hand: scores, a causal mask with triu and masked_fill, softmax, weighted sum.
import math
import torch
import torch.nn.functional as F

torch.manual_seed(4)
seq_len, d_k = 5, 4
x = torch.randn(1, seq_len, d_k)
W_q = torch.randn(d_k, d_k, requires_grad=True)
W_k = torch.randn(d_k, d_k, requires_grad=True)
W_v = torch.randn(d_k, d_k, requires_grad=True)

Q, K, V = x @ W_q, x @ W_k, x @ W_v
print("Q", Q.shape, Q.grad_fn)
scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
print("scores", scores.shape, scores.grad_fn)

# True above the diagonal: a token may not look at later tokens.
mask = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=1)
print(mask)
masked = scores.masked_fill(mask, float("-inf"))
print("masked grad_fn:", masked.grad_fn)
print(masked[0].isinf())
weights = F.softmax(masked, dim=-1)
print("attention weights (rows sum to 1):")
print(weights[0].detach().round(decimals=3))
print("row sums:", weights.sum(dim=-1).detach().round(decimals=4))
print("upper triangle is exactly zero:", (weights[0][mask] == 0).all().item())
out = weights @ V
print("out", out.shape, out.grad_fn)

# Check against PyTorch's own function.
builtin = F.scaled_dot_product_attention(Q, K, V, is_causal=True)
print("same as scaled_dot_product_attention:", torch.allclose(out, builtin, atol=1e-6))
boolean_keep = ~mask
print("with attn_mask:", torch.allclose(out, F.scaled_dot_product_attention(Q, K, V, attn_mask=boolean_keep), atol=1e-6))

out.sum().backward()
for name, W in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v)):
    print(f"{name}.grad norm {W.grad.norm().item():.4f}")
# The first token only sees itself: its query cannot change its output, whatever W_q is.
print("first row of weights:", weights[0, 0].detach())

# A padding mask: the last two keys are padding.
pad = torch.tensor([False, False, False, True, True])
padded_scores = scores.detach().masked_fill(pad, -1e9)
print(F.softmax(padded_scores, dim=-1)[0].round(decimals=3))

# Mistakes: a float mask in masked_fill, and a mask of the wrong shape.
try:
    scores.masked_fill(mask.float(), 0.0)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    scores.masked_fill(torch.ones(3, 3, dtype=torch.bool), 0.0)
except RuntimeError as e:
    print("RuntimeError:", e)
# Everything masked: softmax of a row of -inf is nan.
print(F.softmax(torch.full((3,), float("-inf")), dim=0))
print(torch.tril(torch.ones(3, 3)), torch.triu(torch.arange(9).reshape(3, 3), diagonal=-1))
