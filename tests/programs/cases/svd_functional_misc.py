# Odds and ends from the video series' introduction: a module imported as torch.functional, old-style backward
# hooks on a layer, DataParallel on a machine without GPUs.
import torch
import torch.functional as TF
import torch.nn as nn
import torch.nn.functional as F

print(TF.einsum("ij,jk->ik", torch.ones(2, 3), torch.ones(3, 2)))
print(TF.broadcast_tensors(torch.ones(2, 1), torch.zeros(3))[0].shape)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.conv2 = nn.Conv2d(3, 4, 3)
        self.fc = nn.Linear(16, 2)

    def forward(self, x):
        x = F.relu(self.conv2(F.relu(self.conv1(x))))
        return self.fc(x.view(-1, 16))


net = Net()


def printgradnorm(self, grad_input, grad_output):
    print("Inside " + self.__class__.__name__ + " backward")
    print("grad_input size:", grad_input[0].size(), len(grad_input))
    print("grad_output size:", grad_output[0].size())
    print("grad_input norm:", grad_input[0].norm())


net.conv2.register_backward_hook(printgradnorm)
out = net(torch.randn(1, 1, 6, 6))
out.sum().backward()


def printnorm(self, input, output):
    print("Inside " + self.__class__.__name__ + " forward")
    print("input: ", type(input), len(input), "output size:", output.data.size(), output.data.norm())


net.conv1.register_forward_hook(printnorm)
net(torch.randn(1, 1, 6, 6))
model = nn.DataParallel(Net())
print(model)
print(model(torch.randn(2, 1, 6, 6)).shape, model.device_ids)
if torch.cuda.device_count() > 1:
    print("Let's use", torch.cuda.device_count(), "GPUs!")
print(torch.cuda.device_count())
