# 자동 미분 문서의 예제처럼: requires_grad_, 훅(hook), no_grad, 그리고 제자리(in-place) 연산 검사.
import torch

torch.manual_seed(0)
x = torch.randn(4, 3)
y = torch.randn(4, 3)
z = torch.randn((4, 3), requires_grad=True)      # 이것만 기울기를 원합니다
a = x * y
print("a.requires_grad:", a.requires_grad)
b = a - z
print("b.requires_grad:", b.requires_grad)

# requires_grad_ 로 나중에 켜기
w = torch.ones(3)
print(w.requires_grad, w.requires_grad_(), w.requires_grad)
out = (w * 2).sum()
out.backward()
print("w.grad =", w.grad)

# 텐서 훅: 기울기를 보고, 바꾸기
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
seen = []
h = v.register_hook(lambda g: seen.append(g.clone()))
h2 = v.register_hook(lambda g: g * 10)
(v ** 2).sum().backward()
print("훅이 본 기울기:", seen, "최종 기울기:", v.grad)
h.remove(); h2.remove()
v.grad = None
(v ** 2).sum().backward()
print("훅 제거 후:", v.grad)

# 중간 텐서의 기울기: retain_grad
p = torch.tensor([0.5, -1.0], requires_grad=True)
q = p.exp()
q.retain_grad()
r = (q * p).sum()
r.backward()
print(q.grad, p.grad, q.is_leaf, p.is_leaf, q.retains_grad)

# grad_fn 에 훅 걸기
s = p * 3
s.grad_fn.register_hook(lambda grad_inputs, grad_outputs: print("MulBackward0 훅:", grad_inputs, grad_outputs))
s.sum().backward()

# no_grad 와 set_grad_enabled, enable_grad, inference_mode
with torch.no_grad():
    t = p * 2
    with torch.enable_grad():
        u = p * 2
print(t.requires_grad, u.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
print((p * 2).requires_grad)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((p * 2).requires_grad)
with torch.inference_mode():
    k = p * 2
print(k.requires_grad)


@torch.no_grad()
def doubler(t):
    return t * 2


print(doubler(p).requires_grad)

# 제자리 연산 검사: 저장된 텐서가 바뀌면 오류
m = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
n = m.sigmoid()
n.mul_(2)
try:
    n.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
m2 = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    m2.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
leaf = m2.detach()
leaf.zero_()
print(m2, leaf, m2._version)
e = m2.exp()
e.add_(1)
try:
    e.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)
print(m2.grad)
