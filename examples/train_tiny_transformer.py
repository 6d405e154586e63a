"""Train the bundled `toxicity-tiny-transformer`: a small BERT-style classifier from scratch.

Its WordPiece tokenizer is trained with `tokenizers` on the training split, and both are saved
with `save_pretrained`, so textfair's Hugging Face adapter loads the directory exactly as it
would a hub model (HF_HUB_OFFLINE=1 is enough).

    python examples/train_tiny_transformer.py   # writes examples/out/toxicity-tiny-transformer
    python examples/train_tiny_transformer.py --bundled   # replaces the bundled model
"""

import torch
from _training import destination, evaluate, split, wiki_toxicity, write_card
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

from textfair import HFModel

SEED = 0
LABELS = ["non-toxic", "toxic"]
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
MAX_LENGTH = 128


def build_tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.train_from_iterator(
        texts, trainers.WordPieceTrainer(vocab_size=4000, special_tokens=SPECIAL)
    )
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        model_max_length=MAX_LENGTH,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )


def main() -> None:
    out = destination("toxicity-tiny-transformer", __doc__.splitlines()[0])
    torch.manual_seed(SEED)
    texts, labels = wiki_toxicity()
    train, test = split(len(texts), SEED)
    train_texts = [texts[i] for i in train]
    targets = torch.tensor([LABELS.index(labels[i]) for i in train])
    tokenizer = build_tokenizer(train_texts)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=128,
        max_position_embeddings=MAX_LENGTH,
        num_labels=2,
        id2label=dict(enumerate(LABELS)),
        label2id={n: i for i, n in enumerate(LABELS)},
    )
    network = BertForSequenceClassification(config)
    encoded = tokenizer(
        train_texts, truncation=True, max_length=MAX_LENGTH, padding=True, return_tensors="pt"
    )
    counts = torch.bincount(targets).double()
    loss_fn = torch.nn.CrossEntropyLoss(weight=(counts.sum() / (2 * counts)).float())
    optimizer = torch.optim.AdamW(network.parameters(), lr=1e-3)
    generator = torch.Generator().manual_seed(SEED)
    network.train()
    for _ in range(12):
        for rows in torch.randperm(len(train), generator=generator).split(32):
            optimizer.zero_grad()
            logits = network(
                input_ids=encoded["input_ids"][rows], attention_mask=encoded["attention_mask"][rows]
            ).logits
            loss_fn(logits, targets[rows]).backward()
            optimizer.step()
    network.eval()
    network.save_pretrained(out)
    tokenizer.save_pretrained(out)
    model = HFModel(out, device="cpu")  # evaluate through the adapter users will use
    metrics = evaluate(model, [texts[i] for i in test], [labels[i] for i in test], "toxic")
    write_card(
        out,
        "toxicity-tiny-transformer",
        {
            "architecture": "BERT-style encoder from scratch: 2 layers, hidden 64, 2 heads, "
            "WordPiece vocabulary of 4,000 (tokenizers); transformers format",
            "labels": "non-toxic, toxic (config id2label)",
            "data": "Wikipedia Talk Labels: Toxicity, identity-enriched sample of "
            "Dixon et al. 2018 "
            "(textfair/datasets/wiki_toxicity.csv; CC BY-SA 3.0 / CC0)",
            "split": f"seeded random 80/20 (seed {SEED}); {len(train)} train, {len(test)} test",
            "training": f"12 epochs, AdamW lr 1e-3, batch 32, first {MAX_LENGTH} tokens, "
            f"class-weighted loss, seed {SEED}",
            "script": "examples/train_tiny_transformer.py",
        },
        metrics,
    )
    print(metrics)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
