# Sourced by the tests of `comb metastore` (after lib/server.bash): the
# client generated from Hive's own interface.
#   hms_client_setup  server_setup, then the client of
#                     ../shared/testdata/hms/hive_metastore.thrift
#                     (thrift --gen js:node) in $T/gen and NODE_PATH for
#                     it; exit 77 (skipped) without the shared test data,
#                     the thrift compiler, node or npm's thrift
#   hms_catalog_setup the warehouse tests/server/hms.js expects in $T/wh:
#                     default.t (ACID, 2 buckets, 3 inserts), the view v,
#                     the external ext, sales.orders (insert-only,
#                     partitioned by day)
hms_client_setup() {
    local idl=${COMB_TESTDATA:-$ROOT/../shared/testdata}/hms/hive_metastore.thrift
    [[ -f $idl ]] || { echo "no $idl (../shared is absent)"; exit 77; }
    command -v thrift > /dev/null || { echo "no thrift compiler"; exit 77; }
    server_setup
    [[ -d $MODULES/node_modules/thrift ]] || { echo "npm thrift is not installed"; exit 77; }
    mkdir -p "$T/gen"
    thrift --gen js:node -out "$T/gen" "$idl" || fail thrift "cannot generate the client"
    export NODE_PATH=$MODULES/node_modules
}

hms_catalog_setup() {
    server_cli "CREATE TABLE t (id INT, name STRING) CLUSTERED BY (id) INTO 2 BUCKETS
                  STORED AS ORC TBLPROPERTIES ('transactional'='true');
                INSERT INTO t VALUES (1, 'a'); INSERT INTO t VALUES (2, 'b');
                INSERT INTO t VALUES (3, 'c');
                CREATE VIEW v AS SELECT id FROM t;
                CREATE EXTERNAL TABLE ext (a INT) STORED AS ORC LOCATION '$T/ext';
                CREATE DATABASE sales;
                CREATE TABLE sales.orders (id INT) PARTITIONED BY (day STRING)
                  STORED AS ORC TBLPROPERTIES ('transactional'='true',
                  'transactional_properties'='insert_only')" > /dev/null ||
        fail setup "the tables were not made"
}
