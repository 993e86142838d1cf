"""A character-level language model, LSTM or small GPT, trained on a text file.

    python examples/char_lm.py                                  # LSTM (1 layer, 256 hidden), 2000 steps
    python examples/char_lm.py --model transformer --steps 3000 # a small nanoGPT-style transformer
    python examples/char_lm.py --steps 4000 --resume            # go on from the checkpoint
    python examples/char_lm.py --sample 300 --temperature 0.8   # generate text from the checkpoint

Without ``--text`` it trains on ``make_text()``: English-like sentences generated here, deterministically,
from the word lists below (written for this example and placed in the public domain), so nothing is
downloaded. Every ``--checkpoint-every`` steps the model, the optimizer, the step and both random
states (the batch sampler's and the global one) go to ``--checkpoint``; ``--resume`` continues from
there exactly: the losses after a resume are the ones an uninterrupted run gives.

The models are plain PyTorch-style code: ``benchmarks/run.py`` runs ``LSTMLM`` (W7) and ``GPT`` (W8) on
minitorch and, with ``minitorch`` replaced by ``torch`` in this source, on PyTorch.
"""
from __future__ import annotations

import argparse
import math
import pathlib
import random

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F


# ---- the models ----------------------------------------------------------------------------------------
class LSTMLM(nn.Module):
    """Embedding, a stacked LSTM, and a linear read-out to next-character logits."""

    def __init__(self, vocab_size: int, embed: int = 64, hidden: int = 256, layers: int = 1,
                 dropout: float = 0.0):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed)
        self.lstm = nn.LSTM(embed, hidden, layers, batch_first=True, dropout=dropout)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(self, idx: torch.Tensor, state=None):
        """Logits ``(B, T, vocab)`` for token ids ``(B, T)``, and the LSTM's final ``(h, c)``."""
        out, state = self.lstm(self.embed(idx), state)
        return self.head(out), state


class CausalSelfAttention(nn.Module):
    """Multi-head self-attention where each position sees only itself and earlier ones (nanoGPT's)."""

    def __init__(self, width: int, heads: int, dropout: float = 0.0):
        super().__init__()
        self.qkv = nn.Linear(width, 3 * width)  # query, key and value of all heads in one matmul
        self.proj = nn.Linear(width, width)
        self.heads, self.dropout = heads, dropout
        self.attn_drop, self.resid_drop = nn.Dropout(dropout), nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = (t.reshape(B, T, self.heads, C // self.heads).transpose(1, 2)
                   for t in self.qkv(x).split(C, dim=2))
        if hasattr(F, "scaled_dot_product_attention"):
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0.0,
                                               is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.shape[-1]))
            future = torch.ones(T, T, dtype=torch.bool).triu(1)
            y = self.attn_drop(att.masked_fill(future, float("-inf")).softmax(dim=-1)) @ v
        return self.resid_drop(self.proj(y.transpose(1, 2).reshape(B, T, C)))


class Block(nn.Module):
    """Pre-norm transformer block: attention then a GELU MLP, each added to the residual stream."""

    def __init__(self, width: int, heads: int, dropout: float = 0.0):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.attn = CausalSelfAttention(width, heads, dropout)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width),
                                 nn.Dropout(dropout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    """nanoGPT: token and position embeddings, ``layers`` blocks, a final LayerNorm, and a read-out
    that shares its weight with the token embedding."""

    def __init__(self, vocab_size: int, block_size: int = 256, layers: int = 6, heads: int = 6,
                 width: int = 384, dropout: float = 0.0):
        super().__init__()
        self.block_size = block_size
        self.wte, self.wpe = nn.Embedding(vocab_size, width), nn.Embedding(block_size, width)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList(Block(width, heads, dropout) for _ in range(layers))
        self.ln_f = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab_size, bias=False)
        self.head.weight = self.wte.weight
        for name, p in self.named_parameters():  # GPT-2's initialisation
            if name.endswith("bias"):
                nn.init.zeros_(p)
            elif p.dim() == 2:  # residual projections shrink with depth
                std = 0.02 / math.sqrt(2 * layers) if name.endswith(("proj.weight", "mlp.2.weight")) else 0.02
                nn.init.normal_(p, mean=0.0, std=std)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        """Logits ``(B, T, vocab)`` for token ids ``(B, T)``, ``T <= block_size``."""
        T = idx.shape[1]
        if T > self.block_size:
            raise ValueError(f"sequence of length {T} is longer than the block size {self.block_size}")
        x = self.drop(self.wte(idx) + self.wpe(torch.arange(T)))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def build_model(config: dict) -> nn.Module:
    """The model a checkpoint's ``config`` describes."""
    vocab = len(config["chars"])
    if config["model"] == "lstm":
        return LSTMLM(vocab, config["embed"], config["hidden"], config["layers"], config["dropout"])
    return GPT(vocab, config["block"], config["layers"], config["heads"], config["hidden"], config["dropout"])


def lm_loss(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy of the next-token predictions for every position of ``x`` against ``y``."""
    logits = model(x)
    if isinstance(model, LSTMLM):
        logits = logits[0]
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))


# ---- data ------------------------------------------------------------------------------------------------
WHO = ["the old miller", "a young sailor", "the king", "my sister", "the farmer's wife", "a tired horse",
       "the little boy", "the captain", "our neighbour", "the baker", "a stranger", "the teacher",
       "the shepherd", "the queen", "her brother", "the fisherman", "a clever fox", "the doctor"]
DID = ["found", "carried", "painted", "watched", "remembered", "sold", "mended", "opened", "lost",
       "followed", "wanted", "cleaned", "counted", "praised", "forgot", "bought", "hid", "brought"]
WHAT = ["the red door", "a long letter", "the silver key", "an apple", "the broken cart", "the garden gate",
        "a loaf of bread", "the wooden boat", "the morning paper", "a small candle", "the heavy basket",
        "an old map", "the blue coat", "a bag of flour", "the green bottle", "the kitchen window"]
ACTED = ["walked", "laughed", "slept", "waited", "sang", "worked", "listened", "smiled", "ran", "stayed",
         "rested", "prayed", "danced", "wept"]
HOW = ["slowly", "quietly", "happily", "early", "late", "again", "all day", "for a while", "without a word",
       "with great care", "in silence"]
WHERE = ["by the river", "in the kitchen", "near the old mill", "at the market", "under the bridge",
         "on the hill", "in the village", "behind the church", "at the harbour", "in the forest",
         "across the field", "beside the fire"]
WHEN = ["In the morning", "That evening", "Every Sunday", "Last winter", "After the storm", "At noon",
        "One day", "Before dawn", "In the spring", "Long ago"]
SENTENCES = ["{When}, {who} {did} {what} {where}.", "{Who} {acted} {how} {where}.",
             "{Who} {did} {what}, and {who2} {acted} {how}.", '"Where is {what}?" asked {who}.',
             "{Who} {did} {what} {how}, but {who2} {acted} {where}.", "{When}, {who} {acted} {where}."]


def make_text(chars: int = 200_000, seed: int = 0) -> str:
    """About ``chars`` characters of simple English sentences, in paragraphs, the same for a given seed."""
    rng = random.Random(seed)
    lines, size = [], 0
    while size < chars:
        sentences = []
        for _ in range(rng.randint(2, 5)):
            words = {"who": rng.choice(WHO), "who2": rng.choice(WHO), "did": rng.choice(DID),
                     "what": rng.choice(WHAT), "acted": rng.choice(ACTED), "how": rng.choice(HOW),
                     "where": rng.choice(WHERE), "When": rng.choice(WHEN)}
            words["Who"] = words["who"][0].upper() + words["who"][1:]
            sentences.append(rng.choice(SENTENCES).format(**words))
        lines.append(" ".join(sentences))
        size += len(lines[-1]) + 1
    return "\n".join(lines) + "\n"


def sample_batch(data: torch.Tensor, block: int, batch: int, generator: torch.Generator):
    """``batch`` random windows of ``block`` tokens and the same windows shifted by one (the targets)."""
    start = torch.randint(0, len(data) - block, (batch,), generator=generator)
    windows = data[start.reshape(-1, 1) + torch.arange(block + 1)]
    return windows[:, :-1], windows[:, 1:]


# ---- training and sampling -------------------------------------------------------------------------------
def evaluate(model: nn.Module, data: torch.Tensor, block: int, batch: int, batches: int = 8) -> float:
    """Mean loss on ``batches`` batches drawn by a generator of its own (the training stream is untouched)."""
    model.eval()
    generator = torch.Generator().manual_seed(1234)
    with torch.no_grad():
        total = sum(lm_loss(model, *sample_batch(data, block, batch, generator)).item() for _ in range(batches))
    model.train()
    return total / batches


def train(args: argparse.Namespace) -> list[float]:
    """Train (or go on training) up to ``args.steps`` steps; the training losses of the steps run here."""
    text = pathlib.Path(args.text).read_text(encoding="utf-8") if args.text else make_text()
    checkpoint = pathlib.Path(args.checkpoint)
    saved = torch.load(checkpoint) if args.resume else None
    if saved:
        config = saved["config"]
    else:
        config = {"model": args.model, "chars": "".join(sorted(set(text))), "embed": args.embed,
                  "hidden": args.hidden, "layers": args.layers, "heads": args.heads, "block": args.block,
                  "dropout": args.dropout}
    index = {c: i for i, c in enumerate(config["chars"])}
    unknown = set(text) - set(index)
    if unknown:
        raise ValueError(f"the text has characters the checkpoint's vocabulary lacks: {sorted(unknown)}")
    data = torch.tensor([index[c] for c in text])
    split = int(0.9 * len(data))
    train_data, val_data = data[:split], data[split:]

    torch.manual_seed(args.seed)
    model = build_model(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    generator = torch.Generator().manual_seed(args.seed)
    start = 0
    if saved:
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        generator.set_state(saved["generator"])
        torch.set_rng_state(saved["rng"])
        start = saved["step"]

    from tqdm import tqdm  # only training draws a bar: the benchmarks' torch side runs without tqdm

    losses = []
    bar = tqdm(range(start, args.steps), initial=start, total=args.steps, disable=args.quiet)
    for step in bar:
        loss = lm_loss(model, *sample_batch(train_data, config["block"], args.batch, generator))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        losses.append(loss.item())
        bar.set_postfix(loss=f"{losses[-1]:.3f}")
        done = step + 1
        if done % args.eval_every == 0 or done == args.steps:
            val = evaluate(model, val_data, config["block"], args.batch)
            if not args.quiet:
                bar.write(f"step {done}: train loss {losses[-1]:.3f}, val loss {val:.3f}")
        if done % args.checkpoint_every == 0 or done == args.steps:
            torch.save({"config": config, "model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "generator": generator.get_state(), "rng": torch.get_rng_state(), "step": done},
                       checkpoint)
    return losses


def generate(model: nn.Module, chars: str, prompt: str, length: int, temperature: float = 1.0,
             generator: torch.Generator | None = None) -> str:
    """``length`` characters sampled one at a time after ``prompt``, logits divided by ``temperature``."""
    index = {c: i for i, c in enumerate(chars)}
    if not prompt or any(c not in index for c in prompt):
        raise ValueError(f"the prompt must be non-empty and use only the vocabulary's characters {chars!r}")
    context = torch.tensor([[index[c] for c in prompt]])
    model.eval()
    out, state = [], None
    with torch.no_grad():
        step_input = context
        for _ in range(length):
            if isinstance(model, LSTMLM):  # the recurrent state carries the context: feed only new tokens
                logits, state = model(step_input, state)
            else:
                logits = model(context[:, -model.block_size:])
            probs = (logits[:, -1] / temperature).softmax(dim=-1)
            step_input = torch.multinomial(probs, 1, generator=generator)
            context = torch.cat([context, step_input], dim=1)
            out.append(chars[step_input.item()])
    return prompt + "".join(out)


def sample(args: argparse.Namespace) -> str:
    """``args.sample`` characters from the model in ``args.checkpoint``."""
    saved = torch.load(args.checkpoint)
    model = build_model(saved["config"])
    model.load_state_dict(saved["model"])
    generator = torch.Generator().manual_seed(args.seed)
    return generate(model, saved["config"]["chars"], args.prompt, args.sample, args.temperature, generator)


DEFAULTS = {"lstm": {"layers": 1, "hidden": 256, "lr": 3e-3}, "transformer": {"layers": 4, "hidden": 128, "lr": 1e-3}}


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--text", help="a UTF-8 text file (default: the generated text of make_text())")
    parser.add_argument("--model", choices=["lstm", "transformer"], default="lstm")
    parser.add_argument("--layers", type=int, help="LSTM layers or transformer blocks (default 1 / 4)")
    parser.add_argument("--hidden", type=int, help="LSTM hidden size or transformer width (default 256 / 128)")
    parser.add_argument("--embed", type=int, default=64, help="LSTM embedding size")
    parser.add_argument("--heads", type=int, default=4, help="transformer attention heads")
    parser.add_argument("--block", type=int, default=64, help="characters per training sequence")
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--steps", type=int, default=2000, help="train up to this many steps in all")
    parser.add_argument("--lr", type=float, help="AdamW learning rate (default 3e-3 / 1e-3)")
    parser.add_argument("--weight-decay", type=float, default=0.01)
    parser.add_argument("--eval-every", type=int, default=200)
    parser.add_argument("--checkpoint", default="char_lm.pt")
    parser.add_argument("--checkpoint-every", type=int, default=200)
    parser.add_argument("--resume", action="store_true", help="continue from --checkpoint")
    parser.add_argument("--sample", type=int, metavar="N", help="print N characters sampled from --checkpoint")
    parser.add_argument("--prompt", default="\n", help="text the sample starts from")
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="no progress bar or eval lines")
    args = parser.parse_args(argv)
    for key, value in DEFAULTS[args.model].items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    return args


def main(argv=None):
    """Train, or with ``--sample N`` print a sample; returns the training losses or the sample."""
    args = parse_args(argv)
    if args.sample is not None:
        text = sample(args)
        print(text)
        return text
    return train(args)


if __name__ == "__main__":
    main()
