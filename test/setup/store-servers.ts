import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import type { ServerStatus, StoreServers } from '../support/store-servers.js';

/**
 * vitest globalSetup (issue 9 §3): a PRIVATE PostgreSQL and Redis for the storage suites, on 127.0.0.1, free ports,
 * in one temporary directory, stopped and removed at teardown. The packages come from `scripts/setup.sh --test`.
 * PostgreSQL refuses to run as root: as root, its directory belongs to the `postgres` system user the Debian package
 * creates and its programs run through `runuser`. A server that cannot start is reported to the tests (they skip,
 * naming the reason); with PITWALL_REQUIRE_SERVERS=1 it fails the run instead.
 */

const run = promisify(execFile);

const freePort = (): Promise<number> =>
	new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() =>
				typeof address === 'object' && address !== null
					? resolve(address.port)
					: reject(new Error('no port from the OS')),
			);
		});
	});

const reason = (error: unknown): string => {
	const text = error instanceof Error ? error.message : String(error);
	const stderr = (error as { stderr?: unknown }).stderr;
	return typeof stderr === 'string' && stderr.trim() !== '' ? `${text.split('\n')[0]}: ${stderr.trim()}` : text;
};

/** The newest /usr/lib/postgresql/<version>/bin (Debian's layout), else whatever is on PATH. */
function postgresBin(): string {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
	const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
	return newest === undefined ? '' : join(root, newest, 'bin');
}

interface Started {
	readonly status: ServerStatus;
	readonly stop: () => Promise<void>;
}

async function startPostgres(dir: string): Promise<Started> {
	const bin = postgresBin();
	const program = (name: string) => (bin === '' ? name : join(bin, name));
	if (bin === '' && !existsSync('/usr/bin/initdb')) {
		// Debian puts initdb only under /usr/lib/postgresql/<v>/bin; PATH may still have one (another layout).
		await run('sh', ['-c', 'command -v initdb']).catch(() => {
			throw new Error('initdb not found (no /usr/lib/postgresql/*/bin; run scripts/setup.sh --test)');
		});
	}
	const root = userInfo().uid === 0;
	const as = (cmd: string, args: string[]) =>
		root ? run('runuser', ['-u', 'postgres', '--', cmd, ...args]) : run(cmd, args);
	const home = join(dir, 'postgresql');
	const data = join(home, 'data');
	mkdirSync(home);
	if (root) {
		const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
			throw new Error('running as root and there is no `postgres` system user to run PostgreSQL as');
		});
		const { stdout: gid } = await run('id', ['-g', 'postgres']);
		chownSync(home, Number(stdout.trim()), Number(gid.trim()));
	}
	// --no-sync and fsync=off: a test server's files need not survive a power loss; commits stay atomic.
	await as(program('initdb'), ['-D', data, '-U', 'pitwall', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
	const port = await freePort();
	const options = `-p ${port} -k ${home} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
	await as(program('pg_ctl'), ['-D', data, '-l', join(home, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
	return {
		status: { url: `postgresql://pitwall@127.0.0.1:${port}/postgres` },
		stop: async () => {
			await as(program('pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']).catch(() => undefined);
		},
	};
}

const ping = (port: number): Promise<boolean> =>
	new Promise((resolve) => {
		const socket = new Socket();
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.once('error', () => done(false));
		socket.setTimeout(1000, () => done(false));
		socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
		socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
	});

async function startRedis(dir: string): Promise<Started> {
	const home = join(dir, 'redis');
	mkdirSync(home);
	const port = await freePort();
	// appendfsync always: the store's durability check wants it, and it is what production should run.
	const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', home, '--save', '', '--appendonly', 'yes'];
	const child: ChildProcess = spawn('redis-server', [...args, '--appendfsync', 'always', '--daemonize', 'no'], {
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const failed = new Promise<never>((_, reject) => {
		child.once('error', (error) => reject(new Error(`redis-server could not run: ${error.message}`)));
		void exited.then(() => reject(new Error(`redis-server exited: ${stderr.trim().slice(-500)}`)));
	});
	const ready = (async () => {
		for (let i = 0; i < 200; i += 1) {
			if (await ping(port)) return;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		throw new Error(`redis-server did not answer PING on 127.0.0.1:${port} within 10 s`);
	})();
	const stop = async () => {
		if (child.exitCode === null) child.kill('SIGTERM');
		await exited;
	};
	try {
		await Promise.race([ready, failed]);
	} catch (error) {
		await stop();
		throw error;
	}
	return { status: { url: `redis://127.0.0.1:${port}` }, stop };
}

async function attempt(name: string, start: () => Promise<Started>): Promise<Started> {
	try {
		return await start();
	} catch (error) {
		const unavailable = `${name} test server could not be started: ${reason(error)}`;
		if (process.env['PITWALL_REQUIRE_SERVERS'] === '1') throw new Error(unavailable, { cause: error });
		process.stderr.write(`\n!! ${unavailable}: its test cases are SKIPPED\n\n`);
		return { status: { unavailable }, stop: () => Promise.resolve() };
	}
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-servers-'));
	chmodSync(dir, 0o711); // the postgres user must reach its own directory inside
	const [postgresql, redis] = await Promise.all([
		attempt('PostgreSQL', () => startPostgres(dir)),
		attempt('Redis', () => startRedis(dir)),
	]);
	const servers: StoreServers = { postgresql: postgresql.status, redis: redis.status };
	project.provide('storeServers', servers);
	return async () => {
		await Promise.all([postgresql.stop(), redis.stop()]);
		rmSync(dir, { recursive: true, force: true });
	};
}
