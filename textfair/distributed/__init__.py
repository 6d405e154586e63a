"""Corpus-wide stages on Ray Data, for corpora and models beyond one machine.

`--engine ray` runs what touches every row of a corpus (scoring every text with `predict`)
as a Ray Data pipeline: a sharded read, the distinct texts found by a distributed group-by
(so each is scored once), scoring in a pool of actors that each load the model once, and
Parquet shards out. Ray is an optional extra (`pip install 'textfair[ray]'`); without it,
`--engine ray` is one line saying how to install it.
"""

from textfair.distributed.ray_engine import ENGINES, require_ray

__all__ = ["ENGINES", "require_ray"]
