# Sentences of different lengths in one batch, as an NLP tutorial does it: words become ids, the id lists are
# padded into one tensor (pad_sequence), packed so the LSTM skips the padding (pack_padded_sequence), and
# unpacked again (pad_packed_sequence). The last hidden state of each sentence is then the one at its own
# last word, which a small classifier of "question or statement" is trained on.
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence

sentences = ["is it raining", "the cat sleeps on the mat", "why", "dogs bark", "are you coming home today",
             "it is late"]
labels = torch.tensor([1, 0, 1, 0, 1, 0])          # 1: a question
vocab = {"<pad>": 0}
for s in sentences:
    for w in s.split():
        vocab.setdefault(w, len(vocab))
print(len(vocab), "words")

ids = [torch.tensor([vocab[w] for w in s.split()]) for s in sentences]
lengths = torch.tensor([len(x) for x in ids])
print(lengths)
padded = pad_sequence(ids, batch_first=True, padding_value=vocab["<pad>"])
print(padded)
print(padded.shape)
print(pad_sequence(ids[:3], padding_side="left"))

torch.manual_seed(0)
embedding = nn.Embedding(len(vocab), 4, padding_idx=0)
lstm = nn.LSTM(4, 5, batch_first=True)
vectors = embedding(padded)
print(vectors.shape)

try:
    pack_padded_sequence(vectors, lengths, batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", e)

packed = pack_padded_sequence(vectors, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes)
print(packed.sorted_indices, packed.unsorted_indices)
print(packed.data.shape, packed.data.grad_fn)

output, (h_n, c_n) = lstm(packed)
print(type(output).__name__, output.data.shape)
unpacked, out_lengths = pad_packed_sequence(output, batch_first=True)
print(unpacked.shape, out_lengths)
print(unpacked[2])                                  # "why": one word, then zeros
last_steps = unpacked[torch.arange(len(ids)), out_lengths - 1]
print(torch.allclose(last_steps, h_n[0]))
print(h_n.shape, h_n.grad_fn)

small = pack_sequence([torch.tensor([1., 2., 3.]), torch.tensor([4., 5.]), torch.tensor([6.])])
print(small)

torch.manual_seed(1)
embedding = nn.Embedding(len(vocab), 4, padding_idx=0)
encoder = nn.GRU(4, 6, batch_first=True, bidirectional=True)
head = nn.Linear(12, 2)
params = list(embedding.parameters()) + list(encoder.parameters()) + list(head.parameters())
optimizer = torch.optim.Adam(params, lr=0.01)
loss_fn = nn.CrossEntropyLoss()
for step in range(30):
    packed = pack_padded_sequence(embedding(padded), lengths, batch_first=True, enforce_sorted=False)
    _, h_n = encoder(packed)
    scores = head(torch.cat([h_n[0], h_n[1]], dim=1))
    loss = loss_fn(scores, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(f"step {step}: loss {loss.item():.4f}")
print(scores.argmax(dim=1), labels)
print(embedding.weight.grad[0])                     # the padding id gets no gradient
