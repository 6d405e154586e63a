"""--pairs FILE: every identity swap that flipped the decision, browsable and kept (issue
29: CheckList shows every failing case; the report shows 2-4 per finding)."""

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.models.spec import load_model


@pytest.fixture
def report(bundled_gender_religion_report):
    return bundled_gender_religion_report


def test_every_flip_of_every_term_pair_is_there_and_is_a_flip(report):
    frame = report.flipped_pairs_frame()
    pairs = report.counterfactual.term_pairs
    # As many rows as the term pairs' flips: none left out, none made up.
    assert len(frame) == sum(round(p.flip_rate * p.n) for p in pairs) > 0
    counted = frame.groupby(["category", "from", "to"]).size()
    for p in pairs:
        assert counted.get((p.category, p.source, p.target), 0) == round(p.flip_rate * p.n)
    assert (frame["decision"] != frame["counterfactual_decision"]).all()
    assert set(frame["decision"]) <= {"toxic", "non-toxic"}
    # Issue 57: a swap is labelled with the axis it stays on, as the lists define it, beside
    # TestSGD's category: gay -> bisexual is a sexual orientation swap, not "gender".
    orientation = frame[frame["from"].isin(["gay", "homosexual", "lesbian", "bisexual"])]
    assert len(orientation) and set(orientation["axis"]) == {"sexual orientation"}
    assert set(orientation["category"]) == {"gender"}
    religion = frame[frame["category"] == "religion"]
    assert (religion["axis"] == "religion").all()
    # The probabilities are the model's: asked again, it says the same.
    model = load_model("toxicity-cnn-lstm")
    favourable = list(model.labels).index("non-toxic")
    again = np.asarray(model.predict_proba(frame["counterfactual"].tolist()))[:, favourable]
    assert np.allclose(again, frame["counterfactual_p_non-toxic"], atol=1e-5)
    assert ((frame["p_non-toxic"] >= 0.5) == (frame["decision"] == "non-toxic")).all()


@pytest.mark.slow  # audits from the command line, 5 s: the fast tier keeps to 3 minutes
def test_the_cli_writes_csv_and_jsonl_and_refuses_a_bad_path_before_any_query(tmp_path):
    runner = CliRunner()
    quick = ["audit", "--categories", "gender", "--cache", str(tmp_path / "answers.db")]
    result = runner.invoke(app, [*quick, "--pairs", str(tmp_path / "flips.csv")])
    assert result.exit_code == 0, result.output
    csv = pd.read_csv(tmp_path / "flips.csv")
    assert f"wrote {len(csv)} flipped pairs to {tmp_path / 'flips.csv'}" in result.output
    result = runner.invoke(app, [*quick, "--pairs", str(tmp_path / "flips.jsonl")])
    lines = (tmp_path / "flips.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["text"] for line in lines] == csv["text"].tolist()
    # A file that exists is kept; a format textfair does not write is named: exit 2.
    for path, said in (
        (tmp_path / "flips.csv", "exists; replace it with --overwrite"),
        (tmp_path / "flips.xlsx", "expected a file ending in .csv, .tsv, .jsonl"),
    ):
        before = path.read_bytes() if path.exists() else None
        result = runner.invoke(app, [*quick, "--pairs", str(path)])
        assert result.exit_code == 2 and said in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
        assert (path.read_bytes() if path.exists() else None) == before
