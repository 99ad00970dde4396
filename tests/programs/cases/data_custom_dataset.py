# A Dataset of our own: __len__ and __getitem__, then batches of it (dicts and tuples are collated).
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        x = torch.tensor([float(idx)])
        return x, x ** 2


class Records(Dataset):
    def __init__(self):
        self.rows = np.arange(12, dtype=np.float32).reshape(6, 2)

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return {"features": self.rows[i], "label": int(i % 2), "weight": 0.5 * i, "name": f"row{i}"}


torch.manual_seed(0)
squares = Squares(7)
print(len(squares), squares[3])
for i, (x, y) in enumerate(DataLoader(squares, batch_size=3, shuffle=True)):
    print(i, x.squeeze(1).tolist(), y.squeeze(1).tolist())

print("drop_last:", [x.shape[0] for x, _ in DataLoader(squares, batch_size=3, drop_last=True)])

for batch in DataLoader(Records(), batch_size=4):
    print(batch["features"], batch["label"], batch["weight"], batch["name"])

no_batching = DataLoader(squares, batch_size=None)
print(next(iter(no_batching)))

print(torch.randn(2))
loader = DataLoader(squares, shuffle=True, sampler=range(7))
