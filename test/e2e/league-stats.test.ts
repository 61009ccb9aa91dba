/**
 * /league stats end to end through the fake Discord: a member runs /league stats on the ZakStunts sample league
 * (imported with /league import) and gets, within 3 s, a public embed with each system's winner log-likelihood,
 * Brier score, winners picked and races, the best predictor, and the reliability chart attached as its image. A
 * league with too few races gets an ephemeral refusal that says how many it has.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backtest } from '../../src/analysis/backtest.js';
import { EMBED_LIMITS } from '../../src/formats/embed.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { raceSystems } from '../../src/ratings/index.js';
import { leagueParams } from '../support/league-params.js';
import {
	dataOf,
	EPHEMERAL,
	embedsOf,
	flagsOf,
	MEMBER,
	mentionsOf,
	ORGANIZER,
	sub,
	text,
	useLeagueBot,
} from './league-bot.js';

const bot = useLeagueBot({ charts: true });
const sampleText = readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('/league stats end to end', () => {
	it('answers a member with the table, the best predictor and the reliability chart within 3 s', async () => {
		await bot.importSample('Zak');
		const started = performance.now();
		const handle = bot.fake.sendSlashCommand('league', [sub('stats', [text('league', 'Zak')])], MEMBER);
		const defer = await handle.next();
		expect(defer).toMatchObject({ kind: 'callback', type: 5 });
		expect(flagsOf(defer) & EPHEMERAL).toBe(0); // public: everyone may see how good the predictions are
		const reply = await handle.next(10_000);
		const ms = performance.now() - started;
		expect(ms).toBeLessThan(3000);
		expect(reply.kind).toBe('edit');
		expect(mentionsOf(reply)).toEqual({ parse: [] });
		const [embed] = embedsOf(reply);
		expect(embed).toMatchObject({
			title: 'Prediction stats: 293 races',
			author: { name: 'Zak' },
			image: { url: 'attachment://reliability.png' },
		});
		const description = String(embed!['description']);
		expect(description.length).toBeLessThanOrEqual(EMBED_LIMITS.description);
		expect(JSON.stringify(dataOf(reply)).length).toBeLessThan(EMBED_LIMITS.total);
		// Each system's row carries the backtest's numbers, computed here on the CSV itself.
		const races = parseHistoryCsv(sampleText, 'sample-league.csv');
		const lls: [string, number][] = [];
		for (const system of raceSystems) {
			const r = backtest(system, leagueParams(system), races);
			const line = description.split('\n').find((l) => l.startsWith(system.id))!;
			expect(line, system.id).toBeDefined();
			const cells = line.trim().split(/\s+/);
			if (r.races === 0) {
				expect(cells.slice(1, 5)).toEqual(['—', '—', '—', '0']); // stk: ZakStunts has no finish times
				continue;
			}
			lls.push([system.id, r.winner_log_likelihood]);
			expect(cells[1]!.replace('−', '-'), system.id).toBe(r.winner_log_likelihood.toFixed(1));
			expect(cells[2], system.id).toBe(r.brier_winner!.toFixed(3));
			expect(cells[4], system.id).toBe('293');
		}
		lls.sort((a, b) => b[1] - a[1]);
		const [best, next] = lls;
		expect(description).toContain(
			`Best predictor: **${best![0]}** (winner log-likelihood −${(-best![1]).toFixed(1)}), ${(best![1] - next![1]).toFixed(1)} ahead of ${next![0]}`,
		);
		expect(reply.kind === 'edit' && reply.files.map((f) => [f.filename, f.data.subarray(0, 8)])).toEqual([
			['reliability.png', PNG_SIGNATURE],
		]);
		const png = reply.kind === 'edit' ? reply.files[0]!.data : Buffer.alloc(0);
		expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([800, 400]);
	});

	it('a league with fewer than 5 rated races: an ephemeral refusal saying how many', async () => {
		await bot.run('league', [sub('create', [text('name', 'Tiny')])], ORGANIZER);
		for (let i = 0; i < 3; i++) {
			const preview = await bot.preview([text('results', 'Ann\nBob\nCid'), text('league', 'Tiny')]);
			await bot.click(preview.confirm!);
		}
		await bot.expectRefusal(
			'league',
			[sub('stats', [text('league', 'Tiny')])],
			MEMBER,
			/^Only 3 races have been rated in this league yet: the prediction stats need at least 5\.$/,
		);
	});
});
