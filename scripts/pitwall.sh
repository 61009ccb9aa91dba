#!/usr/bin/env bash
# The `pitwall` CLI (package.json bin, `npm run pitwall`): the built CLI (dist/cli.js), built first when dist/ is
# missing or older than the sources (scripts/build.sh: a quick check when up to date). `exec`: the CLI is the process
# its caller started, so signals and the exit code are its own. Not the full set-up step: that checks the Debian
# packages, which the CLI's commands do not draw with (only the bot's charts do).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
bash "$root/scripts/build.sh"
exec node "$root/dist/cli.js" "$@"
