# Putting values into buckets: searchsorted and bucketize for binning ages.
import torch

edges = torch.tensor([0, 18, 30, 50, 70])
ages = torch.tensor([5, 18, 29, 30, 64, 90])
print(torch.bucketize(ages, edges))
print(torch.bucketize(ages, edges, right=True))
print(torch.searchsorted(edges, ages))
print(torch.searchsorted(edges, ages, side="right"))
print(torch.searchsorted(edges, 42))

sorted_rows = torch.tensor([[1.0, 3.0, 5.0, 7.0], [2.0, 4.0, 6.0, 8.0]])
queries = torch.tensor([[3.0, 6.0], [1.0, 9.0]])
print(torch.searchsorted(sorted_rows, queries))
print(torch.searchsorted(sorted_rows, queries, out_int32=True))

try:
    torch.searchsorted(edges, ages, right=True, side="left")
except RuntimeError as e:
    print("RuntimeError:", e)
