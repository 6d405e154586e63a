"""`--engine ray`: the same answers as the local engine, rows exactly once when a worker dies,
and one line without Ray.

The slow tests start one local Ray cluster with 2 CPUs for the module and run the CLI in
subprocesses that join it (`--ray-address`), as a user joins a cluster."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from benchmarks.corpus import WIKI, build_corpus, text_pool
from benchmarks.scale import OPTIONS
from textfair.distributed.ray_engine import MARKER, check_shard_directory
from textfair.errors import TextfairError

from conftest import report_differences

ROWS = 100_000


def textfair(*args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "-m", "textfair", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if check:
        assert done.returncode == 0, done.stderr[-3000:]
    return done


@pytest.mark.slow  # a fresh interpreter without Ray, 4 s (.ci/run checks the same before the extra)
def test_without_ray_engine_ray_is_one_line_naming_the_extra(tmp_path):
    """`pip install ".[dev]"` has no Ray: --engine ray says how to install it, exit 2."""
    corpus = tmp_path / "corpus.csv"
    corpus.write_text("text\na gay man\n")
    hide = (
        "import sys; sys.modules['ray'] = None; sys.modules['ray.data'] = None; "
        "from textfair.cli import main; sys.argv = ['textfair', *sys.argv[1:]]; main()"
    )
    for command in (
        ["predict", "--data", str(corpus), "--out", str(tmp_path / "p")],
        ["augment", "--data", str(corpus), "--label-column", "text", "--out", str(tmp_path / "a")],
        ["audit", "--out", str(tmp_path / "r")],
    ):
        done = subprocess.run(
            [sys.executable, "-c", hide, *command, "--engine", "ray"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "pip install 'textfair[ray]'" in lines[0], done.stderr
        assert "Traceback" not in done.stderr


def test_a_shard_directory_never_replaces_a_users_directory(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(TextfairError, match="not a shard directory"):
        check_shard_directory(mine, "predict")
    with pytest.raises(TextfairError, match=r"not a \.jsonl file"):
        check_shard_directory(tmp_path / "out.jsonl", "predict")
    with pytest.raises(TextfairError, match="pass --out DIR"):
        check_shard_directory(None, "predict")
    ours = tmp_path / "ours"
    ours.mkdir()
    (ours / MARKER).write_text("{}")
    assert check_shard_directory(ours, "predict") == ours
    assert check_shard_directory(tmp_path / "new", "predict") == tmp_path / "new"


@pytest.fixture(scope="module")
def cluster():
    """A local Ray cluster with 2 CPUs; its address for the CLI's --ray-address."""
    if os.environ.get("TEXTFAIR_REQUIRE_RAY"):  # CI: a missing Ray is a failure, not a skip
        import ray
    else:
        ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


@pytest.fixture(scope="module")
def large_corpus(tmp_path_factory) -> Path:
    """100,000 comments: the bundled ones and their counterfactuals, drawn with repeats."""
    path = tmp_path_factory.mktemp("corpus") / "comments.csv"
    build_corpus(ROWS, text_pool(), seed=0).to_csv(path, index=False)
    return path


def read_shards(directory: Path) -> pd.DataFrame:
    assert (directory / MARKER).is_file()
    return pd.read_parquet(directory)


def normalised(records: list[dict]) -> list[str]:
    """Rows as canonical JSON, sorted: the same rows in any order compare equal."""
    return sorted(json.dumps(record, sort_keys=True, ensure_ascii=False) for record in records)


@pytest.mark.slow
def test_audit_on_ray_writes_the_local_engines_report(cluster, tmp_path):
    """The bundled model on the bundled comments, labels included: report.json is the same
    but for the command line and the seconds taken, numbers to 1e-6 (the engines batch
    differently, and a float32 model's answer moves in the 7th digit with its batch)."""
    labels = ["--label-column", "toxic", "--label-map", "True=toxic,False=non-toxic"]
    textfair("audit", "--out", "local", *labels, cwd=tmp_path)
    textfair(
        "audit", "--out", "ray", *labels, "--engine", "ray", "--ray-address", cluster, cwd=tmp_path
    )
    local = json.loads((tmp_path / "local" / "report.json").read_text())
    on_ray = json.loads((tmp_path / "ray" / "report.json").read_text())
    for report in (local, on_ray):
        for section in (report, report["templates"]):  # the templated section's too
            section.pop("command")
            section["run"].pop("seconds")
    differences = report_differences(local, on_ray)
    assert not differences, "\n".join(differences[:20])
    assert local["metrics"]["subgroups"], "the label metrics ran"


@pytest.mark.slow
def test_augment_on_ray_writes_the_local_engines_rows(cluster, tmp_path):
    """100,000 rows drawn from the bundled comments as they come (about one in five names
    an identity term), each row's counterfactuals seeded by its position."""
    corpus = tmp_path / "training.csv"
    build_corpus(ROWS, pd.read_csv(WIKI), seed=1).to_csv(corpus, index=False)
    options = ["--data", str(corpus), "--text-column", "comment", "--label-column", "toxic"]
    textfair("augment", *options, "--out", "local.csv", cwd=tmp_path)
    textfair(
        "augment",
        *options,
        "--out",
        "shards",
        "--engine",
        "ray",
        "--ray-address",
        cluster,
        cwd=tmp_path,
    )
    local = pd.read_csv(tmp_path / "local.csv", dtype=str, keep_default_na=False)
    on_ray = read_shards(tmp_path / "shards").astype(str)[list(local.columns)]
    # several rows (the text and its counterfactuals) of each mentioning comment
    assert len(local) > 2 * local["seed_id"].nunique()

    def ordered(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.sort_values(list(frame.columns)).reset_index(drop=True)

    pd.testing.assert_frame_equal(ordered(on_ray), ordered(local))


@pytest.mark.slow
def test_predict_on_ray_writes_the_local_engines_rows_though_a_worker_is_killed(
    cluster, large_corpus, tmp_path
):
    """`predict --engine ray` on 100,000 rows while one model actor's worker is SIGKILLed
    mid-run: Ray restarts it and retries its batches, and the output holds every input row
    exactly once, each the local engine's record for it."""
    # Small batches (both engines alike) leave time to kill an actor mid-scoring.
    options = ["--data", str(large_corpus), "--text-column", "comment", "--batch-size", "16"]
    options += ["--favorable", "non-toxic"]
    textfair("predict", *options, "--out", "local.jsonl", cwd=tmp_path)
    on_ray = ["--out", "shards", "--engine", "ray", "--ray-address", cluster]
    process = subprocess.Popen(
        [sys.executable, "-m", "textfair", "predict", *options, *on_ray],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    killed = None
    deadline = time.monotonic() + 600
    while killed is None and process.poll() is None and time.monotonic() < deadline:
        found = subprocess.run(
            ["pgrep", "-f", "ray::MapWorker\\(MapBatches\\(BoundModelActor"],
            capture_output=True,
            text=True,
        ).stdout.split()
        if found:
            time.sleep(4)  # the model is loaded and batches are being scored
            killed = int(found[0])
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.2)
    _, stderr = process.communicate(timeout=900)
    assert killed is not None, "no model actor was seen to kill"
    assert process.returncode == 0, stderr[-3000:]
    assert f"scored {ROWS} rows" in stderr
    local = [json.loads(line) for line in (tmp_path / "local.jsonl").read_text().splitlines()]
    on_ray = read_shards(tmp_path / "shards").to_dict("records")
    assert len(on_ray) == len(local) == ROWS
    assert normalised(on_ray) == normalised(local)


@pytest.mark.slow
def test_label_metrics_on_ray_equal_the_audits(cluster, tmp_path):
    """The label-metric stage as a Ray pipeline (read, match and score on the cluster; the
    driver keeps numbers per distinct text) gives the local audit's metrics."""
    from textfair.auditing.decision import model_decision
    from textfair.auditing.labels import label_metrics
    from textfair.distributed.label_metrics import label_metrics_on_ray
    from textfair.models import CachedModel
    from textfair.models.spec import load_model
    from textfair.report import records
    from textfair.settings import AuditConfig
    from textfair.text.domain import TextDomain

    pool = text_pool().head(1000)
    path = tmp_path / "labelled.csv"
    pool.to_csv(path, index=False)
    on_ray = label_metrics_on_ray(
        "toxicity-cnn-lstm",
        OPTIONS,
        path,
        text_column="comment",
        label_column="toxic",
        positive_label="toxic",
        label_map={"True": "toxic", "False": "non-toxic"},
    )
    texts = pool["comment"].tolist()
    labels = ["toxic" if value else "non-toxic" for value in pool["toxic"]]
    model = CachedModel(load_model("toxicity-cnn-lstm"), batch_size=1024)
    local = label_metrics(
        TextDomain(texts), model, texts, labels, model_decision(model), "toxic", AuditConfig()
    )

    # As report.json holds them (NaN as null, tuples as lists): an AUC with too few texts is
    # undefined on both engines alike there, where NaN != NaN in the dataclasses.
    def as_json(metrics):
        return json.loads(json.dumps(records.finite(records.metrics_record(metrics))))

    differences = report_differences(as_json(local), as_json(on_ray))
    assert not differences, "\n".join(differences[:20])
