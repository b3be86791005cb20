# pagereader: two commands to know. `make demo` parses the shipped examples; `make test` runs the tests.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
SYSTEM_PACKAGES := tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-tra tesseract-ocr-kor \
	libreoffice-impress libreoffice-writer fonts-arphic-uming fonts-nanum \
	fonts-dejavu-core chromium

.PHONY: demo test test-fast install install-service install-test opencv-headless system-packages lint clean
# the coverage of `make test` (src/pagereader, every test) may not fall below this
COV_FLOOR ?= 91

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

install: $(PY)
	$(PIP) install --quiet -e .
	@$(MAKE) --no-print-directory opencv-headless

install-service: $(PY)
	$(PIP) install --quiet -e ".[service]"
	@$(MAKE) --no-print-directory opencv-headless

install-test: install
	$(PIP) install --quiet -e ".[test]"
	@$(MAKE) --no-print-directory opencv-headless

# rapid-layout requires opencv-python, so any pip install of pagereader (extras included) brings
# it back beside the headless build; keep only the headless one (one cv2, no GUI libraries)
opencv-headless: $(PY)
	$(PIP) uninstall --quiet -y opencv-python 2>/dev/null || true
	$(PIP) install --quiet --force-reinstall --no-deps "opencv-python-headless>=4.8"

demo: install
	@if command -v soffice >/dev/null 2>&1 || command -v libreoffice >/dev/null 2>&1; then \
		$(VENV)/bin/pagereader parse examples/deck.pdf examples/scan.png examples/deck.pptx -o out; \
	else \
		echo "LibreOffice not found: skipping examples/deck.pptx (apt-get install -y libreoffice-impress)"; \
		$(VENV)/bin/pagereader parse examples/deck.pdf examples/scan.png -o out; \
	fi

system-packages:
	@missing=""; \
	command -v tesseract >/dev/null 2>&1 || missing="yes"; \
	command -v soffice >/dev/null 2>&1 || missing="yes"; \
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

test-fast: install-test
	$(VENV)/bin/pytest -q -m "not slow" -x

lint: install-test
	$(VENV)/bin/ruff check src tests bench examples
	$(VENV)/bin/ruff format --check src tests bench examples
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

clean:
	rm -rf out .pytest_cache .mypy_cache .ruff_cache tests/fixtures/_generated
