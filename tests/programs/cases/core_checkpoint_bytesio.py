# Save a training checkpoint (model, optimizer, epoch, loss) into memory with io.BytesIO, load it back, resume.
import io
import torch
from torch import nn

torch.manual_seed(31)
X = torch.randn(30, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1
model = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()


def train(model, optimizer, epochs):
    for _ in range(epochs):
        loss = loss_fn(model(X), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


loss = train(model, optimizer, 5)
print(f"after 5 epochs: {loss:.4f}")
state = optimizer.state_dict()
print("optimizer state keys:", list(state.keys()))
print("param_groups:", state["param_groups"])
print("state of param 0:", sorted(state["state"][0].keys()), state["state"][0]["step"])
print("exp_avg shape:", state["state"][0]["exp_avg"].shape)

buffer = io.BytesIO()
torch.save({"epoch": 5, "model": model.state_dict(), "optimizer": optimizer.state_dict(), "loss": loss}, buffer)
print("bytes written:", buffer.tell() > 0)
buffer.seek(0)
checkpoint = torch.load(buffer)
print("checkpoint keys:", list(checkpoint))
print("epoch", checkpoint["epoch"], "loss type", type(checkpoint["loss"]).__name__)
print("a loaded tensor:", checkpoint["model"]["2.bias"])

# Resume in fresh objects and check that both runs continue identically.
model2 = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1))
optimizer2 = torch.optim.Adam(model2.parameters(), lr=0.05)
print(model2.load_state_dict(checkpoint["model"]))
optimizer2.load_state_dict(checkpoint["optimizer"])
print("step after load:", optimizer2.state_dict()["state"][0]["step"])
a = train(model, optimizer, 5)
b = train(model2, optimizer2, 5)
print(f"continued: {a:.6f} resumed: {b:.6f} equal: {a == b}")

# Save a single tensor, a list, a view.
buffer = io.BytesIO()
base = torch.arange(10.0)
torch.save([base, base[2:5]], buffer)
buffer.seek(0)
loaded_base, loaded_view = torch.load(buffer)
loaded_view[0] = 100
print("views still share after loading:", loaded_base)
buffer = io.BytesIO()
torch.save(torch.tensor([1, 2, 3], dtype=torch.int16), buffer)
buffer.seek(0)
print(torch.load(buffer, weights_only=True))

# weights_only loading refuses arbitrary Python objects.
class Config:
    lr = 0.1


buffer = io.BytesIO()
torch.save({"config": Config()}, buffer)
buffer.seek(0)
try:
    torch.load(buffer, weights_only=True)
    print("loaded")
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    torch.load(io.BytesIO(b"not a checkpoint"))
except Exception as e:
    print(type(e).__name__ + ":", e)
