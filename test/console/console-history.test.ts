/** The terminal's history file: oldest line first on disk, newest first for readline, capped, missing = empty. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadHistory, saveHistory } from '../../src/console/console-history.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-console-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('console history', () => {
	it('is empty when the file does not exist yet', () => {
		expect(loadHistory(join(dir, 'none'))).toEqual([]);
	});

	it('saves oldest first without trailing spaces (creating the folder) and loads newest first', () => {
		const file = join(dir, 'data', 'console-history');
		saveHistory(file, ['/rating player:Alice ', '/about']);
		expect(readFileSync(file, 'utf8')).toBe('/about\n/rating player:Alice\n');
		expect(loadHistory(file)).toEqual(['/rating player:Alice', '/about']);
	});

	it('keeps only the newest entries, on save and on load', () => {
		const file = join(dir, 'capped');
		const newestFirst = Array.from({ length: 12 }, (_, i) => `/race show race:R${12 - i}`);
		saveHistory(file, newestFirst, 10);
		const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
		expect(lines).toHaveLength(10);
		expect(lines.at(-1)).toBe('/race show race:R12');
		expect(lines[0]).toBe('/race show race:R3');
		expect(loadHistory(file, 4)).toEqual(newestFirst.slice(0, 4));
	});
});
