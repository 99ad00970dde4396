# Reading a classifier's output: the top classes, their probabilities, and accuracy.
import torch

torch.manual_seed(0)
classes = ["cat", "dog", "bird", "fish", "frog"]
logits = torch.randn(4, 5)
probs = torch.softmax(logits, dim=1)
print(probs)

top_p, top_i = probs.topk(3, dim=1)
print("top-3 probabilities:\n", top_p)
print("top-3 indices:\n", top_i)
for row, (p, i) in enumerate(zip(top_p, top_i)):
    names = [classes[j] for j in i.tolist()]
    print(f"sample {row}: {names} {[round(v, 4) for v in p.tolist()]}")

result = torch.topk(probs, k=1)
print(result)
print(type(result).__name__, result.values.shape, result.indices.shape)

labels = torch.tensor([1, 0, 3, 2])
pred = probs.argmax(dim=1)
print("predicted:", pred, "correct:", (pred == labels).sum().item())
top3_hit = (top_i == labels.unsqueeze(1)).any(dim=1)
print("top-3 accuracy:", top3_hit.float().mean().item())

smallest = probs.topk(2, dim=1, largest=False)
print(smallest.values)

try:
    probs.topk(6)
except RuntimeError as e:
    print("RuntimeError:", e)
