"""The device a PyTorch model runs on, from the user's --device ("auto", cpu, cuda, cuda:N):
checked once for the text models and the Hugging Face ones alike.
"""

from __future__ import annotations

from textfair.errors import TextfairError


def resolve_device(device: str = "auto") -> str:
    """'auto' picks CUDA when available, else CPU; anything else is checked and returned."""
    import torch  # imported here: loading torch costs a second

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise TextfairError.bad("device", f"{device}: no CUDA device is available; use cpu")
    if device not in ("cpu", "mps") and not device.startswith("cuda"):
        raise TextfairError.bad("device", f"{device!r}: expected auto, cpu, cuda or cuda:N")
    return device
