"""Corpus-wide stages on Ray, for corpora and models beyond one machine (`--engine ray`).

* :mod:`textfair.distributed.ray_engine`: joining or starting a cluster, sharded reads, a
  model per actor, and :class:`ActorPoolModel`, through which an audit's queries go to the
  actors.
* :mod:`textfair.distributed.pipelines` (`predict`, `augment`, `counterfactuals`) and
  :mod:`textfair.distributed.label_metrics`: Ray Data pipelines: sharded read, distinct texts
  (each scored once in the actor pool, :mod:`textfair.distributed.scoring`), shards out.

Ray is an optional extra (`pip install 'textfair[ray]'`); nothing here imports it until a
pipeline runs, and without it `--engine ray` is one line saying how to install it.
"""

from textfair.distributed.ray_engine import INSTALL, require_ray

__all__ = ["INSTALL", "require_ray"]
