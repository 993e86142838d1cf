"""A tour of autograd mechanics: grad_fn, retain_grad, hooks, torch.autograd.grad with create_graph,
no_grad / inference_mode / set_grad_enabled, detach and requires_grad_, printed the way the tutorials do."""
import torch
import torch.nn as nn

x = torch.ones(5)
y = torch.zeros(3)
w = torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [0.7, -0.8, 0.9], [-1.0, 1.1, 1.2], [0.0, 0.3, -0.3]],
                 requires_grad=True)
b = torch.tensor([0.5, -0.5, 0.25], requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print("Gradient function for z =", type(z.grad_fn).__name__)
print("Gradient function for loss =", type(loss.grad_fn).__name__)
print("next functions:", [type(f).__name__ for f, _ in z.grad_fn.next_functions])
loss.backward()
print(w.grad)
print(b.grad)
print("is_leaf:", w.is_leaf, z.is_leaf, "requires_grad:", z.requires_grad)

a = torch.tensor([2.0, 3.0], requires_grad=True)
h = a * a
h.retain_grad()
seen = []
handle = h.register_hook(lambda grad: seen.append(grad.clone()) or grad * 2)
out = (h * torch.tensor([1.0, -1.0])).sum()
out.backward()
print("h.grad:", h.grad, "a.grad:", a.grad, "hook saw:", seen[0])
handle.remove()
a.grad.zero_()
(a * a).sum().backward()
print("after removing the hook:", a.grad)

inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out))
print(f"\nCall after zeroing gradients\n{inp.grad}")

s = torch.tensor(1.5, requires_grad=True)
f = s ** 4 - 2 * s ** 2
(df,) = torch.autograd.grad(f, s, create_graph=True)
(d2f,) = torch.autograd.grad(df, s, create_graph=True)
(d3f,) = torch.autograd.grad(d2f, s)
print("f', f'', f''':", df, d2f, d3f)
print(torch.autograd.grad((s * s).sum(), [s], grad_outputs=torch.tensor(3.0)))

with torch.no_grad():
    z = torch.matmul(x, w) + b
print("no_grad:", z.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    t = w * 2
print("inference_mode:", t.requires_grad, t.is_inference(), torch.is_inference_mode_enabled())
with torch.set_grad_enabled(False):
    print("set_grad_enabled(False):", (w * 2).requires_grad)
z_det = (torch.matmul(x, w) + b).detach()
print("detach:", z_det.requires_grad, z_det.grad_fn)


@torch.no_grad()
def doubler(v):
    return v * 2


print("decorated:", doubler(w).requires_grad)

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, -1.0, 2.0]]))
    model.bias.fill_(0.5)
model.requires_grad_(False)
model.bias.requires_grad_()
grads = []
model.register_full_backward_hook(lambda m, gin, gout: grads.append(gout[0]))
model.bias.register_hook(lambda g: print("bias hook:", g))
data = torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]], requires_grad=True)
model(data).pow(2).sum().backward()
print("weight grad:", model.weight.grad, "bias grad:", model.bias.grad)
print("grad_output seen by module hook:", grads[0])
print("input grad:", data.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.sum().backward(inputs=[x])
print("exp grad:", x.grad, y)
