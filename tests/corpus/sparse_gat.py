# Style: pyGAT's sparse GAT (SpGraphAttentionLayer): edge scores as a sparse matrix, softmax per row, sparse matmul.
import numpy as np
import scipy.sparse as sp
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(72)
rng = np.random.default_rng(72)
n_nodes, n_feat, n_hid, n_class = 10, 6, 4, 2
# a ring with chords, symmetric, as pygcn builds it from an edge list
edges = np.array([(i, (i + 1) % n_nodes) for i in range(n_nodes)] + [(0, 5), (2, 7), (3, 8)])
adj = sp.coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n_nodes, n_nodes), dtype=np.float32)
adj = adj + adj.T.multiply(adj.T > adj) - adj.multiply(adj.T > adj) + sp.eye(n_nodes)
adj = adj.tocoo().astype(np.float32)
edge = torch.from_numpy(np.vstack((adj.row, adj.col)).astype(np.int64))
print("edges:", edge.shape[1], "density:", round(edge.shape[1] / n_nodes ** 2, 3))


class SpGraphAttentionLayer(nn.Module):
    def __init__(self, in_features, out_features, alpha=0.2, concat=True):
        super().__init__()
        self.W = nn.Parameter(torch.zeros(size=(in_features, out_features)))
        self.a = nn.Parameter(torch.zeros(size=(1, 2 * out_features)))
        nn.init.xavier_normal_(self.W.data, gain=1.414)
        nn.init.xavier_normal_(self.a.data, gain=1.414)
        self.leakyrelu = nn.LeakyReLU(alpha)
        self.concat = concat

    def forward(self, input, edge):
        N = input.size(0)
        h = torch.mm(input, self.W)
        edge_h = torch.cat((h[edge[0, :], :], h[edge[1, :], :]), dim=1).t()  # 2*D x E
        scores = self.leakyrelu(self.a.mm(edge_h).squeeze())
        attention = torch.sparse_coo_tensor(edge, scores, torch.Size([N, N]))
        attention = torch.sparse.softmax(attention, dim=1)
        h_prime = torch.sparse.mm(attention, h)
        return F.elu(h_prime) if self.concat else h_prime


class SpGAT(nn.Module):
    def __init__(self):
        super().__init__()
        self.attentions = nn.ModuleList([SpGraphAttentionLayer(n_feat, n_hid) for _ in range(2)])
        self.out_att = SpGraphAttentionLayer(n_hid * 2, n_class, concat=False)

    def forward(self, x, edge):
        x = torch.cat([att(x, edge) for att in self.attentions], dim=1)
        return F.log_softmax(F.elu(self.out_att(x, edge)), dim=1)


features = torch.from_numpy(rng.normal(size=(n_nodes, n_feat)).astype(np.float32))
labels = torch.tensor([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
model = SpGAT()
optimizer = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
for epoch in range(12):
    optimizer.zero_grad()
    output = model(features, edge)
    loss_train = F.nll_loss(output, labels)
    loss_train.backward()
    optimizer.step()
    if epoch % 4 == 0:
        acc = (output.argmax(1) == labels).double().mean()
        print(f"Epoch: {epoch + 1:04d} loss_train: {loss_train.item():.4f} acc_train: {acc.item():.4f}")
with torch.no_grad():
    layer = model.attentions[0]
    h = features @ layer.W
    scores = layer.leakyrelu(layer.a.mm(torch.cat((h[edge[0]], h[edge[1]]), dim=1).t()).squeeze())
    att = torch.sparse.softmax(torch.sparse_coo_tensor(edge, scores, (n_nodes, n_nodes)), dim=1)
print(torch.sparse.sum(att, dim=1).to_dense(), att.to_dense()[0, :6])
print(model.attentions[0].W.grad.abs().sum().item() > 0, model.out_att.a.grad.shape)
