# kernel/kernel.mk — ag-kernel (the Jupyter kernel) and make install /
# uninstall; included by the Makefile, self-contained.
#
#   make kernel                 build $(BUILD)/ag-kernel (needs xeus-dev)
#   make install PREFIX=/usr/local DESTDIR= BIN_NAME=ag
#   make uninstall              (the same variables)
#
# The kernel is C (kernel/kernel.c, over the REPL's session code) plus one
# C++ file for xeus (kernel/xeus_glue.cpp). It is built only where xeus's
# headers are found, so `make` alone never needs them.

CXX ?= c++
KERNEL_BIN := $(BUILD)/ag-kernel
SESSION_SRC := repl/session.c repl/complete.c repl/help.c repl/help_natives.c repl/help_table.c \
               repl/help_doc.c
KERNEL_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard kernel/*.c) $(SESSION_SRC)) \
              $(BUILD)/kernel/xeus_glue.o
KERNEL_CXXFLAGS := -std=c++17 -Wall -Wextra -Werror -Wno-unused-parameter $(OPT) -MMD -MP
KERNEL_LIBS := -lxeus -lzmq
XEUS_HEADER := $(firstword $(wildcard /usr/include/xeus/xkernel.hpp \
                 /usr/local/include/xeus/xkernel.hpp /opt/homebrew/include/xeus/xkernel.hpp))

.PHONY: kernel install uninstall

kernel: $(KERNEL_BIN)

$(BUILD)/kernel/%.o: kernel/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(KERNEL_CXXFLAGS) -c $< -o $@

$(KERNEL_BIN): $(KERNEL_OBJ) $(LIBAG)
	$(CXX) $(LDFLAGS) -o $@ $(KERNEL_OBJ) $(LIBAG) $(KERNEL_LIBS) $(LIBS)

# The suite tests the kernel where it can be built (tests/kernel/run.sh).
test-only: $(if $(XEUS_HEADER),$(KERNEL_BIN))

-include $(KERNEL_OBJ:.o=.d)

# ---- installation ----

PREFIX ?= /usr/local
DESTDIR ?=
BIN_NAME ?= ag
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man/man1
KERNELSPEC_DIR := $(PREFIX)/share/jupyter/kernels/ag
INSTALL_KERNEL := $(if $(XEUS_HEADER),$(KERNEL_BIN))

install: $(AG_BIN) $(INSTALL_KERNEL)
	@other=$$(command -v $(BIN_NAME) 2>/dev/null || true); \
	if [ -n "$$other" ] && [ "$$other" != "$(BINDIR)/$(BIN_NAME)" ]; then \
	  echo "warning: another '$(BIN_NAME)' is on PATH: $$other (Debian's silversearcher-ag" \
	       "installs one); BIN_NAME=NAME installs ag under another name" >&2; fi
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	install -m 755 $(AG_BIN) $(DESTDIR)$(BINDIR)/$(BIN_NAME)
	install -m 644 docs/ag.1 $(DESTDIR)$(MANDIR)/$(BIN_NAME).1
ifneq ($(XEUS_HEADER),)
	install -d $(DESTDIR)$(KERNELSPEC_DIR)
	install -m 755 $(KERNEL_BIN) $(DESTDIR)$(BINDIR)/ag-kernel
	sed 's|@BINDIR@|$(BINDIR)|' kernel/kernel.json.in > $(DESTDIR)$(KERNELSPEC_DIR)/kernel.json.tmp
	mv $(DESTDIR)$(KERNELSPEC_DIR)/kernel.json.tmp $(DESTDIR)$(KERNELSPEC_DIR)/kernel.json
else
	@echo "note: xeus-dev not found, so the Jupyter kernel is not installed (tools/install-deps.sh installs it)" >&2
endif

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/$(BIN_NAME) $(DESTDIR)$(MANDIR)/$(BIN_NAME).1
	rm -f $(DESTDIR)$(BINDIR)/ag-kernel $(DESTDIR)$(KERNELSPEC_DIR)/kernel.json
	-rmdir $(DESTDIR)$(KERNELSPEC_DIR) 2>/dev/null

# ---- docs/tutorial.ipynb, generated from docs/tutorial.md and run ----

.PHONY: notebook
notebook: $(AG_BIN) $(KERNEL_BIN)
	@tmp=$$(mktemp -d); \
	$(MAKE) --no-print-directory install PREFIX=$$tmp DESTDIR= >/dev/null && \
	JUPYTER_PATH=$$tmp/share/jupyter /usr/bin/python3 tools/tutorial_notebook.py --execute \
	  docs/tutorial.md docs/tutorial.ipynb; status=$$?; rm -rf $$tmp; exit $$status
