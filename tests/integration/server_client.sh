#!/usr/bin/env bash
# `comb -u jdbc:hive2://...`: the CLI on a server's session instead of an
# embedded one.  The same script prints the same bytes both ways in every
# output format (types, NULLs, errors on stderr, the exit status); -e, -f
# and standard input; --hiveconf / --hivevar and the URL's ?hiveconf /
# #hivevar reach the session; auth=noSasl; a password server's login (-n
# -p, or user= / password= in the URL) and its refusal; TLS with the
# URL's sslTrustStore; a URL comb cannot use is refused with a reason.
set -u
. "$(dirname "$0")/lib/server.bash"
server_tmp
script="CREATE TABLE t (a INT, s STRING, d DOUBLE, f FLOAT, m DECIMAL(10,2),
          dt DATE, ts TIMESTAMP, b BOOLEAN, arr ARRAY<INT>) STORED AS ORC
          TBLPROPERTIES ('transactional'='true');
        INSERT INTO t VALUES (1, 'x,y \"q\"', 1.5, 1.1, 3.14, '2024-01-02',
          '2024-01-02 03:04:05.5', true, array(1, 2)),
          (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
          (-7, '', -0.0, 3.5e20, -0.01, '1969-12-31', '1900-01-01 00:00:00', false, array(3));
        SELECT * FROM t ORDER BY a;
        SELECT count(*) AS n, sum(a) FROM t;
        UPDATE t SET s = 'z' WHERE a = 1;
        SELECT a, s FROM t WHERE a IS NOT NULL ORDER BY a;
        SELECT * FROM nosuch;"
compare() {  # FORMAT: the embedded CLI's output and the server's alike
    local fmt=$1 rc_local rc_remote
    rm -rf "$T/local" "$T/remote"
    "$COMB" --warehouse "$T/local" --outputformat "$fmt" -e "$script" > "$T/local.out" 2> "$T/local.err"
    rc_local=$?
    server_start "$COMB" "$T/remote"
    "$COMB" -u "jdbc:hive2://127.0.0.1:$PORT/default" --outputformat "$fmt" -e "$script" \
        > "$T/remote.out" 2> "$T/remote.err"
    rc_remote=$?
    server_stop "$fmt"
    ((rc_local == 1 && rc_remote == 1)) || fail "$fmt" "exit status $rc_local embedded, $rc_remote remote"
    cmp -s "$T/local.out" "$T/remote.out" ||
        fail "$fmt" "the outputs differ: $(diff "$T/local.out" "$T/remote.out" | head -20)"
    grep -q "Table not found 'nosuch'" "$T/remote.err" || fail "$fmt" "the error: $(cat "$T/remote.err")"
}
for fmt in table tsv csv; do compare "$fmt"; done
echo "ok - the same output embedded and remote (table, tsv, csv)"

server_start "$COMB" "$T/wh"
url="jdbc:hive2://127.0.0.1:$PORT"
printf 'SELECT 41 + 1;\nSELECT current_database();\n' > "$T/script.sql"
out=$("$COMB" -u "$url" --outputformat tsv -f "$T/script.sql") || fail file "-f"
[[ $out == $'_c0\n42\n_c0\ndefault' ]] || fail file "$out"
out=$(printf 'SELECT "${hivevar:v}", "${hiveconf:k}";\n' |
      "$COMB" -u "$url/default?k=from-url#v=from-url" --outputformat tsv) || fail stdin "piped"
[[ $out == $'_c0\t_c1\nfrom-url\tfrom-url' ]] || fail stdin "$out"
out=$("$COMB" -u "$url;auth=noSasl" --hivevar v=opt --hiveconf k=opt --outputformat tsv \
      -e 'SELECT "${hivevar:v}", "${hiveconf:k}"; SELECT current_user()') || fail options "-e"
[[ $out == $'_c0\t_c1\nopt\topt\n_c0\nanonymous' ]] || fail options "$out"
"$COMB" -u "$url" -e "CREATE DATABASE d2; CREATE TABLE d2.x (i INT); INSERT INTO d2.x VALUES (5)" ||
    fail db "setup"
out=$("$COMB" -u "$url/d2" -n dora --outputformat tsv -e "SELECT i, current_user() FROM x") || fail db "select"
[[ $out == $'i\t_c1\n5\tdora' ]] || fail db "$out"
expect_error() {  # TEXT ARG...: comb fails saying TEXT
    local text=$1
    shift
    "$COMB" "$@" -e "SELECT 1" > "$T/out" 2> "$T/client.err" && fail refused "$* worked"
    grep -qF -- "$text" "$T/client.err" || fail refused "$*: $(cat "$T/client.err")"
}
expect_error "is not a JDBC URL of HiveServer2" -u "http://127.0.0.1:$PORT"
expect_error "bad port" -u "jdbc:hive2://127.0.0.1:99999/default"
expect_error "transportMode=http is not supported" -u "$url/default;transportMode=http"
expect_error "Database does not exist: nosuch" -u "$url/nosuch"
server_stop plain
expect_error "cannot connect to 127.0.0.1:$PORT" -u "$url"
echo "ok - -f, standard input, -e; hiveconf and hivevar from the URL and the options; the database; bad URLs"

printf 'pw one\n' | "$COMB" passwd "$T/passwd" ann
command -v openssl > /dev/null || fail tls "openssl is not installed"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" -out "$T/cert.pem" \
    -subj /CN=localhost -addext subjectAltName=DNS:localhost -days 2 2> /dev/null || fail tls "openssl"
cat "$T/cert.pem" "$T/key.pem" > "$T/server.pem"
server_start "$COMB" "$T/wh" --hiveconf hive.server2.authentication=PASSWORD \
    --hiveconf comb.server.password.file="$T/passwd" --hiveconf comb.server.auth.failure.delay.ms=0 \
    --hiveconf hive.server2.use.SSL=true --hiveconf hive.server2.keystore.path="$T/server.pem"
tls="jdbc:hive2://localhost:$PORT/default;ssl=true;sslTrustStore=$T/cert.pem"
out=$("$COMB" -u "$tls" -n ann -p 'pw one' --outputformat tsv -e "SELECT current_user()") || fail tls "login"
[[ $out == $'_c0\nann' ]] || fail tls "$out"
out=$("$COMB" -u "$tls;user=ann;password=pw one" --outputformat tsv -e "SELECT 7") || fail tls "URL login"
[[ $out == $'_c0\n7' ]] || fail tls "$out"
expect_error "Peer indicated failure: Error validating the login" -u "$tls" -n ann -p wrong
expect_error "TLS: cannot read sslTrustStore" -u "jdbc:hive2://localhost:$PORT/default;ssl=true;sslTrustStore=$T/other.pem" -n ann -p 'pw one'
# a certificate the server's is not
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/k2.pem" -out "$T/other.pem" \
    -subj /CN=localhost -days 2 2> /dev/null
expect_error "TLS: the handshake with the server failed" -u "jdbc:hive2://localhost:$PORT/default;ssl=true;sslTrustStore=$T/other.pem" -n ann -p 'pw one'
server_stop TLS
expect_error "cannot connect" -u "jdbc:hive2://localhost:$PORT/default;ssl=true;sslTrustStore=$T/cert.pem"
echo "ok - a password server's login and refusal; TLS verified by the URL's trust store"
echo ok
