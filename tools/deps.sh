#!/usr/bin/env bash
# Install the Debian packages comb builds against, if any is missing;
# with --test also those the tests and benches run (the PostgreSQL server,
# started throw-away by the PostgreSQL metastore tests; openssl, which makes
# the TLS tests' certificates; chromium, which loads the status page).
# Runs apt-get directly as root, through sudo otherwise.
set -euo pipefail
pkgs=(gcc make pkg-config protobuf-c-compiler libprotobuf-c-dev zlib1g-dev
      libsnappy-dev libzstd-dev liblz4-dev liblzo2-dev libsqlite3-dev libedit-dev
      libpq-dev libpcre2-dev libssl-dev libcurl4-openssl-dev libxml2-dev
      thrift-compiler libthrift-c-glib-dev libglib2.0-dev libsoup-3.0-dev)
if [[ ${1:-} == --test ]]; then pkgs+=(postgresql openssl chromium); fi
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0
echo "installing missing packages: ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}"
