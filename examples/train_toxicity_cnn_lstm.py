"""Train the bundled `toxicity-cnn-lstm` model (textfair audit's default) on Wikipedia comments.

python examples/train_toxicity_cnn_lstm.py            # writes examples/out/toxicity-cnn-lstm
python examples/train_toxicity_cnn_lstm.py --bundled  # replaces the bundled model
"""

from _training import destination, train_bundled, wiki_toxicity

if __name__ == "__main__":
    texts, labels = wiki_toxicity()
    train_bundled(
        "toxicity-cnn-lstm",
        destination("toxicity-cnn-lstm", __doc__.splitlines()[0]),
        texts,
        labels,
        positive="toxic",
        label_order=["non-toxic", "toxic"],
        arch="cnn_lstm",
        epochs=8,
        seed=0,
        facts={
            "architecture": "CNN-LSTM (embedding 64, conv 64x5, BiLSTM 64, max-pool), "
            "textfair format",
            "labels": "non-toxic, toxic",
            "data": "Wikipedia Talk Labels: Toxicity, identity-enriched sample of "
            "Dixon et al. 2018 (1,492 comments; textfair/datasets/wiki_toxicity.csv; "
            "CC BY-SA 3.0 / CC0)",
            "training": "8 epochs, Adam lr 2e-3, batch 32, class-weighted loss, seed 0",
            "script": "examples/train_toxicity_cnn_lstm.py",
        },
    )
