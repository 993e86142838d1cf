"""examples/char_lm.py at tiny sizes (training, exact resume, sampling) and its models in benchmarks W7/W8."""
import importlib.util

import numpy as np
import pytest

import minitorch
from minitorch import nn
from locations import ROOT

spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
char_lm = bench.load_char_lm("minitorch")

TINY = {"lstm": ["--model", "lstm", "--embed", "8", "--hidden", "32", "--layers", "2", "--dropout", "0.3"],
        "transformer": ["--model", "transformer", "--hidden", "32", "--layers", "1", "--heads", "2",
                        "--dropout", "0.1"]}


@pytest.fixture
def text(tmp_path):
    path = tmp_path / "text.txt"
    path.write_text(char_lm.make_text(4000))
    return path


def run(text, tmp_path, model, *extra):
    common = ["--text", str(text), "--checkpoint", str(tmp_path / "ckpt.pt"), "--block", "16", "--batch", "8",
              "--eval-every", "1000", "--quiet"]
    return char_lm.main(common + TINY[model] + list(extra))


def test_make_text_is_deterministic_english_like_text():
    text = char_lm.make_text(3000)
    assert text == char_lm.make_text(3000) and text != char_lm.make_text(3000, seed=1)
    assert 3000 <= len(text) < 3500 and text.endswith(".\n")
    assert set(text) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ,.'?\"\n")


@pytest.mark.parametrize("model", ["lstm", "transformer"])
def test_training_reduces_the_loss(text, tmp_path, model):
    losses = run(text, tmp_path, model, "--steps", "100", "--lr", "1e-2")
    assert len(losses) == 100
    _, counts = np.unique(list(text.read_text()), return_counts=True)
    assert abs(losses[0] - np.log(len(counts))) < 0.3  # an untrained model is close to uniform
    p = counts / counts.sum()
    # below the entropy of the characters' frequencies: the model predicts from the context
    assert np.mean(losses[-5:]) < -(p * np.log(p)).sum() - 0.2


@pytest.mark.parametrize("model", ["lstm", "transformer"])
def test_resume_gives_the_losses_of_an_uninterrupted_run(text, tmp_path, model):
    # dropout draws from the global generator and batches from the example's own: both must be restored
    straight = run(text, tmp_path, model, "--steps", "6", "--checkpoint-every", "3")
    assert run(text, tmp_path, model, "--steps", "3") == straight[:3]
    resumed = run(text, tmp_path, model, "--steps", "6", "--resume")
    assert resumed == straight[3:]
    assert len(set(straight)) == 6  # the steps differ from one another, so the equality means something


def test_resume_refuses_a_text_with_characters_outside_the_vocabulary(text, tmp_path):
    run(text, tmp_path, "lstm", "--steps", "1")
    text.write_text(text.read_text() + "#")
    with pytest.raises(ValueError, match=r"vocabulary lacks: \['#'\]"):
        run(text, tmp_path, "lstm", "--steps", "2", "--resume")


@pytest.mark.parametrize("model", ["lstm", "transformer"])
def test_sampling_is_seeded_and_stays_in_the_vocabulary(text, tmp_path, model, capsys):
    run(text, tmp_path, model, "--steps", "2")
    sample = ["--checkpoint", str(tmp_path / "ckpt.pt"), "--sample", "40", "--prompt", "The "]
    first = char_lm.main(sample + ["--seed", "1"])
    assert capsys.readouterr().out == first + "\n"
    assert first == char_lm.main(sample + ["--seed", "1"]) != char_lm.main(sample + ["--seed", "2"])
    assert first.startswith("The ") and len(first) == 44
    assert set(first) <= set(text.read_text())
    with pytest.raises(ValueError, match="vocabulary"):
        char_lm.main(sample + ["--prompt", "#"])


def test_lstm_generation_carries_the_state_like_a_full_pass():
    # generating with the recurrent state must give the logits a pass over the whole context gives
    minitorch.manual_seed(0)
    model = char_lm.LSTMLM(5, embed=4, hidden=6, layers=2)
    ids = minitorch.randint(0, 5, (1, 7))
    full, _ = model(ids)
    _, state = model(ids[:, :4])
    step, _ = model(ids[:, 4:], state)
    np.testing.assert_allclose(step.detach().numpy(), full[:, 4:].detach().numpy(), rtol=1e-5, atol=1e-6)


def test_gpt_ties_the_read_out_to_the_token_embedding_and_checks_the_length():
    model = char_lm.GPT(11, block_size=8, layers=2, heads=2, width=8)
    assert model.head.weight is model.wte.weight
    names = [name for name, _ in model.named_parameters()]
    assert "head.weight" not in names and len(names) == 2 + 2 * 12 + 2
    with pytest.raises(ValueError, match="sequence of length 9 is longer than the block size 8"):
        model(minitorch.zeros(1, 9, dtype=minitorch.long))


@pytest.mark.parametrize("model", ["lstm", "transformer"])
def test_models_match_pytorch_with_the_same_weights(model):
    torch = pytest.importorskip("torch")
    theirs_module = bench.load_char_lm("torch")
    if model == "lstm":
        ours, theirs = char_lm.LSTMLM(7, 4, 6, 2), theirs_module.LSTMLM(7, 4, 6, 2)
    else:  # minitorch without scaled_dot_product_attention takes the explicit masked-softmax path
        ours, theirs = char_lm.GPT(7, 8, 2, 2, 8), theirs_module.GPT(7, 8, 2, 2, 8)
    theirs.load_state_dict({k: torch.from_numpy(v.numpy()) for k, v in ours.state_dict().items()})
    ids = np.random.default_rng(0).integers(0, 7, (3, 8))
    x, y = minitorch.tensor(ids[:, :-1]), minitorch.tensor(ids[:, 1:])
    loss = char_lm.lm_loss(ours, x, y)
    loss.backward()
    their_loss = theirs_module.lm_loss(theirs, torch.from_numpy(ids[:, :-1]), torch.from_numpy(ids[:, 1:]))
    their_loss.backward()
    assert loss.item() == pytest.approx(their_loss.item(), rel=1e-5)
    their_grads = dict(theirs.named_parameters())
    for name, p in ours.named_parameters():
        np.testing.assert_allclose(p.grad.numpy(), their_grads[name].grad.numpy(), rtol=1e-4, atol=1e-6)


def test_count_flops_counts_the_lstm_gates():
    lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True)
    # 10 tokens; 4 gates of 4 units; layer 0 reads 3 inputs + 4 recurrent, layer 1 reads 4 + 4
    assert bench.count_flops(minitorch, lstm, minitorch.zeros(2, 5, 3)) == 2 * 10 * 16 * (3 + 4 + 4 + 4)


@pytest.mark.parametrize("model", ["lstm", "transformer"])
def test_losses_are_pytorchs(text, tmp_path, model):
    """The same program under PyTorch: same initial weights, batches and dropout masks, so the same losses."""
    pytest.importorskip("torch")
    reference = bench.load_char_lm("torch")
    common = ["--text", str(text), "--checkpoint", str(tmp_path / "torch.pt"), "--block", "16", "--batch", "8",
              "--eval-every", "1000", "--quiet", "--steps", "20", "--lr", "1e-2"]
    expected = reference.main(common + TINY[model])
    np.testing.assert_allclose(run(text, tmp_path, model, "--steps", "20", "--lr", "1e-2"), expected, rtol=2e-5)
