"""The training loop as PyTorch users write it: model, loss, optimizer, DataLoader,
checkpoints and resuming."""
import importlib.util

import numpy as np

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
from minitorch.utils.data import DataLoader, TensorDataset
from locations import EXAMPLES



def load_example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def blobs(n=200, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 2, (n,), generator=g)
    points = torch.randn(n, 2, generator=g) * 0.5 + (labels.float() * 4 - 2).reshape(-1, 1)
    return TensorDataset(points, labels)


def make_model(seed=0):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))


def test_the_classic_loop_learns():
    dataset = blobs()
    loader = DataLoader(dataset, batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(0))
    model = make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(5):
        for x, y in loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
    x, y = dataset.tensors
    accuracy = (model(x).argmax(1) == y).float().mean().item()
    assert accuracy > 0.95 and losses[-1] < losses[0] / 5


def train(model, opt, loader, epochs):
    for _ in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()


def test_resuming_from_a_checkpoint_is_bit_identical(tmp_path):
    dataset = blobs()
    for make_opt in (lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3),
                     lambda p: torch.optim.Adam(p, lr=0.01, amsgrad=True)):
        g = torch.Generator().manual_seed(1)
        model = make_model()
        opt = make_opt(model.parameters())
        loader = DataLoader(dataset, batch_size=16, shuffle=True, generator=g)
        train(model, opt, loader, 2)
        path = tmp_path / "ckpt.pt"
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "rng": g.get_state(), "epoch": 2},
                   path)
        train(model, opt, loader, 2)

        checkpoint = torch.load(path)
        resumed = make_model(seed=123)
        resumed.load_state_dict(checkpoint["model"])
        resumed_opt = make_opt(resumed.parameters())
        resumed_opt.load_state_dict(checkpoint["optimizer"])
        g2 = torch.Generator()
        g2.set_state(checkpoint["rng"])
        train(resumed, resumed_opt, DataLoader(dataset, batch_size=16, shuffle=True, generator=g2), 2)
        assert checkpoint["epoch"] == 2
        for a, b in zip(model.parameters(), resumed.parameters()):
            assert np.array_equal(a.detach().numpy(), b.detach().numpy())


def test_frozen_parameters_stay_bit_identical():
    model = make_model()
    for p in model[0].parameters():
        p.requires_grad = False
    before = [p.detach().numpy().copy() for p in model.parameters()]
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    train(model, opt, DataLoader(blobs(), batch_size=32), 1)
    after = [p.detach().numpy() for p in model.parameters()]
    assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
    assert not np.array_equal(before[2], after[2])


def test_train_mlp_example():
    result = load_example("train_mlp").main(["--epochs", "15", "--samples", "200"])
    assert result["test_accuracy"] > 0.9


def test_gradient_flow_example():
    results = load_example("gradient_flow").main(["--steps", "3"])
    assert results["control"]["changed"] == ["l1.weight", "l1.bias", "l2.weight", "l2.bias"]
    for mode in ("detach", "no_grad", "inference_mode", "optimizer", "manual"):
        assert results[mode]["changed"] == ["l2.weight", "l2.bias"], mode
    assert [results[m]["l1_has_grad"] for m in ("detach", "no_grad", "inference_mode", "optimizer")] == \
        [False, False, False, True]
    ac = results["actor_critic"]
    assert not ac["critic_loss_reached_actor"] and not ac["actor_step_changed_critic"] and ac["actor_changed"]
