# The first lines of most tutorials: pick a device, make a tensor on it.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")
x = torch.ones(2, 3, device=device)
print(x.device, x)
