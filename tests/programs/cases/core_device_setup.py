# The setup lines at the top of a training script: pick a device, seed everything, move data and model there.
import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
print("cuda available:", torch.cuda.is_available(), "count:", torch.cuda.device_count())
print("mps available:", torch.backends.mps.is_available(), "built:", torch.backends.mps.is_built())
print("accelerators:", torch.accelerator.device_count(), torch.accelerator.current_accelerator())

torch.manual_seed(42)
torch.cuda.manual_seed(42)
torch.cuda.manual_seed_all(42)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print("cudnn:", torch.backends.cudnn.enabled, torch.backends.cudnn.is_available(), torch.backends.cudnn.version())

dev = torch.device(device)
print(dev, repr(dev), dev.type, dev.index, dev == torch.device("cpu"))
print(torch.device("cuda", 0), repr(torch.device("cuda:1")))

x = torch.rand(2, 3).to(dev)
print(x.device, x.is_cuda, x.is_cpu, x.get_device())
print(x.cpu() is x, x.to("cpu") is x, x.to(dev, torch.float64).dtype)

model = nn.Linear(3, 2).to(device)
print(next(model.parameters()).device)
print(model(x))

y = torch.zeros(2, 2, device=device, dtype=torch.float64)
print(y, y.device)

try:
    x.cuda()
except AssertionError as e:
    print("AssertionError:", e)

try:
    torch.cuda.current_device()
except AssertionError as e:
    print("AssertionError:", e)

try:
    torch.accelerator.current_device_index()
except RuntimeError as e:
    print("RuntimeError:", e)

z = torch.ones(3, device="cuda")
