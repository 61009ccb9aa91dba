/**
 * The wire side of test/e2e/fake-discord.ts: payload shapes Discord sends (guild, channel), what the fake records
 * (requests, answers), the per-interaction answer queue, and HTTP body decoding (JSON or multipart with files).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Json = Record<string, unknown>;

export interface UploadedFile {
	readonly field: string;
	readonly filename: string;
	readonly contentType: string;
	readonly data: Buffer;
}

export interface RecordedRequest {
	readonly method: string;
	/** Path after /api/v10, decoded (`/webhooks/…/messages/@original`). */
	readonly path: string;
	readonly query: URLSearchParams;
	readonly headers: IncomingMessage['headers'];
	/** The JSON body, or a multipart request's payload_json. */
	readonly body: unknown;
	readonly files: readonly UploadedFile[];
}

/** One answer to an interaction, as Discord saw it. */
export type ReplyEvent =
	| {
			readonly kind: 'callback';
			readonly type: number;
			readonly data: Json | undefined;
			readonly files: readonly UploadedFile[];
	  }
	| { readonly kind: 'edit'; readonly messageId: string; readonly data: Json; readonly files: readonly UploadedFile[] }
	| { readonly kind: 'followup'; readonly data: Json; readonly files: readonly UploadedFile[] }
	| { readonly kind: 'delete'; readonly messageId: string };

export interface InteractionHandle {
	readonly id: string;
	readonly token: string;
	readonly payload: Json;
	/** Every answer so far, in order. */
	readonly events: readonly ReplyEvent[];
	/** The next answer not yet returned by `next` (waits for it; rejects after `timeoutMs`). */
	next(timeoutMs?: number): Promise<ReplyEvent>;
}

export interface Actor {
	readonly userId?: string;
	readonly username?: string;
	/** The member's permission bitfield in the channel (default: view, send, use application commands). */
	readonly permissions?: bigint;
	readonly roles?: readonly string[];
	/** Make the callback fail with 10062 Unknown interaction, as Discord does after the 3 s window. */
	readonly expired?: boolean;
	/** Sent from a DM with the bot: `user` instead of `member`, no guild, a DM channel, context 1 (BOT_DM). */
	readonly dm?: boolean;
	/** Sent from this channel of the guild (default: the interaction channel, FakeDiscord.channelId). */
	readonly channelId?: string;
}

export interface FakeDiscordOptions {
	readonly token?: string;
	readonly appId?: string;
	readonly guildId?: string;
	readonly heartbeatMs?: number;
}

/** A raw option as Discord sends it in `data.options`. */
export interface RawOption {
	readonly name: string;
	readonly type: number;
	readonly value?: string | number | boolean;
	readonly options?: readonly RawOption[];
	readonly focused?: boolean;
}

export const DISCORD_EPOCH = 1_420_070_400_000n;
export const MEMBER_PERMISSIONS = (1n << 10n) | (1n << 11n) | (1n << 31n); // ViewChannel, SendMessages, UseApplicationCommands
export const ATTACHMENT_OPTION = 11;
export const CHANNEL_OPTION = 7;
export const ROLE_OPTION = 8;
export const USER_OPTION = 6;

/** A user object as Discord resolves a user option (`resolved.users`). */
export function userPayload(id: string): Json {
	return { id, username: `user${id.slice(-4)}`, discriminator: '0', global_name: null, avatar: null };
}

/** A message the bot posted in a channel (`POST /channels/{id}/messages`), as Discord received it. */
export interface ChannelPost {
	/** The JSON body, or a multipart request's payload_json (`content`, `allowed_mentions`, `nonce`, …). */
	readonly body: Json;
	readonly files: readonly UploadedFile[];
	/** The message object the fake answered with. */
	readonly message: Json;
}

/** How a channel refuses the bot: it can see it but not post (50013), or cannot see it at all (50001). */
export type ChannelDenial = 'missing-permissions' | 'missing-access';

export class InteractionRecord implements InteractionHandle {
	readonly events: ReplyEvent[] = [];
	private read = 0;
	private waiters: (() => void)[] = [];
	constructor(
		readonly id: string,
		readonly token: string,
		readonly payload: Json,
		readonly expired: boolean,
	) {}

	push(event: ReplyEvent): void {
		this.events.push(event);
		for (const wake of this.waiters.splice(0)) wake();
	}

	async next(timeoutMs = 5000): Promise<ReplyEvent> {
		const deadline = Date.now() + timeoutMs;
		while (this.read >= this.events.length) {
			const left = deadline - Date.now();
			if (left <= 0) {
				throw new Error(`no answer #${this.read + 1} to interaction ${this.id} within ${timeoutMs} ms`);
			}
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, left);
				this.waiters.push(() => (clearTimeout(timer), resolve()));
			});
		}
		return this.events[this.read++] as ReplyEvent;
	}
}

/**
 * A role object as Discord resolves a role option or lists the guild's roles (managed: a bot's, Server Booster's or an
 * integration's role). `position` and `permissions` default to what a role option resolved before roles had them.
 */
export function rolePayload(
	id: string,
	name: string,
	managed: boolean,
	position = managed ? 1 : 0,
	permissions = 0n,
): Json {
	return {
		id,
		name,
		color: 0,
		hoist: false,
		position,
		permissions: permissions.toString(),
		managed,
		mentionable: false,
		flags: 0,
	};
}

/** Manage Roles (1 << 28): what the bot needs to add and remove members' roles. */
export const MANAGE_ROLES = 1n << 28n;

/** A guild member object as REST returns it (GET /guilds/{guild}/members[/{user}]). */
export function memberPayload(userId: string, roles: readonly string[], bot = false): Json {
	return {
		user: { ...userPayload(userId), ...(bot && { bot: true }) },
		roles: [...roles],
		joined_at: new Date(0).toISOString(),
		deaf: false,
		mute: false,
		flags: 0,
		pending: false,
		nick: null,
		avatar: null,
		premium_since: null,
		communication_disabled_until: null,
	};
}

/** A rate limit of the member role routes (FakeDiscord.limitRoleChanges): `limit` requests per `windowMs`. */
export interface RoleRateLimit {
	readonly limit: number;
	readonly windowMs: number;
}

export function channelPayload(channelId: string, guildId: string, name = 'race-results'): Json {
	return {
		id: channelId,
		type: 0,
		guild_id: guildId,
		name,
		position: 0,
		permission_overwrites: [],
		nsfw: false,
		topic: null,
		last_message_id: null,
		rate_limit_per_user: 0,
		parent_id: null,
	};
}

export function guildPayload(guildId: string, channel: Json): Json {
	const everyone = { id: guildId, name: '@everyone', permissions: MEMBER_PERMISSIONS.toString(), position: 0 };
	return {
		id: guildId,
		name: 'Pitwall Test League',
		icon: null,
		owner_id: '423456789012345678',
		afk_channel_id: null,
		afk_timeout: 300,
		verification_level: 0,
		default_message_notifications: 0,
		explicit_content_filter: 0,
		roles: [{ ...everyone, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 }],
		emojis: [],
		stickers: [],
		features: [],
		mfa_level: 0,
		system_channel_flags: 0,
		premium_tier: 0,
		preferred_locale: 'en-US',
		nsfw_level: 0,
		joined_at: new Date().toISOString(),
		large: false,
		unavailable: false,
		member_count: 2,
		voice_states: [],
		members: [],
		channels: [channel],
		threads: [],
		presences: [],
		stage_instances: [],
		guild_scheduled_events: [],
		soundboard_sounds: [],
	};
}

export function pickMessageFields(data: Json): Json {
	const fields = ['content', 'embeds', 'components', 'flags'] as const;
	return Object.fromEntries(fields.filter((field) => data[field] !== undefined).map((field) => [field, data[field]]));
}

export function reply(res: ServerResponse, status: number, body?: unknown): void {
	if (body === undefined) return void res.writeHead(status).end();
	res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function readBody(req: IncomingMessage): Promise<{ body: unknown; files: UploadedFile[] }> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const raw = Buffer.concat(chunks);
	const type = req.headers['content-type'] ?? '';
	if (raw.length === 0) return { body: undefined, files: [] };
	if (type.startsWith('multipart/form-data')) {
		const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
		const files: UploadedFile[] = [];
		let body: unknown;
		for (const [field, value] of form.entries()) {
			if (typeof value === 'string') {
				if (field === 'payload_json') body = JSON.parse(value);
			} else {
				const data = Buffer.from(await value.arrayBuffer());
				files.push({ field, filename: value.name, contentType: value.type, data });
			}
		}
		return { body, files };
	}
	return { body: type.includes('json') ? JSON.parse(raw.toString()) : raw.toString(), files: [] };
}

/**
 * What Discord's API refuses in a message body (50035 Invalid Form Body): content over 2,000 characters, more than
 * 10 embeds, an embed part over its limit, an empty field, or more than 6,000 characters in all embeds
 * (https://discord.com/developers/docs/resources/message#embed-object-embed-limits). Undefined when it is accepted.
 */
export function messageProblem(body: Json | undefined): string | undefined {
	if (body === undefined) return undefined;
	const content = body['content'];
	if (typeof content === 'string' && content.length > 2000) return `content: ${content.length} > 2000`;
	const embeds = Array.isArray(body['embeds']) ? (body['embeds'] as Json[]) : [];
	if (embeds.length > 10) return `embeds: ${embeds.length} > 10`;
	let total = 0;
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	for (const [i, embed] of embeds.entries()) {
		const parts: [string, string, number][] = [
			['title', text(embed['title']), 256],
			['description', text(embed['description']), 4096],
			['footer.text', text((embed['footer'] as Json | undefined)?.['text']), 2048],
			['author.name', text((embed['author'] as Json | undefined)?.['name']), 256],
		];
		const fields = Array.isArray(embed['fields']) ? (embed['fields'] as Json[]) : [];
		if (fields.length > 25) return `embeds[${i}].fields: ${fields.length} > 25`;
		for (const [j, field] of fields.entries()) {
			if (text(field['name']) === '' || text(field['value']) === '') return `embeds[${i}].fields[${j}]: empty`;
			parts.push([`fields[${j}].name`, text(field['name']), 256], [`fields[${j}].value`, text(field['value']), 1024]);
		}
		for (const [name, value, max] of parts) {
			if (value.length > max) return `embeds[${i}].${name}: ${value.length} > ${max}`;
			total += value.length;
		}
	}
	return total > 6000 ? `embeds: ${total} characters > 6000` : undefined;
}
