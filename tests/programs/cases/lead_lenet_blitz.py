# A small convolutional network for 16x16 pictures and three classes: define it, look inside, push a picture
# through, backpropagate an output gradient we choose, then a loss, and check that one SGD step lowers it.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)


class PatchNet(nn.Module):
    """4 maps of 3x3 kernels, pool, 8 maps of 3x3 kernels, pool: 8 maps of 2x2 = 32 numbers, then 32 -> 12 -> 3."""

    def __init__(self):
        super().__init__()
        self.first = nn.Conv2d(1, 4, kernel_size=3)
        self.second = nn.Conv2d(4, 8, kernel_size=3)
        self.head = nn.Sequential(nn.Linear(32, 12), nn.ReLU(), nn.Linear(12, 3))

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.first(x)), 2)       # 16 -> 14 -> 7
        x = F.max_pool2d(F.relu(self.second(x)), 2)      # 7 -> 5 -> 2
        return self.head(torch.flatten(x, 1))


net = PatchNet()
print(net)
weights = list(net.parameters())
print(len(weights), [tuple(w.size()) for w in weights[:2]])
picture = torch.randn(1, 1, 16, 16)
scores = net(picture)
print(scores)
net.zero_grad()
scores.backward(torch.tensor([[1.0, 0.0, -1.0]]))    # the gradient of (score 0 - score 2)
print(net.first.bias.grad)

wanted = torch.tensor([[0.0, 1.0, 0.0]])
mse = nn.MSELoss()
loss = mse(net(picture), wanted)
print(loss)
print(loss.grad_fn)                                  # MSELoss's node
print(loss.grad_fn.next_functions[0][0])             # the last Linear's
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
net.zero_grad()                                      # clear what the first backward left
print(net.second.bias.grad)
loss.backward()
print(net.second.bias.grad)

opt = optim.SGD(net.parameters(), lr=0.05)
opt.zero_grad()
before = mse(net(picture), wanted)
before.backward()
opt.step()
after = mse(net(picture), wanted)
print(f"loss {before.item():.5f} -> {after.item():.5f}", bool(after < before))
