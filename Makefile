# The two commands of the README: `make demo` (the main job on the bundled example) and
# `make test`. Both create or reuse .venv/ through `make setup`, which installs the kernel and
# every bundled plugin under plugins/*/ in editable mode.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PLUGIN_DIRS := $(patsubst %/pyproject.toml,%,$(sort $(wildcard plugins/*/pyproject.toml)))
STAMP  := $(VENV)/.installed
# The build backend of every pyproject here. It is installed into the venv because the
# checkout's own distributions install without build isolation (one backend, no download per
# distribution); third-party requirements install first, *with* build isolation, so one that
# exists only as an sdist (jieba) builds with the backend it declares, not with whatever the
# venv holds. constraints.txt pins every package setup installs (see docs/dependencies.md).
# Last, the JavaScript the tavern plugin runs in the sandbox (EJS, lodash, mathjs from the npm
# registry, checked against plugins/tavern/lw_tavern/js/jsdeps.lock.json; Python only, no npm).
BACKEND := hatchling
PIP := $(BIN)/python -m pip --disable-pip-version-check
# pip's own output goes to this log, shown only when setup fails.
SETUP_LOG := $(VENV)/setup.log
# The demo keeps its state inside the checkout, never in your home directory.
DEMO_HOME ?= $(CURDIR)/.demo-home

.PHONY: setup demo test bench wheels clean

setup: $(STAMP)

$(STAMP): pyproject.toml $(addsuffix /pyproject.toml,$(PLUGIN_DIRS)) constraints.txt tools/requirements.py Makefile \
		plugins/tavern/lw_tavern/js/jsdeps.lock.json
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "setup: installing the kernel and $(words $(PLUGIN_DIRS)) bundled plugins into $(VENV) (log: $(SETUP_LOG))"
	@( $(PIP) install -c constraints.txt --upgrade pip $(BACKEND) \
	&& $(BIN)/python tools/requirements.py --extras test,serve > $(VENV)/requirements.txt \
	&& $(PIP) install -c constraints.txt -r $(VENV)/requirements.txt \
	&& $(PIP) install -c constraints.txt --no-build-isolation \
		-e '.[test,serve]' $(addprefix -e ./,$(PLUGIN_DIRS)) \
	&& $(BIN)/python -m lw_tavern.jsdeps install ) > $(SETUP_LOG) 2>&1 \
	|| { tail -n 30 $(SETUP_LOG); echo "setup failed: the whole log is $(SETUP_LOG)"; exit 1; }
	@touch $(STAMP)

DEMO_SAY ?= 我去码头查看那艘空船。
DEMO_REPLY := examples/fog-harbor/replies/turn1.anthropic_messages.json

# One complete keeper turn on the bundled example room (a working copy under DEMO_HOME): the
# room, what the player says, the compiled request in brief (lw turn --payload prints it whole),
# the recorded reply's tool calls applied (a skill check, the rulepack's sanity subsystem,
# variable changes; dice seeded), the narration, and both players' views side by side.
demo: setup
	@LW_HOME=$(DEMO_HOME) $(BIN)/lw turn --fresh --say "$(DEMO_SAY)" --reply $(DEMO_REPLY) --seed 5

test: setup
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python -m pip install --quiet --disable-pip-version-check d20
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

# wheels/: a wheel of the kernel and of each bundled plugin, for a machine without the checkout
# (`pip install wheels/*.whl`; README, "Installing without make").
wheels: setup
	rm -rf wheels
	$(PIP) wheel --quiet --no-deps --no-build-isolation -w wheels . $(addprefix ./,$(PLUGIN_DIRS))

clean:
	rm -rf $(VENV) $(DEMO_HOME) wheels
