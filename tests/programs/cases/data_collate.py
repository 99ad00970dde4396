# A collate_fn of our own (padding sentences of different lengths), and what default_collate does.
import torch
from torch.utils.data import DataLoader, Dataset, default_collate

sentences = [[3, 1, 4], [1, 5], [9, 2, 6, 5], [3], [5, 8, 9, 7, 9]]
labels = [0, 1, 1, 0, 1]


class Sentences(Dataset):
    def __len__(self):
        return len(sentences)

    def __getitem__(self, i):
        return torch.tensor(sentences[i]), labels[i]


def pad_batch(batch):
    longest = max(len(tokens) for tokens, _ in batch)
    padded = torch.zeros(len(batch), longest, dtype=torch.long)
    for row, (tokens, _) in enumerate(batch):
        padded[row, :len(tokens)] = tokens
    lengths = torch.tensor([len(tokens) for tokens, _ in batch])
    return padded, lengths, torch.tensor([label for _, label in batch])


torch.manual_seed(3)
for padded, lengths, ys in DataLoader(Sentences(), batch_size=2, shuffle=True, collate_fn=pad_batch):
    print(padded, lengths, ys)

print(default_collate([(1, 2.5), (3, 4.5)]))
print(default_collate([{"a": torch.ones(2), "b": [1, 2]}, {"a": torch.zeros(2), "b": [3, 4]}]))
print(default_collate([torch.arange(3), torch.arange(3, 6)]))
print(default_collate(["x", "y"]))
for batch in DataLoader(Sentences(), batch_size=2):
    print(batch)
