# Character-level language model: an Embedding, an RNN and a Linear layer predict the next character.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)

text = "hello world, hello rnn"
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text])
print("vocab size:", len(chars), "data:", data[:10])


class CharRNN(nn.Module):
    def __init__(self, vocab, emb=8, hidden=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.RNN(emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, h=None):
        out, h = self.rnn(self.embed(x), h)
        return self.head(out), h


model = CharRNN(len(chars))
print(model)
for name, p in model.named_parameters():
    print(f"{name:20s} {tuple(p.shape)}")

x = data[:-1].unsqueeze(0)
y = data[1:].unsqueeze(0)
logits, h = model(x)
print("logits:", logits.shape, "hidden:", h.shape, type(h.grad_fn).__name__)

optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(60):
    logits, _ = model(x)
    loss = F.cross_entropy(logits.view(-1, len(chars)), y.view(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 15 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")

# greedy sampling, one character at a time, carrying the hidden state
with torch.no_grad():
    idx = torch.tensor([[stoi["h"]]])
    h = None
    out = "h"
    for _ in range(12):
        logits, h = model(idx, h)
        idx = logits[:, -1].argmax(dim=-1, keepdim=True)
        out += itos[idx.item()]
print("sample:", out)
print("grad norm of W_hh:", model.rnn.weight_hh_l0.grad.norm().item() > 0)

# a common mistake: passing float indices to the embedding
try:
    model.embed(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
