/**
 * The history import and export end to end through the fake Discord: an organizer imports ZakStunts into a new league with
 * /league import, exports it with /league export, re-imports the exported history into another league, and every
 * system's standings come out identical. Every answer is checked: ephemeral, pings nobody, within 2000 characters,
 * files attached where promised; a refused import stores nothing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/formats/csv.js';
import { importZakstunts } from '../../src/formats/import-zakstunts.js';
import { raceSystems } from '../../src/ratings/index.js';
import type { ReplyEvent } from './fake-discord-wire.js';
import {
	ATTACHMENT,
	content,
	dataOf,
	EPHEMERAL,
	expectWithinDiscordLimits,
	flagsOf,
	MEMBER,
	ORGANIZER,
	sub,
	text,
	useLeagueBot,
} from './league-bot.js';

const bot = useLeagueBot();
const zakText = readFileSync(new URL('../fixtures/zakstunts/zakstunts-race-positions.csv', import.meta.url), 'utf8');
const zak = importZakstunts(zakText);

const fileOption = (name: string, attachment: Record<string, unknown>) => ({
	name,
	type: ATTACHMENT,
	value: String(attachment['id']),
});

/** Every answer after the ephemeral defer, up to the last edit (progress edits, then the summary or the error). */
async function runDeferred(name: string, options: Parameters<typeof bot.run>[1], actor = ORGANIZER) {
	const handle = bot.fake.sendSlashCommand(name, options, actor);
	const defer = await handle.next();
	expect(defer).toMatchObject({ kind: 'callback', type: 5 });
	expect(flagsOf(defer) & EPHEMERAL).toBe(EPHEMERAL);
	const edits: ReplyEvent[] = [];
	for (;;) {
		const event = await handle.next(20_000);
		expect(event.kind).toBe('edit');
		expectWithinDiscordLimits(event);
		edits.push(event);
		if (!content(event).startsWith('Importing…')) return edits;
	}
}

const filesOf = (event: ReplyEvent) =>
	event.kind === 'delete' ? {} : Object.fromEntries(event.files.map((f) => [f.filename, f.data.toString('utf8')]));

async function createLeague(name: string) {
	const reply = await bot.run('league', [sub('create', [text('name', name), text('system', 'glicko')])], ORGANIZER);
	expect(content(reply)).toContain(`Created league **${name}**`);
	return (await bot.repo.listLeagues(bot.fake.guildId)).find((l) => l.config.name === name)!.id;
}

const events = async (league: string) => (await bot.repo.readEvents(league)).length;

describe('/league import and /league export end to end', () => {
	let zakId = '';
	let exported: Record<string, string> = {};

	it('refuses a member, a file that is not .csv, and a bad row (its line), storing nothing', async () => {
		zakId = await createLeague('Zak');
		const csv = bot.fake.addAttachment('zak.csv', zakText, 'text/csv');
		await bot.expectRefusal('league', [sub('import', [fileOption('file', csv)])], MEMBER, /Only league organizers/);
		const txt = bot.fake.addAttachment('zak.txt', zakText);
		await bot.expectRefusal(
			'league',
			[sub('import', [fileOption('file', txt), text('league', 'Zak')])],
			ORGANIZER,
			/The file must be a \.csv history; "zak\.txt" is not\. Nothing was stored\./,
		);
		const big = bot.fake.addAttachment('big.csv', `race,player,position\n${'R1,x,1\n'.repeat(1_200_000)}`, 'text/csv');
		await bot.expectRefusal(
			'league',
			[sub('import', [fileOption('file', big), text('league', 'Zak')])],
			ORGANIZER,
			/^The file is 8\.1 MiB: at most 8 MiB\. Nothing was stored\.$/,
		);
		const bad = bot.fake.addAttachment('bad.csv', 'race,player,position\nR1,Ann,1\nR1,Bob,0\n', 'text/csv');
		const [refusal] = await runDeferred('league', [sub('import', [fileOption('file', bad), text('league', 'Zak')])]);
		expect(content(refusal!)).toBe(
			'Nothing was imported: bad.csv\\:3\\: position must be an integer of at least 1, got "0"',
		);
		expect(await events(zakId)).toBe(1);
	});

	it('imports ZakStunts with progress edits and a summary: races, players, dates, warnings', async () => {
		const csv = bot.fake.addAttachment('zakstunts-race-positions.csv', zakText, 'text/csv');
		const edits = await runDeferred('league', [sub('import', [fileOption('file', csv), text('league', 'Zak')])]);
		const progress = edits.slice(0, -1).map(content);
		expect(progress[0]).toBe(`Importing… 0 of ${zak.races.length} races`);
		for (const line of progress) expect(line).toMatch(new RegExp(`^Importing… \\d+ of ${zak.races.length} races$`));
		const summary = content(edits.at(-1)!);
		const players = new Set(zak.races.flatMap((r) => r.entries.map((e) => e.player))).size;
		expect(summary).toContain(
			`Imported ${zak.races.length} races into **Zak** from zakstunts-race-positions.csv (ZakStunts): ${players} new players`,
		);
		expect(summary).toContain('Dates: none (the races are undated).');
		expect(summary).toContain(`Warnings (${zak.notes.length}):`);
		expect(await events(zakId)).toBe(2);
		expect((await bot.repo.loadState(zakId)).races()).toHaveLength(zak.races.length);
	});

	it('refuses a second import into the same league, storing nothing', async () => {
		const csv = bot.fake.addAttachment('again.csv', 'race,player,position\nX,Ann,1\n', 'text/csv');
		const [refusal] = await runDeferred('league', [sub('import', [fileOption('file', csv), text('league', 'Zak')])]);
		expect(content(refusal!)).toMatch(
			/^Nothing was imported: this league already has \d+ races\\: import into a new league\.$/,
		);
		expect(await events(zakId)).toBe(2);
	});

	it('/league export attaches the history and every system’s standings', async () => {
		const [reply] = await runDeferred('league', [sub('export', [text('league', 'Zak')])], MEMBER);
		expect(content(reply!)).toContain(`Export of **Zak**: ${zak.races.length} races in zak-history.csv`);
		// An imported league has neither aliases nor links: no players file.
		expect(content(reply!)).not.toContain('players.csv');
		exported = filesOf(reply!);
		expect(Object.keys(exported)).toEqual(['zak-history.csv', 'zak-standings.csv']);
		expect((dataOf(reply!)['attachments'] as unknown[]).length).toBe(2);
		const systems = new Set(
			readCsv(exported['zak-standings.csv']!)
				.slice(1)
				.map((r) => r.fields[0]),
		);
		expect([...systems]).toEqual(raceSystems.map((s) => s.id).filter((id) => systems.has(id)));
		expect(systems.size).toBeGreaterThanOrEqual(4);
	});

	it('re-importing the exported history into a new league gives identical standings in every system', async () => {
		const copyId = await createLeague('Zak Copy');
		const csv = bot.fake.addAttachment('zak-history.csv', exported['zak-history.csv']!, 'text/csv');
		const edits = await runDeferred('league', [sub('import', [fileOption('file', csv), text('league', 'Zak Copy')])]);
		expect(content(edits.at(-1)!)).toContain(`Imported ${zak.races.length} races into **Zak Copy**`);
		const [reply] = await runDeferred('league', [sub('export', [text('league', 'Zak Copy')])], MEMBER);
		const copy = filesOf(reply!);
		expect(copy['zak-copy-history.csv']).toBe(exported['zak-history.csv']);
		expect(copy['zak-copy-standings.csv']).toBe(exported['zak-standings.csv']);
		for (const system of raceSystems) {
			const a = await bot.repo.ratingsAt(zakId, system.id);
			const b = await bot.repo.ratingsAt(copyId, system.id);
			expect(JSON.stringify(b.snapshot.players)).toBe(JSON.stringify(a.snapshot.players));
		}
	});

	it('the export names the settings that give the same ratings; applied to a new league, they do', async () => {
		const settings = [text('system', 'endure'), text('retirements', 'tied'), text('parameters', 'glicko.c=1.2345678')];
		expect(
			content(await bot.run('league', [sub('config', [text('league', 'Zak'), ...settings])], ORGANIZER)),
		).toContain('Updated **Zak**');
		const [reply] = await runDeferred('league', [sub('export', [text('league', 'Zak')])], MEMBER);
		const line = /give that league these settings first: `(\/league config [^`]+)`/.exec(content(reply!))?.[1];
		expect(line).toBe(
			'/league config system:endure reset:none retirements:tied parameters:folyami.k=20 glicko.c=1.2345678 endure.phi=0.999653',
		);
		// The line as an organizer would type it: every option up to the next, `parameters` last.
		const options = [...line!.matchAll(/(\w+):(.*?)(?= \w+:|$)/g)].map(([, name, value]) => text(name!, value!));
		const copyId = await createLeague('Zak Copy 2');
		const configured = await bot.run('league', [sub('config', [text('league', 'Zak Copy 2'), ...options])], ORGANIZER);
		expect(content(configured)).toContain('Updated **Zak Copy 2**');
		const csv = bot.fake.addAttachment('zak-history.csv', filesOf(reply!)['zak-history.csv']!, 'text/csv');
		await runDeferred('league', [sub('import', [fileOption('file', csv), text('league', 'Zak Copy 2')])]);
		for (const system of raceSystems) {
			const a = await bot.repo.ratingsAt(zakId, system.id);
			const b = await bot.repo.ratingsAt(copyId, system.id);
			expect(JSON.stringify(b.snapshot.players)).toBe(JSON.stringify(a.snapshot.players));
		}
	});

	it('exports the aliases and Discord links in a players file that /league import reads back', async () => {
		const alias = [sub('alias', [text('league', 'Zak'), text('player', 'Argammon'), text('alias', 'Arga')])];
		expect(content(await bot.run('player', alias, ORGANIZER))).toContain('“Arga”');
		const link = [sub('link', [text('league', 'Zak'), text('player', 'Duplode')])];
		expect(content(await bot.run('player', link, ORGANIZER))).toContain('Linked **Duplode**');
		const [reply] = await runDeferred('league', [sub('export', [text('league', 'Zak')])], MEMBER);
		expect(content(reply!)).toMatch(
			/\nThe players' 1 alias and 1 Discord link are in [\w-]+-players\.csv: give it to \/league import as players: with the history\.$/,
		);
		expect(content(reply!).length).toBeLessThanOrEqual(2000);
	});
});
