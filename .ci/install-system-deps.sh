#!/usr/bin/env bash
# System packages the tests use. Idempotent; append one line per tool.
set -eu
command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium; }
command -v xmllint >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq libxml2-utils; }
python3 -c 'import feedparser' >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-feedparser; }
command -v haproxy >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq haproxy; }
command -v pgbouncer >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq pgbouncer; }
command -v script >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq bsdutils; }
# The container tests (test/containers/): Debian's Docker engine, debootstrap for the stand-in Node base
# (deploy/docker/local-base.sh), Compose to read compose.yaml.
command -v dockerd >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq docker.io; }
command -v debootstrap >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq debootstrap; }
command -v docker-compose >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq docker-compose; }
# kubectl renders the kustomizations (deploy/kubernetes); the machine image has one (1.32, kustomize 5.5), Debian's is the fallback.
command -v kubectl >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq kubernetes-client; }
# prometheus and promtool (alert rules, the observability tests); on a machine with systemd the package also starts a service the tests do not use.
command -v promtool >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq prometheus; }
