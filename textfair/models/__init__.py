"""Model adapters: Hugging Face, PyTorch text models, scikit-learn, callables, and CachedModel."""

from textfair.models._adapt import as_model
from textfair.models.base import Model, check_probabilities
from textfair.models.cached import CachedModel, CacheStats
from textfair.models.callable import CallableModel, load_callable

__all__ = [
    "CacheStats",
    "CachedModel",
    "CallableModel",
    "Model",
    "as_model",
    "check_probabilities",
    "load_callable",
]
