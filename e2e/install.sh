#!/usr/bin/env bash
# Installs the pinned agent versions the end-to-end tests run, each into its
# own prefix under one cache directory, and prints nothing else on success.
#
#   e2e/install.sh [DIR]     DIR defaults to $MEMRECALL_E2E_AGENTS or
#                            ${XDG_CACHE_HOME:-$HOME/.cache}/memrecall-e2e
#
# An agent whose pinned version is already present is not fetched again. A
# failed install (no registry, no npm) leaves that agent absent; the tests
# then skip it and say why. The exit status is 0 unless DIR cannot be made.
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

install_one claude @anthropic-ai/claude-code 2.1.328 &
install_one qwen @qwen-code/qwen-code 0.24.4 &
install_one gemini @google/gemini-cli 0.61.0 &
wait
