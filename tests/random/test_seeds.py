"""The founding documents' autograd snippets (../shared/seeds) print what PyTorch 2.13 prints.

Each snippet is kept as the seed wrote it (``import torch``); the harness runs it
with ``torch`` meaning minitorch and compares the printed text, exceptions
included, with PyTorch 2.13's output recorded below (each float within float32's
tolerance: see printed_numbers.py). Two deliberate differences are normalised:
torch names ``torch.Size`` and the AccumulateGrad node
``torch::autograd::AccumulateGrad``; minitorch says ``minitorch.Size`` and
``AccumulateGrad``. The snippets' output on PyTorch (live where it is installed, else as recorded in
tests/fixtures/torch_answers) must be the text recorded below.
"""
import contextlib
import io
import re
import warnings

import pytest

from printed_numbers import assert_same_printout
from torch_answers import torch_answer

SNIPPETS = {}  # name -> (code, expected output)

SNIPPETS["intermediate_grad_is_none"] = ('''
import torch

A = torch.tensor([1,2,3])
B = torch.tensor([2,3,4.], requires_grad=True)
C = A * B
D = torch.sum(C)

D.backward()
print(C.grad)
''', 'None\n')

SNIPPETS["autograd_grad_of_intermediate"] = ('''
import torch
import torch.autograd as autograd

A = torch.tensor([1,2,3])
B = torch.tensor([2,3,4.], requires_grad=True)
C = A * B
D = torch.sum(C)
C_grad = autograd.grad(D, C, retain_graph=True)
print(C_grad)
''', '(tensor([1., 1., 1.]),)\n')

SNIPPETS["inplace_modification_error"] = ('''
import torch
import torch.autograd as autograd

A = torch.tensor([1,2,3])
B = torch.tensor([2,3,4.], requires_grad=True)
C = A * B + B
D = torch.sum(C)
A[0] = .1
D.backward()
''', 'RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.LongTensor [3]] is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).\n')

SNIPPETS["inplace_before_use_gives_wrong_grad"] = ('''
import torch
import torch.autograd as autograd

A = torch.tensor([1,2,3])
A[0] = .1

B = torch.tensor([2,3,4.], requires_grad=True)

C = A * B + B
D = torch.sum(C)
D.backward()
print(B.grad)
''', 'tensor([1., 3., 4.])\n')

SNIPPETS["second_backward_error"] = ('''
import torch
import torch.autograd as autograd

A = torch.tensor([1,2,3])
A[0] = .1

B = torch.tensor([2,3,4.], requires_grad=True)
# first backward
C = A * B + B
D = torch.sum(C)
D.backward()
print(B.grad)
# second backward
B.grad = None
C.grad = None
D.backward()
print(B.grad)
''', 'tensor([1., 3., 4.])\nRuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.\n')

SNIPPETS["retain_graph_or_rebuild"] = ('''
import torch
import torch.autograd as autograd

A = torch.tensor([1,2,3])
A[0] = .1

B = torch.tensor([2,3,4.], requires_grad=True)

C = A * B + B
D = torch.sum(C)

# first option
D.backward(retain_graph=True)
print(B.grad)

# second option
C = A * B + B
D = torch.sum(C)
B.grad = None
C.grad = None
D.backward()
print(B.grad)
''', 'tensor([1., 3., 4.])\ntensor([1., 3., 4.])\n')

SNIPPETS["no_grad"] = ('''
import torch

A = torch.tensor([1,2,3])
B = torch.tensor([2,3,4.], requires_grad=True)

C = A * B + B
D = torch.sum(C)

print(f"before set no_grad: ", D.requires_grad)

# model.eval()
with torch.no_grad():
    C = A * B + B
    D = torch.sum(C)
    print(f"after set no_grad: ", D.requires_grad)
''', 'before set no_grad:  True\nafter set no_grad:  False\n')

SNIPPETS["leaf_nodes_variable"] = ('''
import torch
from torch.autograd import Variable

A = Variable(torch.randn(10,10)) # this is a leaf node
B = 2 * A # this is not a leaf node
w = Variable(torch.randn(10,10)) # this is a leaf node
C = A.mm(w) # this is not a leaf node
print(A.is_leaf, B.is_leaf, w.is_leaf, C.is_leaf, A.requires_grad, C.requires_grad, C.shape)
''', 'True True True True False False torch.Size([10, 10])\n')

SNIPPETS["print_leaves"] = ('''
import torch
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
print(a, b)
''', 'tensor([2., 3.], requires_grad=True) tensor([6., 4.], requires_grad=True)\n')

SNIPPETS["Q_and_implicit_grad_error"] = ('''
import torch
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
print(repr(Q))
Q.backward()
''', 'tensor([-12.,  65.], grad_fn=<SubBackward0>)\nRuntimeError: grad can be implicitly created only for scalar outputs\n')

SNIPPETS["vector_jacobian_product"] = ('''
import torch
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)
''', 'tensor([True, True])\ntensor([True, True])\n')

SNIPPETS["sum_then_backward"] = ('''
import torch
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
Q.sum().backward()
print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)
''', 'tensor([True, True])\ntensor([True, True])\n')

SNIPPETS["exclusion_from_dag"] = ('''
import torch
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand(5, 5, requires_grad=True)

a = x + y
b = x + z
print(f"Does 'a' require gradients? {a.requires_grad}")
print(f"Does 'b' require gradients? {b.requires_grad}")
''', "Does 'a' require gradients? False\nDoes 'b' require gradients? True\n")

SNIPPETS["numpy_of_tensor_requiring_grad"] = ('''
import torch as T
a = T.tensor(1.0, requires_grad=True)
b = a + a
b.numpy()
''', "RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.\n")

SNIPPETS["no_grad_block_then_graph"] = ('''
import torch as T
x = T.ones(10, requires_grad=True)
with T.no_grad():
    pass
y = x ** 2
z = x ** 3
r = (y + z).sum()
print(r, y.grad_fn, z.grad_fn.next_functions[0][0].variable is x)
r.backward()
print(x.grad)
''', 'tensor(20., grad_fn=<SumBackward0>) <PowBackward0 object at 0x...> True\ntensor([5., 5., 5., 5., 5., 5., 5., 5., 5., 5.])\n')

SNIPPETS["mul_node_and_next_functions"] = ('''
import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c = a * b
print(c.grad_fn.name(), [(None if fn is None else fn.name(), i) for fn, i in c.grad_fn.next_functions])
print(c.is_leaf, a.is_leaf, b.is_leaf, c.requires_grad, b.requires_grad)
c.backward()
print(a.grad, b.grad)
''', "MulBackward0 [('torch::autograd::AccumulateGrad', 0), (None, 0)]\nFalse True True True False\ntensor(3.) None\n")

SNIPPETS["simple_example_grads"] = ('''
import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = torch.tensor(4.0, requires_grad=True)
e = c * d
e.backward()
print(a.grad, b.grad, d.grad)
print(e.grad_fn.next_functions[0][0] is c.grad_fn, type(e.grad_fn.next_functions[1][0]).__name__)
''', 'tensor(12.) tensor(8.) tensor(6.)\nTrue AccumulateGrad\n')

SNIPPETS["inplace_on_saved_input_errors"] = ('''
import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = torch.tensor(4.0, requires_grad=True)
e = c * d
print(c._version)
c += 1
print(c._version)
e.backward()
''', '0\n1\nRuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor []], which is output 0 of Add, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).\n')

SNIPPETS["inplace_on_add_input_is_fine"] = ('''
import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = torch.tensor(4.0, requires_grad=True)
e = c + d
c += 1
e.backward()
print(a.grad, b.grad, d.grad, c.grad_fn.name())
''', 'tensor(3.) tensor(2.) tensor(1.) AddBackward0\n')

SNIPPETS["unbind"] = ('''
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b, c, d = a.unbind()
print(b.grad_fn.name(), b.grad_fn is c.grad_fn is d.grad_fn)
e = b * c * d
print([(fn.name(), i) for fn, i in e.grad_fn.next_functions])
print([(fn.name(), i) for fn, i in e.grad_fn.next_functions[0][0].next_functions])
e.backward()
print(a.grad)
''', "UnbindBackward0 True\n[('MulBackward0', 0), ('UnbindBackward0', 2)]\n[('UnbindBackward0', 0), ('UnbindBackward0', 1)]\ntensor([6., 3., 2.])\n")

SNIPPETS["complicated_example"] = ('''
import torch
a = torch.tensor(2.0)
b = torch.tensor(2.0)
c = a * b
c.requires_grad = True
d = torch.tensor(2.0)
e = d * c
f = torch.tensor(2.0)
g = f * e
h = torch.tensor(2.0, requires_grad=True)
i = g / h
j = i + h
k = j * i
i.retain_grad()
k.backward()
print(c.grad, h.grad, i.grad, i.retains_grad)
print(k.grad_fn.name(), [(fn.name(), n) for fn, n in k.grad_fn.next_functions])
print([(None if fn is None else fn.name(), n) for fn, n in i.grad_fn.next_functions])
m = k.detach()
print(m, m.is_leaf, m.requires_grad, m.grad_fn)
print(k.item(), k.tolist(), k.detach().numpy())
''', "tensor(36.) tensor(-64.) tensor(18.) True\nMulBackward0 [('AddBackward0', 0), ('DivBackward0', 0)]\n[('MulBackward0', 0), ('torch::autograd::AccumulateGrad', 0)]\ntensor(80.) True False None\n80.0 80.0 80.0\n")

SNIPPETS["requires_grad_vs_requires_grad_"] = ('''
import torch
x = torch.ones(2, requires_grad=True)
y = x * 2
print(y.requires_grad_() is y, y.requires_grad)
y.requires_grad = False
''', "True True\nRuntimeError: you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().\n")

SNIPPETS["inference_mode_tensors"] = ('''
import torch as T
w = T.ones(3, requires_grad=True)
with T.inference_mode():
    tmp = T.ones(3) * 2
try:
    out = tmp * w
except Exception:
    print(f"Trying to use intermediate inference_mode tensor outside inference_mode context manager")
with T.inference_mode():
    grad_disabled = tmp * w
new_tmp = T.clone(tmp)
grad_enabled = new_tmp * w
print(grad_disabled.requires_grad, grad_enabled.requires_grad, tmp.is_inference(), new_tmp.is_inference())
grad_enabled.sum().backward()
print(w.grad)
''', 'Trying to use intermediate inference_mode tensor outside inference_mode context manager\nFalse True True False\ntensor([2., 2., 2.])\n')

SNIPPETS["detach_stops_gradient"] = ('''
import torch
l1 = torch.tensor([1., 2.], requires_grad=True)
l2 = torch.tensor([3., 4.], requires_grad=True)
hidden = (l1 * 2).detach()
out = (hidden * l2).sum()
out.backward()
print(l1.grad, l2.grad, hidden.is_leaf, hidden.requires_grad)
''', 'None tensor([2., 4.]) True False\n')


SNIPPETS["inference_mode_in_a_module"] = ('''
import torch as T
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(3, 4)
        self.l2 = nn.Linear(4, 2)

    def _inference_forward(self, X):
        # First var is a inferenced-var
        with T.inference_mode():
            tmp = self.l1(X)
        try:
            # Try to do a non-inference forward pass
            return self.l2(tmp)
        except Exception:
            print(f"Trying to use intermediate inference_mode tensor outside inference_mode context manager")
        # Getting pure-inference
        with T.inference_mode():
            grad_disabled = self.l2(tmp)
        # Convert inferenced-var and allow us to
        # do a normal forward pass
        new_tmp = T.clone(tmp)
        grad_enabled = self.l2(new_tmp)
        return grad_disabled, grad_enabled

net = Net()
grad_disabled, grad_enabled = net._inference_forward(T.ones(5, 3))
print(grad_disabled.requires_grad, grad_disabled.is_inference(), grad_enabled.requires_grad, grad_enabled.grad_fn.name())
grad_enabled.sum().backward()
print(net.l1.weight.grad, net.l2.weight.grad.shape)
''', 'Trying to use intermediate inference_mode tensor outside inference_mode context manager\nFalse True True AddmmBackward0\nNone torch.Size([2, 4])\n')


# The seeds draw their random tensors unseeded, so neither library prints fixed numbers there; seeded with
# manual_seed(0), the same snippets print PyTorch's random numbers (and what is computed from them).

SNIPPETS['seeded_leaf_nodes_variable'] = ('''
import torch
from torch.autograd import Variable

torch.manual_seed(0)
A = Variable(torch.randn(10,10)) # this is a leaf node
w = Variable(torch.randn(10,10)) # this is a leaf node
print(A[0])
print(A.mm(w)[:2, :4])
''', 'tensor([-1.1258, -1.1524, -0.2506, -0.4339,  0.8487,  0.6920, -0.3160, -2.1152,\n         0.3223, -1.2633])\ntensor([[-1.3226, -2.9860, -2.2377,  3.0086],\n        [-3.8806,  0.3303,  1.5444,  1.9555]])\n')

SNIPPETS['seeded_exclusion_from_dag'] = ('''
import torch
torch.manual_seed(0)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand(5, 5, requires_grad=True)
print(x + z)
''', 'tensor([[1.3160, 1.7653, 0.7869, 0.6996, 1.1427],\n        [0.8397, 1.0833, 1.0088, 0.6091, 0.8740],\n        [1.0751, 1.1028, 0.2261, 0.8199, 1.0684],\n        [0.9554, 1.2168, 1.4159, 0.9712, 1.2624],\n        [0.7963, 1.2320, 1.0936, 1.7884, 1.3545]], grad_fn=<AddBackward0>)\n')

SNIPPETS['seeded_finetune_new_classifier'] = ('''
import torch
from torch import nn, optim

torch.manual_seed(0)
classifier = nn.Linear(in_features=1280, out_features=2, bias=True)
optim = optim.SGD(classifier.parameters(), lr=1e-2, momentum=0.9)
x = torch.rand(4, 1280)
y_t = torch.randint(2, (4,))
print(classifier.state_dict()['weight'][0][:10])
loss = nn.functional.cross_entropy(classifier(x), y_t)
loss.backward()
optim.step()
print(y_t, loss)
print(classifier.state_dict()['weight'][0][:10])
''', 'tensor([-0.0002,  0.0150, -0.0230, -0.0206, -0.0108,  0.0075, -0.0006,  0.0222,\n        -0.0025,  0.0074])\ntensor([0, 0, 1, 1]) tensor(0.7132, grad_fn=<NllLossBackward0>)\ntensor([ 0.0002,  0.0150, -0.0226, -0.0202, -0.0119,  0.0087, -0.0003,  0.0225,\n        -0.0020,  0.0083])\n')

SNIPPETS['seeded_random_image_and_labels'] = ('''
import torch
torch.manual_seed(0)
data = torch.rand(1, 3, 64, 64)
labels = torch.rand(1, 1000)
print(data[0, 0, :2, :6])
print(labels[0, :5])
''', 'tensor([[0.4963, 0.7682, 0.0885, 0.1320, 0.3074, 0.6341],\n        [0.7745, 0.4369, 0.5191, 0.6159, 0.8102, 0.9801]])\ntensor([0.5517, 0.5624, 0.4897, 0.1152, 0.3468])\n')


def run_snippet(code: str, torch_module: str) -> str:
    """Run ``code`` with ``torch`` bound to ``torch_module``; return stdout plus a final exception line."""
    if torch_module == "minitorch":
        code = re.sub(r"^import torch\.autograd as autograd$", "import minitorch.autograd as autograd", code, flags=re.M)
        code = re.sub(r"^from torch\.autograd import", "from minitorch.autograd import", code, flags=re.M)
        code = re.sub(r"^import torch as T$", "import minitorch as T", code, flags=re.M)
        code = re.sub(r"^from torch import", "from minitorch import", code, flags=re.M)
        code = re.sub(r"^import torch$", "import minitorch as torch", code, flags=re.M)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(code, {"__name__": "__main__"})
        except Exception as e:  # the seeds show exceptions as part of the output
            print(f"{type(e).__name__}: {e}")
    return re.sub(r"0x[0-9a-f]+", "0x...", buf.getvalue())


def normalise_torch(text: str) -> str:
    return text.replace("torch::autograd::AccumulateGrad", "AccumulateGrad").replace("torch.Size", "minitorch.Size")


# minitorch adds one line to torch's in-place error: where the tensor was changed
ADDED_LINE = re.compile(r"\nIt was last modified by (\S+) at (\S+):(\d+)\.")


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_snippet_prints_what_pytorch_prints(name):
    code, expected = SNIPPETS[name]
    assert_same_printout(ADDED_LINE.sub("", run_snippet(code, "minitorch")), normalise_torch(expected))


def test_inplace_error_names_the_change_and_the_line():
    code, _ = SNIPPETS["inplace_modification_error"]
    found = ADDED_LINE.search(run_snippet(code, "minitorch"))
    line = next(i for i, text in enumerate(code.split("\n"), 1) if text.startswith("A[0] = .1"))
    assert found and found.groups() == ("__setitem__", "<string>", str(line))


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_recorded_output_is_pytorchs(name):
    code, expected = SNIPPETS[name]
    assert_same_printout(torch_answer(lambda torch, code: run_snippet(code, "torch"), code), expected)
