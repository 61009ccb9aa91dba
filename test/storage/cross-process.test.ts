import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { adapters, config, skipUnavailable } from './helpers.js';
import type { StoreSpec } from './store-spec.js';

/**
 * Two Node processes on one store: `add` is the server's own atomic insert (SQLite and
 * PostgreSQL `INSERT … ON CONFLICT DO NOTHING`, Redis `SET NX`), so racing processes have exactly one winner per
 * key, and two repositories appending to one league never reuse or skip a seq.
 */

const { list, cleanup } = adapters();
afterAll(cleanup);
const child = join(import.meta.dirname, 'cross-process-child.ts');
const shared = list.filter((adapter) => adapter.spec !== undefined);

/** A child process and its stdout, line by line. */
class Child {
	private readonly lines: string[] = [];
	private wake: () => void = () => undefined;
	private stderr = '';
	private done = false;
	private readonly stdin: NodeJS.WritableStream;
	readonly exited: Promise<void>;

	constructor(spec: StoreSpec, mode: 'add' | 'append', tag: string, n: number, league = '') {
		const args = ['--import', 'tsx', child, JSON.stringify(spec), mode, tag, String(n), league];
		const running = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
		this.stdin = running.stdin;
		let buffer = '';
		running.stdout.on('data', (chunk: Buffer) => {
			buffer += chunk.toString();
			const parts = buffer.split('\n');
			buffer = parts.pop()!;
			this.lines.push(...parts);
			this.wake();
		});
		running.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
		this.exited = new Promise((resolve, reject) =>
			running.on('exit', (code) => {
				this.done = true;
				this.wake();
				if (code === 0) resolve();
				else reject(new Error(`child ${tag} exited with ${code}: ${this.stderr}`));
			}),
		);
		this.exited.catch(() => undefined); // reported by line() or by awaiting exited
	}

	go(): void {
		this.stdin.write('go\n');
	}

	/** The next line it prints. */
	async line(): Promise<string> {
		for (;;) {
			const next = this.lines.shift();
			if (next !== undefined) return next;
			if (this.done) throw new Error(`child exited without a line: ${this.stderr}`);
			await new Promise<void>((resolve) => (this.wake = resolve));
		}
	}

	async json<T>(): Promise<T> {
		return JSON.parse(await this.line()) as T;
	}
}

describe.each(shared)('two processes on one $name store', (adapter) => {
	skipUnavailable(adapter);

	it('racing add on the same key, 100 keys in turn: exactly one process wins each, and its value is stored', async () => {
		const spec = adapter.spec!('race-add');
		const children = [new Child(spec, 'add', 'A', 100), new Child(spec, 'add', 'B', 100)];
		expect(await Promise.all(children.map((c) => c.line()))).toEqual(['ready', 'ready']);
		const winners: string[] = [];
		for (let i = 0; i < 100; i += 1) {
			// Both get their go at once (which one first alternates), so both adds of key i are in flight together.
			const order = i % 2 === 0 ? children : [...children].reverse();
			for (const c of order) c.go();
			const answers = await Promise.all(children.map((c) => c.line()));
			expect(
				answers.filter((answer) => answer === 'won'),
				`k${i}`,
			).toHaveLength(1);
			winners.push(answers[0] === 'won' ? 'A' : 'B');
		}
		await Promise.all(children.map((c) => c.exited));
		const store = await adapter.open('race-add');
		const keys = Array.from({ length: 100 }, (_, i) => `race:k${i}`);
		const stored = (await store.namespace('jobs').getMany(keys)) as { tag: string }[];
		expect(stored.map((value) => value.tag)).toEqual(winners);
		await store.close();
	});

	it('two repositories appending 40 races each to one league: seqs 1…80, every race once, ratings = a full replay', async () => {
		const setup = await adapter.open('appends');
		const { id } = await createLeagueRepository(setup).createLeague(config(), 'u0');
		await setup.close();
		const spec = adapter.spec!('appends');
		const children = [new Child(spec, 'append', 'A', 40, id), new Child(spec, 'append', 'B', 40, id)];
		expect(await Promise.all(children.map((c) => c.line()))).toEqual(['ready', 'ready']);
		for (const c of children) c.go();
		const outputs = await Promise.all(children.map((c) => c.json<{ seqs: number[] }>()));
		await Promise.all(children.map((c) => c.exited));
		const seqs = outputs.flatMap((output) => output.seqs).sort((x, y) => x - y);
		expect(seqs).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));

		const store = await adapter.open('appends');
		const repo = createLeagueRepository(store);
		const events = await repo.readEvents(id);
		expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 81 }, (_, i) => i));
		const winners = events.flatMap((event) => (event.type === 'race-submitted' ? [event.race.entries[0]!.player] : []));
		expect([...winners].sort()).toEqual(
			['A', 'B'].flatMap((tag) => Array.from({ length: 40 }, (_, i) => `${tag}${i}`)).sort(),
		);
		// Each process's own appends kept their call order (the queue), whatever the interleaving.
		for (const tag of ['A', 'B']) {
			const own = winners.filter((name) => name.startsWith(tag)).map((name) => Number(name.slice(1)));
			expect(own).toEqual([...own].sort((x, y) => x - y));
		}
		const log = await repo.loadState(id);
		const races: Race[] = events.flatMap((event) =>
			event.type === 'race-submitted'
				? [
						{
							id: `S${event.seq}`,
							date: event.race.date,
							entries: event.race.entries.map((entry) => ({ ...entry, player: log.resolve(entry.player)!.id })),
						},
					]
				: [],
		);
		for (const system of ['folyami', 'glicko']) {
			const sys = getSystem(system);
			const expected = replayHistory(sys, sys.params(), races).snapshot().players;
			expect(JSON.stringify((await repo.ratingsAt(id, system)).snapshot.players)).toBe(JSON.stringify(expected));
		}
		await store.close();
	});
});
