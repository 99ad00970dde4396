# Fit a line with SGD and watch the learning rate decay under a few schedulers.
import torch
from torch import nn

torch.manual_seed(42)
X = torch.linspace(-1, 1, 40).unsqueeze(1)
y = 3 * X - 0.5 + 0.1 * torch.randn(X.shape)

def run(make_scheduler, epochs=8):
    model = nn.Linear(1, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.8)
    scheduler = make_scheduler(optimizer)
    loss_fn = nn.MSELoss()
    print(type(scheduler).__name__)
    for epoch in range(epochs):
        optimizer.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        print(f"epoch {epoch}: lr={scheduler.get_last_lr()[0]:.5f} loss={loss.item():.4f}")
    print("weight", model.weight.data, "bias", model.bias.data)

run(lambda opt: torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5))
run(lambda opt: torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 5], gamma=0.1))
run(lambda opt: torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.8))
run(lambda opt: torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=8, eta_min=0.01))
run(lambda opt: torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda epoch: 1 / (epoch + 1)))
run(lambda opt: torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.2, total_iters=4))
run(lambda opt: torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=8))
