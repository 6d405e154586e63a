"""Mitigation: augmentation data from findings (retraining follows)."""
