"""Train the bundled `sentiment-lstm` model on IMDB reviews.

python examples/train_sentiment_lstm.py            # writes examples/out/sentiment-lstm
python examples/train_sentiment_lstm.py --bundled  # replaces the bundled model
"""

from _training import destination, imdb, train_bundled

if __name__ == "__main__":
    texts, labels = imdb()
    train_bundled(
        "sentiment-lstm",
        destination("sentiment-lstm", __doc__.splitlines()[0]),
        texts,
        labels,
        positive="positive",
        label_order=["negative", "positive"],
        arch="lstm",
        epochs=10,
        seed=0,
        facts={
            "architecture": "bidirectional LSTM (embedding 64, hidden 64, max-pool), "
            "textfair format",
            "labels": "negative, positive",
            "data": "Large Movie Review Dataset (Maas et al. 2011), 999-review sample "
            "(examples/data/imdb_small.tsv; research use)",
            "training": "10 epochs, Adam lr 2e-3, batch 32, first 200 tokens, seed 0",
            "script": "examples/train_sentiment_lstm.py",
        },
    )
