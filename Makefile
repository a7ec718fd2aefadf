# Ag — build, test and demo.
#
#   make            build ./ag (release: -O2)
#   make debug      build ./ag with -O0 -g and internal assertions
#   make demo       install what is missing, build, run the main example
#   make test       install what is missing, build, run every test
#   make sanitize   the whole suite under AddressSanitizer + UBSan (leaks too)
#   make bench      our benchmarks against the peers (../shared/bench)
#
# The core (every component but repl/) is one static library, libag.a, that
# both ./ag and the Check unit tests link, as Lua does. Build products of the
# other modes go to build/<mode>/ so they never mix.

MODE ?= release
CC ?= cc
BUILD := build/$(MODE)

WARN := -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow=local
# OpenBLAS is not linked: tensor/blas.c dlopen's it at the first matrix
# product, so only its header path is needed here. -ldl is kept only where
# dlopen is not in libc yet (glibc < 2.34).
CPPFLAGS += -D_GNU_SOURCE -I. $(shell pkg-config --cflags openblas 2>/dev/null)
LIBS := -lreadline -lm -lpthread -Wl,--as-needed -ldl -Wl,--no-as-needed
# SLEEF (PyTorch's vector math) on x86-64: tensor/transcend_avx2.c alone is
# compiled for AVX2 and FMA, and used only if the CPU has them. zlib for .npz.
LIBS += -lz
ifneq ($(filter x86_64%,$(shell $(CC) -dumpmachine)),)
ifeq ($(shell pkg-config --exists sleef && echo yes),yes)
  CPPFLAGS += -DAG_HAVE_SLEEF
  LIBS += -lsleef
  $(BUILD)/tensor/transcend_avx2.o: CFLAGS += -mavx2 -mfma
else
  $(info note: SLEEF not found: exp, sin, tanh, ... come from the C library, as in PyTorch without AVX2)
endif
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
CFLAGS += $(WARN) $(OPT) -MMD -MP

CORE_DIRS := lexer parser vm autograd tensor stdlib
CORE_SRC := $(foreach d,$(CORE_DIRS),$(wildcard $(d)/*.c))
AG_EMBED := $(wildcard stdlib/*.ag)
EMBED_C := $(BUILD)/gen/embedded.c
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/embedded.o
REPL_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard repl/*.c))
# Each tests/unit/test_*.c is its own Check program (one suite per component
# file), so the suites can grow independently; tests/unit/*.h are shared helpers.
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit)
LIBAG := $(BUILD)/libag.a
AG_BIN := $(BUILD)/ag

.PHONY: unit all debug release sanitize-build demo test test-only sanitize bench deps clean check-unit check-scripts check-conformance

all: ag

ag: $(AG_BIN)
ifeq ($(MODE),release)
	@ln -sf $(AG_BIN) ag
endif

debug:
	$(MAKE) MODE=debug ag

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(EMBED_C): $(AG_EMBED) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh $(AG_EMBED) > $@

$(BUILD)/gen/embedded.o: $(EMBED_C)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIBAG): $(CORE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(AG_BIN): $(REPL_OBJ) $(LIBAG)
	$(CC) $(LDFLAGS) -o $@ $(REPL_OBJ) $(LIBAG) $(LIBS)

# The REPL's tests drive ./ag through a pseudo-terminal (tests/repl/).
PTYDRIVER := $(BUILD)/tests/repl/ptydriver
$(PTYDRIVER): tests/repl/ptydriver.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< -lutil

$(BUILD)/unit/%: $(BUILD)/tests/unit/%.o $(LIBAG)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(LIBAG) $(CHECK_LIBS) $(LIBS)

unit: $(UNIT_BIN)
	@failed=0; for t in $(UNIT_BIN); do echo "== $$t"; CK_FORK=yes $$t || failed=1; done; exit $$failed

deps:
	@sh tools/install-deps.sh

demo: deps
	@$(MAKE) --no-print-directory ag
	./ag examples/demo.ag

# Everything the suite runs, in the current MODE.
test-only: $(AG_BIN) $(PTYDRIVER) unit
	sh tests/run_scripts.sh $(AG_BIN)
	AG_GC_STRESS=1 sh tests/run_scripts.sh $(AG_BIN) tests/scripts/lang
	sh tests/run_conformance.sh $(AG_BIN)
	sh tests/run_tutorial.sh $(AG_BIN) docs/tutorial.md
	sh tests/check_examples.sh
	sh tests/check_lazy_blas.sh $(AG_BIN)
	sh tests/check_npz_hostile.sh $(AG_BIN)
	sh tests/run_torch_cases.sh $(AG_BIN)
	sh tests/fuzz_smoke.sh $(AG_BIN)
	sh tests/fuzz_tensor.sh $(AG_BIN)
	sh tests/repl/run.sh $(AG_BIN) $(PTYDRIVER)

test: deps
	@$(MAKE) --no-print-directory ag
	@$(MAKE) --no-print-directory test-only

sanitize: deps
	@$(MAKE) --no-print-directory MODE=sanitize test-only

bench: deps ag
	../shared/bench/run.sh -n 3 ./ag
	../shared/bench/run.sh -n 3 -d bench ./ag

clean:
	rm -rf build ag

-include $(CORE_OBJ:.o=.d) $(REPL_OBJ:.o=.d) $(UNIT_OBJ:.o=.d)
