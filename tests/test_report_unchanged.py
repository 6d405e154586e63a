"""The bundled audit's report.json is what it was: performance work (gathered model calls,
prefetching, a faster tokenizer) must not change a number.

`tests/data/bundled_audit_report.json` is the default audit of the bundled comments by the
bundled CNN-LSTM (`textfair.audit("toxicity-cnn-lstm")`, labels included). When it was
written, it matched the report of commit 8eb50e2 (before the causal stage gathered its model
calls) to 1e-6, term pairs of equal shift aside, which now keep a fixed order. Numbers may
move in the 7th digit (a float32 model's answer depends slightly on what it is batched
with); nothing else may change. The run's cost (seconds, calls, placebo queries), the
version and the data's path are left out. To accept a change on purpose, rewrite the file
with `(cd tests && python test_report_unchanged.py)`.
"""

import json
from pathlib import Path

import textfair

from conftest import report_differences

REFERENCE = Path(__file__).parent / "data" / "bundled_audit_report.json"
COST = {"seconds", "model_calls", "placebo_queries"}


def _bundled_audit() -> dict:
    record = textfair.audit("toxicity-cnn-lstm").to_dict()
    record["run"] = {k: v for k, v in record["run"].items() if k not in COST}
    del record["textfair_version"]
    record["data"].pop("path", None)  # where this checkout lies
    return record


def test_the_bundled_audit_report_is_unchanged():
    expected = json.loads(REFERENCE.read_text(encoding="utf-8"))
    differences = report_differences(expected, _bundled_audit())
    assert not differences, "\n".join(differences[:20])


def test_the_comparison_sees_a_changed_number_and_a_reordered_list():
    expected = {"a": [1.0, {"b": "x"}], "c": 0.5}
    assert not report_differences(expected, {"a": [1.0 + 1e-7, {"b": "x"}], "c": 0.5})
    assert report_differences(expected, {"a": [1.0, {"b": "x"}], "c": 0.50001})
    assert report_differences(expected, {"a": [{"b": "x"}, 1.0], "c": 0.5})


if __name__ == "__main__":
    REFERENCE.write_text(json.dumps(_bundled_audit(), sort_keys=True) + "\n", encoding="utf-8")
