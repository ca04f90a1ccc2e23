# wayfinder - build, test, lint, bench and demo.
# `make test` and `make demo` install missing Debian packages first (as root)
# or print the command that would.

LUA      ?= lua5.4
LUAC     ?= luac5.4
LUA_INC  ?= /usr/include/lua5.4
CC       ?= cc
CLANG    ?= clang
BUSTED   ?= busted
LUACHECK ?= luacheck

WARN     = -std=c99 -Wall -Wextra -Werror -pedantic -Wshadow \
           -Wmissing-prototypes -Wstrict-prototypes
CORE_SRC = $(sort $(wildcard src/*.c))
BIND_SRC = $(sort $(wildcard src/lua/*.c))
HEADERS  = $(wildcard src/*.h src/lua/*.h)
SRC      = $(CORE_SRC) $(BIND_SRC)
SAN      = -fsanitize=address,undefined,float-cast-overflow \
           -fno-sanitize-recover=all -fno-omit-frame-pointer


.PHONY: all deps deps-test install-missing build asan clang-check lint ctest test bench bench-peers \
        demo clean fuzz fuzz-short coverage memcheck check-fast-math versions deps-versions \
        love-check docs-picture soak soak-short failalloc

# the other Lua versions the module is built and tested for (besides
# $(LUA)); each builds into build/<interpreter>/ with the headers below
OTHER_LUAS ?= lua5.1 lua5.2 lua5.3 luajit
inc_lua5.1  = /usr/include/lua5.1
inc_lua5.2  = /usr/include/lua5.2
inc_lua5.3  = /usr/include/lua5.3
inc_luajit  = /usr/include/luajit-2.1
pkg_lua5.1  = lua5.1 liblua5.1-0-dev
pkg_lua5.2  = lua5.2 liblua5.2-dev
pkg_lua5.3  = lua5.3 liblua5.3-dev
pkg_luajit  = luajit libluajit-5.1-dev

all: build

# ---------------------------------------------------------------- deps --
# deps: what building and running needs; deps-test adds the test tools
deps:
	@$(MAKE) --no-print-directory install-missing NEED="lua gcc"

deps-test:
	@$(MAKE) --no-print-directory install-missing NEED="lua gcc busted luacheck clang"

install-missing:
	@missing=""; \
	case " $(NEED) " in *" lua "*) \
	  command -v $(LUA) >/dev/null 2>&1 || missing="$$missing lua5.4"; \
	  [ -f $(LUA_INC)/lua.h ] || missing="$$missing liblua5.4-dev";; esac; \
	case " $(NEED) " in *" gcc "*) \
	  command -v $(CC) >/dev/null 2>&1 || missing="$$missing gcc"; \
	  command -v make >/dev/null 2>&1 || missing="$$missing make";; esac; \
	case " $(NEED) " in *" busted "*) \
	  command -v $(BUSTED) >/dev/null 2>&1 || missing="$$missing lua-busted";; esac; \
	case " $(NEED) " in *" luacheck "*) \
	  command -v $(LUACHECK) >/dev/null 2>&1 || missing="$$missing lua-check";; esac; \
	case " $(NEED) " in *" clang "*) \
	  command -v $(CLANG) >/dev/null 2>&1 || missing="$$missing clang";; esac; \
	case " $(NEED) " in *" versions "*) \
	  for v in $(OTHER_LUAS); do \
	    case $$v in lua5.1) p="lua5.1 liblua5.1-0-dev"; h=/usr/include/lua5.1/lua.h;; \
	      lua5.2) p="lua5.2 liblua5.2-dev"; h=/usr/include/lua5.2/lua.h;; \
	      lua5.3) p="lua5.3 liblua5.3-dev"; h=/usr/include/lua5.3/lua.h;; \
	      luajit) p="luajit libluajit-5.1-dev"; h=/usr/include/luajit-2.1/lua.h;; esac; \
	    { command -v $$v >/dev/null 2>&1 && [ -f $$h ]; } || missing="$$missing $$p"; \
	  done;; esac; \
	case " $(NEED) " in *" love "*) \
	  command -v love >/dev/null 2>&1 || missing="$$missing love"; \
	  command -v Xvfb >/dev/null 2>&1 || missing="$$missing xvfb";; esac; \
	case " $(NEED) " in *" lcov "*) \
	  command -v lcov >/dev/null 2>&1 || missing="$$missing lcov";; esac; \
	case " $(NEED) " in *" valgrind "*) \
	  command -v valgrind >/dev/null 2>&1 || missing="$$missing valgrind";; esac; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	  else \
	    echo "missing packages:$$missing"; \
	    echo "run: sudo apt-get update && sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi

# --------------------------------------------------------------- build --
build: build/wayfinder/core.so

# the module for every other installed Lua (build/lua5.1/wayfinder/core.so,
# build/luajit/...); installs the missing ones when run as root, and says
# which it skipped otherwise (build/versions lists the built ones)
deps-versions:
	@if [ "$$(id -u)" = 0 ]; then \
	  $(MAKE) --no-print-directory install-missing NEED=versions || \
	    echo "some Lua versions could not be installed"; fi

versions: deps-versions
	@mkdir -p build; : > build/versions; \
	for v in $(OTHER_LUAS); do \
	  case $$v in luajit) inc=/usr/include/luajit-2.1;; *) inc=/usr/include/$$v;; esac; \
	  if command -v $$v >/dev/null 2>&1 && [ -f $$inc/lua.h ]; then \
	    $(MAKE) --no-print-directory build/$$v/wayfinder/core.so LUAINC_V=$$inc || exit 1; \
	    echo $$v >> build/versions; \
	  else echo "skipped $$v: not installed (make test as root installs it)"; fi; \
	done

build/lua5.1/wayfinder/core.so build/lua5.2/wayfinder/core.so build/lua5.3/wayfinder/core.so \
build/luajit/wayfinder/core.so: $(SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -fPIC -shared -I$(LUAINC_V) -o $@ $(SRC) -lm

build/wayfinder/core.so: $(SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -fPIC -shared -I$(LUA_INC) -o $@ $(SRC) -lm

asan: build/asan/wayfinder/core.so

build/asan/wayfinder/core.so: $(SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SAN) -fPIC -shared -I$(LUA_INC) -o $@ $(SRC) -lm

# the same sources must also be clean under clang; the clang and -O0 builds
# also feed the determinism spec, which compares their outputs bit for bit
clang-check: build/clang/wayfinder/core.so build/O0/wayfinder/core.so

build/clang/wayfinder/core.so: $(SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CLANG) $(WARN) -O2 -fPIC -shared -I$(LUA_INC) -o $@ $(SRC) -lm

build/O0/wayfinder/core.so: $(SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O0 -fPIC -shared -I$(LUA_INC) -o $@ $(SRC) -lm

# ---------------------------------------------------------------- lint --
lint: deps-test
	$(LUACHECK) --no-color -q .
	@for f in $$(find lua spec examples bench tools -name '*.lua'); do \
	  $(LUAC) -p $$f || exit 1; \
	  if command -v luac5.1 >/dev/null 2>&1; then luac5.1 -p $$f || exit 1; fi; \
	  if command -v luajit >/dev/null 2>&1; then luajit -bl $$f >/dev/null || exit 1; fi; \
	done
	@$(LUA) bench/check_rockspec.lua

# --------------------------------------------------------------- ctest --
# the C core's own tests: a plain C program against src/wayfinder.h (no Lua
# header on its include path), run as built and under ASan+UBSan; each run
# ends with "core: N passed, M failed" and fails on any failure
CTEST_SRC = spec/c/core_test.c

build/core_test: $(CTEST_SRC) $(CORE_SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -Isrc -o $@ $(CTEST_SRC) $(CORE_SRC) -lm

build/asan/core_test: $(CTEST_SRC) $(CORE_SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SAN) -Isrc -o $@ $(CTEST_SRC) $(CORE_SRC) -lm

# the same tests with the plain C bit scans in place of the built-ins
build/portable/core_test: $(CTEST_SRC) $(CORE_SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -DWF_PORTABLE_BITS -Isrc -o $@ $(CTEST_SRC) $(CORE_SRC) -lm

# the core's argument checks that the binding keeps the specs from reaching
build/args_test: spec/c/args_test.c $(CORE_SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -Isrc -o $@ spec/c/args_test.c $(CORE_SRC) -lm

build/asan/args_test: spec/c/args_test.c $(CORE_SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SAN) -Isrc -o $@ spec/c/args_test.c $(CORE_SRC) -lm

ctest: build/core_test build/asan/core_test build/portable/core_test build/args_test \
       build/asan/args_test
	@build/core_test
	@build/asan/core_test
	@build/portable/core_test
	@build/args_test
	@build/asan/args_test

# ----------------------------------------------------------- fast-math --
# -ffast-math lets the compiler drop NaN checks: the core (fixmath.h) and
# the binding (lcheck.h) refuse it with #error. This target proves they do:
# each must fail to compile with the flag, and compile without it.
FAST_MATH_FILES = src/grid.c src/lua/lcheck.c
check-fast-math:
	@mkdir -p build/fast-math
	@for f in $(FAST_MATH_FILES); do \
	  if $(CC) -std=c99 -ffast-math -I$(LUA_INC) -c $$f -o build/fast-math/x.o \
	       > build/fast-math/log 2>&1; then \
	    echo "fast-math: $$f compiled with -ffast-math (it must refuse)"; exit 1; fi; \
	  grep -q 'must not be built with -ffast-math' build/fast-math/log || \
	    { cat build/fast-math/log; exit 1; }; \
	  $(CC) -std=c99 -I$(LUA_INC) -c $$f -o build/fast-math/x.o || exit 1; \
	done; echo "fast-math: the core and the binding refuse -ffast-math"

# ---------------------------------------------------------------- test --
ASAN_LIB = $(shell $(CC) -print-file-name=libasan.so)
UBSAN_LIB = $(shell $(CC) -print-file-name=libubsan.so)

# the tools first (a short fuzz, the coverage gate, the memory checker, the
# LÖVE example, the unit player when Chromium is installed), each failing
# make test on its own; the busted specs run last, on every built Lua:
# their closing line "specs: N passed, M failed" is the last line of make
# test
test: deps-test build asan clang-check versions lint ctest check-fast-math fuzz-short \
      soak-short coverage memcheck love-check unit-player-if-present
	@sh tools/run-specs.sh $(LUA) $(BUSTED) "$(ASAN_LIB) $(UBSAN_LIB)" "$$(cat build/versions)"

# ------------------------------------------------------------ coverage --
# line and branch coverage of src/ from the specs; fails under the floor in
# tools/coverage-floor (raise it as coverage grows)
build/coverage/wayfinder/core.so: $(SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O0 -g --coverage -fPIC -shared -I$(LUA_INC) -o $@ $(SRC) -lm

coverage: deps-test clang-check build/coverage/wayfinder/core.so
	@command -v lcov >/dev/null 2>&1 || $(MAKE) --no-print-directory install-missing NEED=lcov
	@sh tools/coverage.sh $(LUA) $(BUSTED) $(CC)

# every allocation of the C core made to fail in turn over a fixed run
# (tools/failalloc/): no crash, every failure an out-of-memory error
failalloc: build
	@sh tools/failalloc/run.sh $(LUA) 'build/?.so' $(CC)

# ------------------------------------------------------------ memcheck --
# a spec subset under the memory checker with the normal build: no invalid
# read or write, no definite leak
MEMCHECK_SPECS ?= spec/grid_spec.lua spec/walker_spec.lua spec/queue_spec.lua \
                  spec/rectplan_plan_spec.lua spec/input_edges_spec.lua \
                  spec/binding_strings_spec.lua
memcheck: deps-test build
	@command -v valgrind >/dev/null 2>&1 || $(MAKE) --no-print-directory install-missing NEED=valgrind
	@echo "== memcheck: $(MEMCHECK_SPECS)"
	@valgrind -q --trace-children=yes --leak-check=full --errors-for-leak-kinds=definite \
	  --error-exitcode=9 $(BUSTED) --lua=$(LUA) -o TAP $(MEMCHECK_SPECS) > build/memcheck.log 2>&1; \
	  rc=$$?; tail -n 1 build/memcheck.log; \
	  if [ $$rc -ne 0 ]; then grep -v '^ok ' build/memcheck.log | head -n 60; \
	    echo "memcheck: FAILED (exit $$rc, log build/memcheck.log)"; exit 1; fi; \
	  echo "memcheck: no invalid access, no definite leak"

# ---------------------------------------------------------------- fuzz --
# make fuzz: every fuzzer for FUZZ_TIME seconds per libFuzzer target and
# FUZZ_CALLS calls of the Lua fuzzers (three seeds each); make fuzz-short is
# the few-second run make test does. See docs/reliability.md.
FUZZ_TIME  ?= 60
FUZZ_CALLS ?= 100000
FUZZ_FLAGS = -std=c99 -Wall -Wextra -Werror -g -O1 -Isrc -Itools/fuzz \
             -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_BINS  = build/fuzz/map_fuzz build/fuzz/ops_fuzz

build/fuzz/%_fuzz: tools/fuzz/%_fuzz.c tools/fuzz/fuzz_support.h $(CORE_SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -o $@ $< $(CORE_SRC) -lm

fuzz: deps-test asan $(FUZZ_BINS)
	@sh tools/fuzz.sh $(FUZZ_TIME) $(FUZZ_CALLS) $(LUA) "$(ASAN_LIB) $(UBSAN_LIB)"

fuzz-short: deps-test asan $(FUZZ_BINS)
	@sh tools/fuzz.sh 3 2000 $(LUA) "$(ASAN_LIB) $(UBSAN_LIB)" 1

# ---------------------------------------------------------------- soak --
# long randomized runs with invariants checked as they go (house world,
# 1000 agents through the queue, units); each part stops after SOAK_SECONDS
# seconds of processor time or its tick limit (SOAK_TICKS overrides it).
# soak-short is the few-second run make test does. See docs/reliability.md.
SOAK_SECONDS ?= 300
SOAK_SEED    ?= 1
SOAK_TICKS   ?=
soak: build
	@$(LUA) tools/soak.lua --seconds $(SOAK_SECONDS) --seed $(SOAK_SEED) \
	  $(if $(SOAK_TICKS),--ticks $(SOAK_TICKS))

soak-short: build
	@$(LUA) tools/soak.lua --short --seed $(SOAK_SEED)

# --------------------------------------------------------------- bench --
MAPS ?= ../shared/maps
# each area's benchmark, in turn; a failing one fails the target
BENCHES = run smooth rectplan house scale units graph pathtable terrain
# the C core's own times beside the Lua call's (bench/run.lua runs it)
build/core_bench: bench/core_bench.c bench/peers/peer_common.c $(CORE_SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -Isrc -Ibench/peers -o $@ bench/core_bench.c bench/peers/peer_common.c \
	  $(CORE_SRC) -lm

# first the binding's cost per call on every installed Lua, side by side
# (bench/versions.lua), then each area's benchmark on $(LUA)
bench: deps build build/core_bench versions
	@echo "== bench/versions.lua"; $(LUA) bench/versions.lua || exit 1
	@for b in $(BENCHES); do \
	  if [ -f bench/$$b.lua ]; then \
	    echo "== bench/$$b.lua"; $(LUA) bench/$$b.lua $(MAPS) || exit 1; \
	  fi; done

# the search peers on the maps, then the crowds (bench/peers/crowd.sh; it
# says so when it skipped the crowd library because it is not installed)
bench-peers: deps build
	@sh bench/peers/run.sh $(MAPS)

# ---------------------------------------------------------------- love --
# the LÖVE example headless under Xvfb with scripted keys and clicks (it
# uses the LuaJIT build); screenshots in build/love/. Skipped, saying so,
# when love or Xvfb is missing and cannot be installed.
love-check: build
	@if [ "$$(id -u)" = 0 ]; then $(MAKE) --no-print-directory install-missing NEED="love versions" \
	  || true; fi
	@if ! command -v love >/dev/null 2>&1 || ! command -v xvfb-run >/dev/null 2>&1 \
	    || [ ! -f /usr/include/luajit-2.1/lua.h ]; then \
	  echo "love-check: skipped (love, xvfb or LuaJIT headers not installed)"; \
	else $(MAKE) --no-print-directory build/luajit/wayfinder/core.so \
	    LUAINC_V=/usr/include/luajit-2.1 && sh tools/love-check.sh build/love; fi

# the picture in README.md and docs/engines.md, made by love-check
docs-picture: love-check
	cp build/love/house.png docs/love-house.png
	cp build/love/rts.png docs/love-rts.png
	cp build/love/units.png docs/love-units.png
	$(LUA) examples/town.lua >/dev/null && cp build/town.svg docs/town.svg

# ---------------------------------------------------------------- demo --
demo: deps build
	$(LUA) examples/demo.lua

# the visual route tester in headless Chromium (installed when missing)
.PHONY: check-route-tester
check-route-tester: build
	@sh tools/route-tester/check.sh spec/data/routes/sample.route.json \
	  build/route-tester.png

# the unit player: recorded unit scenes (units, crowd, formation) played
# back in headless Chromium (installed when missing, as root); make test runs it through
# unit-player-if-present, which says plainly when Chromium is not there
.PHONY: check-unit-player unit-player-if-present
check-unit-player: build
	@sh tools/unit-player/check.sh build/unit-recording.js build/unit-player.png

unit-player-if-present: build
	@if command -v chromium >/dev/null 2>&1; then \
	  sh tools/unit-player/check.sh build/unit-recording.js build/unit-player.png; \
	else echo "check-unit-player: skipped (chromium not installed; make check-unit-player installs it)"; fi

# the crowd and formation pictures in README.md, docs/units.md and
# docs/steering.md: the unit player's check, then the two scenes in
# picture mode, written to docs/crowd.png and docs/formation.png
.PHONY: docs-unit-pictures
docs-unit-pictures: build
	@sh tools/unit-player/check.sh build/unit-recording.js build/unit-player.png docs

clean:
	rm -rf build wayfinder src/*.o src/lua/*.o
