# Word embeddings, padding and layer normalization, the first steps of a transformer block.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)

vocab = ["<pad>", "the", "cat", "sat", "on", "mat"]
sentences = [["the", "cat", "sat"], ["the", "mat"]]
ids = torch.tensor([[vocab.index(w) for w in s] + [0] * (3 - len(s)) for s in sentences])
print("ids:\n", ids)

emb = nn.Embedding(len(vocab), 4, padding_idx=0)
print(emb)
print("padding row:", emb.weight[0])
vectors = emb(ids)
print("embedded:", vectors.shape, type(vectors.grad_fn).__name__)

norm = nn.LayerNorm(4)
print(norm)
normed = norm(vectors)
print("mean over features ~ 0:", bool(normed.mean(-1).abs().max() < 1e-6))
print("std over features:", normed.std(-1, unbiased=False))
print(type(normed.grad_fn).__name__)

loss = normed.pow(2).sum()
loss.backward()
print("grad of the padding row:", emb.weight.grad[0])
print("grad of 'the':", emb.weight.grad[1])
print("layer norm weight grad:", norm.weight.grad)

# the functional forms
x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]])
print(F.layer_norm(x, (4,)))
print(F.normalize(x, dim=1))
print(F.normalize(x, p=1, dim=0))

pretrained = torch.tensor([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
frozen = nn.Embedding.from_pretrained(pretrained)
print(frozen, frozen.weight.requires_grad, frozen(torch.tensor([2, 1])))

capped = nn.Embedding(3, 2, max_norm=1.0)
print(capped(torch.tensor([0, 1, 2])).norm(dim=1))

gn = nn.GroupNorm(2, 4)
print(gn, gn(torch.arange(16.0).reshape(2, 4, 2)))

try:
    norm(torch.randn(2, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
emb(torch.tensor([6]))
