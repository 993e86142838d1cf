# Style: a two-layer GCN on a toy graph as in Kipf & Welling's pygcn and the PyG introduction tutorials.
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
# two communities of six nodes, joined by one edge (5-6)
edges = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (4, 5), (1, 5), (5, 6),
         (6, 7), (7, 8), (8, 9), (9, 10), (10, 11), (6, 11), (7, 9)]
num_nodes = 12
src, dst = zip(*edges)
edge_index = torch.tensor([src + dst, dst + src])
self_loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
edge_index = torch.cat([edge_index, self_loops], dim=1)
adj = torch.sparse_coo_tensor(edge_index, torch.ones(edge_index.size(1)), (num_nodes, num_nodes))
adj = adj.coalesce()
print(adj.is_sparse, adj.indices().shape, adj._nnz())
print(torch.eye(3).to_sparse() * 2)

deg = torch.sparse.sum(adj, dim=1).to_dense()
d_inv_sqrt = deg.pow(-0.5)
row, col = adj.indices()
norm_values = d_inv_sqrt[row] * adj.values() * d_inv_sqrt[col]
adj_norm = torch.sparse_coo_tensor(adj.indices(), norm_values, adj.shape)
print("degrees", deg.tolist())

features = torch.randn(num_nodes, 5)
labels = torch.tensor([0] * 6 + [1] * 6)
train_mask = torch.zeros(num_nodes, dtype=torch.bool)
train_mask[[0, 3, 8, 11]] = True


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        self.bias = nn.Parameter(torch.zeros(out_features))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, adj):
        support = torch.mm(x, self.weight)
        return torch.sparse.mm(adj, support) + self.bias


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout=0.5):
        super().__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        return F.log_softmax(self.gc2(x, adj), dim=1)


model = GCN(5, 8, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
for epoch in range(30):
    model.train()
    optimizer.zero_grad()
    out = model(features, adj_norm)
    loss = F.nll_loss(out[train_mask], labels[train_mask])
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch:02d} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    pred = model(features, adj_norm).argmax(dim=1)
acc = (pred == labels).float().mean().item()
print("predictions", pred.tolist(), f"accuracy {acc:.3f}")
# the same propagation with torch.spmm and the @ operator
h = torch.spmm(adj_norm, features)
print(torch.allclose(h, adj_norm @ features), np.round(h[:2].numpy(), 4))
buffer = io.BytesIO()
torch.save(adj_norm, buffer)
buffer.seek(0)
restored = torch.load(buffer)
print(restored.is_sparse, torch.equal(restored.to_dense(), adj_norm.to_dense()))
print(adj_norm.to_dense()[:3, :4])
