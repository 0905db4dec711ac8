# comb build.  `make` builds build/rel/comb; `make test` installs missing
# Debian packages, builds with ASan+UBSan and runs every test; `make demo`
# runs the quick start on an embedded warehouse.  See README.md.

MODE ?= rel
B := build/$(MODE)
GEN := build/gen

CC ?= gcc
WARN := -Wall -Wextra -Werror -Wno-missing-field-initializers
# libpq's headers live outside the default include path
PQ_CFLAGS := $(or $(shell pkg-config --cflags libpq 2>/dev/null),-I/usr/include/postgresql)
# libxml2's headers too
XML_CFLAGS := $(or $(shell pkg-config --cflags libxml-2.0 2>/dev/null),-I/usr/include/libxml2)
# Thrift's C library (GLib objects) for the HiveServer2 protocol (server/)
THRIFT_CFLAGS := $(or $(shell pkg-config --cflags thrift_c_glib 2>/dev/null),-I/usr/include/glib-2.0 -I/usr/lib/x86_64-linux-gnu/glib-2.0/include)
THRIFT_LIBS := $(or $(shell pkg-config --libs thrift_c_glib 2>/dev/null),-lthrift_c_glib -lgobject-2.0 -lglib-2.0)
# libsoup (GLib's HTTP server) for the server's status page
SOUP_CFLAGS := $(shell pkg-config --cflags libsoup-3.0 2>/dev/null)
SOUP_LIBS := $(or $(shell pkg-config --libs libsoup-3.0 2>/dev/null),-lsoup-3.0 -lgio-2.0)
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -g $(WARN) -Isrc -I$(GEN)/src $(PQ_CFLAGS) $(XML_CFLAGS) -MMD -MP
ifeq ($(MODE),fuzz)
  # libFuzzer targets (make fuzz): clang, instrumented for coverage
  CC := clang
  SAN := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
  MODE_CFLAGS := -O1 $(SAN) -DCOMB_TEST_BUILD
  MODE_LDFLAGS := -fsanitize=fuzzer,address,undefined
else ifeq ($(MODE),tsan)
  # ThreadSanitizer over the code that runs threads (the metastore's
  # heartbeater and housekeeper, the SQL session's heartbeater under
  # statements, parallel queries); make test builds and runs it
  SAN := -fsanitize=thread -fno-omit-frame-pointer
  MODE_CFLAGS := -O1 $(SAN) -DCOMB_TEST_BUILD
  MODE_LDFLAGS := $(SAN)
else ifeq ($(MODE),test)
  SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  MODE_CFLAGS := -O1 $(SAN) -DCOMB_TEST_BUILD
  MODE_LDFLAGS := $(SAN)
else
  MODE_CFLAGS := -O2
  MODE_LDFLAGS :=
endif
CFLAGS_ALL := $(BASE_CFLAGS) $(MODE_CFLAGS) $(CFLAGS)
LIBS := -lprotobuf-c -lz -lsnappy -lzstd -llz4 -llzo2 -lsqlite3 -lpq -ledit -lpcre2-8 -lcurl -lxml2 -lssl -lcrypto $(SOUP_LIBS) $(THRIFT_LIBS) -lm -lpthread

# Layers, lowest first; a layer's archive may only use the ones before it.
LAYERS := common fs orc text acid metastore rpc hms compactor stream sql server cli

PROTO := src/orc/orc_proto.proto
PROTO_C := $(GEN)/src/orc/orc_proto.pb-c.c
PROTO_H := $(GEN)/src/orc/orc_proto.pb-c.h

layer_srcs = $(wildcard src/$(1)/*.c src/$(1)/*/*.c)
layer_objs = $(patsubst src/%.c,$(B)/obj/%.o,$(call layer_srcs,$(1)))

ORC_EXTRA := $(if $(wildcard $(PROTO)),$(B)/obj/gen/orc_proto.pb-c.o)

LIB_common := $(B)/libcomb_common.a
LIB_fs := $(B)/libcomb_fs.a
LIB_orc := $(B)/libcomb_orc.a
LIB_text := $(B)/libcomb_text.a
LIB_acid := $(B)/libcomb_acid.a
LIB_metastore := $(B)/libcomb_metastore.a
LIB_rpc := $(B)/libcomb_rpc.a
LIB_hms := $(B)/libcomb_hms.a
LIB_compactor := $(B)/libcomb_compactor.a
LIB_stream := $(B)/libcomb_stream.a
LIB_sql := $(B)/libcomb_sql.a
LIB_server := $(B)/libcomb_server.a
LIB_cli := $(B)/libcomb_cli.a

# Archives a layer links against (itself and everything below it).
DEPS_common := $(LIB_common)
DEPS_fs := $(LIB_fs) $(DEPS_common)
DEPS_orc := $(LIB_orc) $(DEPS_fs)
DEPS_text := $(LIB_text) $(DEPS_fs)
DEPS_acid := $(LIB_acid) $(DEPS_orc)
DEPS_metastore := $(LIB_metastore) $(DEPS_fs)
# rpc/: what comb's Thrift services share (common/ and GLib, Thrift, OpenSSL)
DEPS_rpc := $(LIB_rpc) $(DEPS_common)
DEPS_hms := $(LIB_hms) $(LIB_rpc) $(DEPS_metastore)
DEPS_compactor := $(LIB_compactor) $(LIB_acid) $(LIB_metastore) $(DEPS_orc)
DEPS_stream := $(LIB_stream) $(LIB_acid) $(LIB_metastore) $(DEPS_orc)
DEPS_sql := $(LIB_sql) $(LIB_compactor) $(LIB_acid) $(LIB_metastore) $(LIB_text) $(DEPS_orc)
# cli/ also uses stream/ (comb stream) and hms/ (comb metastore); both
# sit below sql/ in the link order, on metastore/ that sql/ lists after.
DEPS_server := $(LIB_server) $(LIB_rpc) $(DEPS_sql)
DEPS_cli := $(LIB_cli) $(LIB_server) $(LIB_stream) $(LIB_hms) $(LIB_rpc) $(DEPS_sql)

# In the test build the default goal is all the tests run (unit, below).
.PHONY: all deps deps-test test demo bench clean check-layers fuzz unit bench-bins
all: $(B)/comb $(if $(filter test,$(MODE)),unit)

deps:
	@tools/deps.sh

deps-test:
	@tools/deps.sh --test

$(PROTO_C) $(PROTO_H): $(PROTO)
	@mkdir -p $(GEN)/src
	protoc-c --c_out=$(GEN)/src --proto_path=src src/orc/orc_proto.proto

# generated code is not ours to warn about
$(B)/obj/gen/orc_proto.pb-c.o: $(PROTO_C)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -g $(MODE_CFLAGS) -I$(GEN)/src -c $< -o $@

$(B)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

# orc sources include the generated protobuf header
$(call layer_objs,orc): $(if $(wildcard $(PROTO)),$(PROTO_H))

# HiveServer2's protocol: C from src/server/tcli.thrift (thrift-compiler)
TCLI := src/server/tcli.thrift
TCLI_GEN := $(GEN)/src/server
TCLI_C := $(TCLI_GEN)/hs2_tcli_types.c $(TCLI_GEN)/hs2_t_c_l_i_service.c
TCLI_H := $(TCLI_GEN)/hs2_tcli_types.h $(TCLI_GEN)/hs2_t_c_l_i_service.h \
	$(TCLI_GEN)/hs2_get_types.inc
# the generated types' finalizers and readers mended (tools/thrift_finalize.awk,
# tools/thrift_reads.awk), and
# the list of their get_type functions, which register a type on first
# use without a lock: the server calls them all before its first thread
$(TCLI_C) $(TCLI_H) &: $(TCLI) tools/thrift_finalize.awk tools/thrift_reads.awk
	@mkdir -p $(TCLI_GEN)
	thrift -nowarn --gen c_glib -out $(TCLI_GEN) $(TCLI)
	awk -f tools/thrift_finalize.awk $(TCLI_GEN)/hs2_tcli_types.c | \
		awk -f tools/thrift_reads.awk > $(TCLI_GEN)/types.tmp
	mv $(TCLI_GEN)/types.tmp $(TCLI_GEN)/hs2_tcli_types.c
	awk '/^hs2_[a-z0-9_]+_get_type \(void\)$$/ { print $$1 "," }' $(TCLI_C) > $(TCLI_GEN)/hs2_get_types.inc
$(B)/obj/gen/%.o: $(TCLI_GEN)/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -g $(MODE_CFLAGS) $(THRIFT_CFLAGS) -w -c $< -o $@
SERVER_EXTRA := $(patsubst $(TCLI_GEN)/%.c,$(B)/obj/gen/%.o,$(TCLI_C))
$(call layer_objs,server): CFLAGS_ALL += $(THRIFT_CFLAGS) $(SOUP_CFLAGS)
$(call layer_objs,server): $(TCLI_H)
$(B)/tests/obj/unit/server/%.o: CFLAGS_ALL += $(THRIFT_CFLAGS)
$(B)/tests/obj/unit/server/%.o: $(TCLI_H)

# The Hive Metastore service's protocol: C from src/hms/hms.thrift, made
# and mended as tcli.thrift's is (prefix Hms)
HMS_IDL := src/hms/hms.thrift
HMS_GEN := $(GEN)/src/hms
HMS_C := $(HMS_GEN)/hms_hms_types.c $(HMS_GEN)/hms_thrift_hive_metastore.c
HMS_H := $(HMS_GEN)/hms_hms_types.h $(HMS_GEN)/hms_thrift_hive_metastore.h \
	$(HMS_GEN)/hms_get_types.inc
$(HMS_C) $(HMS_H) &: $(HMS_IDL) tools/thrift_finalize.awk tools/thrift_reads.awk
	@mkdir -p $(HMS_GEN)
	thrift -nowarn --gen c_glib -out $(HMS_GEN) $(HMS_IDL)
	awk -f tools/thrift_finalize.awk $(HMS_GEN)/hms_hms_types.c | \
		awk -f tools/thrift_reads.awk > $(HMS_GEN)/types.tmp
	mv $(HMS_GEN)/types.tmp $(HMS_GEN)/hms_hms_types.c
	awk '/^hms_[a-z0-9_]+_get_type \(void\)$$/ { print $$1 "," }' $(HMS_C) > $(HMS_GEN)/hms_get_types.inc
$(B)/obj/gen/%.o: $(HMS_GEN)/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -g $(MODE_CFLAGS) $(THRIFT_CFLAGS) -w -c $< -o $@
HMS_EXTRA := $(patsubst $(HMS_GEN)/%.c,$(B)/obj/gen/%.o,$(HMS_C))
$(call layer_objs,hms): CFLAGS_ALL += $(THRIFT_CFLAGS)
# rpc/ (the transport and the accept loop both services use) on Thrift's
# C library too
$(call layer_objs,rpc): CFLAGS_ALL += $(THRIFT_CFLAGS)
$(call layer_objs,hms): $(HMS_H)
# its unit tests (tests/unit/hms/) include the generated header too
$(B)/tests/obj/unit/hms/%.o: CFLAGS_ALL += $(THRIFT_CFLAGS)
$(B)/tests/obj/unit/hms/%.o: $(HMS_H)

define layer_rule
$$(LIB_$(1)): $$(call layer_objs,$(1)) $$(if $$(filter orc,$(1)),$$(ORC_EXTRA)) $$(if $$(filter server,$(1)),$$(SERVER_EXTRA)) $$(if $$(filter hms,$(1)),$$(HMS_EXTRA))
	@mkdir -p $$(dir $$@)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach L,$(LAYERS),$(eval $(call layer_rule,$(L))))

$(B)/comb: $(DEPS_cli)
	$(CC) $(MODE_LDFLAGS) -o $@ $(B)/obj/cli/main.o $(DEPS_cli) $(LIBS)

# ---------------------------------------------------------------- unit tests
UNIT_LAYERS := $(notdir $(wildcard tests/unit/*))
UNIT_LAYERS := $(filter $(LAYERS),$(UNIT_LAYERS))
UNIT_BINS := $(foreach L,$(UNIT_LAYERS),$(B)/tests/unit_$(L))

$(B)/tests/obj/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit -c $< -o $@

define unit_rule
$(B)/tests/unit_$(1): $$(patsubst tests/%.c,$(B)/tests/obj/%.o,$$(wildcard tests/unit/$(1)/*.c) tests/unit/unit.c) $$(DEPS_$(1)) $$(DEPS_fs)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(MODE_LDFLAGS) -o $$@ $$(filter %.o,$$^) $$(DEPS_$(1)) $$(DEPS_fs) $$(LIBS)
endef
$(foreach L,$(UNIT_LAYERS),$(eval $(call unit_rule,$(L))))

# The threaded unit tests alone, for MODE=tsan (quick: make test runs it)
TSAN_TESTS := tests/unit/metastore/test_heartbeat.c tests/unit/metastore/test_housekeep.c \
	tests/unit/metastore/ms_fixture.c tests/unit/unit.c
$(B)/tests/threads_metastore: $(patsubst tests/%.c,$(B)/tests/obj/%.o,$(TSAN_TESTS)) $(DEPS_metastore) $(DEPS_fs)
	@mkdir -p $(dir $@)
	$(CC) $(MODE_LDFLAGS) -o $@ $(filter %.o,$^) $(DEPS_metastore) $(DEPS_fs) $(LIBS)

# the SQL layer's threads under ThreadSanitizer: the parallel query
# engine (sql/exec/par.h) and the session's heartbeater under statements
TSAN_SQL_TESTS := tests/unit/sql/test_parallel.c tests/unit/sql/test_heartbeat_session.c tests/unit/unit.c
$(B)/tests/threads_sql: $(patsubst tests/%.c,$(B)/tests/obj/%.o,$(TSAN_SQL_TESTS)) $(DEPS_sql)
	@mkdir -p $(dir $@)
	$(CC) $(MODE_LDFLAGS) -o $@ $(filter %.o,$^) $(DEPS_sql) $(LIBS)

# fs/ under ThreadSanitizer: the object store's prefetch threads and cache
# (tests/integration/s3_fs.sh runs it against the S3 server it starts)
$(B)/tests/fs_s3_threads: $(patsubst tests/%.c,$(B)/tests/obj/%.o,tests/unit/fs/test_s3.c tests/unit/unit.c) $(DEPS_fs)
	@mkdir -p $(dir $@)
	$(CC) $(MODE_LDFLAGS) -o $@ $(filter %.o,$^) $(DEPS_fs) $(LIBS)

# stream/ under ThreadSanitizer: a connection and its heartbeater thread
$(B)/tests/threads_stream: $(patsubst tests/%.c,$(B)/tests/obj/%.o,$(wildcard tests/unit/stream/*.c) tests/unit/unit.c) $(DEPS_stream) $(DEPS_fs)
	@mkdir -p $(dir $@)
	$(CC) $(MODE_LDFLAGS) -o $@ $(filter %.o,$^) $(DEPS_stream) $(DEPS_fs) $(LIBS)

BENCH_BINS := $(patsubst bench/%.c,$(B)/bench/%,$(wildcard bench/*.c))
$(B)/bench/%: bench/%.c $(DEPS_sql)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(DEPS_sql) $(LIBS)
# bench/stream.c drives the streaming API too (stream/ sits below sql/ in
# the link order, as for cli/)
$(B)/bench/stream: bench/stream.c $(LIB_stream) $(DEPS_sql)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(LIB_stream) $(DEPS_sql) $(LIBS)

# bench/hms.c runs the metastore service (hms/, rpc/) and the client
# generated for its protocol
$(B)/bench/hms: bench/hms.c $(LIB_hms) $(LIB_rpc) $(DEPS_sql) $(HMS_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(THRIFT_CFLAGS) -o $@ $< $(LIB_hms) $(LIB_rpc) $(DEPS_sql) $(LIBS)

# Hive's own .q scripts run through a session (tests/qtest/)
$(B)/tests/qtest: tests/qtest/qtest.c $(DEPS_sql)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(MODE_LDFLAGS) -o $@ $< $(DEPS_sql) $(LIBS)

# Fuzz targets (fuzz/fuzz_*.c): libFuzzer binaries in MODE=fuzz, corpus
# replayers (fuzz/replay.c) in the test build.
FUZZ_NAMES := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
# the archives a target links (sql/ and below, unless it says otherwise)
FUZZ_DEPS = $(DEPS_sql)
$(B)/fuzz/fuzz_%: fuzz/fuzz_%.c $(DEPS_sql)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(MODE_LDFLAGS) $(FUZZ_DEPS) $(LIBS)
$(B)/fuzz/replay_%: fuzz/fuzz_%.c fuzz/replay.c $(DEPS_sql)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(MODE_LDFLAGS) -o $@ fuzz/fuzz_$*.c fuzz/replay.c $(FUZZ_DEPS) $(LIBS)
# hs2_decode drives server/ and the code generated for its protocol
FUZZ_HS2 := $(B)/fuzz/fuzz_hs2_decode $(B)/fuzz/replay_hs2_decode
$(FUZZ_HS2): $(DEPS_server) $(TCLI_H)
$(FUZZ_HS2): private FUZZ_DEPS = $(DEPS_server)
$(FUZZ_HS2): private CFLAGS_ALL += $(THRIFT_CFLAGS)
FUZZ_REPLAYS := $(foreach N,$(FUZZ_NAMES),$(B)/fuzz/replay_$(N))
# hms_decode drives hms/ (rpc/, metastore/) and the code generated for
# its protocol, nothing of sql/: rules of its own, so that make fuzz
# builds no more than it links
$(B)/fuzz/fuzz_hms_decode: fuzz/fuzz_hms_decode.c $(DEPS_hms) $(HMS_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(THRIFT_CFLAGS) -o $@ $< $(MODE_LDFLAGS) $(DEPS_hms) $(LIBS)
$(B)/fuzz/replay_hms_decode: fuzz/fuzz_hms_decode.c fuzz/replay.c $(DEPS_hms) $(HMS_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(THRIFT_CFLAGS) $(MODE_LDFLAGS) -o $@ fuzz/fuzz_hms_decode.c fuzz/replay.c $(DEPS_hms) $(LIBS)

# The differential query test against SQLite (tests/sqldiff/)
$(B)/tests/sqldiff: tests/sqldiff/sqldiff.c $(DEPS_sql)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(MODE_LDFLAGS) -o $@ $< $(DEPS_sql) $(LIBS)

# A streaming ingest process driven step by step, for the integration
# tests of stream/ (tests/integration/stream_*.sh)
$(B)/tests/stream_driver: tests/stream/stream_driver.c $(DEPS_stream)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(MODE_LDFLAGS) -o $@ $< $(DEPS_stream) $(LIBS)

# An outside engine's ACID and insert-only deltas, written with comb's
# writers, for the metastore service's write test (hms_write.sh)
$(B)/tests/delta_writer: tests/hms/delta_writer.c $(DEPS_acid)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(MODE_LDFLAGS) -o $@ $< $(DEPS_acid) $(LIBS)
unit: $(B)/tests/delta_writer

# Everything the tests run, comb itself too (the golden, integration and
# qtest scripts run it): after an edit `make MODE=test unit` rebuilds it
# all, and so does `make MODE=test` alone.
unit: $(B)/comb $(UNIT_BINS) $(B)/tests/qtest $(B)/tests/sqldiff $(FUZZ_REPLAYS) $(B)/tests/stream_driver
bench-bins: $(BENCH_BINS)

# The release build is compiled too: -O2 finds warnings (maybe-uninitialized)
# that -O1 does not, and make demo / make bench must never break.
test: deps-test
	@$(MAKE) --no-print-directory MODE=test check-layers unit
	@$(MAKE) --no-print-directory MODE=tsan build/tsan/tests/threads_metastore build/tsan/tests/threads_sql build/tsan/tests/threads_stream build/tsan/tests/fs_s3_threads build/tsan/comb
	@$(MAKE) --no-print-directory MODE=rel all bench-bins
	@tests/s3/setup.sh build/test/s3
	@tests/server/setup.sh build/test/server
	@tests/run.sh build/test

demo: deps
	@$(MAKE) --no-print-directory MODE=rel all bench-bins
	@examples/quickstart.sh build/rel/comb

bench: deps-test
	@$(MAKE) --no-print-directory MODE=rel all bench-bins
	@bench/duckdb/setup.sh build/rel/bench/duckdb
	@for b in $(patsubst bench/%.c,build/rel/bench/%,$(wildcard bench/*.c)); do echo "== $$b"; $$b || exit 1; done

# Build every fuzz target; run one with e.g.
#   build/fuzz/fuzz/fuzz_sql_parse fuzz/corpus/sql_parse -max_total_time=60
fuzz: deps
	@command -v clang >/dev/null || { echo "make fuzz needs clang (apt-get install clang)"; exit 1; }
	@$(MAKE) --no-print-directory MODE=fuzz $(foreach N,$(FUZZ_NAMES),build/fuzz/fuzz/fuzz_$(N))

check-layers:
	@tools/check_layers.sh

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
