#!/usr/bin/env bash
# The compactor inside `comb serve` (issue 13): with hive.compactor.
# initiator.on and hive.compactor.worker.threads the server queues a
# compaction when a table's deltas pile up (here a major one: no base
# yet), its worker runs it and requests made with ALTER
# TABLE ... COMPACT, and its cleaner removes the obsolete directories;
# rows read the same throughout.  Without those settings it runs none: a
# request stays initiated.  A bad compactor setting stops the start with
# a reason.  Under ASan and under ThreadSanitizer (the compactor's threads
# beside the server's).
set -u
. "$(dirname "$0")/lib/server.bash"
server_tmp
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"
compact=(--hiveconf hive.compactor.initiator.on=true --hiveconf hive.compactor.worker.threads=1
         --hiveconf hive.compactor.check.interval=1s --hiveconf hive.compactor.cleaner.run.interval=500ms
         --hiveconf hive.compactor.delta.num.threshold=4)
# until SQL's output matches RE (about 60 s at most)
wait_for() {
    local sql=$1 re=$2 out
    for _ in $(seq 1 240); do
        out=$("$bin" -u "jdbc:hive2://127.0.0.1:$PORT/default" --outputformat tsv -e "$sql" 2>&1)
        grep -Eq "$re" <<< "$out" && return 0
        sleep 0.25
    done
    fail "$what" "'$sql' never matched $re: $out"
}
run() { "$bin" -u "jdbc:hive2://127.0.0.1:$PORT/default" --outputformat tsv -e "$1"; }
for bin in "$COMB" "$tsan"; do
    what=$(basename "$(dirname "$bin")")
    rm -rf "$T/wh"
    server_start "$bin" "$T/wh" "${compact[@]}"
    run "CREATE TABLE t (a INT) TBLPROPERTIES ('transactional'='true');
         CREATE TABLE u (a INT) TBLPROPERTIES ('transactional'='true');
         INSERT INTO u VALUES (1); INSERT INTO u VALUES (2)" > /dev/null || fail "$what" setup
    for i in 1 2 3 4 5 6; do run "INSERT INTO t VALUES ($i)" > /dev/null || fail "$what" "insert $i"; done
    run "ALTER TABLE u COMPACT 'major'" > /dev/null || fail "$what" "request"
    # t's six deltas (and no base: major) are queued by the initiator, u's
    # request by the user; both end cleaned
    wait_for "SHOW COMPACTIONS" "default	t	 --- 	MAJOR	succeeded	.*	initiator	"
    wait_for "SHOW COMPACTIONS" "default	u	 --- 	MAJOR	succeeded"
    wait_for "SHOW COMPACTION METRICS t" "default	t	 --- 	true	0	0	1	1	[0-9]+	0	0"
    [[ $(run "SELECT count(*), sum(a) FROM t" | tail -1) == $'6\t21' ]] || fail "$what" "t's rows"
    [[ $(run "SELECT count(*), sum(a) FROM u" | tail -1) == $'2\t3' ]] || fail "$what" "u's rows"
    [[ $(ls "$T/wh/t") == base_0000006_v* ]] || fail "$what" "t's directories: $(ls "$T/wh/t")"
    server_stop "$what"
done

# no compactor unless asked: the request stays where it is
bin=$COMB what=none
server_start "$bin" "$T/wh"
run "ALTER TABLE t COMPACT 'major'" > /dev/null || fail none request
sleep 2
[[ $(run "SHOW COMPACTIONS" | grep -c "	t	 --- 	MAJOR	initiated") == 1 ]] || fail none "$(run "SHOW COMPACTIONS")"
server_stop none
"$COMB" --warehouse "$T/wh" --hiveconf hive.server2.webui.port=0 \
    --hiveconf hive.compactor.worker.threads=many serve --port 0 > "$T/out" 2> "$T/err" &&
    fail refused "started"
grep -q "hive.compactor.worker.threads" "$T/err" || fail refused "$(cat "$T/err")"
echo ok
