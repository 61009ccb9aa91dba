/**
 * `SHARDS=auto|N`: the process started by `npm start` becomes discord.js's ShardingManager and runs one
 * bot process per shard (src/index.ts again, which sees SHARDING_MANAGER and runs as a shard). Every shard opens the
 * same store; scheduled jobs run in the one holding the leader lease (src/jobs/leader-lease.ts). Discord sends each
 * guild's interactions to the shard `(guild_id >> 22) % shard_count`, so every interaction is answered once.
 *
 * SHARDS is read by `shardsSetting` (src/config.ts), not the config schema: inside a shard discord.js itself sets
 * SHARDS to the shard's id (and SHARD_COUNT), so a shard must ignore it.
 */
import { ShardingManager } from 'discord.js';
import type { ShardsSetting } from '../config.js';
import type { Logger } from '../logger.js';

/** Discord's recommended shard count (`GET /gateway/bot`), from the configured API (discord.js's helper has none). */
export async function recommendedShards(apiUrl: string, token: string): Promise<number> {
	const response = await fetch(`${apiUrl}/v10/gateway/bot`, {
		headers: { authorization: `Bot ${token}` },
		signal: AbortSignal.timeout(15_000),
	});
	if (!response.ok) throw new Error(`GET /gateway/bot answered ${response.status}`);
	const { shards } = (await response.json()) as { shards?: unknown };
	if (typeof shards !== 'number' || !Number.isInteger(shards) || shards < 1) throw new Error('no shard count');
	return shards;
}

export interface RunningShards {
	readonly total: number;
	/** Stops every shard (SIGTERM: each closes gracefully, src/shutdown.ts) and waits for them to exit. */
	stop(): Promise<void>;
}

/** Spawns the shards and resolves once each has connected. */
export async function startShards(options: {
	/** The bot's entry file, which each shard runs: src/index.ts from the sources, dist/index.js when built. */
	readonly script: string;
	readonly shards: ShardsSetting;
	readonly token: string;
	readonly apiUrl: string;
	readonly log: Logger;
}): Promise<RunningShards> {
	const { log } = options;
	const total = options.shards === 'auto' ? await recommendedShards(options.apiUrl, options.token) : options.shards;
	const manager = new ShardingManager(options.script, {
		totalShards: total,
		token: options.token,
		// The shards run the entry as this process does (with `--import tsx` from the sources, the V8 flags).
		execArgv: process.execArgv,
		respawn: true,
	});
	let stopping = false;
	manager.on('shardCreate', (shard) => {
		log.info({ shard: shard.id, of: total }, 'shard started');
		shard.on('death', () => {
			if (!stopping) log.error({ shard: shard.id }, 'shard died: restarting it');
		});
	});
	await manager.spawn({ amount: total, delay: 0, timeout: 60_000 });
	return {
		total,
		async stop() {
			stopping = true;
			manager.respawn = false;
			const exits = [...manager.shards.values()].map(
				(shard) =>
					new Promise<void>((resolve) => {
						const child = shard.process;
						if (child === null || child.exitCode !== null) return resolve();
						child.once('exit', () => resolve());
						child.kill('SIGTERM');
					}),
			);
			await Promise.all(exits);
		},
	};
}
