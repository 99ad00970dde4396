# Saving and loading: a model's state_dict, a training checkpoint, a whole model, and a tensor.
import os
import tempfile

import torch
from torch import nn

torch.manual_seed(0)
folder = tempfile.mkdtemp()


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = TinyNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, target = torch.randn(8, 4), torch.randn(8, 1)
for epoch in range(3):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), target)
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")

path = os.path.join(folder, "model_weights.pth")
torch.save(model.state_dict(), path)
restored = TinyNet()
print(restored.load_state_dict(torch.load(path, weights_only=True)))
restored.eval()
print(torch.equal(restored(x), model(x)))
for name, value in torch.load(path).items():
    print(name, value.shape)

checkpoint = os.path.join(folder, "checkpoint.tar")
torch.save({"epoch": 3, "model_state_dict": model.state_dict(), "optimizer_state_dict": optimizer.state_dict(),
            "loss": loss.item()}, checkpoint)
loaded = torch.load(checkpoint, weights_only=True)
print(loaded["epoch"], round(loaded["loss"], 4), list(loaded["optimizer_state_dict"]["param_groups"][0].keys()))

t = torch.arange(6.).reshape(2, 3)
torch.save({"t": t, "row": t[1], "ids": torch.tensor([3, 1, 2])}, os.path.join(folder, "tensors.pt"))
back = torch.load(os.path.join(folder, "tensors.pt"), map_location="cpu")
back["row"][0] = 100.0
print(back["t"], back["ids"], back["row"].storage_offset())

whole = os.path.join(folder, "model.pth")
torch.save(model, whole)
again = torch.load(whole, weights_only=False)
print(again)
print(again(x[:2]))
try:
    torch.load(whole)
except Exception as err:           # weights_only=True refuses a pickled module
    print(type(err).__name__)
    print(err)
start = os.getcwd()
os.chdir(folder)
try:
    torch.save(model, os.path.join("missing", "model.pth"))
finally:
    os.chdir(start)
