#!/usr/bin/env bash
# gradlab's one entry point for people and CI.
#   ./dev.sh start   set everything up, then open JupyterLab on notebooks/00_start_here.ipynb
#   ./dev.sh test    set everything up, then run the whole test suite (what CI runs)
#   ./dev.sh setup   only set up (.venv with gradlab and all extras, Graphviz, Chromium, torch)
#   ./dev.sh bench   run the benchmarks and write benchmarks/RESULTS.md
set -euo pipefail
cd "$(dirname "$0")"
VENV=.venv
PY="$VENV/bin/python"

need_apt() {  # install Debian packages only when their program is missing
    local missing=()
    command -v dot >/dev/null 2>&1 || missing+=(graphviz)
    if [[ "${1:-}" == browser ]] && ! command -v chromium >/dev/null 2>&1; then missing+=(chromium); fi
    ((${#missing[@]})) || return 0
    echo "[setup] installing from the OS package manager: ${missing[*]}"
    local sudo=""; [[ $(id -u) == 0 ]] || sudo="sudo"
    if command -v apt-get >/dev/null 2>&1; then
        $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "[setup] no apt-get here: install ${missing[*]} yourself (e.g. 'brew install graphviz' or 'conda install graphviz')" >&2
    fi
}

setup() {
    need_apt "${1:-}"
    if [[ ! -x "$PY" ]]; then
        echo "[setup] creating $VENV"
        python3 -m venv "$VENV"
    fi
    "$PY" -m pip install -q --upgrade pip >/dev/null
    local extras="notebooks"
    [[ "${1:-}" == browser ]] && extras="test,torch"
    echo "[setup] pip install -e .[$extras]"
    "$PY" -m pip install -q -e ".[$extras]"
    if command -v dot >/dev/null 2>&1; then
        echo "[setup] Graphviz: $(dot -V 2>&1)"
    else
        echo "[setup] WARNING: Graphviz 'dot' not found; graphs will show as text trees. Install it with your OS package manager (apt-get install graphviz)." >&2
    fi
}

case "${1:-}" in
    setup) setup browser ;;
    start)
        setup
        root_flag=""; [[ $(id -u) == 0 ]] && root_flag="--allow-root"   # JupyterLab refuses root otherwise
        shift
        exec "$VENV/bin/jupyter" lab $root_flag notebooks/00_start_here.ipynb "$@" ;;
    test)
        setup browser
        shift
        # unit, parity, notebook (nbval) and browser tests in one run
        exec "$PY" -m pytest --nbval-lax --nbval-current-env \
            --nbval-sanitize-with notebooks/nbval_sanitize.cfg -p no:cacheprovider \
            tests notebooks "$@" ;;
    bench)
        setup browser
        shift
        exec "$PY" benchmarks/run.py "$@" ;;
    *) echo "usage: ./dev.sh start|test|setup|bench"; exit 2 ;;
esac
