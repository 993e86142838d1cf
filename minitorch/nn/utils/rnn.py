"""Variable-length sequences for the recurrent layers: PackedSequence, packing, padding and their inverses.

A packed sequence keeps the rows of every time step back to back, the longest sequences first, so that step
``t`` is the first ``batch_sizes[t]`` sequences. Every conversion here is one gather of rows (index_select
with an index computed from the lengths in numpy), so gradients flow through it.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ... import _dtype as _dtypes, _factories
from ..._ops.shape.joins import cat
from ..._core.tensor import Tensor


def _index_tensor(values) -> Tensor:
    return _factories.tensor(np.asarray(values, dtype=np.int64))


class _PackedSequenceBase(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(_PackedSequenceBase):
    """Packed rows of a batch of variable-length sequences (made by ``pack_padded_sequence`` or
    ``pack_sequence``, not by hand): ``data``, the int64 ``batch_sizes`` per time step, and the permutation
    that sorted the batch by decreasing length (``sorted_indices``) with its inverse."""

    def __new__(cls, data: Tensor, batch_sizes: Tensor | None = None, sorted_indices: Tensor | None = None,
                unsorted_indices: Tensor | None = None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence((data, batch_sizes))
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> PackedSequence:
        """The same packing with ``data`` converted by ``Tensor.to``."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self, *args, **kwargs) -> PackedSequence:
        """Itself: minitorch tensors live on the CPU."""
        return self

    def cuda(self, *args, **kwargs) -> PackedSequence:
        """Raises as ``Tensor.to('cuda')`` does (minitorch has no CUDA)."""
        return self.to("cuda")

    def pin_memory(self) -> PackedSequence:
        """Itself (pinned memory only matters for CUDA transfers)."""
        return self

    def is_pinned(self) -> bool:
        return False

    @property
    def is_cuda(self) -> bool:
        return False


def _converter(name: str, dtype):
    def convert(self) -> PackedSequence:
        return self.to(dtype=dtype)
    convert.__name__ = convert.__qualname__ = name
    convert.__doc__ = f"The same packing with ``data`` converted to {dtype}."
    return convert


for _name, _dt in (("double", _dtypes.float64), ("float", _dtypes.float32), ("half", _dtypes.float16),
                   ("long", _dtypes.int64), ("int", _dtypes.int32), ("short", _dtypes.int16), ("char", _dtypes.int8),
                   ("byte", _dtypes.uint8)):
    setattr(PackedSequence, _name, _converter(_name, _dt))


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The permutation that undoes ``permutation`` (None stays None)."""
    if permutation is None:
        return None
    p = permutation.numpy()
    inverse = np.empty_like(p)
    inverse[p] = np.arange(p.size, dtype=p.dtype)
    return _factories.tensor(inverse)


def _lengths(lengths) -> np.ndarray:
    values = lengths.numpy() if isinstance(lengths, Tensor) else lengths
    return np.asarray(values, dtype=np.int64).reshape(-1)


def _time_major_positions(lengths: np.ndarray, steps: int) -> np.ndarray:
    """Flat positions in a (steps, batch) grid of the valid entries, time step by time step: the packed order."""
    valid = np.arange(steps)[:, None] < lengths[None, :]
    return np.flatnonzero(valid)


def pack_padded_sequence(input: Tensor, lengths: Tensor | list[int], batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch (T, B, *) (or (B, T, *) with ``batch_first``) of sequences of ``lengths``; with
    ``enforce_sorted=False`` the batch is sorted by decreasing length first (and unsorted by the inverse)."""
    lengths = _lengths(lengths)
    batch_dim = 0 if batch_first else 1
    if enforce_sorted:
        if np.any(lengths[1:] > lengths[:-1]):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                               "sidestep this requirement if you do not need ONNX exportability.")
        sorted_indices = None
    else:
        order = np.argsort(-lengths, kind="stable")
        lengths = lengths[order]
        sorted_indices = _index_tensor(order)
        input = input.index_select(batch_dim, sorted_indices)
    if batch_first:
        input = input.transpose(0, 1)
    batch = input.shape[1]
    if lengths.size != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lengths.size} "
                           f"(batch_size={batch})")
    if lengths.size and lengths.min() <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    steps = int(lengths.max())
    rows = input.reshape(input.shape[0] * batch, *input.shape[2:])
    data = rows.index_select(0, _index_tensor(_time_major_positions(lengths, steps)))
    batch_sizes = (np.arange(steps)[:, None] < lengths[None, :]).sum(1)
    return PackedSequence(data, _index_tensor(batch_sizes), sorted_indices, None)


def _gather_padded(rows: Tensor, positions: np.ndarray, grid: int, padding_value: float) -> Tensor:
    """A (grid, *) tensor holding ``rows[i]`` at flat position ``positions[i]`` and ``padding_value`` elsewhere."""
    pad = _factories.full((1, *rows.shape[1:]), padding_value, dtype=rows.dtype)
    source = np.full(grid, rows.shape[0], dtype=np.int64)
    source[positions] = np.arange(rows.shape[0])
    return cat([rows, pad], 0).index_select(0, _factories.tensor(source))


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """Undo ``pack_padded_sequence``: (padded batch, int64 lengths), in the original batch order."""
    data, batch_sizes, _, unsorted_indices = sequence
    sizes = _lengths(batch_sizes)
    steps, batch = sizes.size, int(sizes[0])
    if total_length is not None:
        if total_length < steps:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but "
                             f"got total_length={total_length} and max sequence length being {steps}")
        steps = total_length
    lengths = (np.arange(batch)[None, :] < sizes[:, None]).sum(0)
    padded = _gather_padded(data, _time_major_positions(lengths, steps), steps * batch, padding_value)
    padded = padded.reshape(steps, batch, *data.shape[1:])
    if batch_first:
        padded = padded.transpose(0, 1)
    if unsorted_indices is not None:
        padded = padded.index_select(0 if batch_first else 1, unsorted_indices)
        lengths = lengths[unsorted_indices.numpy()]
    return padded, _index_tensor(lengths)


def pad_sequence(sequences: Tensor | list[Tensor], batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack sequences of shapes (L_i, *) into (max L, B, *) (or (B, max L, *)), padded on ``padding_side``."""
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = list(sequences.unbind(0) if isinstance(sequences, Tensor) else sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    lengths = np.array([s.shape[0] for s in sequences], dtype=np.int64)
    steps, batch = int(lengths.max()), len(sequences)
    start = steps - lengths if padding_side == "left" else np.zeros_like(lengths)
    # row-major (batch, time) positions of every sequence's rows, in the order cat puts them
    seq = np.repeat(np.arange(batch), lengths)
    offset = np.arange(seq.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    positions = seq * steps + np.repeat(start, lengths) + offset
    padded = _gather_padded(cat(sequences, 0), positions, batch * steps, padding_value)
    padded = padded.reshape(batch, steps, *sequences[0].shape[1:])
    return padded if batch_first else padded.transpose(0, 1)


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False) -> list[Tensor]:
    """Undo ``pad_sequence``: the list of sequences, each cut to its length."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [padded_sequences[i, :int(n)] for i, n in enumerate(_lengths(lengths))]


def pack_sequence(sequences: list[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of sequences of shapes (L_i, *) (decreasing lengths unless ``enforce_sorted=False``)."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """Undo ``pack_sequence``: the list of sequences."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
