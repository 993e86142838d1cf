"""The device set-up at the top of PyTorch tutorials and examples, in its common forms."""
import torch
import torch.backends.cudnn as cudnn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("device:", device)
device = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
print("device:", device)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print("device:", device)
use_cuda = torch.cuda.is_available() and not False
use_mps = torch.backends.mps.is_available()
print("use_cuda:", use_cuda, "use_mps:", use_mps, "gpus:", torch.cuda.device_count())
torch.manual_seed(1)
torch.cuda.manual_seed(1)
torch.cuda.manual_seed_all(1)
torch.mps.manual_seed(1)
cudnn.benchmark = True
cudnn.deterministic = True
torch.backends.cuda.matmul.allow_tf32 = True
torch.set_float32_matmul_precision("high")
print("bf16:", torch.cuda.is_available() and torch.cuda.is_bf16_supported())
dtype = "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float32"
print("dtype:", dtype)
kwargs = {"num_workers": 1, "pin_memory": True} if use_cuda else {}
loader = DataLoader(TensorDataset(torch.arange(6.0).reshape(3, 2)), batch_size=2, **kwargs)
model = torch.nn.Linear(2, 1).to(device)
with torch.no_grad():
    model.weight.fill_(0.5)
    model.bias.zero_()
model = torch.nn.DataParallel(model) if torch.cuda.device_count() > 1 else model
scaler = torch.amp.GradScaler(enabled=use_cuda)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for (x,) in loader:
    x = x.to(device, non_blocking=True)
    with torch.autocast(device_type="cuda", enabled=use_cuda):
        loss = model(x).pow(2).mean()
    opt.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    print(f"loss {loss.item():.4f} scale {scaler.get_scale()}")
print("weight:", model.weight.detach().cpu().numpy().round(4).tolist())
print("compiled runs:", torch.compile(model)(torch.ones(1, 2)).shape)
