# Ag — build, test and demo.
#
#   make            build ./ag (release: -O2)
#   make debug      build ./ag with -O0 -g and internal assertions
#   make demo       install what is missing, build, run the main example
#   make check      install what is missing, build, run the fast suite (< 5 min)
#   make test       install what is missing, build, run every test
#   make sanitize   the whole suite under AddressSanitizer + UBSan (leaks too)
#   make test-clang the whole suite built with Clang (and a libedit build)
#   make test-cross an AArch64 cross build under qemu-aarch64, and the native
#                   build on a CPU without AVX2 (qemu-x86_64 -cpu Westmere):
#                   golden scripts, shared conformance, differential cases
#   make wasm       build/wasm/ag.js, the core in WebAssembly (emscripten) for
#                   node, and its smoke test
#   make web        build/web/, Ag in a static web page (WebAssembly in a Web
#                   Worker); make test-web tests it in headless Chromium
#   make bench      our benchmarks against the peers (../shared/bench)
#   make fuzz       libFuzzer over the compiler, the VM and the loaders (FUZZ_SECONDS=600)
#   make kernel     build the Jupyter kernel; make install / uninstall (kernel/kernel.mk)
#
# The core (every component but repl/) is one static library, libag.a, that
# both ./ag and the Check unit tests link, as Lua does. Build products of the
# other modes go to build/<mode>/ so they never mix (build/clang/ and
# build/aarch64/ for the other compilers).

MODE ?= release
CC ?= cc
BUILD ?= build/$(MODE)
# The REPL's line editor: READLINE=gnu (GNU Readline), libedit, or no (plain
# lines from stdin, for a machine with neither: the AArch64 cross build).
# macOS without Homebrew's readline gets its own libedit.

# Which compiler and which system: flags differ, the code does not.
CC_IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -qi clang && echo yes)
TARGET_OS := $(shell $(CC) -dumpmachine 2>/dev/null | sed -n 's/.*darwin.*/darwin/p; s/.*emscripten.*/emscripten/p')

WARN_COMMON := -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter
WARN_CLANG := -Wshadow
WARN_GCC := -Wshadow=local
ifeq ($(CC_IS_CLANG),yes)
  WARN := $(WARN_COMMON) $(WARN_CLANG)
else
  WARN := $(WARN_COMMON) $(WARN_GCC)
endif
# The language computes the same on every compiler: no a * b + c contracted
# into a fused multiply-add behind the program's back (Clang's default).
# Fused operations are written as fma() where they are meant.
FPFLAGS := -ffp-contract=off
# OpenBLAS is not linked: tensor/blas.c dlopen's it at the first matrix
# product (tensor/blas.h declares the CBLAS functions it calls). -ldl is kept
# only where dlopen is not in libc yet (glibc < 2.34).
CPPFLAGS += -D_GNU_SOURCE -I.
EXE :=
ifeq ($(TARGET_OS),emscripten)
  AR := emar
  LIBS := -lm
  PTY_LIBS :=
  ifeq ($(WASM_HOST),web)
  # WebAssembly for the web page (make web): web/ag_web.c is the program, a
  # module that the page's Web Worker instantiates once per run, files in
  # memory; memory may grow to 2 GB (Ag's own limit, set by the worker, stops
  # a script well before).
  EXE := _web.js
  LDFLAGS += -O2 -sENVIRONMENT=worker -sMODULARIZE=1 -sEXPORT_NAME=createAg -sINVOKE_RUN=0 \
    -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sTOTAL_STACK=8MB \
    -sFORCE_FILESYSTEM=1 -sEXPORTED_RUNTIME_METHODS=callMain,FS,ENV
  else
  # WebAssembly for node: scripts and their files come from the host's file
  # system (NODERAWFS); no dlopen, so products run on the built-in kernel.
  EXE := .js
  LINK_INPUTS := tools/wasm-pre.js
  LDFLAGS += --pre-js tools/wasm-pre.js -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=1 -sTOTAL_STACK=8MB
  endif
  READLINE := no
else ifeq ($(TARGET_OS),darwin)
  # Homebrew's GNU Readline (keg-only) when present, else the system's libedit.
  BREW_READLINE := $(shell brew --prefix readline 2>/dev/null)
  ifneq ($(BREW_READLINE),)
    CPPFLAGS += -I$(BREW_READLINE)/include
    LDFLAGS += -L$(BREW_READLINE)/lib
  else
    READLINE ?= libedit
  endif
  LIBS := -lm -lpthread
  PTY_LIBS :=
else
  LIBS := -lm -lpthread -Wl,--as-needed -ldl -Wl,--no-as-needed
  PTY_LIBS := -lutil
endif
READLINE ?= gnu
ifeq ($(READLINE),libedit)
  CPPFLAGS += -DAG_LIBEDIT
  LIBS := -ledit $(LIBS)
else ifeq ($(READLINE),no)
  CPPFLAGS += -DAG_NO_READLINE
else
  LIBS := -lreadline $(LIBS)
endif
# SLEEF (PyTorch's vector math) on x86-64: tensor/transcend_avx2.c alone is
# compiled for AVX2 and FMA, and used only if the CPU has them.
ifneq ($(filter x86_64%,$(shell $(CC) -dumpmachine)),)
ifeq ($(shell pkg-config --exists sleef && echo yes),yes)
  CPPFLAGS += -DAG_HAVE_SLEEF
  LIBS += -lsleef
  AVX2_FLAGS := -mavx2 -mfma
  $(BUILD)/tensor/transcend_avx2.o: CFLAGS += $(AVX2_FLAGS)
else
  $(info note: SLEEF not found: exp, sin, tanh, ... come from the C library, as in PyTorch without AVX2)
endif
endif
# zlib for .npz, where the target has it (the AArch64 cross build and
# WebAssembly have none: there .npz files are refused with an error saying so).
HAVE_ZLIB := $(shell printf '\043include <zlib.h>\nint main(void) { return !zlibVersion(); }\n' | \
  $(CC) -x c - -lz -o /dev/null 2>/dev/null && echo yes)
ifeq ($(HAVE_ZLIB),yes)
  CPPFLAGS += -DAG_HAVE_ZLIB
  LIBS += -lz
endif
# utf8proc for Python's unicodedata, where the target has it (not the AArch64
# cross build nor WebAssembly: there unicodedata's functions say they need it).
HAVE_UTF8PROC := $(shell printf '\043include <utf8proc.h>\nint main(void) { return !utf8proc_version(); }\n' | \
  $(CC) -x c - -lutf8proc -o /dev/null 2>/dev/null && echo yes)
ifeq ($(HAVE_UTF8PROC),yes)
  CPPFLAGS += -DAG_HAVE_UTF8PROC
  LIBS += -lutf8proc
endif

ifeq ($(MODE),release)
  OPT := -O2 -g -DNDEBUG
else ifeq ($(MODE),debug)
  OPT := -O0 -g -DAG_DEBUG
else ifeq ($(MODE),sanitize)
  OPT := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
         -fno-omit-frame-pointer -DAG_DEBUG
  LDFLAGS += -fsanitize=address,undefined
endif
CFLAGS += $(WARN) $(FPFLAGS) $(OPT) -MMD -MP

CORE_DIRS := lexer parser vm autograd tensor stdlib
CORE_SRC := $(foreach d,$(CORE_DIRS),$(wildcard $(d)/*.c))
AG_EMBED := $(wildcard stdlib/*.ag)
EMBED_C := $(BUILD)/gen/embedded.c
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/embedded.o
REPL_SRC := $(wildcard repl/*.c)
ifeq ($(READLINE),no)
  REPL_SRC := $(filter-out repl/complete.c,$(REPL_SRC))
endif
ifeq ($(WASM_HOST),web)
  REPL_SRC := web/ag_web.c
endif
REPL_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(REPL_SRC))
# Each tests/unit/test_*.c is its own Check program (one suite per component
# file), so the suites can grow independently; tests/unit/*.h are shared helpers.
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit)
LIBAG := $(BUILD)/libag.a
AG_BIN := $(BUILD)/ag$(EXE)

.PHONY: unit all debug release sanitize-build demo test test-only sanitize bench deps clean check check-only test-clang test-cross wasm web test-web

all: ag

ag: $(AG_BIN)
ifeq ($(MODE),release)
	@ln -sf $(AG_BIN) ag
endif

debug:
	$(MAKE) MODE=debug ag

# Every object is rebuilt when the flags change (SLEEF or zlib installed since
# the last build, another READLINE): the stamp holds the flags and is
# rewritten only when they differ, so an unchanged build stays up to date.
FLAGS_STAMP := $(BUILD)/flags.stamp
FLAGS_NOW := $(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(LIBS)
$(shell mkdir -p $(BUILD) && { [ "$$(cat $(FLAGS_STAMP) 2>/dev/null)" = "$(FLAGS_NOW)" ] || \
  printf '%s' "$(FLAGS_NOW)" > $(FLAGS_STAMP); })

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(EMBED_C): $(AG_EMBED) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh $(AG_EMBED) > $@

$(BUILD)/gen/embedded.o: $(EMBED_C) $(FLAGS_STAMP)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# The help entries written beside the C natives (HELP(...) in stdlib/*.c,
# stdlib/help.h), collected for the REPL: repl/help_natives.c includes them.
# A section of the reference lists them in the order of these files (the
# built-ins, the methods of lists ... sets, then the tensors'), any other file
# after them, and by place within a file.
HELP_ORDER := builtins.c builtins_seq.c builtins_progress.c builtins_file.c py_modules.c \
  builtins_list.c builtins_map.c builtins_string.c builtins_set.c lib_torch.c lib_create.c \
  lib_random.c lib_scatter.c lib_sort.c lib_repeat.c lib_methods.c lib_nnfunc.c \
  lib_functional.c lib_conv.c lib_io.c lib_tensor.c lib_autograd.c lib.c lib_graph.c lib_display.c
HELP_SRC := $(wildcard $(addprefix stdlib/,$(HELP_ORDER)))
HELP_SRC += $(filter-out $(HELP_SRC),$(sort $(wildcard stdlib/*.c)))
HELP_INC := $(BUILD)/gen/help_natives.inc
$(HELP_INC): $(HELP_SRC) tools/help-natives.sh
	@mkdir -p $(dir $@)
	sh tools/help-natives.sh $(HELP_SRC) > $@.tmp && mv $@.tmp $@

$(BUILD)/repl/help_natives.o: $(HELP_INC)
$(BUILD)/repl/help_natives.o: CPPFLAGS += -I$(BUILD)/gen

$(LIBAG): $(CORE_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(AG_BIN): $(REPL_OBJ) $(LIBAG) $(LINK_INPUTS)
	$(CC) $(LDFLAGS) -o $@ $(REPL_OBJ) $(LIBAG) $(LIBS)

# The REPL's tests drive ./ag through a pseudo-terminal (tests/repl/).
PTYDRIVER := $(BUILD)/tests/repl/ptydriver
$(PTYDRIVER): tests/repl/ptydriver.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(PTY_LIBS)

$(BUILD)/unit/%: $(BUILD)/tests/unit/%.o $(LIBAG)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(LIBAG) $(CHECK_LIBS) $(LIBS)

# Check's per-test time limits scale with the machine as the runners' do
# (tests/time_limit.sh measures ag; CK_TIMEOUT_MULTIPLIER is Check's own).
unit: $(UNIT_BIN) $(AG_BIN)
	@. tests/time_limit.sh; time_scale_for $(AG_BIN); \
	failed=0; for t in $(UNIT_BIN); do echo "== $$t"; \
	  CK_FORK=yes CK_TIMEOUT_MULTIPLIER=$$AG_TIME_SCALE $$t || failed=1; done; exit $$failed

deps:
	@sh tools/install-deps.sh base

demo: deps
	@$(MAKE) --no-print-directory ag
	./ag examples/demo.ag

# Everything the suite runs, in the current MODE.
test-only: $(AG_BIN) $(PTYDRIVER) unit
	sh tests/run_scripts.sh $(AG_BIN)
	AG_NO_QUICKEN=1 sh tests/run_scripts.sh $(AG_BIN)
	AG_GC_STRESS=1 sh tests/run_scripts.sh $(AG_BIN) tests/scripts/lang
	sh tests/run_conformance.sh $(AG_BIN)
	sh tests/run_tutorial.sh $(AG_BIN) docs/tutorial.md docs/data.md
	sh tests/check_examples.sh
	sh tests/check_layout.sh
	sh tests/check_lazy_blas.sh $(AG_BIN)
	sh tests/check_npz_hostile.sh $(AG_BIN)
	sh tests/run_torch_cases.sh $(AG_BIN)
	sh tests/run_python_cases.sh $(AG_BIN)
	sh tests/fuzz_smoke.sh $(AG_BIN)
	sh tests/fuzz_tensor.sh $(AG_BIN)
	sh tests/check_hostile_input.sh $(AG_BIN)
	sh tests/repl/run.sh $(AG_BIN) $(PTYDRIVER)
	sh tests/kernel/run.sh $(MODE)

# The fast suite, for every change (at most 5 minutes on a 2-core machine):
# what checks the language and PyTorch's numbers, without the fuzzers, the
# collector stress run, the REPL and the kernel that make test adds. The
# language's scripts run once more without superinstructions (AG_NO_QUICKEN=1:
# the base opcodes alone must give the same output); make test runs them all.
check-only: $(AG_BIN) unit
	sh tests/run_scripts.sh $(AG_BIN)
	AG_NO_QUICKEN=1 sh tests/run_scripts.sh $(AG_BIN) tests/scripts/lang
	sh tests/run_conformance.sh $(AG_BIN)
	sh tests/run_torch_cases.sh $(AG_BIN)
	sh tests/run_python_cases.sh $(AG_BIN)
	sh tests/run_tutorial.sh $(AG_BIN) docs/tutorial.md docs/data.md
	sh tests/check_examples.sh
	sh tests/check_layout.sh

check: deps
	@$(MAKE) --no-print-directory ag
	@$(MAKE) --no-print-directory check-only

test: deps
	@$(MAKE) --no-print-directory ag
	@$(MAKE) --no-print-directory test-only
	@$(MAKE) --no-print-directory fuzz-smoke

sanitize: deps
	@$(MAKE) --no-print-directory MODE=sanitize test-only

# ---- coverage-guided fuzzing (libFuzzer; tests/fuzz/libfuzzer.sh) ----
# make fuzz [FUZZ_SECONDS=N]   every harness in turn, N seconds in all (default 600)
# make fuzz-smoke              a few seconds each (part of make test; skipped without clang)
# The harnesses and the core are built with clang into build/fuzz/, apart
# from the MODE builds; crashes go to build/fuzz/crashes/.
FUZZ_SECONDS ?= 600
FUZZ_CC ?= clang
FUZZ_DIR := build/fuzz
# Clang's warnings and the floating-point flags of every build (above).
FUZZ_CFLAGS := $(WARN_COMMON) $(WARN_CLANG) $(FPFLAGS) -g -O1 -fno-omit-frame-pointer \
  -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -DAG_DEBUG -MMD -MP
FUZZ_CORE_OBJ := $(CORE_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_DIR)/obj/gen/embedded.o
FUZZ_HARNESSES := run compile npy npz pt csv
FUZZ_BIN := $(FUZZ_HARNESSES:%=$(FUZZ_DIR)/fuzz_%)
# The one file compiled for AVX2 and FMA, as in the MODE builds (empty
# without SLEEF or off x86-64).
$(FUZZ_DIR)/obj/tensor/transcend_avx2.o: FUZZ_CFLAGS += $(AVX2_FLAGS)

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/obj/gen/embedded.o: $(EMBED_C)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/libag.a: $(FUZZ_CORE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h tests/fuzz/fuzz_load.h $(FUZZ_DIR)/libag.a
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_DIR)/libag.a $(LIBS)

.PHONY: fuzz fuzz-build fuzz-smoke
fuzz-build: $(FUZZ_BIN)

fuzz: deps
	MAKE="$(MAKE)" sh tests/fuzz/libfuzzer.sh run $(FUZZ_SECONDS)

fuzz-smoke:
	MAKE="$(MAKE)" sh tests/fuzz/libfuzzer.sh smoke

# Clang with GNU Readline runs everything; a second Clang build with libedit
# (what a Mac without Homebrew's readline gets) must build and run a script.
test-clang:
	@sh tools/install-deps.sh base clang
	@$(MAKE) --no-print-directory CC=clang BUILD=build/clang test-only
	@$(MAKE) --no-print-directory CC=clang READLINE=libedit BUILD=build/clang-libedit build/clang-libedit/ag
	@test "$$(build/clang-libedit/ag -e 'print(tensor([1.0, 2.0]) @ tensor([3.0, 4.0]))')" = "tensor(11.)"
	@echo "libedit build: ok"

# AArch64: cross-compiled without a line editor (READLINE=no) and run under
# qemu-aarch64 with the cross C library; no arm64 OpenBLAS is installed, so
# its products run on the built-in kernel (AG_BLAS=builtin: chosen, no note).
# Then this machine's own build on a Westmere CPU (SSE4.2, no AVX): the
# portable paths of the x86-64 binary, with OpenBLAS's kernel for that CPU.
# Left out under emulation: a product of 18 G multiply-adds (tensor/linalg.c's
# blocking), minutes on the built-in kernel even natively.
CROSS_CC ?= aarch64-linux-gnu-gcc
CROSS_SYSROOT ?= /usr/aarch64-linux-gnu
CROSS_SKIP := tests/scripts/robustness/matmul_blocks.ag
# The AArch64 build has no zlib (no arm64 libraries here): its scripts that
# save or load .npz or .pt are left out too (the error it gives instead is checked).
AARCH64_SKIP := $(CROSS_SKIP) tests/scripts/nn/training.ag tests/scripts/robustness/save_special_files.ag \
  tests/scripts/tensor/io.ag tests/scripts/tensor/io_compressed.ag tests/scripts/tensor/io_pt.ag \
  tests/scripts/tensor/io_pt_module.ag
# OpenBLAS is told its core type (NEHALEM, its kernel for Westmere): under
# qemu on some hosts its own CPU detection picks Haswell's AVX2 kernels, which
# the emulated Westmere rejects (SIGILL in sgemm_beta_HASWELL).
# On Westmere the binary is the one `make test` ran; only the kernels chosen
# by CPU (vector math, OpenBLAS's) differ, so its golden scripts are those of
# tensors, autograd and nn (lang/, graph/, robustness/ run the same code).
WESTMERE_SCRIPTS := tests/scripts/tensor tests/scripts/autograd tests/scripts/nn tests/scripts/examples
test-cross:
	@sh tools/install-deps.sh base cross
	@$(MAKE) --no-print-directory CC=$(CROSS_CC) READLINE=no BUILD=build/aarch64 build/aarch64/ag
	@$(MAKE) --no-print-directory build/release/ag build/release/tests/repl/ptydriver
	AG_BLAS=builtin AG_SKIP_SCRIPTS="$(AARCH64_SKIP)" PTYDRIVER=build/release/tests/repl/ptydriver \
	  sh tests/run_cross.sh "qemu-aarch64 -L $(CROSS_SYSROOT)" build/aarch64/ag
	AG_SKIP_SCRIPTS="$(CROSS_SKIP)" CROSS_SCRIPTS="$(WESTMERE_SCRIPTS)" \
	  sh tests/run_cross.sh "qemu-x86_64 -cpu Westmere -E OPENBLAS_CORETYPE=NEHALEM" build/release/ag

# The WebAssembly build: emscripten's emcc, no line editor, no dlopen (the
# built-in kernel); it runs scripts under node from the host's file system.
wasm:
	@sh tools/install-deps.sh base wasm
	@$(MAKE) --no-print-directory CC=emcc BUILD=build/wasm build/wasm/ag.js
	sh tests/run_wasm.sh build/wasm/ag.js

# The web page (web/, README "Ag in the browser"): build/web/ is a static
# site. Its scripts come from npm, pinned by web/package-lock.json.
web:
	@sh tools/install-deps.sh base wasm web
	@# Debian's emscripten finds its JavaScript optimizer's parser (node-acorn) there
	@NODE_PATH=/usr/share/nodejs $(MAKE) --no-print-directory CC=emcc BUILD=build/webwasm WASM_HOST=web build/webwasm/ag_web.js
	cd web && npm ci --no-audit --no-fund --loglevel=error
	node web/build.mjs build/webwasm build/web

# The page in headless Chromium (web/test/test-web.mjs).
test-web: web
	node web/test/test-web.mjs build/web

bench: deps ag
	../shared/bench/run.sh -n 3 ./ag
	../shared/bench/run.sh -n 3 -d bench ./ag

clean:
	rm -rf build ag

-include $(CORE_OBJ:.o=.d) $(REPL_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(FUZZ_CORE_OBJ:.o=.d)

include kernel/kernel.mk
