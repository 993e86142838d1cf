"""Time-sequence prediction: sine waves saved as a numpy array, two stacked LSTMCells fitted with LBFGS.

Losses are printed to 10 significant digits, not with all of repr's: float64 sums and matrix products in
another order differ in the last bits after a few LBFGS updates.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

# Generate the data and save it as the example's generate_sine_wave.py does: a plain numpy array.
np.random.seed(2)
T, L, N = 20, 60, 12
x = np.empty((N, L), np.int64)
x[:] = np.arange(L) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
waves = np.sin(x / 1.0 / T).astype(np.float64)
with open("traindata.pt", "wb") as f:
    torch.save(waves, f)


class Sequence(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, input, future=0):
        outputs = []
        h1 = c1 = h2 = c2 = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        output = None
        for input_t in input.split(1, dim=1):
            h1, c1 = self.lstm1(input_t, (h1, c1))
            h2, c2 = self.lstm2(h1, (h2, c2))
            output = self.linear(h2)
            outputs.append(output)
        for _ in range(future):  # feed each prediction back in as the next input
            h1, c1 = self.lstm1(output, (h1, c1))
            h2, c2 = self.lstm2(h1, (h2, c2))
            output = self.linear(h2)
            outputs.append(output)
        return torch.cat(outputs, dim=1)


np.random.seed(0)
torch.manual_seed(0)
data = torch.load("traindata.pt", weights_only=False)
print(type(data).__name__, data.shape, data.dtype)
input = torch.from_numpy(data[3:, :-1])
target = torch.from_numpy(data[3:, 1:])
test_input = torch.from_numpy(data[:3, :-1])
test_target = torch.from_numpy(data[:3, 1:])

seq = Sequence()
seq.double()
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=4)
for i in range(3):
    print("STEP: ", i)

    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        print("loss: %.10g" % loss.item())
        loss.backward()
        return loss

    optimizer.step(closure)
    with torch.no_grad():
        future = 20
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print("test loss: %.10g" % loss.item())
        y = pred.detach().numpy()
    print("future:", np.round(y[0, -future::5], 4))
