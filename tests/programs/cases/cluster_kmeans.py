# K-means from scratch: distances with cdist, nearest centre with argmin, new centres with index_add_.
import torch

torch.manual_seed(9)
true_centres = torch.tensor([[0.0, 0.0], [5.0, 5.0], [0.0, 6.0]])
points = torch.cat([c + 0.7 * torch.randn(20, 2) for c in true_centres])
print("points:", points.shape)
k = 3
centres = points[torch.randperm(len(points))[:k]].clone()
print("starting centres:\n", centres)

for it in range(10):
    distances = torch.cdist(points, centres)
    assignment = distances.argmin(dim=1)
    sums = torch.zeros(k, 2).index_add_(0, assignment, points)
    counts = torch.bincount(assignment, minlength=k).float()
    new_centres = sums / counts.unsqueeze(1)
    shift = (new_centres - centres).norm(dim=1).max()
    centres = new_centres
    inertia = distances.gather(1, assignment.unsqueeze(1)).pow(2).sum()
    print(f"iteration {it}: sizes {counts.long().tolist()} inertia {inertia.item():.3f} shift {shift.item():.4f}")
    if shift < 1e-4:
        print("converged")
        break

order = centres[:, 0].argsort()
print("centres (sorted by x):\n", centres[order].round(decimals=2))

# The same averages with scatter_add_ and with one-hot matrix products.
scattered = torch.zeros(k, 2).scatter_add_(0, assignment.unsqueeze(1).expand(-1, 2), points)
one_hot = torch.nn.functional.one_hot(assignment, k).float()
print("scatter_add_ agrees:", torch.allclose(scattered, sums))
print("one-hot product agrees:", torch.allclose(one_hot.T @ points, sums, atol=1e-5))
print("one_hot dtype:", torch.nn.functional.one_hot(assignment, k).dtype)

# cdist is differentiable: move one point towards its centre.
p = points[:1].clone().requires_grad_()
d = torch.cdist(p, centres).min()
d.backward()
print("distance", f"{d.item():.4f}", "grad_fn", d.grad_fn, "grad", p.grad.round(decimals=4))
print("p=1 distances:", torch.cdist(points[:2], centres, p=1).round(decimals=2))
print("pairwise own distance:", torch.cdist(points[:3], points[:3]).diagonal())
try:
    torch.cdist(points, torch.randn(3, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.bincount(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
