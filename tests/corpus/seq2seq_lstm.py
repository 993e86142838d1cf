# Style: bentrevett's pytorch-seq2seq notebook 1 (LSTM encoder-decoder, teacher forcing), on a toy reversal task.
import random

import torch
import torch.nn as nn

SEED = 1234
random.seed(SEED)
torch.manual_seed(SEED)
VOCAB, SOS, EMB, HID, LEN = 10, 0, 8, 16, 5


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.LSTM(EMB, HID, num_layers=2)

    def forward(self, src):
        outputs, (hidden, cell) = self.rnn(self.embedding(src))
        return hidden, cell


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.LSTM(EMB, HID, num_layers=2)
        self.fc_out = nn.Linear(HID, VOCAB)

    def forward(self, input, hidden, cell):
        embedded = self.embedding(input.unsqueeze(0))
        output, (hidden, cell) = self.rnn(embedded, [hidden, cell])  # the state as a list
        return self.fc_out(output.squeeze(0)), hidden, cell


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder, self.decoder = encoder, decoder

    def forward(self, src, trg, teacher_forcing_ratio=0.5):
        trg_len, batch_size = trg.shape
        outputs = torch.zeros(trg_len, batch_size, VOCAB)
        hidden, cell = self.encoder(src)
        input = torch.full((batch_size,), SOS, dtype=torch.long)
        for t in range(trg_len):
            output, hidden, cell = self.decoder(input, hidden, cell)
            outputs[t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            input = trg[t] if teacher_force else output.argmax(1)
        return outputs


model = Seq2Seq(Encoder(), Decoder())
for name, param in model.named_parameters():
    nn.init.uniform_(param.data, -0.08, 0.08)
print(f"The model has {sum(p.numel() for p in model.parameters() if p.requires_grad):,} trainable parameters")
src = torch.randint(1, VOCAB, (LEN, 16))
trg = src.flip(0)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()
for epoch in range(8):
    model.train()
    optimizer.zero_grad()
    output = model(src, trg)
    loss = criterion(output.view(-1, VOCAB), trg.view(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(f"Epoch: {epoch + 1:02} | Train Loss: {loss.item():.3f}")
model.eval()
with torch.no_grad():
    pred = model(src[:, :3], trg[:, :3], 0).argmax(2)
print("source ", src[:, 0].tolist(), "\nreversed", pred[:, 0].tolist())
h0, c0 = torch.zeros(2, 1, HID), torch.zeros(2, 1, HID)
out, (h, c) = model.decoder.rnn(torch.randn(3, 1, EMB), [h0, c0])
print(out.shape, h.shape, c.shape, out.grad_fn.name(), h[0, 0, :3])
