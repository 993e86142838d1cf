"""Arguments PyTorch documents as tuples (sizes, dims, kernel sizes, paddings, betas, an LSTM's state) take a list
as well: PyTorch's outcome of the list form (recorded where torch is not installed) is minitorch's, and where PyTorch
takes the list it gives what the tuple gives. (A few refuse a list in PyTorch too: autograd.functional's inputs,
``nn.Upsample``'s scale_factor; minitorch refuses them alike.)"""
import math

import pytest

import minitorch
from torch_answers import assert_matches, torch_answer


def x(lib, *shape):
    """A float32 tensor of the given shape with distinct values, no random draws."""
    return (lib.arange(math.prod(shape), dtype=lib.float32).reshape(shape) - 3) / 7


def train_step(lib, optimizer_class, **kwargs):
    """The parameter after two steps of ``optimizer_class`` on a quadratic."""
    p = lib.nn.Parameter(x(lib, 4))
    opt = optimizer_class([p], lr=0.1, **kwargs)
    for _ in range(2):
        opt.zero_grad()
        ((p - 1) ** 2).sum().backward()
        opt.step()
    return p.detach()


def lstm(lib, S, cell=False):
    lib.manual_seed(0)
    if cell:
        layer = lib.nn.LSTMCell(3, 2)
        return layer(x(lib, 4, 3), S((x(lib, 4, 2), x(lib, 4, 2) * 2)))
    layer = lib.nn.LSTM(3, 2, batch_first=True)
    out, (h, c) = layer(x(lib, 1, 5, 3))
    return layer(x(lib, 1, 5, 3), S((h, c)))


def module(lib, make, *input_shape):
    lib.manual_seed(0)
    return make(lib.nn)(x(lib, *input_shape))


def grads(lib, S):
    a, b = x(lib, 3).requires_grad_(), x(lib, 3).requires_grad_()
    return lib.autograd.grad((a * b * b).sum(), S((a, b)))


def clip(lib, S, value=False):
    a, b = lib.nn.Parameter(x(lib, 3)), lib.nn.Parameter(x(lib, 2))
    ((a ** 2).sum() + (b ** 3).sum()).backward()
    if value:
        return lib.nn.utils.clip_grad_value_(S((a, b)), 0.5), a.grad, b.grad
    return lib.nn.utils.clip_grad_norm_(S((a, b)), 1.0), a.grad, b.grad


def backward(lib, S):
    a = x(lib, 3).requires_grad_()
    lib.autograd.backward(S((a * a, a.sum())), S((lib.ones(3), lib.tensor(2.0))))
    return a.grad


def lrs(lib, S, kind="MultiStepLR"):
    """The learning rates of two parameter groups over four steps of a schedule given lists per group."""
    opt = lib.optim.SGD([{"params": [lib.nn.Parameter(x(lib, 1))]}, {"params": [lib.nn.Parameter(x(lib, 1))]}],
                        lr=1.0, momentum=0.9)
    schedules = lib.optim.lr_scheduler
    if kind == "LambdaLR":
        schedule = schedules.LambdaLR(opt, S((lambda k: 0.5 ** k, lambda k: 1 / (k + 1))))
    elif kind == "CyclicLR":
        schedule = schedules.CyclicLR(opt, base_lr=S((0.1, 0.2)), max_lr=S((1.0, 2.0)), step_size_up=2)
    else:
        schedule = schedules.MultiStepLR(opt, milestones=S((1, 3)), gamma=0.5)
    out = []
    for _ in range(4):
        opt.step()
        schedule.step()
        out.append(schedule.get_last_lr())
    return out


CASES = {
    # tensor methods and functions taking sizes and dims
    "permute": lambda lib, S: x(lib, 2, 3, 4).permute(S((2, 0, 1))),
    "reshape": lambda lib, S: x(lib, 2, 3, 4).reshape(S((4, 6))),
    "view": lambda lib, S: x(lib, 2, 3, 4).view(S((6, 4))),
    "expand": lambda lib, S: x(lib, 3, 1).expand(S((2, 3, 4))),
    "expand_as_minus_one": lambda lib, S: x(lib, 3, 1).expand(S((-1, 5))),
    "repeat": lambda lib, S: x(lib, 2, 3).repeat(S((2, 1, 2))),
    "tile": lambda lib, S: lib.tile(x(lib, 2, 3), S((2, 1))),
    "flip": lambda lib, S: lib.flip(x(lib, 2, 3), S((0, 1))),
    "sum_dims": lambda lib, S: x(lib, 2, 3, 4).sum(S((0, 2))),
    "mean_dims": lambda lib, S: x(lib, 2, 3, 4).mean(dim=S((0, 1)), keepdim=True),
    "amax_dims": lambda lib, S: lib.amax(x(lib, 2, 3, 4), S((1, 2))),
    "std_dims": lambda lib, S: x(lib, 2, 3, 4).std(S((0, 2))),
    "var_mean_dims": lambda lib, S: lib.var_mean(x(lib, 2, 3, 4), S((0, 1))),
    "logsumexp_dims": lambda lib, S: lib.logsumexp(x(lib, 2, 3, 4), S((0, 2))),
    "count_nonzero_dims": lambda lib, S: lib.count_nonzero(x(lib, 2, 3, 4), S((0, 1))),
    "norm_dims": lambda lib, S: lib.norm(x(lib, 2, 3, 4), dim=S((1, 2))),
    "linalg_norm_dims": lambda lib, S: lib.linalg.norm(x(lib, 3, 4), dim=S((0, 1))),
    "squeeze_dims": lambda lib, S: lib.squeeze(x(lib, 1, 3, 1), S((0, 2))),
    "new_zeros": lambda lib, S: x(lib, 2).new_zeros(S((2, 3))),
    "new_full": lambda lib, S: x(lib, 2).new_full(S((2, 3)), 1.5),
    "zeros": lambda lib, S: lib.zeros(S((2, 3))),
    "ones": lambda lib, S: lib.ones(S((3, 2)), dtype=lib.float64),
    "full": lambda lib, S: lib.full(S((2, 2)), 7),
    "empty_shape": lambda lib, S: lib.empty(S((2, 5))).shape,
    "rand": lambda lib, S: (lib.manual_seed(0), lib.rand(S((2, 3))))[1],
    "randn": lambda lib, S: (lib.manual_seed(0), lib.randn(S((2, 3))))[1],
    "randint": lambda lib, S: (lib.manual_seed(0), lib.randint(0, 9, S((2, 3))))[1],
    "roll": lambda lib, S: lib.roll(x(lib, 3, 4), S((1, -1)), S((0, 1))),
    "movedim": lambda lib, S: lib.movedim(x(lib, 2, 3, 4), S((0, 1)), S((2, 0))),
    "unflatten": lambda lib, S: x(lib, 2, 6).unflatten(1, S((2, 3))),
    "split_sizes": lambda lib, S: lib.split(x(lib, 5, 2), S((2, 3))),
    "tensor_split_indices": lambda lib, S: lib.tensor_split(x(lib, 6), S((1, 4))),
    "broadcast_to": lambda lib, S: lib.broadcast_to(x(lib, 3), S((2, 3))),
    "as_strided": lambda lib, S: lib.as_strided(x(lib, 6), S((2, 2)), S((1, 2))),
    "rot90_dims": lambda lib, S: lib.rot90(x(lib, 2, 3), 1, S((0, 1))),
    "tensordot_dims": lambda lib, S: lib.tensordot(x(lib, 2, 3), x(lib, 3, 4), dims=S((S((1,)), S((0,))))),
    "cat": lambda lib, S: lib.cat(S((x(lib, 2), x(lib, 3)))),
    "stack": lambda lib, S: lib.stack(S((x(lib, 2), x(lib, 2) * 2)), dim=1),
    "hstack": lambda lib, S: lib.hstack(S((x(lib, 2), x(lib, 3)))),
    "meshgrid": lambda lib, S: lib.meshgrid(S((x(lib, 2), x(lib, 3))), indexing="ij"),
    "einsum_operands": lambda lib, S: lib.einsum("ij,jk->ik", S((x(lib, 2, 3), x(lib, 3, 2)))),
    "fftn_s_dims": lambda lib, S: lib.fft.fftn(x(lib, 3, 4), s=S((4, 4)), dim=S((0, 1))),
    "index_put_indices": lambda lib, S: x(lib, 3, 3).index_put(S((lib.tensor([0, 2]), lib.tensor([1, 0]))),
                                                               lib.tensor(9.0)),
    "tensor_data": lambda lib, S: lib.tensor(S((S((1, 2)), S((3, 4))))),
    "as_tensor_data": lambda lib, S: lib.as_tensor(S((1.5, 2.5))),
    "new_tensor_data": lambda lib, S: x(lib, 2).new_tensor(S((1, 2, 3))),
    "Size": lambda lib, S: lib.Size(S((2, 3))),
    "broadcast_shapes": lambda lib, S: lib.broadcast_shapes(S((2, 1)), S((3,))),
    "reshape_function": lambda lib, S: lib.reshape(x(lib, 2, 3), S((3, 2))),
    "permute_function": lambda lib, S: lib.permute(x(lib, 2, 3, 4), S((1, 2, 0))),
    "resize_": lambda lib, S: x(lib, 2, 3).resize_(S((3, 2))),
    "empty_strided_shape": lambda lib, S: lib.empty_strided(S((2, 3)), S((1, 2))).stride(),
    "normal_size": lambda lib, S: (lib.manual_seed(0), lib.normal(0.0, 1.0, size=S((2, 3))))[1],
    "histogramdd_bins": lambda lib, S: lib.histogramdd(x(lib, 6, 2), bins=S((2, 3))),
    "pack_sequence": lambda lib, S: lib.nn.utils.rnn.pad_packed_sequence(
        lib.nn.utils.rnn.pack_sequence(S((x(lib, 3, 2), x(lib, 2, 2))))),
    "pack_padded_lengths": lambda lib, S: lib.nn.utils.rnn.pack_padded_sequence(x(lib, 3, 2, 1), S((3, 2))).data,
    "parameters_to_vector": lambda lib, S: lib.nn.utils.parameters_to_vector(S((x(lib, 2), x(lib, 2, 2)))),
    "jacobian_inputs": lambda lib, S: lib.autograd.functional.jacobian(lambda a, b: a * b, S((x(lib, 2), x(lib, 2)))),
    "hessian_inputs": lambda lib, S: lib.autograd.functional.hessian(lambda a: (a ** 3).sum(), S((x(lib, 2),))),
    "vjp_v": lambda lib, S: lib.autograd.functional.vjp(lambda a: a * 2, x(lib, 2), S((x(lib, 2),))),
    "random_split_lengths": lambda lib, S: [list(part) for part in lib.utils.data.random_split(
        range(10), S((7, 3)), generator=lib.Generator().manual_seed(0))],
    "ConcatDataset": lambda lib, S: list(lib.utils.data.ConcatDataset(S((range(2), range(3))))),
    "vector_norm_dims": lambda lib, S: lib.linalg.vector_norm(x(lib, 2, 3, 4), dim=S((0, 2))),
    "matrix_norm_dims": lambda lib, S: lib.linalg.matrix_norm(x(lib, 2, 3, 4), dim=S((0, 2))),
    "nanmean_dims": lambda lib, S: lib.nanmean(x(lib, 2, 3, 4), dim=S((0, 2))),
    "nansum_dims": lambda lib, S: lib.nansum(x(lib, 2, 3, 4), dim=S((1, 2))),
    "rfft2_s": lambda lib, S: lib.fft.rfft2(x(lib, 3, 4), s=S((4, 6))),
    "irfftn_s_dims": lambda lib, S: lib.fft.irfftn(x(lib, 3, 4), s=S((3, 6)), dim=S((0, 1))),
    "fftshift_dims": lambda lib, S: lib.fft.fftshift(x(lib, 3, 4), dim=S((0, 1))),
    "zeros_Size": lambda lib, S: lib.zeros(lib.Size(S((2, 3)))),
    "random_split_fractions": lambda lib, S: [list(part) for part in lib.utils.data.random_split(
        range(10), S((0.8, 0.2)), generator=lib.Generator().manual_seed(0))],
    "WeightedRandomSampler": lambda lib, S: list(lib.utils.data.WeightedRandomSampler(
        S((0.1, 0.0, 0.9)), 5, generator=lib.Generator().manual_seed(0))),
    "SubsetRandomSampler": lambda lib, S: list(lib.utils.data.SubsetRandomSampler(
        S((4, 2, 7)), generator=lib.Generator().manual_seed(0))),
    "pad_sequence": lambda lib, S: lib.nn.utils.rnn.pad_sequence(S((x(lib, 3), x(lib, 1))), batch_first=True),
    # nn.functional
    "F.pad": lambda lib, S: lib.nn.functional.pad(x(lib, 1, 2, 3), S((1, 2, 0, 1))),
    "F.interpolate_size": lambda lib, S: lib.nn.functional.interpolate(x(lib, 1, 1, 2, 3), size=S((4, 6))),
    "F.interpolate_scale": lambda lib, S: lib.nn.functional.interpolate(x(lib, 1, 1, 2, 3),
                                                                        scale_factor=S((2.0, 1.5)), mode="bilinear"),
    "F.avg_pool2d": lambda lib, S: lib.nn.functional.avg_pool2d(x(lib, 1, 1, 4, 5), S((2, 3)), stride=S((1, 2)),
                                                                padding=S((1, 1))),
    "F.max_pool2d": lambda lib, S: lib.nn.functional.max_pool2d(x(lib, 1, 1, 4, 5), S((2, 2)), stride=S((2, 1)),
                                                                dilation=S((1, 2))),
    "F.max_pool1d": lambda lib, S: lib.nn.functional.max_pool1d(x(lib, 1, 2, 6), S((3,)), stride=S((2,))),
    "F.adaptive_avg_pool2d": lambda lib, S: lib.nn.functional.adaptive_avg_pool2d(x(lib, 1, 1, 4, 5), S((2, 3))),
    "F.adaptive_max_pool2d": lambda lib, S: lib.nn.functional.adaptive_max_pool2d(x(lib, 1, 1, 4, 5), S((3, 2))),
    "F.conv2d": lambda lib, S: lib.nn.functional.conv2d(x(lib, 1, 1, 5, 5), x(lib, 2, 1, 2, 3), stride=S((1, 2)),
                                                        padding=S((1, 0)), dilation=S((2, 1))),
    "F.conv_transpose2d": lambda lib, S: lib.nn.functional.conv_transpose2d(
        x(lib, 1, 1, 3, 3), x(lib, 1, 2, 2, 2), stride=S((2, 2)), output_padding=S((1, 0))),
    "F.pad_reflect": lambda lib, S: lib.nn.functional.pad(x(lib, 1, 2, 3), S((1, 1)), mode="reflect"),
    "F.conv1d": lambda lib, S: lib.nn.functional.conv1d(x(lib, 1, 1, 7), x(lib, 1, 1, 3), stride=S((2,)),
                                                        padding=S((1,)), dilation=S((2,))),
    "F.conv3d": lambda lib, S: lib.nn.functional.conv3d(x(lib, 1, 1, 3, 4, 4), x(lib, 1, 1, 2, 2, 2),
                                                        stride=S((1, 2, 1)), padding=S((0, 1, 1))),
    "F.avg_pool1d": lambda lib, S: lib.nn.functional.avg_pool1d(x(lib, 1, 1, 7), S((2,)), stride=S((2,))),
    "F.avg_pool3d": lambda lib, S: lib.nn.functional.avg_pool3d(x(lib, 1, 1, 2, 4, 4), S((1, 2, 2))),
    "F.max_pool2d_indices": lambda lib, S: lib.nn.functional.max_pool2d(x(lib, 1, 1, 4, 4), S((2, 2)),
                                                                        return_indices=True),
    "F.max_unpool2d": lambda lib, S: lib.nn.functional.max_unpool2d(
        *lib.nn.functional.max_pool2d(x(lib, 1, 1, 4, 4), 2, return_indices=True), S((2, 2)), output_size=S((5, 5))),
    "F.adaptive_avg_pool1d": lambda lib, S: lib.nn.functional.adaptive_avg_pool1d(x(lib, 1, 1, 7), S((3,))),
    "F.rms_norm": lambda lib, S: lib.nn.functional.rms_norm(x(lib, 2, 3, 4), S((3, 4))),
    "F.normalize_dims": lambda lib, S: lib.nn.functional.normalize(x(lib, 2, 3, 4), dim=S((1, 2))),
    "F.adaptive_avg_pool2d_none": lambda lib, S: lib.nn.functional.adaptive_avg_pool2d(x(lib, 1, 1, 4, 5),
                                                                                      S((None, 2))),
    "F.interpolate_bicubic": lambda lib, S: lib.nn.functional.interpolate(x(lib, 1, 1, 3, 3), size=S((5, 4)),
                                                                          mode="bicubic", align_corners=True),
    "F.ctc_loss_lengths": lambda lib, S: lib.nn.functional.ctc_loss(
        x(lib, 5, 2, 4).log_softmax(2), lib.tensor([[1, 2], [3, 3]]), S((5, 4)), S((2, 2))),
    "F.layer_norm": lambda lib, S: lib.nn.functional.layer_norm(x(lib, 2, 3, 4), S((3, 4))),
    "F.unfold": lambda lib, S: lib.nn.functional.unfold(x(lib, 1, 1, 4, 4), S((2, 3)), stride=S((2, 1))),
    "F.fold": lambda lib, S: lib.nn.functional.fold(x(lib, 1, 4, 4), S((3, 3)), kernel_size=S((2, 2))),
    "F.lp_pool2d": lambda lib, S: lib.nn.functional.lp_pool2d(x(lib, 1, 1, 4, 4).abs(), 2.0, S((2, 2))),
    "F.affine_grid": lambda lib, S: lib.nn.functional.affine_grid(
        lib.tensor([[[1.0, 0.2, 0.1], [0.0, 0.9, -0.1]]]), S((1, 1, 2, 3)), align_corners=False),
    # nn modules
    "nn.Conv2d": lambda lib, S: module(lib, lambda nn: nn.Conv2d(1, 2, S((3, 2)), stride=S((1, 2)),
                                                                 padding=S((1, 0))), 1, 1, 5, 5),
    "nn.Conv1d": lambda lib, S: module(lib, lambda nn: nn.Conv1d(2, 1, S((3,)), padding=S((1,))), 1, 2, 5),
    "nn.ConvTranspose2d": lambda lib, S: module(lib, lambda nn: nn.ConvTranspose2d(1, 1, S((2, 3)), stride=S((2, 1))),
                                                1, 1, 3, 3),
    "nn.MaxPool2d": lambda lib, S: module(lib, lambda nn: nn.MaxPool2d(S((2, 2)), stride=S((1, 2))), 1, 1, 4, 5),
    "nn.AvgPool2d": lambda lib, S: module(lib, lambda nn: nn.AvgPool2d(S((2, 3)), padding=S((1, 1))), 1, 1, 4, 5),
    "nn.AdaptiveAvgPool2d": lambda lib, S: module(lib, lambda nn: nn.AdaptiveAvgPool2d(S((2, 2))), 1, 1, 4, 5),
    "nn.LayerNorm": lambda lib, S: module(lib, lambda nn: nn.LayerNorm(S((3, 4))), 2, 3, 4),
    "nn.Upsample": lambda lib, S: module(lib, lambda nn: nn.Upsample(size=S((4, 4))), 1, 1, 2, 2),
    "nn.Unflatten": lambda lib, S: module(lib, lambda nn: nn.Unflatten(1, S((2, 3))), 2, 6),
    "nn.ZeroPad2d": lambda lib, S: module(lib, lambda nn: nn.ZeroPad2d(S((1, 0, 2, 1))), 1, 2, 3),
    "nn.ConstantPad2d": lambda lib, S: module(lib, lambda nn: nn.ConstantPad2d(S((1, 0, 0, 1)), 0.5), 1, 2, 3),
    "nn.ReflectionPad2d": lambda lib, S: module(lib, lambda nn: nn.ReflectionPad2d(S((1, 1, 0, 1))), 1, 2, 3),
    "nn.ReplicationPad1d": lambda lib, S: module(lib, lambda nn: nn.ReplicationPad1d(S((2, 1))), 1, 2, 3),
    "nn.Fold": lambda lib, S: module(lib, lambda nn: nn.Fold(S((3, 3)), S((2, 2))), 1, 4, 4),
    "nn.Unfold": lambda lib, S: module(lib, lambda nn: nn.Unfold(S((2, 2)), stride=S((1, 2))), 1, 1, 3, 4),
    "nn.Conv3d": lambda lib, S: module(lib, lambda nn: nn.Conv3d(1, 1, S((1, 2, 2)), stride=S((1, 1, 2))),
                                       1, 1, 2, 3, 4),
    "nn.Conv2d_reflect": lambda lib, S: module(lib, lambda nn: nn.Conv2d(1, 1, 3, padding=S((1, 2)),
                                                                         padding_mode="reflect"), 1, 1, 4, 4),
    "nn.MaxPool1d": lambda lib, S: module(lib, lambda nn: nn.MaxPool1d(S((2,)), stride=S((1,))), 1, 1, 5),
    "nn.AvgPool3d": lambda lib, S: module(lib, lambda nn: nn.AvgPool3d(S((1, 2, 2))), 1, 1, 2, 4, 4),
    "nn.AdaptiveMaxPool2d": lambda lib, S: module(lib, lambda nn: nn.AdaptiveMaxPool2d(S((2, 1))), 1, 1, 4, 5),
    "nn.LPPool2d": lambda lib, S: module(lib, lambda nn: nn.LPPool2d(2, S((2, 2))), 1, 1, 4, 4),
    "nn.MaxUnpool2d": lambda lib, S: lib.nn.MaxUnpool2d(S((2, 2)))(
        *lib.nn.functional.max_pool2d(x(lib, 1, 1, 4, 4), 2, return_indices=True)),
    "nn.Upsample_scale": lambda lib, S: module(lib, lambda nn: nn.Upsample(scale_factor=S((2.0, 3.0))), 1, 1, 2, 2),
    "nn.RMSNorm": lambda lib, S: module(lib, lambda nn: nn.RMSNorm(S((3, 4))), 2, 3, 4),
    "nn.ConstantPad1d": lambda lib, S: module(lib, lambda nn: nn.ConstantPad1d(S((1, 2)), -1.0), 1, 2, 3),
    "nn.CircularPad2d": lambda lib, S: module(lib, lambda nn: nn.CircularPad2d(S((1, 1, 1, 0))), 1, 1, 2, 3),
    "nn.ReplicationPad3d": lambda lib, S: module(lib, lambda nn: nn.ReplicationPad3d(S((1, 0, 0, 1, 1, 0))),
                                                 1, 1, 2, 2, 2),
    "nn.AdaptiveAvgPool2d_none": lambda lib, S: module(lib, lambda nn: nn.AdaptiveAvgPool2d(S((None, 2))),
                                                       1, 1, 4, 5),
    "nn.ModuleList": lambda lib, S: len(lib.nn.ModuleList(S((lib.nn.ReLU(), lib.nn.Tanh())))),
    "nn.ParameterList": lambda lib, S: list(lib.nn.ParameterList(S((lib.nn.Parameter(x(lib, 2)),)))),
    "nn.LSTM_state": lambda lib, S: lstm(lib, S),
    "nn.LSTMCell_state": lambda lib, S: lstm(lib, S, cell=True),
    # autograd, utilities and optimizers
    "autograd.grad_inputs": grads,
    "clip_grad_norm_": clip,
    "autograd.backward_tensors": lambda lib, S: backward(lib, S),
    "clip_grad_value_": lambda lib, S: clip(lib, S, value=True),
    "MultiStepLR_milestones": lambda lib, S: lrs(lib, S),
    "LambdaLR_per_group": lambda lib, S: lrs(lib, S, "LambdaLR"),
    "CyclicLR_base_lrs": lambda lib, S: lrs(lib, S, "CyclicLR"),
    "Adam_betas": lambda lib, S: train_step(lib, lib.optim.Adam, betas=S((0.8, 0.9))),
    "AdamW_betas": lambda lib, S: train_step(lib, lib.optim.AdamW, betas=S((0.8, 0.9))),
    "NAdam_betas": lambda lib, S: train_step(lib, lib.optim.NAdam, betas=S((0.8, 0.9))),
    "RAdam_betas": lambda lib, S: train_step(lib, lib.optim.RAdam, betas=S((0.8, 0.9))),
    "Adamax_betas": lambda lib, S: train_step(lib, lib.optim.Adamax, betas=S((0.8, 0.9))),
    "Rprop_etas": lambda lib, S: train_step(lib, lib.optim.Rprop, etas=S((0.4, 1.3)), step_sizes=S((1e-3, 1.0))),
}


def outcome(lib, name, S):
    """What the case gives: its result, or the type of the exception it raises."""
    try:
        return CASES[name](lib, S)
    except Exception as e:  # the error's type is the outcome compared with torch's
        return ("raises", type(e).__name__)


def as_arrays(result):
    """minitorch's result with its tensors as numpy arrays (the form ``assert_matches`` compares with)."""
    if isinstance(result, minitorch.Tensor):
        return result.detach().numpy()
    if isinstance(result, (tuple, list)) and not isinstance(result, minitorch.Size):
        return [as_arrays(r) for r in result]
    return tuple(result) if isinstance(result, minitorch.Size) else result


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_list_where_pytorch_documents_a_tuple(name):
    theirs = torch_answer(lambda torch, n: outcome(torch, n, list), name)
    with_list = outcome(minitorch, name, list)
    assert_matches(with_list, theirs, rtol=1e-5, atol=1e-6, where=f"{name}: list form vs torch's")
    if not (isinstance(theirs, tuple) and theirs[0:1] == ("raises",)):  # where PyTorch takes the list, it means the tuple
        assert_matches(as_arrays(with_list), as_arrays(outcome(minitorch, name, tuple)), where=f"{name}: list vs tuple")
