# A Siamese embedding: one network embeds anchors, positives and negatives; TripletMarginLoss, CosineEmbeddingLoss
# and a by-hand contrastive loss pull same-class points together.
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(61)
centres = torch.randn(3, 6) * 2
labels = torch.randint(0, 3, (60,))
points = centres[labels] + 0.5 * torch.randn(60, 6)
print("points", points.shape, "labels", torch.bincount(labels))

net = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 2))
triplet = nn.TripletMarginLoss(margin=1.0)
print(triplet)
optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
gen = torch.Generator().manual_seed(0)


def sample_triplets(n):
    anchors = torch.randint(0, 60, (n,), generator=gen)
    pos, neg = [], []
    for a in anchors.tolist():
        same = (labels == labels[a]).nonzero().flatten()
        other = (labels != labels[a]).nonzero().flatten()
        pos.append(same[torch.randint(len(same), (1,), generator=gen)].item())
        neg.append(other[torch.randint(len(other), (1,), generator=gen)].item())
    return anchors, torch.tensor(pos), torch.tensor(neg)


for step in range(30):
    a, p, n = sample_triplets(16)
    loss = triplet(net(points[a]), net(points[p]), net(points[n]))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 6 == 0:
        print(f"step {step:2d} triplet loss {loss.item():.4f}")

with torch.no_grad():
    emb = net(points)
    d = torch.cdist(emb, emb)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    print(f"mean distance same class {d[same].mean().item():.3f}, other class {d[~same].mean().item():.3f}")
    # nearest neighbour (not itself) has the same label?
    d.fill_diagonal_(float("inf"))
    nn_acc = (labels[d.argmin(dim=1)] == labels).float().mean()
    print(f"1-NN accuracy {nn_acc.item():.3f}")

x1, x2 = torch.randn(4, 3), torch.randn(4, 3)
y = torch.tensor([1, -1, 1, -1])
print(f"CosineEmbeddingLoss {nn.CosineEmbeddingLoss(margin=0.2)(x1, x2, y).item():.4f}")
print("cosine similarity:", F.cosine_similarity(x1, x2).round(decimals=3))
print("pairwise distance:", F.pairwise_distance(x1, x2).round(decimals=3))
print("triplet with swap:", f"{F.triplet_margin_loss(x1, x2, -x2, swap=True).item():.4f}")
print("with a distance function:", f"{nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: 1 - F.cosine_similarity(u, v))(x1, x2, -x2).item():.4f}")
margin = 1.0
dist = F.pairwise_distance(x1, x2)
same_pair = (y == 1).float()
contrastive = (same_pair * dist ** 2 + (1 - same_pair) * F.relu(margin - dist) ** 2).mean()
print(f"contrastive by hand {contrastive.item():.4f}")
try:
    triplet(x1, x2, torch.randn(4, 2))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.CosineEmbeddingLoss()(x1, x2, torch.tensor([1, 0, 1]))
except RuntimeError as e:
    print("RuntimeError:", e)
