"""A tour of autograd, following the founding tutorials: leaves and grad_fn, next_functions,
vector-Jacobian products, version counters, retain_graph, retain_grad, hooks, detach,
no_grad and inference_mode, and higher-order gradients.

Run: python examples/autograd_tour.py
"""
import minitorch as torch


def section(title: str) -> None:
    print(f"\n== {title}")


def main() -> None:
    section("leaves and the graph")
    a = torch.tensor([2.0, 3.0], requires_grad=True)
    b = torch.tensor([6.0, 4.0], requires_grad=True)
    q = 3 * a ** 3 - b ** 2
    print(q)
    print("q.grad_fn:", q.grad_fn.name(), "is_leaf:", q.is_leaf, "| a.is_leaf:", a.is_leaf)
    for fn, nr in q.grad_fn.next_functions:
        print("  next:", fn.name(), nr, "->", [(None if f is None else f.name(), i) for f, i in fn.next_functions])

    section("backward needs a gradient for a vector output")
    try:
        q.backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
    q.backward(gradient=torch.tensor([1.0, 1.0]))
    print("a.grad == 9a^2:", a.grad == 9 * a ** 2, "| b.grad == -2b:", b.grad == -2 * b)

    section("saved tensors carry versions")
    x = torch.tensor([1, 2, 3])
    w = torch.tensor([2, 3, 4.0], requires_grad=True)
    loss = (x * w + w).sum()
    x[0] = 0  # x was saved by the multiplication
    try:
        loss.backward()
    except RuntimeError as e:
        print("RuntimeError:", str(e).split(". Hint")[0])

    section("the graph is freed after backward unless retain_graph=True")
    loss = (torch.tensor([1, 2, 3]) * w).sum()
    loss.backward(retain_graph=True)
    loss.backward()
    print("w.grad after two backward passes:", w.grad)
    try:
        loss.backward()
    except RuntimeError as e:
        print("RuntimeError:", str(e).split(" (or")[0])

    section("intermediate gradients: retain_grad, hooks, autograd.grad")
    h = torch.tensor(2.0, requires_grad=True)
    i = (torch.tensor(8.0) * 2) / h
    i.retain_grad()
    i.register_hook(lambda g: print("  hook sees dk/di =", g.item()))
    k = (i + h) * i
    k.backward()
    print("dk/di =", i.grad.item(), "dk/dh =", h.grad.item())
    print("autograd.grad:", torch.autograd.grad((w * w).sum(), w))

    section("stopping gradients")
    with torch.no_grad():
        frozen = w * 2
    print("under no_grad:", frozen.requires_grad, "| detached:", (w * 2).detach().requires_grad)
    with torch.inference_mode():
        inf = torch.ones(3) * 2
    try:
        inf * w
    except RuntimeError as e:
        print("RuntimeError:", str(e).split(".")[0])
    print("a clone is a normal tensor again:", (inf.clone() * w).requires_grad)

    section("higher-order gradients")
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    (d1,) = torch.autograd.grad((t ** 3).sum(), t, create_graph=True)
    (d2,) = torch.autograd.grad(d1.sum(), t)
    print("d/dt t^3 =", d1.detach(), "| d2/dt2 t^3 =", d2)


if __name__ == "__main__":
    main()
