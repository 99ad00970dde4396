# Streaming data with an IterableDataset: a generator of noisy samples, batched by DataLoader, plus a sliding-window
# dataset over a time series, ChainDataset, and the errors of asking a stream for its length or an item.
import torch
from torch.utils.data import ChainDataset, DataLoader, Dataset, IterableDataset


class NoisyLine(IterableDataset):
    def __init__(self, n, seed):
        self.n, self.seed = n, seed

    def __iter__(self):
        gen = torch.Generator().manual_seed(self.seed)
        for i in range(self.n):
            x = torch.rand(1, generator=gen) * 4 - 2
            yield x, 3 * x + 1 + 0.1 * torch.randn(1, generator=gen)


stream = NoisyLine(10, seed=7)
for xs, ys in DataLoader(stream, batch_size=4):
    print(xs.shape, ys.shape, xs.flatten().round(decimals=3))
print("iterating twice gives the same data:",
      torch.equal(next(iter(DataLoader(stream, batch_size=4)))[0], next(iter(DataLoader(stream, batch_size=4)))[0]))

model = torch.nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(5):
    for xs, ys in DataLoader(NoisyLine(64, seed=epoch), batch_size=16):
        loss = torch.nn.functional.mse_loss(model(xs), ys)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} w {model.weight.item():.3f} b {model.bias.item():.3f}")


class Windows(Dataset):
    """Each item: `size` past values and the next one, from a 1-d series."""

    def __init__(self, series, size):
        self.series, self.size = series, size

    def __len__(self):
        return len(self.series) - self.size

    def __getitem__(self, i):
        return self.series[i:i + self.size], self.series[i + self.size]


series = torch.sin(torch.linspace(0, 6.28, 20))
windows = Windows(series, 5)
print("windows:", len(windows), windows[0][0].round(decimals=3), f"{windows[0][1].item():.3f}")
print("unfold gives the same:", torch.equal(series.unfold(0, 5, 1)[:-1], torch.stack([w for w, _ in windows])))
for past, nxt in DataLoader(windows, batch_size=6, shuffle=False):
    print(past.shape, nxt.shape)

chained = ChainDataset([NoisyLine(2, seed=1), NoisyLine(3, seed=2)])
print("chained items:", sum(1 for _ in chained))
print("batch_size=None gives samples:", next(iter(DataLoader(stream, batch_size=None)))[0].shape)
try:
    len(NoisyLine(3, 1))
except TypeError as e:
    print("TypeError:", e)
try:
    DataLoader(stream, batch_size=2, shuffle=True)
except ValueError as e:
    print("ValueError:", e)
try:
    NoisyLine(3, 1)[0]
except (TypeError, NotImplementedError) as e:
    print(type(e).__name__ + ":", e)
try:
    len(DataLoader(stream, batch_size=2))
except TypeError as e:
    print("TypeError:", e)
