import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { datedSample } from '../support/league-history.js';
import { calibrate, type CalibrationResult } from '../../src/analysis/calibrate.js';
import { main } from '../../src/cli/main.js';
import { LEAGUE_DEFAULTS } from '../../src/league/league-defaults.js';
import { getSystem } from '../../src/ratings/index.js';
import type { CalibrationJob, CalibrationRunner } from '../../src/services/calibration/calibration-runner.js';
import type { LeagueRepository } from '../../src/storage/ports.js';
import {
	createLeagueCalibrateService,
	LEAGUE_MAX_EVALUATIONS,
	MAX_RUNNING_CALIBRATIONS,
	type LeagueCalibrateService,
} from '../../src/services/calibration/league-calibrate-service.js';
import { leagueParamArgs } from '../support/league-params.js';
import { proposalText } from '../../commands/league/calibrate.js';
import { addRace, eventCount, member, organizer, ROLE, roleOrganizer, world, type World } from './helpers.js';

/**
 * /league calibrate calibrates the league's own confirmed races as the league replays them, with the
 * numbers `pitwall calibrate` gives for the league's exported history, and applies the proposal on Confirm as one
 * league-configured event: organizers only (checked again at Confirm), one calibration per league at a time, a stale
 * proposal refused, a second Confirm storing nothing.
 */

const sampleText = readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'pitwall-calibrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function importedLeague(w: World, name: string, text: string) {
	await w.services.leagues.create(organizer, { name });
	await w.services.transfer.importFile(organizer, { league: name, file: { name: `${name}.csv`, text } });
	return (await w.services.leagues.resolve(organizer, name)).id;
}

/**
 * A league whose folyami k starts far from what its races say (2 instead of about 50): its calibration gains more
 * than the noise of 20 or 30 races, so it is proposed. At the league's defaults (k 20) the gain on
 * 20 races, +2.51 nats, is within its standard error of 2.58, and nothing is proposed.
 */
const FAR_START = { parameters: 'folyami.k=2' };
const FAR_PARAMS = { ...LEAGUE_DEFAULTS, folyami: { k: '2' } };

async function farLeague(w: World, name: string, text: string) {
	const id = await importedLeague(w, name, text);
	await w.services.leagues.configure(organizer, name, FAR_START);
	return id;
}

/** `pitwall calibrate --json` over a history text; its report. */
async function cliCalibrate(text: string, ...args: string[]) {
	const path = join(dir, `history-${args.join('_').replace(/[^\w.-]/g, '')}.csv`);
	writeFileSync(path, text);
	let out = '';
	let err = '';
	const code = await main(['calibrate', '--input', path, '--json', ...args], {
		out: (t) => void (out += t),
		err: (t) => void (err += t),
	});
	expect(err).toBe('');
	expect(code).toBe(0);
	return JSON.parse(out) as {
		races: number;
		evaluations: number;
		bestLogLikelihood: number;
		defaultLogLikelihood: number;
		bestOverrides: Record<string, unknown>;
	};
}

/** Parameter overrides as numbers: `--param` keeps a fixed value as the text given, a league as the number stored. */
const asNumbers = (overrides: Readonly<Record<string, unknown>>) =>
	Object.fromEntries(Object.entries(overrides).map(([name, value]) => [name, Number(value)]));

/** The calibration in this thread (the worker's code, without the worker), counting its calls. */
function inProcess(): CalibrationRunner & { calls: CalibrationJob[] } {
	const calls: CalibrationJob[] = [];
	const runner = (job: CalibrationJob) => {
		calls.push(job);
		return Promise.resolve(calibrate(getSystem(job.system), job.races, job.options));
	};
	return Object.assign(runner, { calls });
}

function serviceOf(w: World, runner: CalibrationRunner = inProcess()): LeagueCalibrateService {
	return createLeagueCalibrateService(w.repo, w.services.leagues, {
		runner,
		clock: () => new Date(w.now.ms),
		newId: (() => {
			let n = 0;
			return () => `c${++n}`;
		})(),
	});
}

describe('/league calibrate gives the numbers of pitwall calibrate on the league’s exported history', () => {
	it.each([
		{
			name: 'the headline system (folyami) with a fixed k, undated',
			text: sampleText,
			configure: { parameters: 'folyami.k=5' },
			system: undefined,
			cli: ['--system', 'folyami', '--param', 'k=5'],
		},
		{
			name: 'endure with a yearly reset, tied retirements and a fixed k',
			text: datedSample(60),
			configure: { reset: 'yearly' as const, retirements: 'tied' as const, parameters: 'endure.k=0.01' },
			system: 'endure',
			// the league's creation parameters (endure's forgetting) are held fixed as well
			cli: [
				'--system',
				'endure',
				'--param',
				'k=0.01',
				...leagueParamArgs('endure'),
				'--reset',
				'yearly',
				'--retirements',
				'tied',
			],
		},
	])(
		'$name, on the worker thread, and Confirm stores exactly those parameters',
		async (c) => {
			const w = world();
			const id = await importedLeague(w, 'Zak', c.text);
			await w.services.leagues.configure(organizer, 'Zak', c.configure);
			const proposal = await w.services.calibrate.calibrate(organizer, { league: 'Zak', system: c.system });
			const history = (await w.services.transfer.exportFiles(organizer, 'Zak')).history;
			const cli = await cliCalibrate(history, ...c.cli, '--max-evaluations', String(LEAGUE_MAX_EVALUATIONS));
			const r = proposal.result;
			expect(r.races).toBe(cli.races);
			expect(r.evaluations).toBe(cli.evaluations);
			expect(r.defaultLogLikelihood).toBe(cli.defaultLogLikelihood);
			expect(r.bestLogLikelihood).toBe(cli.bestLogLikelihood);
			expect(asNumbers(proposal.proposed)).toEqual(asNumbers(cli.bestOverrides));
			expect(proposal.better).toBe(true); // both histories gain more than twice the noise at these starting points
			const before = await eventCount(w, id);
			const applied = await w.services.calibrate.confirm(organizer, proposal.id);
			expect(applied.already).toBe(false);
			expect(await eventCount(w, id)).toBe(before + 1);
			const system = c.system ?? 'folyami';
			const league = (await w.repo.getLeague(id))!;
			expect(asNumbers(league.config.params[system]!)).toEqual(asNumbers(cli.bestOverrides));
			// the league's other settings are as they were
			expect(league.config.reset).toBe(c.configure.reset);
			expect(league.config.retirements).toBe(c.configure.retirements);
			// and replaying under the stored settings scores what the calibration reported
			const again = await w.services.calibrate.calibrate(organizer, { league: 'Zak', system });
			expect(again.result.defaultLogLikelihood).toBe(cli.bestLogLikelihood);
		},
		60_000,
	);
});

describe('/league calibrate: who, when, and how often', () => {
	it('is for organizers only; a member is refused before any calibration runs', async () => {
		const w = world();
		await importedLeague(w, 'Zak', datedSample(20));
		const runner = inProcess();
		const service = serviceOf(w, runner);
		await expect(service.calibrate(member, {})).rejects.toThrow(/^Only league organizers/);
		expect(runner.calls).toHaveLength(0);
		await expect(service.calibrate(organizer, { system: 'nope' })).rejects.toThrow(/Unknown rating system "nope"/);
		expect(runner.calls).toHaveLength(0);
	});

	it('reads the league’s confirmed races only, with its settings, and refuses a league with fewer than 5', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Tiny' });
		const runner = inProcess();
		const service = serviceOf(w, runner);
		for (let i = 0; i < 4; i++) await addRace(w, 'Ann\nBob\nCid');
		await expect(service.calibrate(organizer, {})).rejects.toThrow(
			/^Only 4 races have been rated in this league yet: calibration needs at least 5\.$/,
		);
		const voided = await addRace(w, 'Bob\nAnn\nCid');
		await addRace(w, 'Cid\nAnn\nBob');
		await w.services.races.void(organizer, voided, 'wrong track');
		await w.services.leagues.configure(organizer, undefined, { retirements: 'excluded', parameters: 'folyami.k=30' });
		await service.calibrate(organizer, {});
		const [job] = runner.calls;
		expect(job!.races).toHaveLength(5);
		expect(job!.races.map((r) => r.id)).not.toContain(voided);
		expect(job!.options).toMatchObject({
			fixed: { k: '30' }, // as /league config stores it (param-text.ts), and --param passes it
			retirements: 'excluded',
			maxEvaluations: LEAGUE_MAX_EVALUATIONS,
		});
	});

	it('runs one calibration per league at a time: a second ask is refused while the first runs', async () => {
		const w = world();
		await importedLeague(w, 'Zak', datedSample(20));
		await importedLeague(w, 'Other', datedSample(10));
		const real = inProcess();
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const service = serviceOf(w, async (job) => {
			if (job.races.length === 20) await gate; // only Zak's calibration waits
			return real(job);
		});
		const first = service.calibrate(organizer, { league: 'Zak' });
		await new Promise((resolve) => setImmediate(resolve));
		expect(service.running()).toBe(1);
		await expect(service.calibrate(organizer2OrSame(), { league: 'Zak' })).rejects.toThrow(
			/^A calibration of \*\*Zak\*\* is already running/,
		);
		// another league is not held up
		await expect(service.calibrate(organizer, { league: 'Other' })).resolves.toMatchObject({ system: 'folyami' });
		release();
		expect((await first).result.races).toBe(20);
		expect(service.running()).toBe(0);
		await expect(service.calibrate(organizer, { league: 'Zak' })).resolves.toMatchObject({ system: 'folyami' });
	});

	it('runs at most MAX_RUNNING_CALIBRATIONS at once over every league', async () => {
		const w = world();
		const names = Array.from({ length: MAX_RUNNING_CALIBRATIONS + 1 }, (_, i) => `L${i}`);
		for (const name of names) await importedLeague(w, name, datedSample(10));
		const real = inProcess();
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const service = serviceOf(w, async (job) => {
			await gate;
			return real(job);
		});
		const running = names.slice(0, -1).map((league) => service.calibrate(organizer, { league }));
		await new Promise((resolve) => setImmediate(resolve));
		expect(service.running()).toBe(MAX_RUNNING_CALIBRATIONS);
		await expect(service.calibrate(organizer, { league: names.at(-1) })).rejects.toThrow(
			`The bot is calibrating ${MAX_RUNNING_CALIBRATIONS} other leagues right now: try again in a minute.`,
		);
		release();
		await Promise.all(running);
		await expect(service.calibrate(organizer, { league: names.at(-1) })).resolves.toMatchObject({ seq: 1 });
	});

	it('a failed calibration frees the league for the next ask', async () => {
		const w = world();
		await farLeague(w, 'Zak', datedSample(20));
		let fail = true;
		const real = inProcess();
		const service = serviceOf(w, async (job) => {
			if (fail) throw new Error('The calibration worker exited (code 1).');
			return real(job);
		});
		await expect(service.calibrate(organizer, {})).rejects.toThrow(/worker exited/);
		fail = false;
		await expect(service.calibrate(organizer, {})).resolves.toMatchObject({ better: true });
	});
});

describe('/league calibrate: Confirm', () => {
	async function proposed(runner?: CalibrationRunner) {
		const w = world();
		const id = await farLeague(w, 'Zak', datedSample(30));
		const service = serviceOf(w, runner);
		const proposal = await service.calibrate(organizer, {});
		expect(proposal.better).toBe(true);
		return { w, id, service, proposal };
	}

	it('is idempotent: a second press, in turn or at once, stores nothing and says it was applied', async () => {
		const { w, id, service, proposal } = await proposed();
		const before = await eventCount(w, id);
		const [a, b] = await Promise.all([
			service.confirm(organizer, proposal.id),
			service.confirm(organizer, proposal.id),
		]);
		expect([a.already, b.already].sort()).toEqual([false, true]);
		const third = await service.confirm(organizer, proposal.id);
		expect(third.already).toBe(true);
		expect(await eventCount(w, id)).toBe(before + 1);
		const events = await w.repo.readEvents(id, before);
		expect(events.map((e) => e.type)).toEqual(['league-configured']);
		expect(events[0]!.by).toBe(organizer.userId);
		await expect(service.cancel(organizer, proposal.id)).rejects.toThrow(/already applied/);
	});

	it('is refused once the league’s log moved on since the proposal: nothing is stored', async () => {
		const { w, id, service, proposal } = await proposed();
		await addRace(w, 'Ann\nBob\nCid', 'Zak', '2022-06-01');
		const before = await eventCount(w, id);
		await expect(service.confirm(organizer, proposal.id)).rejects.toThrow(
			/^\*\*Zak\*\* changed since this proposal \(a race or a setting\): nothing was changed\. Run \/league calibrate again\.$/,
		);
		expect(await eventCount(w, id)).toBe(before);
		expect((await w.repo.getLeague(id))!.config.params).toEqual(FAR_PARAMS); // as configured
	});

	it('a race confirmed while the calibration runs makes its proposal stale: the proposal is of the races it read', async () => {
		const w = world();
		const id = await farLeague(w, 'Zak', datedSample(30));
		const before = (await w.repo.getLeague(id))!.seq;
		const inner = inProcess();
		const service = serviceOf(w, async (job) => {
			await addRace(w, 'Ann\nBob\nCid', 'Zak', '2022-06-01'); // lands during the calibration
			return inner(job);
		});
		const proposal = await service.calibrate(organizer, {});
		expect(proposal.seq).toBe(before);
		expect(proposal.result.races).toBe(30);
		await expect(service.confirm(organizer, proposal.id)).rejects.toThrow(/changed since this proposal/);
		expect((await w.repo.getLeague(id))!.config.params).toEqual(FAR_PARAMS);
	});

	it('a setting changed between Confirm’s check and its append is not overwritten (the append is at the seq)', async () => {
		const w = world();
		const id = await farLeague(w, 'Zak', datedSample(30));
		// Another organizer's /league config lands just before the calibration's own append.
		const repo: LeagueRepository = {
			...w.repo,
			appendEvent: async (league, event, options) => {
				if (event.type === 'league-configured' && options?.atSeq !== undefined) {
					await w.services.leagues.configure(organizer, 'Zak', { reset: 'yearly' });
				}
				return w.repo.appendEvent(league, event, options);
			},
		};
		const service = createLeagueCalibrateService(repo, w.services.leagues, {
			runner: inProcess(),
			clock: () => new Date(w.now.ms),
		});
		const proposal = await service.calibrate(organizer, {});
		expect(proposal.better).toBe(true);
		await expect(service.confirm(organizer, proposal.id)).rejects.toThrow(/changed since this proposal/);
		const league = (await w.repo.getLeague(id))!;
		expect(league.config.reset).toBe('yearly'); // the other change stands
		expect(league.config.params).toEqual(FAR_PARAMS); // and the stale proposal was not applied over it
	});

	it('checks the organizer again at the press: a revoked role cannot apply', async () => {
		const w = world();
		const id = await farLeague(w, 'Zak', datedSample(30));
		await w.services.leagues.configure(organizer, 'Zak', { organizerRole: { id: ROLE, managed: false } });
		const service = serviceOf(w);
		const proposal = await service.calibrate(roleOrganizer, {});
		const before = await eventCount(w, id);
		await expect(service.confirm({ ...roleOrganizer, roles: [] }, proposal.id)).rejects.toThrow(
			/^Only league organizers/,
		);
		await expect(service.confirm(member, proposal.id)).rejects.toThrow(/^Only league organizers/);
		expect(await eventCount(w, id)).toBe(before);
		expect((await service.confirm(roleOrganizer, proposal.id)).already).toBe(false);
	});

	it('a gain within twice its standard error is not proposed, and the answer says the numbers', async () => {
		const w = world();
		const id = await importedLeague(w, 'Zak', datedSample(20)); // at the league's defaults: folyami k 20
		const service = serviceOf(w);
		const proposal = await service.calibrate(organizer, {});
		const r = proposal.result;
		expect(r.races).toBe(20);
		expect(r.bestPoint).toEqual({ k: 45.42 });
		expect(r.gain).toBeCloseTo(2.513, 3);
		expect(r.gainStandardError).toBeCloseTo(2.579, 3);
		expect(proposal).toMatchObject({ better: false, withinNoise: true });
		expect(proposalText(proposal)).toContain(
			'The gain, +2.51 nats, is within the noise of 20 races (standard error 2.58 nats: a real gain would be over 5.16): nothing is proposed; the current settings stay. Calibrate again when the league has more races.',
		);
		await expect(service.confirm(organizer, proposal.id)).rejects.toThrow(/expired or was already handled/);
		expect((await w.repo.getLeague(id))!.config.params).toEqual(LEAGUE_DEFAULTS);
		// From a far start the same races say more than their noise: k 2 → 45.42, +13.78 ± 5.16 nats.
		await w.services.leagues.configure(organizer, 'Zak', FAR_START);
		const far = await service.calibrate(organizer, {});
		expect(far.result.gain).toBeCloseTo(13.779, 3);
		expect(far.result.gainStandardError).toBeCloseTo(5.156, 3);
		expect(far).toMatchObject({ better: true, withinNoise: false });
	});

	it('Cancel drops the proposal; a proposal no better than the settings has no Confirm; proposals expire', async () => {
		const { w, service, proposal } = await proposed();
		await service.cancel(organizer, proposal.id);
		await expect(service.confirm(organizer, proposal.id)).rejects.toThrow(/expired or was already handled/);
		// the search found nothing better: nothing waits for a Confirm
		const flat = serviceOf(w, (job): Promise<CalibrationResult> => {
			const result = calibrate(getSystem(job.system), job.races, { ...job.options, maxEvaluations: 1 });
			expect(result.gain).toBe(0);
			return Promise.resolve(result);
		});
		const none = await flat.calibrate(organizer, {});
		expect(none.better).toBe(false);
		expect(none.proposed).toEqual(FAR_PARAMS.folyami); // the league's own parameters, unchanged
		await expect(flat.confirm(organizer, none.id)).rejects.toThrow(/expired or was already handled/);
		const later = await service.calibrate(organizer, {});
		w.now.ms += 15 * 60 * 1000;
		await expect(service.confirm(organizer, later.id)).rejects.toThrow(/expired or was already handled/);
	});
});

/** A second organizer asking while the first's calibration runs. */
function organizer2OrSame() {
	return { ...organizer, userId: '800000000000000009' };
}
