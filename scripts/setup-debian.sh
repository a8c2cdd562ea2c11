#!/bin/sh
# setup-debian.sh - install the Debian 12 packages npukb needs to build,
# test and run, and the npm packages its report tests use. slurm-wlm and
# munge are for tests/cli/test_slurm.sh, which starts its own single-node
# Slurm (and for scripts/npukb-slurm on a machine that submits jobs). Installs only
# what is missing; safe to run again.
set -eu
cd "$(dirname "$0")/.."

packages="build-essential g++ make autoconf automake libtool pkg-config \
libxml2-dev libxml2-utils libxslt1-dev libhwloc-dev libcriterion-dev chromium \
libseccomp-dev slurm-wlm munge"
# Node.js and npm run the JUnit consumer test; a machine that already has
# them (from Debian or elsewhere) keeps its own.
command -v node >/dev/null 2>&1 || packages="$packages nodejs"
command -v npm >/dev/null 2>&1 || packages="$packages npm"

missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "setup-debian: all packages present"
elif [ "$(id -u)" -ne 0 ]; then
	echo "setup-debian: missing packages:$missing" >&2
	echo "setup-debian: run as root (or: sudo $0)" >&2
	exit 1
else
	echo "setup-debian: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
fi

# The JUnit consumer (junit2json), exactly as package-lock.json pins it.
if [ ! -d tests/junit-consumer/node_modules/junit2json ]; then
	echo "setup-debian: npm ci in tests/junit-consumer"
	(cd tests/junit-consumer && npm ci --no-audit --no-fund)
fi
