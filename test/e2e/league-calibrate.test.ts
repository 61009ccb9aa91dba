/**
 * /league calibrate end to end through the fake Discord: an organizer runs /league calibrate on the ZakStunts sample league
 * (imported with /league import), gets within 3 s an ephemeral "thinking…", then the proposal (current → proposed, the
 * gain) with Confirm / Cancel; Confirm applies it as one settings change, says what changed and announces it; a second
 * Confirm stores nothing; a proposal of a league that moved on is refused; members are refused; a second ask while
 * one runs is refused as already running.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrate } from '../../src/analysis/calibrate.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { LEAGUE_DEFAULTS } from '../../src/league/league-defaults.js';
import { getSystem } from '../../src/ratings/index.js';
import { LEAGUE_MAX_EVALUATIONS } from '../../src/services/calibration/league-calibrate-service.js';
import type { Json, ReplyEvent } from './fake-discord.js';
import {
	content,
	dataOf,
	EPHEMERAL,
	expectWithinDiscordLimits,
	flagsOf,
	MEMBER,
	mentionsOf,
	ORGANIZER,
	sub,
	text,
	useLeagueBot,
} from './league-bot.js';

const bot = useLeagueBot();
const sampleText = readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8');

const buttonIds = (event: ReplyEvent) =>
	((dataOf(event)['components'] ?? []) as Json[]).flatMap((row) =>
		(row['components'] as Json[]).map((c) => String(c['custom_id'])),
	);

/** /league calibrate by the organizer: the defer (checked: ephemeral, within 3 s) and the proposal. */
async function propose(options = [text('league', 'Zak')]) {
	const started = performance.now();
	const handle = bot.fake.sendSlashCommand('league', [sub('calibrate', options)], ORGANIZER);
	const defer = await handle.next();
	expect(performance.now() - started).toBeLessThan(3000);
	expect(defer).toMatchObject({ kind: 'callback', type: 5 });
	expect(flagsOf(defer) & EPHEMERAL).toBe(EPHEMERAL);
	const reply = await handle.next(60_000);
	expect(reply.kind).toBe('edit');
	expectWithinDiscordLimits(reply);
	const ids = buttonIds(reply);
	return {
		reply,
		confirm: ids.find((id) => id.startsWith('calibrate:confirm:')),
		cancel: ids.find((id) => id.startsWith('calibrate:cancel:')),
	};
}

async function click(customId: string, actor = ORGANIZER, events = 2): Promise<ReplyEvent[]> {
	const handle = bot.fake.clickButton(customId, actor);
	const out: ReplyEvent[] = [];
	for (let i = 0; i < events; i++) out.push(await handle.next(30_000));
	return out;
}

describe('/league calibrate end to end', () => {
	it('proposes the calibrated parameters to the organizer and applies them on Confirm, once', async () => {
		await bot.importSample('Zak');
		const { reply, confirm, cancel } = await propose();
		// The numbers: the calibration of the league's headline system (folyami) on the sample, computed here.
		const expected = calibrate(getSystem('folyami'), parseHistoryCsv(sampleText, 'sample-league.csv'), {
			fixed: LEAGUE_DEFAULTS['folyami'], // the league's own parameters: the starting point
			maxEvaluations: LEAGUE_MAX_EVALUATIONS,
		});
		const k = String(expected.bestPoint['k']);
		const k0 = String(LEAGUE_DEFAULTS['folyami']!['k']); // as created (src/league/league-defaults.ts)
		const body = content(reply);
		expect(body).toContain(
			`Calibration of \`folyami\` on **Zak**: 293 races scored, ${expected.evaluations} backtests (cap ${LEAGUE_MAX_EVALUATIONS}).`,
		);
		expect(body).toMatch(new RegExp(`^k\\s+${k0} → ${k.replace('.', '\\.')}$`, 'm'));
		const ll = (x: number) => x.toFixed(2).replace('-', '−');
		expect(body).toContain(
			`${ll(expected.defaultLogLikelihood)} → ${ll(expected.bestLogLikelihood)} (gain +${expected.gain.toFixed(2)} nats`,
		);
		expect(body).toContain(`Confirm sets \`folyami.k=${k}\``);
		expect(confirm).toBeDefined();
		expect(cancel).toBeDefined();

		// A member cannot press it (the organizer check is the service's, at the press).
		const refused = await click(confirm!, MEMBER);
		expect(content(refused[1]!)).toMatch(/^Only league organizers/);
		expect(flagsOf(refused[1]!) & EPHEMERAL).toBe(EPHEMERAL);

		const [ack, applied, announcement] = await click(confirm!, ORGANIZER, 3);
		expect(ack).toMatchObject({ kind: 'callback', type: 6 }); // deferUpdate: the proposal's message is edited
		expect(applied!.kind).toBe('edit');
		expect(content(applied!)).toMatch(
			new RegExp(
				`^Applied to \\*\\*Zak\\*\\*: \`folyami\` k ${k0} → ${k.replace('.', '\\.')} \\(winner log-likelihood`,
			),
		);
		expect(dataOf(applied!)['components']).toEqual([]);
		expect(mentionsOf(applied!)).toEqual({ parse: [] });
		expect(announcement!.kind).toBe('followup');
		expect(flagsOf(announcement!) & EPHEMERAL).toBe(0);
		expect(content(announcement!)).toContain('**Zak**: calibrated `folyami` parameters applied');
		expect(mentionsOf(announcement!)).toEqual({ parse: [] });

		const info = await bot.run('league', [sub('info', [text('league', 'Zak')])], MEMBER);
		expect(content(info)).toContain(`Parameters of \`folyami\`: \`k=${k}\``);

		// Pressed again: nothing stored twice.
		const [, again] = await click(confirm!);
		expect(content(again!)).toMatch(/^Already applied to \*\*Zak\*\* .*: nothing was stored twice\.$/);
	}, 90_000);

	it('a proposal of a league that changed since is refused; Cancel changes nothing', async () => {
		await bot.importSample('Moving');
		const first = await propose([text('league', 'Moving')]);
		const [, cancelled] = await click(first.cancel!);
		expect(content(cancelled!)).toBe('Cancelled: the league’s settings are unchanged.');
		const second = await propose([text('league', 'Moving')]);
		const preview = await bot.preview([text('results', 'Ann\nBob\nCid'), text('league', 'Moving')]);
		await bot.click(preview.confirm!);
		const [, stale] = await click(second.confirm!);
		expect(content(stale!)).toBe(
			'**Moving** changed since this proposal (a race or a setting): nothing was changed. Run /league calibrate again.',
		);
		expect(flagsOf(stale!) & EPHEMERAL).toBe(EPHEMERAL);
		const info = await bot.run('league', [sub('info', [text('league', 'Moving')])], MEMBER);
		expect(content(info)).toContain(`Parameters of \`folyami\`: \`k=${LEAGUE_DEFAULTS['folyami']!['k']}\``); // as created
	}, 90_000);

	it('members are refused; a second ask while one runs is refused as already running', async () => {
		await bot.expectRefusal(
			'league',
			[sub('calibrate', [text('league', 'Zak')])],
			MEMBER,
			/^Only league organizers \(Manage Server permission\) can do this\.$/,
		);
		const first = bot.fake.sendSlashCommand(
			'league',
			[sub('calibrate', [text('league', 'Zak'), text('system', 'glicko')])],
			ORGANIZER,
		);
		expect(await first.next()).toMatchObject({ kind: 'callback', type: 5 });
		await bot.expectRefusal(
			'league',
			[sub('calibrate', [text('league', 'Zak')])],
			ORGANIZER,
			/^A calibration of \*\*Zak\*\* is already running/,
		);
		const done = await first.next(60_000);
		expect(content(done)).toContain('Calibration of `glicko` on **Zak**: 293 races scored');
	}, 90_000);
});
