"""REINFORCE on a tiny corridor written here: Categorical(logits=...), log_prob, returns-to-go, an entropy bonus."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

rng = np.random.default_rng(0)
gamma, entropy_coef = 0.9, 0.01


class Corridor:
    """Cells 0..5; start in 2; actions 0 (left) and 1 (right); +1 at cell 5, -1 at cell 0; a 2% slip."""

    def reset(self):
        self.pos, self.steps = 2, 0
        return self.observe()

    def observe(self):
        return np.eye(6, dtype=np.float32)[self.pos]

    def step(self, action):
        move = 1 if action == 1 else -1
        if rng.uniform() < 0.02:
            move = -move
        self.pos, self.steps = self.pos + move, self.steps + 1
        reward = 1.0 if self.pos == 5 else (-1.0 if self.pos == 0 else -0.01)
        done = self.pos in (0, 5) or self.steps >= 12
        return self.observe(), reward, done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(6, 16)
        self.affine2 = nn.Linear(16, 2)

    def forward(self, x):
        return self.affine2(F.relu(self.affine1(x)))


def select_action(policy, state):
    logits = policy(torch.from_numpy(state).unsqueeze(0))
    m = Categorical(logits=logits)
    probs = m.probs.detach().numpy()[0].astype(np.float64)
    action = torch.tensor([int(rng.uniform() < probs[1] / probs.sum())])  # numpy draws the action
    return action.item(), m.log_prob(action), m.entropy()


def finish_episode(optimizer, rewards, log_probs, entropies):
    R, returns = 0.0, []
    for r in rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std(unbiased=False) + 1e-6)
    policy_loss = -(torch.cat(log_probs) * returns).sum() - entropy_coef * torch.cat(entropies).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()
    return policy_loss.item()


env, policy = Corridor(), Policy()
with torch.no_grad():
    for p in policy.parameters():
        p.copy_(torch.from_numpy(rng.uniform(-0.3, 0.3, p.shape).astype(np.float32)))
optimizer = optim.Adam(policy.parameters(), lr=3e-2)
running_reward = 0.0
for i_episode in range(1, 31):
    state, rewards, log_probs, entropies = env.reset(), [], [], []
    done = False
    while not done:
        action, log_prob, entropy = select_action(policy, state)
        state, reward, done = env.step(action)
        rewards.append(reward)
        log_probs.append(log_prob)
        entropies.append(entropy)
    running_reward = 0.05 * sum(rewards) + 0.95 * running_reward
    loss = finish_episode(optimizer, rewards, log_probs, entropies)
    if i_episode % 5 == 0:
        print(f"Episode {i_episode}\tLength: {len(rewards)}\tLoss: {loss:.3f}\tAverage reward: {running_reward:.3f}")

with torch.no_grad():
    dist = Categorical(logits=policy(torch.eye(6)))
print("P(right) per cell:", dist.probs[:, 1])
print("entropy:", dist.entropy())
print("log_prob(right):", dist.log_prob(torch.ones(6, dtype=torch.long)))
print(Categorical(probs=torch.tensor([0.25, 0.75])).logits)
