/**
 * The shared set-up of the league-command e2e tests: the REAL discord.js client logged in to the fake Discord, the
 * real router, services and repository over a memory store, and the helpers that send a command and read its answer.
 *
 *   const bot = useLeagueBot();            // registers beforeAll / afterAll in the calling test file
 *   const reply = await bot.run('rating', [text('player', 'Bob')]);
 *   await bot.expectRefusal('league', [sub('create', [...])], MEMBER, /Only league organizers/);
 */
import { Events, MessageFlags, PermissionFlagsBits, type Client } from 'discord.js';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { createChartRenderer } from '../../src/charts/create-chart-renderer.js';
import { startBot } from '../../src/discord/client.js';
import { EMBED_LIMITS } from '../../src/formats/embed.js';
import { createLogger } from '../../src/logger.js';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository, type LeagueRepositoryOptions } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { LeagueRepository, Store } from '../../src/storage/ports.js';
import {
	startFakeDiscord,
	type Actor,
	type FakeDiscord,
	type Json,
	type RawOption,
	type ReplyEvent,
} from './fake-discord.js';

export const EPHEMERAL = MessageFlags.Ephemeral as number;
export const STRING = 3;
export const INTEGER = 4;
export const SUB = 1;
export const ATTACHMENT = 11;

export const ORGANIZER: Actor = { userId: '400000000000000001', permissions: PermissionFlagsBits.ManageGuild };
export const MEMBER: Actor = { userId: '400000000000000002' };

export const text = (name: string, value: string | number): RawOption => ({
	name,
	type: typeof value === 'number' ? INTEGER : STRING,
	value,
});
export const sub = (name: string, options: RawOption[] = []): RawOption => ({ name, type: SUB, options });

/** The message body of an answer (callback, edit or follow-up). */
export function dataOf(event: ReplyEvent): Json {
	return 'data' in event ? (event.data ?? {}) : {};
}

/** The content of an answer, whatever its form (reply, edit of a deferred reply, follow-up). */
export function content(event: ReplyEvent): string {
	const value = dataOf(event)['content'];
	return typeof value === 'string' ? value : '';
}

/**
 * Everything a user reads in an answer: its content, then each embed as author, title, description, fields (name,
 * then value) and footer, one per line (what the console prints too).
 */
export function visible(event: ReplyEvent): string {
	return messageText(dataOf(event));
}

/** The text of a message body (an answer's or a channel post's): content, then each embed's parts, one per line. */
export function messageText(body: Json): string {
	const embeds = body['embeds'];
	const parts = [typeof body['content'] === 'string' ? body['content'] : ''];
	const str = (value: unknown) => (typeof value === 'string' ? value : '');
	for (const embed of Array.isArray(embeds) ? (embeds as Json[]) : []) {
		const get = (value: unknown, key: string) => (value as Json | undefined)?.[key];
		parts.push(
			str(get(embed['author'], 'name')),
			str(embed['title']),
			str(embed['description']),
			...((embed['fields'] as Json[] | undefined) ?? []).flatMap((f) => [str(f['name']), str(f['value'])]),
			str(get(embed['footer'], 'text')),
		);
	}
	return parts.filter((part) => part !== '').join('\n');
}

/** The embeds of an answer, as Discord received them. */
export function embedsOf(event: ReplyEvent): Json[] {
	const embeds = dataOf(event)['embeds'];
	return Array.isArray(embeds) ? (embeds as Json[]) : [];
}

export function flagsOf(event: ReplyEvent): number {
	return Number(dataOf(event)['flags'] ?? 0);
}

export function mentionsOf(event: ReplyEvent): unknown {
	return dataOf(event)['allowed_mentions'];
}

/**
 * A reply within Discord's limits, pinging nobody: content of 2,000 characters at most, and each embed's description,
 * field values and whole within theirs.
 */
export function expectWithinDiscordLimits(event: ReplyEvent): void {
	expect(content(event).length).toBeLessThanOrEqual(2000);
	expect(mentionsOf(event)).toEqual({ parse: [] });
	for (const embed of embedsOf(event)) {
		const description = embed['description'];
		expect(typeof description === 'string' ? description.length : 0).toBeLessThanOrEqual(EMBED_LIMITS.description);
		for (const field of (embed['fields'] ?? []) as { value: string }[]) {
			expect(field.value.length).toBeLessThanOrEqual(1024);
		}
		expect(JSON.stringify(embed).length).toBeLessThan(EMBED_LIMITS.total);
	}
}

export interface LeagueBot {
	/** Set in beforeAll. */
	readonly fake: FakeDiscord;
	readonly repo: LeagueRepository;
	/** A slash command's final answer: the reply, or the edit after a defer. */
	readonly run: (name: string, options: RawOption[], actor?: Actor) => Promise<ReplyEvent & { deferred: boolean }>;
	/** Asserts an ephemeral refusal matching `message` that pings nobody; returns it. */
	readonly expectRefusal: (name: string, options: RawOption[], actor: Actor, message: RegExp) => Promise<ReplyEvent>;
	/** Submits a race and returns the preview text and its Confirm / Cancel customIds. */
	readonly preview: (
		options: RawOption[],
		actor?: Actor,
	) => Promise<{ text: string; confirm: string | undefined; cancel: string | undefined; edit: ReplyEvent }>;
	/** Clicks a button; returns the acknowledgement, the answer and (after Stored) the public announcement. */
	readonly click: (customId: string, actor?: Actor) => Promise<ReplyEvent[]>;
	/** `/league create` then `/league import` of the sample league (293 races), as an organizer does it. */
	readonly importSample: (league: string) => Promise<void>;
}

export interface LeagueBotOptions {
	/** The store under the repository (default: a fresh memory store); a faulty one injects write failures. */
	readonly store?: Store;
	readonly repo?: LeagueRepositoryOptions;
	/** Give the commands the app's chart renderer (a worker thread), as the bot has it (default: none, no charts). */
	readonly charts?: boolean;
}

export function useLeagueBot(options: LeagueBotOptions = {}): LeagueBot {
	let fake: FakeDiscord | undefined;
	let client: Client | undefined;
	let repo: LeagueRepository | undefined;
	const charts = options.charts === true ? createChartRenderer() : undefined;

	beforeAll(async () => {
		fake = await startFakeDiscord();
		repo = createLeagueRepository(options.store ?? createMemoryStore(), options.repo);
		const log = createLogger({ level: 'silent' });
		client = await startBot({
			config: { DISCORD_API_URL: fake.apiUrl, DISCORD_TOKEN: fake.token },
			context: { log, services: createServices(repo), charts },
			commands,
			buttons,
		});
		if (!client.isReady()) await once(client, Events.ClientReady);
	});

	afterAll(async () => {
		await client?.destroy();
		await fake?.close();
		await charts?.close();
	});

	const started = () => {
		if (!fake || !repo) throw new Error('useLeagueBot: used before beforeAll ran');
		return { fake, repo };
	};

	const bot: LeagueBot = {
		get fake() {
			return started().fake;
		},
		get repo() {
			return started().repo;
		},
		run: async (name, options, actor = MEMBER) => {
			const handle = started().fake.sendSlashCommand(name, options, actor);
			const first = await handle.next();
			if (first.kind === 'callback' && first.type === 5) {
				const second = await handle.next();
				// A deferred answer keeps the defer's visibility.
				return Object.assign(second, { deferred: true, flagsOfDefer: flagsOf(first) });
			}
			return Object.assign(first, { deferred: false });
		},
		expectRefusal: async (name, options, actor, message) => {
			const handle = started().fake.sendSlashCommand(name, options, actor);
			const first = await handle.next();
			let final = first.kind === 'callback' && first.type === 5 ? await handle.next() : first;
			if (first.kind === 'callback' && first.type === 5 && (flagsOf(first) & EPHEMERAL) === 0) {
				// After a public defer the public "thinking…" is deleted and the refusal follows up for the user only.
				expect(final.kind).toBe('delete');
				final = await handle.next();
				expect(final.kind).toBe('followup');
				expect(flagsOf(final) & EPHEMERAL).toBe(EPHEMERAL);
			} else {
				// Ephemeral: the reply itself, or the deferred "thinking" it edits.
				expect(flagsOf(first) & EPHEMERAL).toBe(EPHEMERAL);
			}
			expect(content(final)).toMatch(message);
			expect(mentionsOf(final)).toEqual({ parse: [] });
			return final;
		},
		preview: async (options, actor = ORGANIZER) => {
			const handle = started().fake.sendSlashCommand('race', [sub('submit', options)], actor);
			const deferred = await handle.next();
			expect(deferred).toMatchObject({ kind: 'callback', type: 5 });
			expect(flagsOf(deferred) & EPHEMERAL).toBe(EPHEMERAL);
			const edit = await handle.next();
			if (edit.kind !== 'edit') throw new Error(`expected the preview edit, got ${edit.kind}`);
			const rows = (edit.data['components'] ?? []) as Json[];
			const ids = rows.flatMap((row) => (row['components'] as Json[]).map((c) => String(c['custom_id'])));
			return {
				text: visible(edit),
				confirm: ids.find((id) => id.startsWith('race:confirm:')),
				cancel: ids.find((id) => id.startsWith('race:cancel:')),
				edit,
			};
		},
		click: async (customId, actor = ORGANIZER) => {
			const handle = started().fake.clickButton(customId, actor);
			const events = [await handle.next(), await handle.next()];
			if (content(events[1]!).startsWith('Stored')) events.push(await handle.next()); // the public announcement
			return events;
		},
		importSample: async (league) => {
			const created = await bot.run('league', [sub('create', [text('name', league)])], ORGANIZER);
			expect(content(created)).toContain(`Created league **${league}**`);
			const sample = readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8');
			const csv = started().fake.addAttachment('sample-league.csv', sample, 'text/csv');
			const handle = started().fake.sendSlashCommand(
				'league',
				[sub('import', [{ name: 'file', type: ATTACHMENT, value: String(csv['id']) }, text('league', league)])],
				ORGANIZER,
			);
			for (;;) {
				const event = await handle.next(30_000);
				if (event.kind === 'edit' && !content(event).startsWith('Importing…')) {
					expect(content(event)).toContain('Imported 293 races');
					return;
				}
			}
		},
	};
	return bot;
}
