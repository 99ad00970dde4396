# title: Autograd 기초 (한국어)
# summary: A Korean study notebook of the autograd tutorial, cell by cell (requires_grad_, grad_fn, backward with a vector, .data, no_grad), then the graph and an animated backward.
# seed: 001_1bb4e034bb4970bc.txt
# language: ko

# %% [markdown]
"""
# Autograd 기초: 자동 미분

이 노트북은 PyTorch autograd 입문 튜토리얼을 정리한 한국어 학습 노트를 코드 셀 하나하나 그대로 따라갑니다.
코드에서 바뀐 것은 첫 줄 `import gradlab as torch` 하나뿐입니다. gradlab은 numpy로 만든 작은 자동 미분
엔진으로, PyTorch와 똑같이 동작하고 똑같이 출력합니다. 그래서 아래 셀들은 튜토리얼과 같은 코드이고,
출력도 PyTorch가 내는 출력과 같습니다.

튜토리얼 셀이 끝난 뒤에는, 튜토리얼이 말로만 설명하는 것을 직접 보여 주는 셀이 몇 개 있습니다:
autograd가 만든 그래프 그림과, 그 그래프를 거꾸로 따라가는 backward의 단계별 재생입니다.
"""

# %% [markdown]
"""
## 텐서 만들기

`requires_grad=True`를 주면, 이 텐서에 가해지는 연산이 모두 기록됩니다. 나중에 이 텐서에 대한
변화도(gradient, 기울기)를 구할 수 있도록 하기 위해서입니다.
"""

# %% tags=["nbval-check-output"]
import gradlab as torch

x = torch.ones(2, 2, requires_grad = True)
print(x)

# %% [markdown]
"""
## 연산을 하면 grad_fn이 생긴다

`x`에 2를 더해서 얻은 `y`는 사용자가 직접 만든 텐서가 아니라 연산의 결과입니다. 그래서 `grad_fn`에
자신을 만든 연산의 역전파 함수(`AddBackward0`)를 가지고 있습니다. 객체 주소(`0x...`)는 실행할 때마다 달라집니다.
"""

# %% tags=["nbval-check-output"]
y = x + 2
print(y)
print(y.grad_fn)

# %% [markdown]
"""
곱셈 두 번과 평균을 더 이어 붙입니다. `z`에는 곱셈(`MulBackward0`)이, 숫자 하나인 `out`에는 평균(`MeanBackward0`)이 기록됩니다.
"""

# %% tags=["nbval-check-output"]
z = y * y * 3
out = z.mean()

print(z, out)

# %% [markdown]
"""
## requires_grad를 나중에 켜기

`requires_grad` 없이 만든 텐서와 그것으로 계산한 결과는 기록되지 않습니다. `requires_grad_(True)`는
이미 있는 텐서의 플래그를 그 자리에서 바꾸고, 그 뒤의 계산(`(a*a).sum()`)에는 `grad_fn`이 붙습니다.
튜토리얼은 여기서 난수를 씁니다. `torch.manual_seed(0)`을 넣어서 실행할 때마다 같은 수가 나오게 했습니다
(gradlab의 난수 생성기는 PyTorch의 것과 같아서, PyTorch에서 시드 0으로 얻는 수와 똑같습니다).
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
a = torch.randn(2,2)
a = ((a*3) / (a-1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a*a).sum()
print(b.grad_fn)

# %% [markdown]
"""
## 역전파

`out`은 값이 하나뿐인 스칼라이므로 `backward()`에 인자가 필요 없습니다. 이 호출이 그래프를 `out`에서
`x`까지 거꾸로 따라가며 미분값을 계산합니다.
"""

# %% tags=["nbval-check-output"]
out.backward() #backprop

# %% [markdown]
"""
결과는 `x.grad`에 쌓입니다. `out = 3(x+2)²`의 평균이므로 각 원소에 대한 미분은 `6(x+2)/4`이고,
`x = 1`에서 4.5가 됩니다.
"""

# %% tags=["nbval-check-output"]
print(x.grad)

# %% [markdown]
"""
## .data 들여다보기

`y.data`는 같은 값을 담고 있지만 그래프와 연결되지 않은 텐서이고, `norm(1)`은 원소 절댓값의 합입니다.
원래 노트북에서는 이 셀이 아래의 셀들보다 나중에 실행되었기 때문에(실행 번호 27) 길이 3짜리 `y`가
출력되어 있습니다. 여기서는 순서대로 실행하므로 지금의 `y`, 즉 `x + 2`가 보입니다. 노트북 끝에서 같은 셀을
한 번 더 실행해 봅니다.
"""

# %% tags=["nbval-check-output"]
print(y)
print(y.data)
print(y.data.norm(1))

# %% [markdown]
"""
## 스칼라가 아닌 결과의 역전파

이번에는 난수 벡터 `x`를 노름(norm)이 1000을 넘을 때까지 계속 두 배로 만듭니다. 몇 번 곱할지는
뽑힌 수에 따라 달라지므로, 그래프의 길이는 코드가 실행되면서 정해집니다.
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
x = torch.randn(3, requires_grad = True)
print(x)
y = x*2
while y.data.norm()<1000:
    y = y*2
print(y)

# %% [markdown]
"""
`y`는 원소가 세 개라서 "y의 미분"이 하나로 정해지지 않습니다. 같은 모양의 벡터 `v`를 `backward`에 넘기면
야코비안 행렬 `J`와의 곱 `v·J`를 계산합니다. `y`의 각 원소는 `x`에 같은 2의 거듭제곱을 곱한 것이므로,
`x.grad`는 그 거듭제곱에 `v`를 곱한 값이 됩니다.
"""

# %% tags=["nbval-check-output"]
v = torch.tensor([0.1, 1.0, 0.0001], dtype = torch.float)
y.backward(v)
print(x.grad)

# %% [markdown]
"""
## 기록 끄기

`with torch.no_grad():` 블록 안에서는 `requires_grad=True`인 텐서로 계산해도 아무것도 기록되지 않습니다.
"""

# %% tags=["nbval-check-output"]
print(x.requires_grad)
print((x ** 2).requires_grad)

with torch.no_grad():
    print((x ** 2).requires_grad)

# %% [markdown]
"""
원래 노트북의 실행 순서처럼, 이제 `.data` 셀을 다시 실행하면 두 배씩 커진 길이 3짜리 `y`가 보입니다.
"""

# %% tags=["nbval-check-output"]
print(y)
print(y.data)
print(y.data.norm(1))

# %% [markdown]
"""
## 튜토리얼이 보여 주지 못한 것

처음의 그래프를 다시 만들어서 텐서마다 이름이 붙도록 한 뒤 그려 봅니다. 네모 상자는
텐서(파란색: 직접 만든 잎 텐서, 초록색: 결과, 흰색: 중간값)이고, 둥근 회색 상자는 역전파 함수(`grad_fn`)입니다.
화살표는 순전파 계산의 방향을 따르고, backward는 이 화살표를 거꾸로, 결과에서 잎 텐서 쪽으로 따라갑니다.
"""

# %%
x = torch.ones(2, 2, requires_grad = True)
y = x + 2
z = y * y * 3
out = z.mean()
from gradlab import viz
viz.set_language("ko")   # 재생기의 설명, 범례, 버튼을 한국어로
viz.draw(out, names=locals())

# %% [markdown]
"""
그림은 직접 따라가 볼 수도 있는 연결로 만들어집니다. 각 역전파 함수의 `next_functions`에는 입력마다
변화도가 다음에 갈 곳이 들어 있습니다(상수 입력이면 `None`).
"""

# %% tags=["nbval-check-output"]
print(out.grad_fn)
print(out.grad_fn.next_functions)
print(y.grad_fn.next_functions)

# %% [markdown]
"""
이제 backward를 한 단계씩 재생해 봅니다. 한 단계는 역전파 함수 하나가 변화도를 받아 입력 쪽으로 넘기는 일이고,
마지막 단계에서 결과가 `x.grad`에 더해집니다. 재생 버튼을 누르거나 슬라이더를 움직여 보세요.
"""

# %%
viz.animate_backward(out, names=locals())

# %% [markdown]
"""
재생기는 실제로 `backward()`를 실행했으므로, `x.grad`에는 위에서 본 것과 같은 4.5가 쌓여 있습니다.
"""

# %% tags=["nbval-check-output"]
print(x.grad)
