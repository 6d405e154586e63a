"""The mitigation methods for texts, each run on a `TextSetting` and leaving a `Mitigated`.

* ``counterfactual`` and ``rule-sets``: retraining with augmentation (`textfair.mitigate`).
* ``blindness`` (Garg et al. 2019's baseline): every identity mention replaced by one
  placeholder token, in training and at prediction: the audit's rewrites reach the model
  blinded, so it cannot tell them apart.
* ``thresholds``: per-group thresholds (the group: the identity term a text mentions) on the
  audited model's probability, fitted with fairlearn's ThresholdOptimizer on the validation
  part.
* ``logit-pairing`` (Garg et al. 2019): the model fine-tuned with its loss plus
  lambda * |logit(x) - logit(x')| over counterfactual pairs (x, x') of the training texts.

Also here: each text's group (`text_groups`), which the comparison's group metrics read too,
and what logit pairing needs of a model (`needs_torch_text`). The registry
(`textfair.mitigate.methods`) names them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from textfair.mitigate._group_thresholds import fit_group_thresholds
from textfair.mitigate._setting import NOT_RETRAINED, Mitigated, TextSetting, loop_note

if TYPE_CHECKING:
    from textfair.mitigate._logit_pairing import TunableModel
    from textfair.models.base import Model
    from textfair.text.matcher import Matcher

__all__ = [
    "PLACEHOLDER",
    "Blinded",
    "needs_torch_text",
    "retraining_with",
    "run_blindness",
    "run_logit_pairing",
    "run_thresholds",
    "text_groups",
]

PLACEHOLDER = "identityterm"  # one token for every identity mention (`blindness`)


def retraining_with(method: str) -> Callable[[TextSetting], Mitigated]:
    """The method that retrains the model with `method`'s augmentation ("counterfactual" or
    "rule-sets"), through `textfair.mitigate`'s retraining loop."""

    def run(setting: TextSetting) -> Mitigated:
        from textfair.mitigate.pipeline import MitigationConfig, mitigate_text

        if setting.retrainer is None:
            return Mitigated(None, "model", skipped=NOT_RETRAINED)
        train = setting.split.train
        result = mitigate_text(
            setting.model,
            [setting.texts[i] for i in train],
            [setting.labels[i] for i in train],
            favorable=setting.favorable,
            audit_config=setting.audit_config,
            config=MitigationConfig(
                method=method,
                seed=setting.seed,
                most_credible=True,
                keep_over_budget=True,
                max_accuracy_drop=setting.max_accuracy_drop,
            ),
        )
        if result.model is None:
            return Mitigated(None, "model", skipped=result.report["status"])
        return Mitigated(
            result.model,
            "model",
            note=loop_note(result),
            extra={"augmentation": len(result.augmentation)},
        )

    return run


class Blinded:
    """A model that sees every identity mention as one placeholder token (`PLACEHOLDER`)."""

    def __init__(self, model: Model, matcher: Matcher) -> None:
        self.model, self.matcher, self.labels = model, matcher, tuple(model.labels)

    def blind(self, text: str) -> str:
        """`text` with each identity mention (of the matcher's list) made the placeholder."""
        pieces, cursor = [], 0
        for mention in self.matcher.find(text):
            pieces += [text[cursor : mention.start], PLACEHOLDER]
            cursor = mention.end
        return "".join(pieces) + text[cursor:]

    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        return self.model.predict_proba([self.blind(t) for t in texts])


def run_blindness(setting: TextSetting) -> Mitigated:
    from textfair.text.matcher import Matcher

    if setting.retrainer is None:
        return Mitigated(None, "inputs", skipped=NOT_RETRAINED)
    matcher = Matcher(setting.audit_config.term_list())
    blind = Blinded(setting.model, matcher)
    train = setting.split.train
    fitted = setting.retrainer.fit(
        [blind.blind(setting.texts[i]) for i in train], [setting.labels[i] for i in train]
    )
    return Mitigated(
        Blinded(fitted, matcher),
        "inputs",
        note="retrained and queried with every identity mention as one placeholder token",
    )


def text_groups(matcher: Matcher) -> Callable[[Sequence[str]], list[str]]:
    """Each text's group: the one identity term it mentions ("religion=muslim"), "several"
    for more than one, "none" for none."""

    def groups_of(texts: Sequence[str]) -> list[str]:
        keys = []
        for text in texts:
            terms = {f"{m.category}={m.term_id}" for m in matcher.find(text)}
            keys.append(terms.pop() if len(terms) == 1 else ("several" if terms else "none"))
        return keys

    return groups_of


def run_thresholds(setting: TextSetting) -> Mitigated:
    from textfair.text.matcher import Matcher

    groups_of = text_groups(Matcher(setting.audit_config.term_list()))
    validation = setting.split.validation
    processed = fit_group_thresholds(
        setting.cached,
        [setting.texts[i] for i in validation],
        [setting.labels[i] for i in validation],
        groups_of,
        setting.favorable,
    )
    return Mitigated(
        processed,
        "decisions",
        note=(
            f"thresholds per identity term fitted on {len(validation)} validation texts of "
            "the training part; a term they never mention keeps the model's decision"
        ),
    )


def needs_torch_text(model: Model) -> str:
    """Logit pairing fine-tunes a torch network through its logits: a textfair torch text
    model or a Hugging Face one."""
    from textfair.models.hf import HFModel
    from textfair.models.torch_text import TorchTextModel

    if isinstance(model, TorchTextModel | HFModel):
        return ""
    return (
        "needs a torch text model (textfair's or a Hugging Face one) to fine-tune through its "
        f"logits; this is a {_kind_of(model)}"
    )


def _kind_of(model: Model) -> str:
    """A model's kind in words, for a reason a method does not apply."""
    from textfair.models.callable import CallableModel
    from textfair.models.sklearn import SklearnModel

    if isinstance(model, SklearnModel):
        return "scikit-learn model"
    if isinstance(model, CallableModel):
        return "Python function of texts"
    return f"{type(model).__name__} model"


def run_logit_pairing(setting: TextSetting) -> Mitigated:
    from textfair.mitigate._logit_pairing import counterfactual_pairs, logit_pairing, pair_gap
    from textfair.text.matcher import Matcher

    if why := needs_torch_text(setting.model):
        return Mitigated(None, "model", skipped=why)
    model = cast("TunableModel", setting.model)  # a torch text model: checked just above
    train = setting.split.train
    texts = [setting.texts[i] for i in train]
    labels = [setting.labels[i] for i in train]
    pairs = counterfactual_pairs(
        texts, labels, Matcher(setting.audit_config.term_list()), setting.seed
    )
    tuned = logit_pairing(model, texts, labels, pairs, seed=setting.seed)
    return Mitigated(
        tuned,
        "model",
        note=f"fine-tuned 2 epochs with lambda 1 over {len(pairs)} counterfactual pairs",
        extra={
            "pairs": len(pairs),
            "pair_gap_before": round(pair_gap(model, pairs), 4),
            "pair_gap_after": round(pair_gap(tuned, pairs), 4),
        },
    )
