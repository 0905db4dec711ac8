#!/usr/bin/env bash
# The server's status page (issue 13 acceptance 5): while one client's
# UPDATE holds its table's lock (paused before its commit), another's
# UPDATE waits for it and a compaction is queued, headless Chromium
# (Debian's chromium) loads the page: it must show the waiting lock, the
# lock that blocks it and the compaction.  The screenshot is kept as
# build/test/artifacts/status-page.png.  The JSON of each section and
# /metrics are checked with curl, and with PASSWORD authentication the
# page wants the password file's credentials.
set -u
. "$(dirname "$0")/lib/server.bash"
server_tmp
chrome=$(command -v chromium || command -v chromium-browser) ||
    { echo "chromium is not installed (tools/deps.sh --test)"; exit 77; }
ART=$(cd "$(dirname "$COMB")" && pwd)/artifacts
mkdir -p "$ART"
printf 'pw\n' | "$COMB" passwd "$T/passwd" ops
wport=$(free_port) || fail port "no free port"
server_start "$COMB" "$T/wh" --hiveconf hive.server2.webui.port="$wport" \
    --hiveconf hive.server2.authentication=PASSWORD --hiveconf comb.server.password.file="$T/passwd" \
    --hiveconf comb.server.auth.failure.delay.ms=0
grep -q "^status page on http://127.0.0.1:$wport/$" "$T/out" || fail start "$(cat "$T/out")"
url="jdbc:hive2://127.0.0.1:$PORT/default"
c() { "$COMB" -u "$url" -n ops -p pw "$@"; }
c -e "CREATE TABLE accounts (id INT, bal INT) TBLPROPERTIES ('transactional'='true');
      INSERT INTO accounts VALUES (1, 10), (2, 20);
      CREATE TABLE events (e STRING) TBLPROPERTIES ('transactional'='true');
      INSERT INTO events VALUES ('a'); INSERT INTO events VALUES ('b');
      ALTER TABLE events COMPACT 'major'" > /dev/null || fail setup "the tables"
# A holds EXCL_WRITE on accounts, paused before its commit; B waits for it
c --hiveconf comb.test.pause.point=before_commit --hiveconf comb.test.pause.file="$T/go" \
    -e "UPDATE accounts SET bal = bal + 1 WHERE id = 1" > "$T/a.out" 2>&1 &
a_pid=$!
for _ in $(seq 1 300); do [[ -e $T/go.at ]] && break; sleep 0.05; done
[[ -e $T/go.at ]] || fail pause "A never reached its commit"
c -e "UPDATE accounts SET bal = bal + 2 WHERE id = 2" > "$T/b.out" 2>&1 &
b_pid=$!
web() { curl -sf -u ops:pw "http://127.0.0.1:$wport$1"; }
for _ in $(seq 1 300); do
    web /api/locks | grep -q '"State":"WAITING"' && break
    sleep 0.05
done
locks=$(web /api/locks) || fail api "locks"
waiting=$(grep -o '{[^}]*"State":"WAITING"[^}]*}' <<< "$locks") || fail locks "no waiting lock: $locks"
blocker=$(sed -E 's/.*"Blocked By":"([^"]*)".*/\1/' <<< "$waiting")
holder=$(grep -o '{[^}]*"State":"ACQUIRED"[^}]*}' <<< "$locks" | grep -o '"Lock ID":"[^"]*"' | sed 's/.*:"\(.*\)"/\1/')
[[ -n $blocker && $blocker == "${holder%%.*}"* ]] || fail locks "blocked by '$blocker', held '$holder': $locks"

# the page as a browser renders it
"$chrome" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
    --window-size=1600,1400 --screenshot="$ART/status-page.png" \
    "http://ops:pw@127.0.0.1:$wport/" > "$T/chrome.log" 2>&1 ||
    fail chromium "the screenshot: $(tail -5 "$T/chrome.log")"
[[ -s $ART/status-page.png ]] || fail chromium "no screenshot"
"$chrome" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --dump-dom \
    "http://ops:pw@127.0.0.1:$wport/" > "$T/dom.html" 2> "$T/chrome.log" ||
    fail chromium "the DOM: $(tail -5 "$T/chrome.log")"
grep -q '<td>WAITING</td>' "$T/dom.html" || fail page "no waiting lock"
grep -q "<td>$blocker</td>" "$T/dom.html" || fail page "no blocker $blocker"
grep -q '<td>ACQUIRED</td>' "$T/dom.html" || fail page "no acquired lock"
grep -q '<td>events</td>.*<td>MAJOR</td><td>initiated</td>\|<td>MAJOR</td><td>initiated</td>' "$T/dom.html" ||
    fail page "no queued compaction"
grep -q '<td>RUNNING</td>' "$T/dom.html" || fail page "no running statement"
grep -q 'UPDATE accounts SET bal = bal + 2' "$T/dom.html" || fail page "the waiting statement's text"
grep -q '<td>deltas</td>\|<th>deltas</th>' "$T/dom.html" || fail page "the tables' section"

# the JSON and the metrics agree
metrics=$(web /metrics) || fail api "metrics"
grep -qx 'comb_locks{state="WAITING"} 1' <<< "$metrics" || fail metrics "$metrics"
grep -qx 'comb_compactions{state="initiated"} 1' <<< "$metrics" || fail metrics "$metrics"
grep -qx 'comb_statements_running 2' <<< "$metrics" || fail metrics "$metrics"
grep -qx 'comb_table_deltas{db="default",table="events",partition=" --- "} 2' <<< "$metrics" ||
    fail metrics "$metrics"
web /api/tables | grep -q '"tabname":"accounts"' || fail api "tables"
web /api/sessions | grep -q '"user":"ops"' || fail api "sessions"
web /api/transactions | grep -q '"Transaction State":"OPEN"' || fail api "transactions"
# logins and unknown pages
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$wport/") || true
[[ $code == 401 ]] || fail auth "no credentials: HTTP $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -u ops:wrong "http://127.0.0.1:$wport/metrics") || true
[[ $code == 401 ]] || fail auth "a wrong password: HTTP $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -u ops:pw "http://127.0.0.1:$wport/nosuch") || true
[[ $code == 404 ]] || fail page "an unknown page: HTTP $code"

touch "$T/go"
wait $a_pid $b_pid
grep -q . "$T/a.out" && fail a "$(cat "$T/a.out")"
grep -q . "$T/b.out" && fail b "$(cat "$T/b.out")"
[[ $(c --outputformat tsv -e "SELECT sum(bal) FROM accounts" | tail -1) == 33 ]] || fail rows "both updates"
server_stop status
# the page's thread beside the connections' under ThreadSanitizer
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"
wport=$(free_port) || fail port "no free port"
server_start "$tsan" "$T/wh" --hiveconf hive.server2.webui.port="$wport"
for i in 1 2 3; do
    "$tsan" -u "jdbc:hive2://127.0.0.1:$PORT/default" -e "SELECT count(*) FROM accounts" > /dev/null &
    curl -sf "http://127.0.0.1:$wport/metrics" > /dev/null || fail tsan "metrics"
    curl -sf "http://127.0.0.1:$wport/" > /dev/null || fail tsan "the page"
done
wait $(jobs -p | grep -vx "$PID")
server_stop "status page under ThreadSanitizer"
echo "ok (screenshot: $ART/status-page.png)"
