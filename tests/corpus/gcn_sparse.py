"""A two-layer graph convolutional network (Kipf & Welling) on a small two-community graph, its normalised
adjacency a sparse COO matrix: built from an edge list and from a dense matrix, multiplied with
torch.sparse.mm, torch.spmm and @, saved and loaded."""
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(0)
torch.manual_seed(0)

# Two communities of 12 nodes: dense inside, a few edges across.
n, half = 24, 12
labels = np.repeat([0, 1], half)
edges = [(i, j) for i in range(n) for j in range(i + 1, n)
         if rng.random() < (0.35 if labels[i] == labels[j] else 0.03)]
src, dst = np.array(edges).T
edge_index = torch.tensor(np.concatenate([np.stack([src, dst]), np.stack([dst, src])], axis=1))


def normalized_adjacency(edge_index, n):
    """D^-1/2 (A + I) D^-1/2 as a sparse COO tensor."""
    loops = torch.arange(n).repeat(2, 1)
    index = torch.cat([edge_index, loops], dim=1)
    adj = torch.sparse_coo_tensor(index, torch.ones(index.shape[1]), (n, n)).coalesce()
    degree = torch.sparse.sum(adj, dim=1).to_dense()
    d = degree.pow(-0.5)
    row, col = adj.indices()
    return torch.sparse_coo_tensor(adj.indices(), d[row] * adj.values() * d[col], (n, n)).coalesce()


adj = normalized_adjacency(edge_index, n)
print("nodes", n, "edges", len(edges), "nnz", adj._nnz(), "coalesced", adj.is_coalesced())
print("layout", adj.layout == torch.sparse_coo, "sparse", adj.is_sparse)
dense = adj.to_dense()
print("symmetric", torch.allclose(dense, dense.t()), "row sums", dense.sum(1)[:4])
print("same from dense", torch.equal(dense.to_sparse().to_dense(), dense))

features = torch.randn(n, 8) + torch.tensor(labels, dtype=torch.float32)[:, None]
y = torch.tensor(labels)
train = torch.tensor([0, 1, 2, 12, 13, 14])
test = torch.tensor([i for i in range(n) if i not in (0, 1, 2, 12, 13, 14)])


class GraphConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.linear = nn.Linear(d_in, d_out)

    def forward(self, x, adj):
        return torch.sparse.mm(adj, self.linear(x))


class GCN(nn.Module):
    def __init__(self, d_in, hidden, classes):
        super().__init__()
        self.conv1 = GraphConv(d_in, hidden)
        self.conv2 = GraphConv(hidden, classes)

    def forward(self, x, adj):
        return self.conv2(F.relu(self.conv1(x, adj)), adj)


model = GCN(8, 16, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(40):
    optimizer.zero_grad()
    out = model(features, adj)
    loss = F.cross_entropy(out[train], y[train])
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    logits = model(features, adj)
    accuracy = (logits.argmax(1)[test] == y[test]).float().mean().item()
print(f"test accuracy {accuracy:.3f}")
print("grad norm of conv1", model.conv1.linear.weight.grad.norm().item() > 0)

# The same propagation three ways, and the sparse matrix's own printout on a corner.
h = model.conv1.linear(features).detach()
print("spmm == @ == sparse.mm", torch.allclose(torch.spmm(adj, h), adj @ h), torch.allclose(adj @ h, dense @ h))
corner = adj.to_dense()[:3, :3].to_sparse()
print(corner)
print(torch.sparse.softmax(corner, dim=1).to_dense())

# Learnable edge weights: a gradient for each stored value.
weights = adj.values().clone().requires_grad_()
weighted = torch.sparse_coo_tensor(adj.indices(), weights, (n, n))
(torch.sparse.mm(weighted, h).sum()).backward()
print("edge weight grads", weights.grad.shape, weights.grad[:3])

buffer = io.BytesIO()
torch.save({"adj": adj, "features": features}, buffer)
buffer.seek(0)
restored = torch.load(buffer)
print("restored", restored["adj"].is_sparse, torch.equal(restored["adj"].to_dense(), dense))
