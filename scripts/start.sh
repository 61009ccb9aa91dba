#!/usr/bin/env bash
# `npm start`: the set-up step (which builds dist/ when it is missing or older than the sources), then the built bot
# IN PLACE of this shell (`exec`), so that the process npm started is the bot itself. npm forwards SIGTERM and SIGINT
# to that one process only (npm/cli#5776: a shell between them, as in `setup && node …`, dies of the signal and leaves
# the bot running as an orphan). The bot then shuts down gracefully (src/shutdown.ts) and npm exits with its exit code.
# The bundle rather than `node --import tsx src/index.ts`: no compiling at start-up, and a smaller process
# (`npm run bench`, bench/startup.ts). `npm run dev` runs the sources through tsx's watcher.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Fewer glibc malloc arenas for sqlite3's worker threads (docs/storage.md: peak RSS ~300 MB -> 246 MB).
export MALLOC_ARENA_MAX=2
# Blocks of 128 KiB and more straight from the kernel (mmap), given back when freed. Without a fixed threshold glibc
# raises it after each large block freed (up to 32 MiB), so later large blocks (the store's records as they are read
# and written, a chart's buffers) land in its heap, whose free space is never given back: at 15,000 races of 20 that
# heap held 43 MB at the bot's peak, 33 MB with this (bench/real-bot.ts, docs/benchmarks.md).
export MALLOC_MMAP_THRESHOLD_=131072
# V8's heap sizing (scripts/node-flags, read by the benches too): a smaller young generation (4 MB semi-spaces) and a
# heap that grows by 40 % rather than V8's default between full collections. A 15,000-race league's replays peaked at
# 332 MB of RSS with V8's defaults and at 168 MB with these (bench/big-league.ts, services alone); the idle bot holds
# 104 MiB with 4 MB semi-spaces, 112 MiB with 8 (bench/startup.ts). No hard limit, so a bigger store cannot run out.
# 40 % rather than 50 % since the main thread runs at a raised priority (src/thread-priority.ts): V8's helpers then
# finish a collection's marking later, and at 50 % the real bot's heap peaked at 121-122 MB (RSS 249-250 MB) in 2 of
# 12 runs at 15,000 races; at 40 %, 104-107 MB (RSS 229-233 MB) in 6 of 6 (bench/real-bot.ts, docs/benchmarks.md).
# Two helper threads for V8 (garbage collection, compilation) instead of Node's four: on a 2-core machine four of them
# took the cores from the event loop's thread while it was busy too (at 15,000 races of 20, bench/real-bot.ts: 1.1–1.3 s
# of its time waiting for a core instead of 1.9–3.4 s, and its longest blocks 41–47 ms against 45–55 ms).
# shellcheck disable=SC2046 # the flags are words
exec node $(cat scripts/node-flags) dist/index.js "$@"
