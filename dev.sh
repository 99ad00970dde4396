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
    # a CJK font, so that screenshots of the Korean and Chinese players show their text
    if [[ "${1:-}" == browser ]] && ! fc-list 2>/dev/null | grep -i "wenquanyi" >/dev/null; then missing+=(fonts-wqy-microhei); fi   # (no -q: pipefail)
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
    local extras="notebooks"
    [[ "${1:-}" == browser ]] && extras="test,torch"
    # Install only when something changed: a stamp holds the hash of pyproject.toml for each set of extras
    # (the test extras include the notebook ones).
    local hash stamp
    hash=$("$PY" -c 'import hashlib,sys; print(hashlib.sha256(open("pyproject.toml","rb").read()).hexdigest())')
    stamp="$VENV/.gradlab-installed-$extras"
    if [[ "$(cat "$stamp" 2>/dev/null)" == "$hash" || ( "$extras" == notebooks &&
          "$(cat "$VENV/.gradlab-installed-test,torch" 2>/dev/null)" == "$hash" ) ]] &&
       "$PY" -c "import gradlab" 2>/dev/null; then
        echo "[setup] gradlab and .[$extras] already installed (pyproject.toml unchanged)"
    else
        "$PY" -m pip install -q --upgrade pip >/dev/null
        echo "[setup] pip install -e .[$extras]"
        # PYTHONWARNINGS: setuptools' "Editable installation" warning box says nothing a user must act on
        PYTHONWARNINGS=ignore "$PY" -m pip install -q -e ".[$extras]"
        echo "$hash" > "$stamp"
    fi
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
        # default_url: the URL JupyterLab prints (with its token) and opens is the start page, not the Launcher
        start_page=/lab/tree/notebooks/00_start_here.ipynb
        echo "[start] JupyterLab on the start page: look for the URL ending in ${start_page}?token=... below"
        exec "$VENV/bin/jupyter" lab $root_flag --LabApp.default_url="$start_page" "$@" ;;
    test)
        setup browser
        shift
        # unit, parity, notebook (nbval) and browser tests in one run
        exec "$PY" -m pytest --nbval-lax --nbval-current-env \
            --nbval-sanitize-with notebooks_src/nbval_sanitize.cfg -p no:cacheprovider \
            tests notebooks "$@" ;;
    bench)
        setup browser
        shift
        exec "$PY" benchmarks/run.py "$@" ;;
    *) echo "usage: ./dev.sh start|test|setup|bench"; exit 2 ;;
esac
