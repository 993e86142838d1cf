"""Tutorial-style PyTorch programs (tests/corpus/*.py) run unchanged under ``python -m minitorch``.

Each program draws its random numbers from numpy, or after torch.manual_seed from PyTorch's streams, which
minitorch reproduces bit for bit, so its output is the same on both libraries.
It must print the transcript in tests/corpus/expected/, written by PyTorch (the text exactly, each float
within float32's tolerance: see printed_numbers.py):
``OMP_NUM_THREADS=1 python tests/corpus/NAME.py > tests/corpus/expected/NAME.txt``. Where PyTorch is
installed, the programs run on it again, one after another in one process, to confirm the transcripts.
torchvision does not import beside the PyTorch of this project's machines, so the transcripts of cnn_torchvision
and transfer_learning were written by PyTorch with a minimal stand-in for the parts they use (the flip, ToTensor
and Normalize transforms, and resnet18's layout of modules), and those of dcgan_samples and densenet_features by
PyTorch 2.14.1 with torchvision 0.29.1 in a virtualenv of their own; the test reruns them where torchvision imports.
The programs of issue 22 (PROGRAMS_IN_ONE_PROCESS) run one after another in a single ``python -m minitorch``
process, which saves a start-up each; a program that stops fails its own test with its traceback.

The tests at the end pin minitorch bugs that writing the corpus exposed.
"""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import minitorch
from op_helper import check_error, floats, helper_test_op, ints
from printed_numbers import assert_same_printout, printout_mismatches
from corpus_runner import CORPUS, has_torchvision, run, torch

PROGRAMS = ["learning_with_examples", "nn_really", "mlp_classifier", "cnn_torchvision", "vae", "gan", "reinforce",
            "transfer_learning", "autograd_tour", "einsum_linalg", "save_load", "time_sequence", "word_language_model"]
# Programs that use issue 22's features; they run in one process under python -m minitorch (ONE_PROCESS_DRIVER).
PROGRAMS_IN_ONE_PROCESS = ["gcn_sparse", "gcn_kipf", "nanogpt_bf16", "vgg_pool_view", "seq2seq_lstm", "version_gate",
                           "nerf_encoding", "tensor_factories", "mha_lora", "dcgan_samples", "densenet_features",
                           "sparse_gat"]
NEEDS_TORCHVISION = {"cnn_torchvision", "transfer_learning", "dcgan_samples", "densenet_features"}
# Runs each program given on the command line in this one process (PyTorch, or minitorch under python -m minitorch,
# imports once), resetting the print options that a program may set, and prints the outputs as JSON: for each
# program what it printed and the traceback it stopped with (None when it ran to the end).
ONE_PROCESS_DRIVER = """
import contextlib, io, json, runpy, sys, traceback
import torch
outputs = {}
for path in sys.argv[1:]:
    error = None
    with contextlib.redirect_stdout(io.StringIO()) as out:
        try:
            runpy.run_path(path, run_name="__main__")
        except BaseException:
            error = traceback.format_exc()
    torch.set_printoptions(profile="default")
    outputs[path] = [out.getvalue(), error]
print(json.dumps(outputs))
"""


def run_in_one_process(names, directory, minitorch_runner):
    """{name: (printed output, traceback or None)} of the corpus programs ``names`` run by ONE_PROCESS_DRIVER."""
    driver = directory / "one_process_driver.py"
    driver.write_text(ONE_PROCESS_DRIVER)
    done = subprocess.run([sys.executable] + (["-m", "minitorch"] if minitorch_runner else []) + [str(driver)]
                          + [str(CORPUS / f"{n}.py") for n in names], capture_output=True, text=True, timeout=300,
                          cwd=directory)
    assert done.returncode == 0, done.stderr[-3000:]
    return {pathlib.Path(path).stem: (out.replace("minitorch.", "torch.") if minitorch_runner else out, error)
            for path, (out, error) in json.loads(done.stdout).items()}


@pytest.fixture
def in_empty_dir(tmp_path, monkeypatch):
    """Run from an empty directory, with this minitorch still first on the import path."""
    root = str(pathlib.Path(minitorch.__file__).resolve().parents[1])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    monkeypatch.chdir(tmp_path)


def transcript(name: str) -> str:
    return (CORPUS / "expected" / f"{name}.txt").read_text()


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_the_pytorch_transcript(name, in_empty_dir):
    assert_same_printout(run([CORPUS / f"{name}.py"]), transcript(name))


def test_transcripts_compare_each_float_within_float32s_tolerance():
    expected = transcript("word_language_model")
    # what numpy's SkylakeX kernel prints: 38.3849... where the transcript's PyTorch had 38.3851...
    assert printout_mismatches(expected.replace("valid ppl    38.39", "valid ppl    38.38"), expected) == []
    assert printout_mismatches("tensor([[-0.0000, 65.0000]])", "tensor([[ 0.0000, 65.]])") == []
    for old, new in [("valid ppl    38.39", "valid ppl    38.41"),  # beyond one unit of the printed digits
                     ("ppl   217.29", "ppl   217.33"),  # beyond 1e-4 relative
                     ("True 5457", "True 5458"),  # integers are equal or not
                     ("valid loss", "valid Loss"), ("lr 20.00", "lr 20.00 lr 1.00"), ("5457\n", "5457 ")]:
        assert old in expected
        assert printout_mismatches(expected.replace(old, new, 1), expected), new
    with pytest.raises(AssertionError, match=r"line 6: 38.41 where 38.39 was expected \(allowed difference 0.0138\)"):
        assert_same_printout("\n" * 5 + "ppl 38.41 ok", "\n" * 5 + "ppl 38.39 ok")


@pytest.fixture(scope="module")
def minitorch_outputs(tmp_path_factory):
    root = str(pathlib.Path(minitorch.__file__).resolve().parents[1])
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        return run_in_one_process(PROGRAMS_IN_ONE_PROCESS, tmp_path_factory.mktemp("minitorch"), minitorch_runner=True)


@pytest.mark.parametrize("name", PROGRAMS_IN_ONE_PROCESS)
def test_program_in_one_process_prints_the_pytorch_transcript(name, minitorch_outputs):
    out, error = minitorch_outputs[name]
    if error is not None:
        pytest.fail(f"{name}.py stopped after printing:\n{out}\n{error}", pytrace=False)
    assert_same_printout(out, transcript(name))


@pytest.fixture(scope="module")
def pytorch_outputs(tmp_path_factory):
    if torch is None:
        pytest.skip("PyTorch is not installed")
    names = [n for n in PROGRAMS + PROGRAMS_IN_ONE_PROCESS if n not in NEEDS_TORCHVISION or has_torchvision()]
    return run_in_one_process(names, tmp_path_factory.mktemp("pytorch"), minitorch_runner=False)


@pytest.mark.parametrize("name", PROGRAMS + PROGRAMS_IN_ONE_PROCESS)
def test_pytorch_prints_the_transcript(name, pytorch_outputs):
    if name not in pytorch_outputs:
        pytest.skip("torchvision does not import beside this PyTorch")
    out, error = pytorch_outputs[name]
    if error is not None:
        pytest.fail(f"{name}.py stopped on PyTorch after printing:\n{out}\n{error}", pytrace=False)
    assert_same_printout(out, transcript(name))


LONG_OR_BYTE = "expected target dtype to be Long or Byte, but got Float"


@pytest.mark.parametrize("shape, target, smoothing, msg", [
    ((2, 3), [0.0, 1.0], 0.0, LONG_OR_BYTE),  # float labels: torch reads them as class indices
    ((2, 3), [0.0, 1.0], 0.1, LONG_OR_BYTE),
    ((4, 2), [1.0, 0.0, 1.0, 1.0], 0.0, LONG_OR_BYTE),
    ((3,), 1.0, 0.0, LONG_OR_BYTE),
    ((2, 3), [[0, 1, 0], [1, 0, 0]], 0.0, "Expected floating point type for target with class probabilities, got Long"),
])
def test_cross_entropy_tells_class_indices_from_probabilities_by_shape(shape, target, smoothing, msg):
    """A tutorial's common slip (float labels for CrossEntropyLoss) gets PyTorch's error."""
    check_error(lambda lib, x: lib.nn.functional.cross_entropy(x, lib.tensor(target), label_smoothing=smoothing),
                shape, exc=RuntimeError, msg=msg)


@pytest.mark.parametrize("loss", ["mse_loss", "smooth_l1_loss", "l1_loss"])
@pytest.mark.parametrize("target_dtype", [np.int64, np.int32, np.float64])
def test_regression_losses_promote_targets_as_torch(loss, target_dtype):
    """Integer targets leave a float32 loss float32 (they made mse_loss float64)."""
    helper_test_op([(3, 2), ints((3, 2), dtype=target_dtype)],
                   lambda lib, x, t: getattr(lib.nn.functional, loss)(x, t), grad=[True, False])


def test_mse_loss_of_float32_and_integer_targets_is_float32():
    x = minitorch.tensor([0.25, 0.25], requires_grad=True)
    loss = minitorch.nn.MSELoss()(x, minitorch.tensor([1, 1]))
    loss.backward()
    assert loss.dtype is minitorch.float32 and loss.item() == 0.5625 and x.grad.tolist() == [-0.75, -0.75]


PROBABILITIES = floats((2, 2), 0.1, 0.9)


@pytest.mark.parametrize("loss, target, msg", [
    ("binary_cross_entropy", ints((2, 2), 0, 2), "Found dtype Long but expected Float"),
    ("binary_cross_entropy", ints((2, 2), 0, 2, np.float64), "Found dtype Double but expected Float"),
    ("binary_cross_entropy_with_logits", ints((2, 2), 0, 2), "result type Float can't be cast to the desired output "
                                                             "type Long"),
    ("binary_cross_entropy_with_logits", ints((2, 2), 0, 2).astype(bool), "Subtraction, the `-` operator, with two "
     "bool tensors is not supported. Use the `^` or `logical_xor()` operator instead."),
])
def test_binary_losses_refuse_integer_labels_as_torch(loss, target, msg):
    """BCELoss with integer labels, a tutorial's common slip, gets PyTorch's error."""
    check_error(lambda lib, x, t: getattr(lib.nn.functional, loss)(x, t), PROBABILITIES, target,
                exc=RuntimeError, msg=msg)


@pytest.mark.parametrize("target_dtype", [np.float64, np.float16])
def test_bce_with_logits_takes_the_float_targets_dtype(target_dtype):
    helper_test_op([(3, 2), ints((3, 2), 0, 2, target_dtype)],
                   lambda lib, x, t: lib.nn.functional.binary_cross_entropy_with_logits(x, t), grad=[True, False],
                   atol=1e-3, rtol=1e-3)
