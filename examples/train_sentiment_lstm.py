"""Train the bundled `sentiment-lstm` model on IMDB reviews.

python examples/train_sentiment_lstm.py
"""

from _training import BUNDLED, evaluate, imdb, split, write_card

from textfair.models.torch_text import train_text_classifier

SEED = 0


def main() -> None:
    texts, labels = imdb()
    train, test = split(len(texts), SEED)
    model = train_text_classifier(
        [texts[i] for i in train],
        [labels[i] for i in train],
        arch="lstm",
        epochs=10,
        seed=SEED,
        label_order=["negative", "positive"],
    )
    metrics = evaluate(model, [texts[i] for i in test], [labels[i] for i in test], "positive")
    out = model.save(BUNDLED / "sentiment-lstm")
    write_card(
        out,
        "sentiment-lstm",
        {
            "architecture": "bidirectional LSTM (embedding 64, hidden 64, max-pool), "
            "textfair format",
            "labels": "negative, positive",
            "data": "Large Movie Review Dataset (Maas et al. 2011), 999-review sample "
            "(examples/data/imdb_small.tsv; research use)",
            "split": f"seeded random 80/20 (seed {SEED}); {len(train)} train, {len(test)} test",
            "training": f"10 epochs, Adam lr 2e-3, batch 32, first 200 tokens, seed {SEED}",
            "script": "examples/train_sentiment_lstm.py",
        },
        metrics,
    )
    print(metrics)


if __name__ == "__main__":
    main()
