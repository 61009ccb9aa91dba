/** Paths offered by TAB on an attachment option: relative to the working directory, folders with `/`. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pathChoices } from '../../src/console/path-choices.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-console-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'results', 'old'), { recursive: true });
writeFileSync(join(dir, 'results', 'race-1.csv'), 'player,position\n');
writeFileSync(join(dir, 'results', 'race-2.csv'), 'player,position\n');
writeFileSync(join(dir, 'results', '.hidden.csv'), '');
writeFileSync(join(dir, 'readme.txt'), '');

describe('pathChoices', () => {
	it('lists what starts with the typed name, folders ending in /', () => {
		expect(pathChoices('', dir)).toEqual(['readme.txt', 'results/']);
		expect(pathChoices('res', dir)).toEqual(['results/']);
		expect(pathChoices('results/', dir)).toEqual(['results/old/', 'results/race-1.csv', 'results/race-2.csv']);
		expect(pathChoices('results/race-2', dir)).toEqual(['results/race-2.csv']);
	});

	it('shows hidden entries only after a dot, and nothing for a missing folder', () => {
		expect(pathChoices('results/.', dir)).toEqual(['results/.hidden.csv']);
		expect(pathChoices('nope/x', dir)).toEqual([]);
	});

	it('takes absolute paths as they are', () => {
		expect(pathChoices(`${dir}/re`, '/')).toEqual([`${dir}/readme.txt`, `${dir}/results/`]);
	});
});
