# A bag-of-words sentiment classifier: nn.EmbeddingBag averages the word vectors of each sentence.
import torch
from torch import nn

reviews = [
    ("great fun great story", 1), ("boring and slow", 0), ("loved it", 1), ("slow boring plot", 0),
    ("great acting loved the story", 1), ("the plot was a mess", 0), ("fun fun fun", 1), ("a boring mess", 0),
]
vocab = {"<unk>": 0}
for sentence, _ in reviews:
    for word in sentence.split():
        vocab.setdefault(word, len(vocab))
print("vocabulary size:", len(vocab))


def encode(sentences):
    """One flat tensor of word ids, plus where each sentence starts (EmbeddingBag's offsets)."""
    ids, offsets = [], []
    for s in sentences:
        offsets.append(len(ids))
        ids.extend(vocab.get(w, 0) for w in s.split())
    return torch.tensor(ids), torch.tensor(offsets)


text, offsets = encode([s for s, _ in reviews])
labels = torch.tensor([label for _, label in reviews])
print("text:", text)
print("offsets:", offsets)

torch.manual_seed(8)
bag = nn.EmbeddingBag(len(vocab), 4, mode="mean")
print(bag)
print("bag output:", bag(text, offsets).shape)
# mean mode is the same as averaging nn.Embedding rows by hand
first = bag.weight[text[:4]].mean(dim=0)
print("first sentence by hand equal:", torch.allclose(first, bag(text, offsets)[0]))
print("sum mode:", nn.EmbeddingBag(len(vocab), 4, mode="sum")(text[:3], torch.tensor([0])).shape)
print("2-d input, no offsets:", bag(torch.tensor([[1, 2], [3, 4]])).shape)


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(len(vocab), 6, mode="mean")
        self.fc = nn.Linear(6, 2)

    def forward(self, text, offsets):
        return self.fc(self.bag(text, offsets))


model = BagClassifier()
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(30):
    logits = model(text, offsets)
    loss = loss_fn(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 6 == 0:
        accuracy = (logits.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch:2d} loss {loss.item():.4f} accuracy {accuracy:.2f}")
print("logits grad_fn:", logits.grad_fn)
print("bag weight grad shape:", model.bag.weight.grad.shape)

model.eval()
with torch.no_grad():
    new_text, new_offsets = encode(["great story", "boring mess", "unknown words here"])
    probs = torch.softmax(model(new_text, new_offsets), dim=1)
for sentence, p in zip(["great story", "boring mess", "unknown words here"], probs):
    print(f"{sentence!r:22} positive with p={p[1].item():.2f}")

try:
    bag(text, torch.tensor([1, 3]))
except (RuntimeError, ValueError) as e:
    print(type(e).__name__ + ":", e)
