/**
 * Every Confirm typed in the console is answered once. On Discord a Confirm updates its own (ephemeral) message with
 * what was done and tells the channel in a second message; the console, one reader on one stream, prints the first
 * (which says all the second says) and, of the channel's message, only the race card. Commands without a Confirm
 * (void, restore, rename) answer once as they always did.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleActor, consoleWorld } from './console-session.js';

// `/league delete` attaches the league's export: written here, not in data/console-out.
const outDir = mkdtempSync(join(tmpdir(), 'pitwall-confirmations-'));
afterEach(() => rmSync(outDir, { recursive: true, force: true }));

const count = (out: string, text: string) => out.split(text).length - 1;

describe('confirmations in the console', () => {
	it('say each outcome once: submit, edit, void, restore, penalty, merge, rename, delete', async () => {
		const w = consoleWorld(() => new Date('2026-03-10T12:00:00Z'), outDir);
		await w.services.leagues.create(consoleActor, { name: 'Sunday Cup', headline: 'glicko' });
		const { code, out } = await w.type([
			'/race submit results:"1. Alice 1:00.000; 2. Bob 1:01.000; 3. Carol 1:02.000" date:2026-03-01',
			'confirm',
			'/race submit results:"1. Bob; 2. Alice; 3. Dee" date:2026-03-02',
			'confirm',
			'/race edit race:R1 date:2026-03-03 reason:wrong day',
			'confirm',
			'/race void race:R2 reason:test',
			'/race restore race:R2 reason:back',
			'/race penalty race:R1 player:Alice seconds:5 reason:track limits',
			'confirm',
			'/player merge from:Dee into:Carol',
			'confirm',
			'/player rename player:Bob name:Bobby',
			'/league delete',
			'confirm',
		]);
		expect(code).toBe(0);
		expect(out).not.toContain('error:');
		const once = [
			'Stored as R1 in Sunday Cup.',
			'Stored as R2 in Sunday Cup.',
			'Edited R1 in Sunday Cup. Ratings were replayed from R1 on.',
			'Voided. Ratings were replayed from R2 on.',
			'Restored: it counts again.',
			'Given. Ratings were replayed from R1 on.',
			'Merged Dee into Carol in Sunday Cup; ratings were replayed.',
			'Renamed',
			'Deleted Sunday Cup.',
		];
		for (const text of once) expect(count(out, text), text).toBe(1);
		// The channel's lines that would repeat them are not printed again; the race card is.
		for (const repeated of [
			'New race in',
			'Edited. Ratings',
			'was deleted by an organizer',
			'Merged Dee into Carol in Sunday Cup.',
		])
			expect(out, repeated).not.toContain(repeated);
		expect(count(out, 'ratings were replayed')).toBe(1);
		expect(count(out, '== R1 ==  Sunday Cup')).toBeGreaterThanOrEqual(2); // stored, then edited (its card)
		expect(count(out, '== R2 ==  Sunday Cup')).toBeGreaterThanOrEqual(1);
	});
});
