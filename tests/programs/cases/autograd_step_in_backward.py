# Updating each weight as soon as its gradient is complete, inside backward: a hook on every parameter
# that runs after its .grad has been accumulated (so .grad never has to live until the end of the step).
import torch
import torch.nn as nn

torch.manual_seed(3)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
optimizers = {p: torch.optim.SGD([p], lr=0.05) for p in model.parameters()}
order = []


def step_now(param):
    order.append(tuple(param.shape))
    optimizers[param].step()
    optimizers[param].zero_grad()


handles = [p.register_post_accumulate_grad_hook(step_now) for p in model.parameters()]
x = torch.randn(16, 4)
y = x.sum(dim=1, keepdim=True) * 0.5
for epoch in range(5):
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()                    # the hooks step every parameter during backward
    print(f"epoch {epoch}: loss {loss.item():.6f}")
print("update order:", order[:4])
print("grads left:", [p.grad for p in model.parameters()])

for h in handles:
    h.remove()
loss = ((model(x) - y) ** 2).mean()
loss.backward()
print("after remove, grad kept:", model[2].bias.grad)

# what the hook may not be given
for make in (lambda: (model[0].weight * 2).register_post_accumulate_grad_hook(print),
             lambda: torch.zeros(3).register_post_accumulate_grad_hook(print)):
    try:
        make()
    except RuntimeError as e:
        print("RuntimeError:", e)

w = torch.ones(2, requires_grad=True)
for wrong in (lambda t: t.grad * 2, lambda t: 1):      # a hook must return None
    h = w.register_post_accumulate_grad_hook(wrong)
    try:
        (w * 3).sum().backward()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", e)
    h.remove()
print("the gradient still landed:", w.grad)

# autograd.grad writes no .grad, so the hook does not run; backward(inputs=...) runs it for those inputs
v = torch.ones(2, requires_grad=True)
v.register_post_accumulate_grad_hook(lambda t: print("hook sees", t.grad))
torch.autograd.grad((v * v).sum(), v)
(v * w).sum().backward(inputs=[v])
