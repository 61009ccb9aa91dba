#!/usr/bin/env bash
# One idempotent set-up step shared by `npm start` and `npm test` (README quick start).
# 1. Debian packages that the native modules need to build from source (canvas, sqlite3) and the fonts for
#    chart text (DejaVu Sans; Droid Sans Fallback for CJK and fullwidth names, Noto Color Emoji for emoji, which
#    Pango falls back to through fontconfig): installed only when one is missing. With --test (npm test), also the PostgreSQL and Redis servers
#    that the storage suites start private instances of (test/setup/store-servers.ts), and Debian's Chromium that the
#    browser tests drive through playwright-core (test/browser/); `npm start` stays without.
# 2. `npm ci` only when node_modules is missing or was installed from another package-lock.json (stamp file).
# 3. The build (dist/, scripts/build.sh) only when it is missing or older than the sources.
# Native builds use Node's headers from Debian (/usr/include/node): the prebuilt and header downloads fail here.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(build-essential python3 pkg-config libcairo2-dev libpango1.0-dev libjpeg-dev libgif-dev librsvg2-dev fonts-dejavu-core fonts-droid-fallback fonts-noto-color-emoji)
for arg in "$@"; do
	case "$arg" in
	--test) APT_PACKAGES+=(postgresql redis-server chromium) ;;
	*)
		echo "setup: unknown option $arg (only --test)" >&2
		exit 2
		;;
	esac
done

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
	for pkg in "${APT_PACKAGES[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
			missing+=("$pkg")
		fi
	done
fi
if [ "${#missing[@]}" -gt 0 ]; then
	echo "setup: installing Debian packages: ${missing[*]}" >&2
	SUDO=""
	if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export npm_config_nodedir=/usr
stamp=node_modules/.pitwall-setup-stamp
# The lock file decides what `npm ci` installs (a script edit in package.json must not reinstall everything).
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
	echo "setup: installing npm dependencies (first run builds sqlite3 and canvas from source, about 2 minutes)" >&2
	npm ci --no-audit --no-fund --loglevel=error >&2
	echo "$lock_hash" >"$stamp"
fi

bash scripts/build.sh
