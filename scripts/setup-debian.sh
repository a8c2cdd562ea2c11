#!/bin/sh
# setup-debian.sh - install the Debian 12 packages npukb needs to build,
# test and run. Installs only what is missing; safe to run again.
set -eu

packages="build-essential g++ make autoconf automake libtool pkg-config \
libxml2-dev libxml2-utils libhwloc-dev libcriterion-dev"

missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "setup-debian: all packages present"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "setup-debian: missing packages:$missing" >&2
	echo "setup-debian: run as root (or: sudo $0)" >&2
	exit 1
fi
echo "setup-debian: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
