"""Train the bundled `toxicity-cnn-lstm` model (textfair audit's default) on Wikipedia comments.

python examples/train_toxicity_cnn_lstm.py
"""

from _training import BUNDLED, evaluate, split, wiki_toxicity, write_card

from textfair.models.torch_text import train_text_classifier

SEED = 0


def main() -> None:
    texts, labels = wiki_toxicity()
    train, test = split(len(texts), SEED)
    model = train_text_classifier(
        [texts[i] for i in train],
        [labels[i] for i in train],
        arch="cnn_lstm",
        epochs=8,
        seed=SEED,
        label_order=["non-toxic", "toxic"],
    )
    metrics = evaluate(model, [texts[i] for i in test], [labels[i] for i in test], "toxic")
    out = model.save(BUNDLED / "toxicity-cnn-lstm")
    write_card(
        out,
        "toxicity-cnn-lstm",
        {
            "architecture": "CNN-LSTM (embedding 64, conv 64x5, BiLSTM 64, max-pool), "
            "textfair format",
            "labels": "non-toxic, toxic",
            "data": "Wikipedia Talk Labels: Toxicity, identity-enriched sample of "
            "Dixon et al. 2018 "
            "(1,492 comments; examples/data/wiki_toxicity.csv; CC BY-SA 3.0 / CC0)",
            "split": f"seeded random 80/20 (seed {SEED}); {len(train)} train, {len(test)} test",
            "training": f"8 epochs, Adam lr 2e-3, batch 32, class-weighted loss, seed {SEED}",
            "script": "examples/train_toxicity_cnn_lstm.py",
        },
        metrics,
    )
    print(metrics)


if __name__ == "__main__":
    main()
