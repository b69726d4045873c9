#!/usr/bin/env bash
# Starts a Docker engine for the container tests where none runs (CI and development machines of
# this project: root, no systemd, no container networking): Debian's dockerd with host networking
# only (--iptables=false --bridge=none; containers use --network host), its own data root (kept
# between runs, so layers are cached) and socket. Idempotent. Prints the DOCKER_HOST to use.
set -euo pipefail
state=${PLATFORM_DOCKER_STATE:-/var/lib/platform-docker}
run=/run/platform-docker
export DOCKER_HOST="unix://$run/docker.sock"
if docker info >/dev/null 2>&1; then echo "$DOCKER_HOST"; exit 0; fi
command -v dockerd >/dev/null || { echo "dockerd not found: apt-get install docker.io" >&2; exit 69; }
mkdir -p "$state" "$run"
nohup dockerd --iptables=false --ip-masq=false --bridge=none \
  --data-root "$state" --exec-root "$run/exec" --pidfile "$run/docker.pid" \
  --host "$DOCKER_HOST" >"$run/dockerd.log" 2>&1 &
for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && { echo "$DOCKER_HOST"; exit 0; }; sleep 0.5; done
echo "dockerd did not answer within 30 s; its log: $run/dockerd.log" >&2
tail -20 "$run/dockerd.log" >&2
exit 69
