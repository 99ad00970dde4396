# Word vectors trained skip-gram style: each word predicts the words next to it.
import torch
from torch import nn
import torch.nn.functional as F

text = ("the cat sat on the mat the dog sat on the rug the cat ate the fish "
        "the dog ate the bone a cat and a dog sat").split()
vocab = sorted(set(text))
index = {word: i for i, word in enumerate(vocab)}
print(len(text), "words,", len(vocab), "distinct:", vocab)

pairs = []
for pos, word in enumerate(text):
    for offset in (-2, -1, 1, 2):
        if 0 <= pos + offset < len(text):
            pairs.append((index[word], index[text[pos + offset]]))
centers = torch.tensor([c for c, _ in pairs])
contexts = torch.tensor([c for _, c in pairs])
print("pairs:", centers.shape, centers.dtype, "first five:", list(zip(centers[:5].tolist(), contexts[:5].tolist())))

torch.manual_seed(2)


class SkipGram(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.center = nn.Embedding(vocab_size, dim)
        self.context = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, words):
        return self.context(self.center(words))


model = SkipGram(len(vocab), 6)
print(model)
print("embedding weight:", model.center.weight.shape, model.center.weight.requires_grad)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(50):
    logits = model(centers)
    loss = F.cross_entropy(logits, contexts)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f}")

# Only rows of words that appeared get gradient; an unused index keeps zeros.
grad = model.center.weight.grad
print("rows with gradient:", (grad.abs().sum(dim=1) > 0).sum().item(), "of", grad.shape[0])

vectors = model.center.weight.detach()
unit = F.normalize(vectors, dim=1)
similarity = unit @ unit.T
for word in ("cat", "sat", "the"):
    scores = similarity[index[word]].clone()
    scores[index[word]] = -2  # not itself
    best = scores.topk(2)
    print(word, "->", [vocab[i] for i in best.indices.tolist()], best.values.round(decimals=2))
print(f"cos(cat, dog) = {F.cosine_similarity(vectors[index['cat']], vectors[index['dog']], dim=0).item():.3f}")
print("lookup of a batch:", model.center(torch.tensor([[1, 2], [3, 4]])).shape)
try:
    model.center(torch.tensor([len(vocab)]))
except IndexError as e:
    print("IndexError:", e)
try:
    model.center(torch.tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
