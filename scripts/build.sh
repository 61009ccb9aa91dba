#!/usr/bin/env bash
# Builds dist/ (scripts/build.ts) when it is missing or older than anything it is built from; quick when up to date
# (one `find`, no node). Run by the set-up step (scripts/setup.sh, so by `npm start` and `npm test`) and by the
# `pitwall` CLI (scripts/pitwall.sh). `--force` builds whatever the stamp says (`npm run build`).
# What the build reads: the sources (src/, commands/), the packages (package-lock.json), package.json (its version is
# bundled: /about), the build script and the TypeScript settings esbuild reads. A directory's time changes when a file
# in it is added, removed or renamed, so `find` sees those too.
set -euo pipefail
cd "$(dirname "$0")/.."

force=false
for arg in "$@"; do
	case "$arg" in
	--force) force=true ;;
	*)
		echo "build: unknown option $arg (only --force)" >&2
		exit 2
		;;
	esac
done

stamp=dist/.stamp
stale() {
	[ ! -f "$stamp" ] || [ ! -f dist/index.js ] ||
		[ -n "$(find src commands package-lock.json package.json tsconfig.json scripts/build.ts -newer "$stamp" -print -quit)" ]
}

if [ "$force" = false ] && ! stale; then exit 0; fi
mkdir -p dist
# One build at a time (two `npm start`s, or parallel tests): the second waits, then finds dist/ fresh.
exec 9>dist/.lock
flock 9
if [ "$force" = true ] || stale; then
	node --import tsx scripts/build.ts
fi
