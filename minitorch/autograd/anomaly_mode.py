"""``torch.autograd.anomaly_mode`` (defined in ``minitorch._core.anomaly_mode``)."""
from .._core.anomaly_mode import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly

__all__ = ["detect_anomaly", "is_anomaly_check_nan_enabled", "is_anomaly_enabled", "set_detect_anomaly"]
