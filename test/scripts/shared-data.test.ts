/**
 * The scripts read the histories that are not checked in from `../shared/data/` beside the project, whatever machine
 * the clone is on: no script defaults to one machine's absolute path, and a missing folder is named with how to give it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultF1Dir, f1SkippedText } from '../../scripts/shared-data.js';

const root = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the scripts find ../shared beside the project', () => {
	it('no script defaults to an absolute path of one machine', () => {
		const scripts = readdirSync(join(root, 'scripts')).filter((name) => name.endsWith('.ts'));
		expect(scripts).toContain('prediction-stats.ts');
		for (const name of scripts) {
			const text = readFileSync(join(root, 'scripts', name), 'utf8');
			expect(text, name).not.toMatch(/['"`]\/(?:work|home|Users|tmp)\//u);
		}
	});

	it('defaults F1 to <root>/../shared/data/f1', () => {
		expect(defaultF1Dir('/a/clone')).toBe('/a/shared/data/f1');
		expect(readFileSync(join(root, 'scripts', 'prediction-stats.ts'), 'utf8')).toContain('defaultF1Dir(root)');
	});

	it('names a missing folder, or the files a folder lacks, and how to give it', () => {
		const base = mkdtempSync(join(tmpdir(), 'pitwall-shared-'));
		dirs.push(base);
		const absent = join(base, 'shared', 'data', 'f1');
		expect(f1SkippedText(absent, base)).toBe(
			'F1 skipped: shared/data/f1 does not exist (the Ergast f1db_csv dump; by default ../shared/data/f1 beside ' +
				'the project). Give the folder with --f1 <f1db_csv dir>.',
		);
		mkdirSync(absent, { recursive: true });
		writeFileSync(join(absent, 'races.csv'), '');
		expect(f1SkippedText(absent, base)).toBe(
			'F1 skipped: shared/data/f1 lacks results.csv, drivers.csv (the Ergast f1db_csv dump). Give the folder with ' +
				'--f1 <f1db_csv dir>.',
		);
	});
});
