#!/usr/bin/env bash
# Installs the pinned agent versions the end-to-end tests run, each into its
# own prefix under one cache directory, and prints nothing else on success.
#
#   e2e/install.sh [DIR]     DIR defaults to $MEMRECALL_E2E_AGENTS or
#                            ${XDG_CACHE_HOME:-$HOME/.cache}/memrecall-e2e
#
# The versions are internal/agentpins/pins.txt's, the one place they are
# pinned (bench/peer and package e2e read it too). With
# MEMRECALL_E2E_DRY_RUN=1 the script prints "name package version" per pin
# and installs nothing.
#
# An agent whose pinned version is already present is not fetched again. A
# failed install (no registry, no npm) leaves that agent absent; the tests
# then skip it and say why. The exit status is 0 unless DIR cannot be made
# or the pins cannot be read.
set -uo pipefail

dir="${1:-${MEMRECALL_E2E_AGENTS:-${XDG_CACHE_HOME:-$HOME/.cache}/memrecall-e2e}}"
mkdir -p "$dir" || exit 1

install_one() { # name package version
	local name="$1" pkg="$2" ver="$3" prefix="$dir/$1"
	local have="$prefix/node_modules/$pkg/package.json"
	if [ -f "$have" ] && grep -q "\"version\": \"$ver\"" "$have"; then
		return 0
	fi
	mkdir -p "$prefix"
	if ! npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
		"$pkg@$ver" >"$prefix/install.log" 2>&1; then
		echo "e2e/install.sh: $pkg@$ver failed (see $prefix/install.log)" >&2
		return 0
	fi
}

pins="$(dirname "$0")/../internal/agentpins/pins.txt"
if [ ! -r "$pins" ]; then
	echo "e2e/install.sh: cannot read $pins" >&2
	exit 1
fi
while read -r name pkg ver; do
	case "$name" in '' | '#'*) continue ;; esac
	if [ "${MEMRECALL_E2E_DRY_RUN:-}" = 1 ]; then
		echo "$name $pkg $ver"
		continue
	fi
	install_one "$name" "$pkg" "$ver" </dev/null &
done <"$pins"
wait
