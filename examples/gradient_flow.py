"""Stopping and steering gradients, after the "PyTorch Gradient Manipulation" tutorial.

A two-layer network (L1 -> L2) where only the head L2 should learn, done five ways:
detach, no_grad, inference_mode, an optimizer over L2 only, and manual gradient
manipulation. Then an actor-critic pair (as in DDPG): the critic learns from its
loss on the actor's actions without the critic's loss reaching the actor, and the
actor learns through the (unchanged) critic.

Each part prints which parameters changed. Run: python examples/gradient_flow.py
"""
from __future__ import annotations

import argparse

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F


class TwoLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 8)
        self.l2 = nn.Linear(8, 1)

    def forward(self, x, mode: str = "control"):
        if mode == "detach":
            return self.l2(F.relu(self.l1(x)).detach())
        if mode == "no_grad":
            with torch.no_grad():
                hidden = F.relu(self.l1(x))
            return self.l2(hidden)
        if mode == "inference_mode":
            with torch.inference_mode():
                hidden = F.relu(self.l1(x))
            return self.l2(hidden.clone())  # an inference tensor must be cloned before autograd sees it
        return self.l2(F.relu(self.l1(x)))


def snapshot(module: nn.Module) -> dict:
    return {name: p.detach().clone() for name, p in module.named_parameters()}


def changed(before: dict, module: nn.Module) -> list:
    return [name for name, p in module.named_parameters() if not torch.equal(before[name], p.detach())]


def train_head_only(mode: str, steps: int) -> dict:
    """One way of updating L2 while L1 stays as it was; returns what changed and L1's gradient."""
    torch.manual_seed(0)
    net = TwoLayer()
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    params = net.l2.parameters() if mode == "optimizer" else net.parameters()
    opt = torch.optim.SGD(params, lr=0.1)
    before = snapshot(net)
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(net(x, mode if mode in ("detach", "no_grad", "inference_mode") else "control"), y)
        loss.backward()
        if mode == "manual":  # gradients are ours to change: here L1's are thrown away, L2's halved
            for p in net.l1.parameters():
                p.grad = None
            for p in net.l2.parameters():
                p.grad *= 0.5
        opt.step()
    l1_grad = net.l1.weight.grad
    return {"changed": changed(before, net), "l1_has_grad": l1_grad is not None and bool(l1_grad.abs().sum() > 0)}


def actor_critic(steps: int) -> dict:
    """The critic learns Q(s, a) from its own loss, which must not reach the actor; the actor then
    learns to maximise the critic's value of its actions, through the critic (left unchanged)."""
    torch.manual_seed(0)
    actor = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1), nn.Tanh())
    critic = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-2)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-2)
    states = torch.randn(32, 3)
    rewards = -(states[:, :1] - 0.5) ** 2  # the reward the critic learns to predict
    report = {}
    for step in range(steps):
        # critic update: the actor's actions are data here, so they are detached
        actor_opt.zero_grad()
        actions = actor(states)
        actor_before = snapshot(actor)
        critic_loss = F.mse_loss(critic(torch.cat([states, actions.detach()], dim=1)), rewards)
        critic_opt.zero_grad()
        critic_loss.backward()
        critic_opt.step()
        reached = any(p.grad is not None for p in actor.parameters()) or bool(changed(actor_before, actor))
        report["critic_loss_reached_actor"] = report.get("critic_loss_reached_actor", False) or reached
        # actor update: gradients flow through the critic into the actor; only the actor steps
        critic_before = snapshot(critic)
        actor_loss = -critic(torch.cat([states, actor(states)], dim=1)).mean()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()
        critic.zero_grad()  # the critic's gradients from the actor's loss are not used
        report["actor_step_changed_critic"] = report.get("actor_step_changed_critic", False) or \
            bool(changed(critic_before, critic))
        report["actor_changed"] = bool(changed(actor_before, actor))
        report["critic_loss"] = critic_loss.item()
    return report


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args(argv)
    results = {}
    for mode in ("control", "detach", "no_grad", "inference_mode", "optimizer", "manual"):
        results[mode] = train_head_only(mode, args.steps)
        print(f"{mode:15s} changed: {', '.join(results[mode]['changed']):40s} "
              f"L1 got a gradient: {results[mode]['l1_has_grad']}")
    results["actor_critic"] = actor_critic(args.steps)
    ac = results["actor_critic"]
    print(f"actor-critic: critic loss reached the actor: {ac['critic_loss_reached_actor']}; "
          f"the actor's step changed the critic: {ac['actor_step_changed_critic']}; "
          f"the actor learned: {ac['actor_changed']}; critic loss {ac['critic_loss']:.4f}")
    return results


if __name__ == "__main__":
    main()
