"""Word-level language model: a Dictionary and Corpus over a tiny text, batchify, an LSTM with tied weights and
dropout, truncated backprop with gradient clipping and SGD written by hand, the whole model saved and loaded, and
a few words generated with torch.multinomial."""
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = """the cat sat on the mat and the dog sat on the rug
the cat saw the dog and the dog saw the cat
a bird sang in the tree and the cat looked up at the bird
the dog ran to the tree and the bird flew away
the sun was warm and the cat slept on the mat
the dog slept on the rug by the door
in the morning the bird came back to the tree
the cat and the dog watched the bird from the garden
the bird sang a song and the cat sat still
the dog ran round the garden and came back to the door
a man opened the door and the dog ran out
the man gave the cat some milk and the dog some bread
the cat drank the milk and sat on the mat again
the dog ate the bread and slept by the door
at night the moon was bright over the garden
the bird slept in the tree and the cat watched the moon
the man closed the door and the house was quiet
in the morning the sun came up over the tree
the bird sang and the dog ran to the garden
the cat sat on the mat and looked at the sun
the man walked to the garden with the dog
the dog saw a bird in the tree and ran round it
the bird flew to the house and sat by the door
the cat saw the bird and ran to the door
the bird flew back to the tree and sang again
the man laughed and the dog sat on the rug
the cat came back and slept on the mat
a small bird came to the garden in the morning
the small bird sat in the tree with the other bird
the two birds sang and the cat looked up at the tree
the dog was tired and slept by the door all day
at night the man gave the dog some bread and the cat some milk
"""
LINES = TEXT.splitlines(keepends=True)
SPLITS = {"train.txt": LINES[:24], "valid.txt": LINES[24:28], "test.txt": LINES[28:]}
for name, lines in SPLITS.items():
    with open(name, "w") as f:
        f.writelines(lines)


class Dictionary:
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


class Corpus:
    def __init__(self, path):
        self.dictionary = Dictionary()
        self.train = self.tokenize(os.path.join(path, "train.txt"))
        self.valid = self.tokenize(os.path.join(path, "valid.txt"))
        self.test = self.tokenize(os.path.join(path, "test.txt"))

    def tokenize(self, path):
        """One tensor of word ids, each line ending in <eos>."""
        with open(path) as f:
            lines = [line.split() + ["<eos>"] for line in f]
        ids = [torch.tensor([self.dictionary.add_word(w) for w in words], dtype=torch.int64) for words in lines]
        return torch.cat(ids)


class RNNModel(nn.Module):
    """Encoder, a recurrent module and a decoder; the decoder may share the encoder's weight."""

    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ("LSTM", "GRU"):
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            nonlinearity = {"RNN_TANH": "tanh", "RNN_RELU": "relu"}[rnn_type]
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            if nhid != ninp:
                raise ValueError("When using the tied flag, nhid must be equal to emsize")
            self.decoder.weight = self.encoder.weight
        self.rnn_type, self.nhid, self.nlayers = rnn_type, nhid, nlayers
        nn.init.uniform_(self.encoder.weight, -0.1, 0.1)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -0.1, 0.1)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        decoded = self.decoder(self.drop(output)).view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == "LSTM":
            return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))
        return weight.new_zeros(self.nlayers, bsz, self.nhid)


def batchify(data, bsz):
    """Columns of consecutive words: (len // bsz, bsz), the remainder dropped."""
    nbatch = data.size(0) // bsz
    return data.narrow(0, 0, nbatch * bsz).view(bsz, -1).t().contiguous()


def repackage_hidden(h):
    """Detach the hidden state so backprop stops at the batch boundary."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def evaluate(model, data_source, bsz, bptt):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(bsz)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, bptt):
            data, targets = get_batch(data_source, i, bptt)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train(model, epoch, lr, bsz=4, bptt=8, clip=0.25, log_interval=3):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(bsz)
    nbatches = len(train_data) // bptt
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i, bptt)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
        if batch % log_interval == 0 and batch > 0:
            cur_loss = total_loss / log_interval
            print("| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | loss {:5.2f} | ppl {:8.2f}".format(
                epoch, batch, nbatches, lr, cur_loss, math.exp(cur_loss)))
            total_loss = 0.0


torch.manual_seed(1111)
corpus = Corpus(".")
ntokens = len(corpus.dictionary)
train_data = batchify(corpus.train, 4)
val_data = batchify(corpus.valid, 2)
test_data = batchify(corpus.test, 2)
print("vocabulary", ntokens, "train", tuple(train_data.shape), "valid", tuple(val_data.shape))
criterion = nn.NLLLoss()

model = RNNModel("LSTM", ntokens, 16, 16, 2, dropout=0.2, tie_weights=True)
print(model.decoder.weight is model.encoder.weight, sum(p.numel() for p in model.parameters()))
lr, best_val_loss = 20.0, None
for epoch in range(1, 7):
    train(model, epoch, lr)
    val_loss = evaluate(model, val_data, 2, 8)
    print("-" * 89)
    print("| end of epoch {:3d} | valid loss {:5.2f} | valid ppl {:8.2f}".format(epoch, val_loss, math.exp(val_loss)))
    print("-" * 89)
    if not best_val_loss or val_loss < best_val_loss:
        with open("model.pt", "wb") as f:
            torch.save(model, f)
        best_val_loss = val_loss
    else:
        lr /= 4.0  # no improvement on the validation set: anneal

with open("model.pt", "rb") as f:
    model = torch.load(f, weights_only=False)
    model.rnn.flatten_parameters()
test_loss = evaluate(model, test_data, 2, 8)
print("=" * 89)
print("| End of training | test loss {:5.2f} | test ppl {:8.2f}".format(test_loss, math.exp(test_loss)))
print("=" * 89)

model.eval()
input = torch.randint(ntokens, (1, 1), dtype=torch.long)
hidden = model.init_hidden(1)
words = []
with torch.no_grad():
    for _ in range(12):
        output, hidden = model(input, hidden)
        word_weights = output.squeeze().div(1.0).exp()
        word_idx = torch.multinomial(word_weights, 1)[0]
        input.fill_(word_idx)
        words.append(corpus.dictionary.idx2word[word_idx])
print(" ".join(words))

untied = RNNModel("RNN_TANH", ntokens, 8, 12, 1, dropout=0.0)
print(untied.rnn, round(evaluate(untied, val_data, 2, 8), 2))
