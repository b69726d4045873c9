#!/usr/bin/env bash
# System packages the tests use. Idempotent; append one line per tool.
set -eu
command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium; }
command -v xmllint >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq libxml2-utils; }
python3 -c 'import feedparser' >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-feedparser; }
command -v haproxy >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq haproxy; }
command -v pgbouncer >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq pgbouncer; }
command -v script >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq bsdutils; }
# prometheus and promtool (alert rules, the observability tests); on a machine with systemd the package also starts a service the tests do not use.
command -v promtool >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq prometheus; }
