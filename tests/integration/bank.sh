#!/usr/bin/env bash
# The bank test: 8 processes make random transfers between 100 accounts
# (10 branches, one partition each) for a bounded time, each transfer one
# explicit transaction (debit, credit, a log row, COMMIT), retried when it
# loses a write conflict, is a deadlock's victim or times out waiting for
# a lock.  Afterwards the total is unchanged, the log
# table holds exactly the transfers the workers saw commit, and every
# balance is its opening balance plus exactly the committed transfers.
# BANK_SECONDS (default 20) bounds the run.
set -u
COMB=${COMB:-$(cd "$(dirname "$0")/../.." && pwd)/build/test/comb}
WH=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; [[ -n ${BANK_KEEP:-} ]] || rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
fail() { echo "$*"; exit 1; }
WORKERS=${BANK_WORKERS:-8}
ACCOUNTS=100
SECONDS_RUN=${BANK_SECONDS:-20}

# accounts in 10 branches (partitions): transfers between two branches
# conflict only with transfers touching one of them
values=$(for i in $(seq 0 $((ACCOUNTS - 1))); do printf '(%d,1000,%d),' "$i" $((i % 10)); done)
c -e "CREATE TABLE accounts (id INT, bal BIGINT) PARTITIONED BY (branch INT)
      STORED AS ORC TBLPROPERTIES ('transactional'='true');
      CREATE TABLE transfers (xid STRING, src INT, dst INT, amount INT)
      STORED AS ORC TBLPROPERTIES ('transactional'='true');
      INSERT INTO accounts PARTITION (branch) VALUES ${values%,}" || fail "setup"

# one worker: transfers until the deadline; its log lists the committed
# ones.  $3: the phase's settings (transfer ids are unique per phase)
worker() {
    local w=$1 end=$2 conf=$3 n=0 a b x sql rc
    RANDOM=$((w * 7919 + ${#conf} + 17))
    while ((SECONDS < end)); do
        a=$((RANDOM % ACCOUNTS)); b=$((RANDOM % ACCOUNTS)); x=$((RANDOM % 100 + 1))
        ((a == b)) && continue
        n=$((n + 1))
        sql="BEGIN;
             UPDATE accounts SET bal = bal - $x WHERE branch = $((a % 10)) AND id = $a;
             UPDATE accounts SET bal = bal + $x WHERE branch = $((b % 10)) AND id = $b;
             INSERT INTO transfers VALUES ('$w-$n-${#conf}', $a, $b, $x);
             COMMIT;"
        while ((SECONDS < end)); do
            c $conf -e "$sql" > "$WH/w$w.last" 2>&1; rc=$?
            if ((rc == 0)); then
                echo "$w-$n-${#conf} $a $b $x" >> "$WH/w$w.log"; break
            fi
            if ! grep -Eq "Error 10263|Error 10307|Error in acquiring locks|deadlock" "$WH/w$w.last"; then
                cp "$WH/w$w.last" "$WH/w$w.unexpected"; return 1
            fi
            grep -Eo "Error 10263|Error 10307|Error in acquiring locks|deadlock|write conflict" "$WH/w$w.last" | sort -u | tr "\n" " " >> "$WH/w$w.retries"; echo >> "$WH/w$w.retries"
        done
    done
}

# half the time under Hive's default locks (updates take EXCL_WRITE on
# their partition: transfers queue up, cross orders deadlock, and a lock
# granted after the transaction's snapshot may still lose the write-set
# check), half with hive.txn.xlock.write=false (no waiting: conflicts are
# found at COMMIT only, first committer wins)
# (a lock wait gives up after 6 checks, ~6 s: the transfer is retried)
for conf in "--hiveconf hive.lock.numretries=6" "--hiveconf hive.txn.xlock.write=false"; do
    end=$((SECONDS + (SECONDS_RUN + 1) / 2))
    pids=()
    for w in $(seq 1 $WORKERS); do
        touch "$WH/w$w.log" "$WH/w$w.retries"
        worker "$w" "$end" "$conf" & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || true; done
    echo "phase '$conf': $(cat "$WH"/w*.log | wc -l) committed so far"
done
for w in $(seq 1 $WORKERS); do
    [[ -f $WH/w$w.unexpected ]] && { cat "$WH/w$w.unexpected"; fail "worker $w failed for another reason"; }
done

cat "$WH"/w*.log | sort > "$WH/committed"
committed=$(wc -l < "$WH/committed")
retries=$(cat "$WH"/w*.retries | wc -l)
((committed > 0)) || fail "no transfer committed"

total=$(c -e "SELECT sum(bal), count(*) FROM accounts" | tail -1 | tr '\t' ' ')
[[ $total == "$((ACCOUNTS * 1000)) $ACCOUNTS" ]] || fail "total and accounts: $total"

# the log table holds exactly the committed transfers, each once
c -e "SELECT xid, src, dst, amount FROM transfers" | tail -n +2 | tr '\t' ' ' | sort > "$WH/logged"
cmp -s "$WH/committed" "$WH/logged" || { diff "$WH/committed" "$WH/logged" | head; fail "the transfers table differs from the committed transfers"; }

# every balance is 1000 plus its committed transfers, exactly once
awk -v n=$ACCOUNTS 'BEGIN { for (i = 0; i < n; i++) b[i] = 1000 }
     { b[$2] -= $4; b[$3] += $4 }
     END { for (i = 0; i < n; i++) print i, b[i] }' "$WH/committed" | sort > "$WH/expected"
c -e "SELECT id, bal FROM accounts" | tail -n +2 | tr '\t' ' ' | sort > "$WH/balances"
cmp -s "$WH/expected" "$WH/balances" || { diff "$WH/expected" "$WH/balances" | head; fail "balances differ from the committed transfers"; }
sort "$WH"/w*.retries | uniq -c
echo "ok: $committed transfers committed, $retries retries, ${SECONDS_RUN}s, $WORKERS workers"
