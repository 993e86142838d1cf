"""Registry sweep inputs for attention (minitorch/_ops/sequence/attention.py): query/key/value of attention shapes, with a
causal mask and, for multi-head attention, packed projection weights and a key padding mask."""
import minitorch as mt
from registry_inputs import x


def _mha(q, k, v, w_in, b_in, w_out):
    padding = mt.tensor([[False, False, True], [False, False, False]])
    out, weights = mt.nn.functional.multi_head_attention_forward(
        q, k, v, 4, 2, w_in, b_in, None, None, False, 0.0, w_out, None, key_padding_mask=padding)
    return out, weights


SAMPLES = {
    "F.scaled_dot_product_attention": (
        lambda q, k, v: mt.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True),
        lambda: (x(2, 3, 2), x(2, 3, 2, seed=1), x(2, 3, 4, seed=2))),
    "F.multi_head_attention_forward": (
        _mha, lambda: (x(2, 2, 4), x(3, 2, 4, seed=1), x(3, 2, 4, seed=2), x(12, 4, low=-0.5, high=0.5, seed=3),
                       x(12, seed=4), x(4, 4, low=-0.5, high=0.5, seed=5))),
}
