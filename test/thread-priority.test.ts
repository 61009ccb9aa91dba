import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN_THREAD_NICE } from '../src/thread-priority.js';

const linux = process.platform === 'linux';
const root = process.getuid?.() === 0;

describe.skipIf(!linux)('the main thread’s priority (Linux)', () => {
	it('is raised where the process may (root), and a worker thread it starts runs at the normal priority', () => {
		const child = join(import.meta.dirname, 'support', 'priority-main.ts');
		const out = execFileSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8', timeout: 30_000 });
		const seen = JSON.parse(out) as { result: string; main: number; worker: number };
		expect(seen).toEqual(
			root ? { result: 'raised', main: MAIN_THREAD_NICE, worker: 0 } : { result: 'not permitted', main: 0, worker: 0 },
		);
	});
});
