import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { ServerStatus, StoreServers } from '../support/store-servers.js';

/**
 * vitest globalSetup: a PRIVATE PostgreSQL and Redis for the storage suites, on 127.0.0.1, free ports,
 * in one temporary directory, stopped and removed at teardown. The packages come from `scripts/setup.sh --test`.
 * PostgreSQL refuses to run as root: as root, its directory belongs to the `postgres` system user the Debian package
 * creates and its programs run through `setpriv`. A server that cannot start is reported to the tests (they skip,
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
	/** The server's pid (the reaper's target). */
	readonly pid: number | undefined;
	readonly stop: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a server in the foreground as a child of this process (so Ctrl-C reaches it too) and waits until `ready()`
 * answers; fails with the server's last output when it exits first or is not ready within 30 s.
 */
async function spawnServer(name: string, command: string, args: string[], cwd: string, ready: () => Promise<boolean>) {
	const child: ChildProcess = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000));
	child.stdout?.on('data', keep);
	child.stderr?.on('data', keep);
	let gone = false;
	// 'exit' does not come when the program could not be run at all (ENOENT): 'error' does.
	const exited = new Promise<void>((resolve) => {
		child.once('exit', () => resolve());
		child.once('error', (error) => {
			output += error.message;
			resolve();
		});
	}).then(() => void (gone = true));
	const stop = async () => {
		if (!gone) child.kill('SIGINT'); // both servers: a fast, clean shutdown
		await exited;
	};
	for (let waited = 0; !(await ready()); waited += 100) {
		if (gone) throw new Error(`${name} exited: ${output.trim().slice(-600)}`);
		if (waited > 30_000) {
			await stop();
			throw new Error(`${name} was not ready within 30 s: ${output.trim().slice(-600)}`);
		}
		await sleep(100);
	}
	return { pid: child.pid, stop };
}

/**
 * A private PostgreSQL in `dir` (also bench/load.ts). `durable`: fsync on, as a production server runs; the tests'
 * server runs without (its files need not survive a power loss; commits stay atomic).
 */
export async function startPostgres(dir: string, { durable = false } = {}): Promise<Started> {
	const bin = postgresBin();
	if (bin === '')
		throw new Error('no /usr/lib/postgresql/*/bin/initdb (the Debian postgresql package; run scripts/setup.sh --test)');
	const home = join(dir, 'postgresql');
	const data = join(home, 'data');
	mkdirSync(home);
	// As root, run as the `postgres` system user of the Debian package (setpriv execs: the pid is the server's).
	let as: string[] = [];
	if (userInfo().uid === 0) {
		const ids = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]).catch(() => {
			throw new Error('running as root and there is no `postgres` system user to run PostgreSQL as');
		});
		const [uid, gid] = ids.map(({ stdout }) => Number(stdout.trim())) as [number, number];
		chownSync(home, uid, gid);
		as = ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'];
	}
	const program = (name: string, args: string[]): [string, string[]] => {
		const full = [...as, join(bin, name), ...args];
		return [full[0]!, full.slice(1)];
	};
	const [initdb, initArgs] = program('initdb', [
		'-D',
		data,
		'-U',
		'pitwall',
		'--auth=trust',
		'-E',
		'UTF8',
		'--locale=C',
		'--no-sync',
	]);
	await run(initdb, initArgs, { cwd: home });
	const port = await freePort();
	const url = `postgresql://pitwall@127.0.0.1:${port}/postgres`;
	const [postgres, args] = program('postgres', [
		'-D',
		data,
		'-p',
		String(port),
		'-c',
		'unix_socket_directories=', // TCP only: a socket path has a 107-byte limit that a long TMPDIR could pass
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		`fsync=${durable ? 'on' : 'off'}`,
		'-c',
		'max_connections=200',
	]);
	const ready = async () => {
		const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
		try {
			await client.connect();
			await client.query('SELECT 1');
			return true;
		} catch {
			return false;
		} finally {
			await client.end().catch(() => undefined);
		}
	};
	const server = await spawnServer('postgres', postgres, args, home, ready);
	return { status: { url }, ...server };
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

/** A private Redis in `dir` (also bench/load.ts), every write on disk before it is acknowledged. */
export async function startRedis(dir: string): Promise<Started> {
	const home = join(dir, 'redis');
	mkdirSync(home);
	const port = await freePort();
	// appendonly + appendfsync always: every acknowledged write is on disk, as the store asks of production.
	const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', home, '--save', '', '--appendonly', 'yes'];
	const server = await spawnServer('redis-server', 'redis-server', [...args, '--appendfsync', 'always'], home, () =>
		ping(port),
	);
	return { status: { url: `redis://127.0.0.1:${port}` }, ...server };
}

/**
 * If this process dies without its teardown (SIGKILL, a crash), a detached shell stops the servers and removes the
 * directory once it sees this pid gone; a normal teardown kills the reaper first.
 */
function startReaper(dir: string, pids: readonly number[]): ChildProcess {
	const all = pids.join(' ');
	const script =
		`while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; kill -INT ${all} 2>/dev/null; ` +
		`for i in $(seq 60); do alive=; for p in ${all}; do kill -0 $p 2>/dev/null && alive=1; done; ` +
		`[ -z "$alive" ] && break; sleep 0.5; done; rm -rf '${dir}'`;
	const reaper = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
	reaper.unref();
	return reaper;
}

async function attempt(name: string, start: () => Promise<Started>): Promise<Started> {
	try {
		return await start();
	} catch (error) {
		const unavailable = `${name} test server could not be started: ${reason(error)}`;
		if (process.env['PITWALL_REQUIRE_SERVERS'] === '1') throw new Error(unavailable, { cause: error });
		process.stderr.write(`\n!! ${unavailable}: its test cases are SKIPPED\n\n`);
		return { status: { unavailable }, pid: undefined, stop: () => Promise.resolve() };
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
	const reaper = startReaper(
		dir,
		[postgresql.pid, redis.pid].filter((pid) => pid !== undefined),
	);
	return async () => {
		reaper.kill();
		await Promise.all([postgresql.stop(), redis.stop()]);
		rmSync(dir, { recursive: true, force: true });
	};
}
