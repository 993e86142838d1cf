"""The promise of issue 12: after ``manual_seed``, a small CNN training program gives PyTorch's numbers.

The program below is written once against a library ``L`` (PyTorch or minitorch) and run on both: the
freshly built parameters, the dropout masks, the DataLoader's order and the printed losses must agree.
The printed transcript is also recorded from PyTorch 2.13, so the test means something without PyTorch.
"""
import numpy as np

import minitorch
from printed_numbers import assert_same_printout
from torch_answers import torch_answer


def program(L, steps: int = 6):
    """A learner's training loop: random data, a shuffled loader, a CNN with dropout, SGD with momentum."""
    nn, F = L.nn, L.nn.functional
    L.manual_seed(0)
    images = L.randn(40, 1, 10, 10)
    labels = L.randint(0, 3, (40,))
    loader = L.utils.data.DataLoader(L.utils.data.TensorDataset(images, labels, L.arange(40)), batch_size=8,
                                     shuffle=True)
    model = nn.Sequential(nn.Conv2d(1, 6, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25), nn.Flatten(),
                          nn.Linear(6 * 4 * 4, 16), nn.Tanh(), nn.Dropout(0.5), nn.Linear(16, 3))
    params = [p.detach().numpy().copy() for p in model.parameters()]
    masks, order, printed = [], [], []
    model[3].register_forward_hook(lambda m, inp, out: masks.append((out == 0).numpy().copy()))
    optimizer = L.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    step = 0
    while step < steps:
        for x, y, index in loader:
            order.extend(index.tolist())
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            printed.append(f"step {step}: loss {loss.item():.4f}")
            step += 1
            if step == steps:
                break
    return params, masks, order, printed


# PyTorch 2.13's transcript of program(torch).
PYTORCH_PRINTS = ["step 0: loss 1.2771", "step 1: loss 1.2064", "step 2: loss 1.0187", "step 3: loss 1.2233",
                  "step 4: loss 1.2472", "step 5: loss 1.2452"]
PYTORCH_ORDER_HEAD = [2, 32, 0, 21, 34, 25, 13, 38, 9, 28, 36, 7, 15, 27, 33, 37]


def test_printed_losses_and_order_are_pytorchs():
    _, _, order, printed = program(minitorch)
    assert_same_printout("\n".join(printed), "\n".join(PYTORCH_PRINTS))
    assert order[:len(PYTORCH_ORDER_HEAD)] == PYTORCH_ORDER_HEAD


def test_parameters_masks_order_and_losses_equal_pytorchs():
    expected = torch_answer(program)
    got = program(minitorch)
    for a, b in zip(expected[0], got[0], strict=True):  # parameters, bit for bit
        assert a.dtype == b.dtype and np.array_equal(a.view(np.uint32), b.view(np.uint32))
    assert len(expected[1]) == len(got[1]) and all(np.array_equal(a, b) for a, b in zip(expected[1], got[1]))
    assert got[2] == expected[2]
    assert_same_printout("\n".join(got[3]), "\n".join(expected[3]))
