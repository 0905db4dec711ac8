#!/usr/bin/env bash
# Who may use `comb serve`, and how the bytes travel (tests/server/auth.js
# with npm hive-driver): a password file kept with `comb passwd` (scrypt
# hashes, mode 0600, changes seen by a running server), its users in and
# a wrong password or unknown user refused after the failure delay, no
# SASL refused; hive.server2.authentication NONE (any PLAIN login, no SASL
# unframed and framed) and NOSASL (SASL refused with a reason); messages
# over hive.server2.thrift.max.message.size refused; SQL-standard
# authorization (a refusal with Hive's text, the statement working after a
# GRANT, roles, REVOKE); TLS with
# a certificate made here by openssl (verified by the client), its key
# also encrypted with hive.server2.keystore.password; settings the server
# cannot start with refused at start, with a reason.  ASan build, and the
# TLS run under ThreadSanitizer too.
set -u
. "$(dirname "$0")/lib/server.bash"
server_setup
pw=$T/passwd
printf 'secret one\n' | "$COMB" passwd "$pw" alice || fail passwd "alice"
printf 'b0b:pw\n' | "$COMB" passwd "$pw" bob || fail passwd "bob"
printf 'old\n' | "$COMB" passwd "$pw" carol && printf 'later\n' | "$COMB" passwd "$pw" carol ||
    fail passwd "carol twice"
[[ $(stat -c %a "$pw") == 600 ]] || fail passwd "mode $(stat -c %a "$pw")"
[[ $(grep -cE '^(alice|bob|carol):scrypt\$15\$8\$1\$[0-9a-f]{32}\$[0-9a-f]{64}$' "$pw") == 3 &&
   $(wc -l < "$pw") == 3 ]] || fail passwd "the file: $(cat "$pw")"
[[ $(grep -c '^alice:' "$pw") == 1 ]] || fail passwd "alice twice"
# same password, new salt: no two hashes alike
printf 'secret one\n' | "$COMB" passwd "$T/other" alice
[[ $(cut -d: -f2 "$T/other") != $(grep '^alice:' "$pw" | cut -d: -f2) ]] || fail passwd "the salt"
expect_refusal() {  # TEXT COMMAND...: fails with TEXT on stderr, status 1 or 2
    local text=$1 rc
    shift
    "$@" > "$T/refusal" 2>&1 < /dev/null
    rc=$?
    ((rc == 1 || rc == 2)) && grep -q -- "$text" "$T/refusal" ||
        fail refusal "$* gave $rc: $(cat "$T/refusal")"
}
expect_refusal "bad user name 'a:b'" "$COMB" passwd "$pw" 'a:b'
expect_refusal "the password is empty" bash -c "printf '\n' | '$COMB' passwd '$pw' dave"
expect_refusal "no password on standard input" "$COMB" passwd "$pw" dave
expect_refusal "user 'zoe' is not in the password file" "$COMB" passwd --delete "$pw" zoe
expect_refusal "usage: comb passwd" "$COMB" passwd "$pw"
"$COMB" passwd --delete "$pw" carol || fail passwd "delete carol"
[[ $(cut -d: -f1 "$pw" | tr '\n' ' ') == "alice bob " ]] || fail passwd "after delete: $(cat "$pw")"

auth=(--hiveconf hive.server2.authentication=PASSWORD --hiveconf comb.server.password.file="$pw"
      --hiveconf comb.server.auth.failure.delay.ms=300)
server_start "$COMB" "$T/wh" "${auth[@]}"
server_js auth "$PORT" password
printf 'new one\n' | "$COMB" passwd "$pw" bob && "$COMB" passwd --delete "$pw" alice ||
    fail passwd "change bob, remove alice"
server_js auth "$PORT" changed
server_stop PASSWORD
printf 'secret one\n' | "$COMB" passwd "$pw" alice
printf 'b0b:pw\n' | "$COMB" passwd "$pw" bob

server_start "$COMB" "$T/authz" "${auth[@]}" --hiveconf hive.security.authorization.enabled=true \
    --hiveconf hive.users.in.admin.role=alice
server_js auth "$PORT" authz
server_stop authorization
server_start "$COMB" "$T/wh"
server_js auth "$PORT" none
server_stop NONE
server_start "$COMB" "$T/wh" --hiveconf hive.server2.thrift.max.message.size=65536
server_js auth "$PORT" limit
server_stop "message size limit"
server_start "$COMB" "$T/wh" --hiveconf hive.server2.authentication=NOSASL
server_js auth "$PORT" nosasl
server_stop NOSASL

command -v openssl > /dev/null || fail tls "openssl is not installed"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" -out "$T/cert.pem" \
    -subj /CN=localhost -addext subjectAltName=DNS:localhost -days 2 2> /dev/null ||
    fail tls "openssl req"
cat "$T/cert.pem" "$T/key.pem" > "$T/server.pem"
openssl pkey -in "$T/key.pem" -aes256 -passout pass:store-pw -out "$T/enc.pem" 2> /dev/null
cat "$T/cert.pem" "$T/enc.pem" > "$T/server-enc.pem"
tls=(--hiveconf hive.server2.use.SSL=true --hiveconf hive.server2.keystore.path="$T/server.pem")
server_start "$COMB" "$T/wh" "${auth[@]}" "${tls[@]}"
server_js auth "$PORT" tls "$T/cert.pem"
server_stop TLS
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"
server_start "$tsan" "$T/wh" "${auth[@]}" --hiveconf hive.server2.use.SSL=true \
    --hiveconf hive.server2.keystore.path="$T/server-enc.pem" \
    --hiveconf hive.server2.keystore.password=store-pw
server_js auth "$PORT" tls "$T/cert.pem"
server_stop "TLS under ThreadSanitizer"

# settings a server cannot start with
serve_refused() {  # TEXT OPTION...
    local text=$1
    shift
    expect_refusal "$text" "$COMB" --warehouse "$T/wh" --hiveconf hive.server2.webui.port=0 "$@" \
        serve --port 0
}
serve_refused "keystore.path" --hiveconf hive.server2.use.SSL=true
serve_refused "cannot read the private key" --hiveconf hive.server2.use.SSL=true \
    --hiveconf hive.server2.keystore.path="$T/server-enc.pem" --hiveconf hive.server2.keystore.password=wrong
serve_refused "cannot read the certificate" --hiveconf hive.server2.use.SSL=true \
    --hiveconf hive.server2.keystore.path="$T/key.pem"
serve_refused "needs comb.server.password.file" --hiveconf hive.server2.authentication=PASSWORD
serve_refused "KERBEROS is not supported" --hiveconf hive.server2.authentication=KERBEROS
serve_refused "expected a number from 0 to 60000" --hiveconf comb.server.auth.failure.delay.ms=-1
echo ok
