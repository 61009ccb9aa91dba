/**
 * A loopback Discord: REST under /api/v10 and the gateway as a WebSocket on one port, enough for the REAL discord.js
 * client to log in, receive interactions and answer them (docs/discord.md, /work/shared/ENVIRONMENT.md).
 *
 *   const fake = await startFakeDiscord();
 *   const client = new Client({ intents: [Guilds], rest: { api: fake.apiUrl } }); await client.login(fake.token);
 *   const reply = await fake.sendSlashCommand('about').next();   // { kind: 'callback', type: 4, data: {...} }
 *
 * Everything REST receives is kept in `requests`; each interaction's answers (callback, edits of @original,
 * follow-ups) are queued on its handle in arrival order.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
	ATTACHMENT_OPTION,
	CHANNEL_OPTION,
	channelPayload,
	DISCORD_EPOCH,
	guildPayload,
	InteractionRecord,
	MANAGE_ROLES,
	MEMBER_PERMISSIONS,
	memberPayload,
	messageProblem,
	pickMessageFields,
	readBody,
	reply,
	ROLE_OPTION,
	rolePayload,
	USER_OPTION,
	userPayload,
	type Actor,
	type ChannelDenial,
	type ChannelPost,
	type FakeDiscordOptions,
	type InteractionHandle,
	type Json,
	type RawOption,
	type RecordedRequest,
	type RoleRateLimit,
	type UploadedFile,
} from './fake-discord-wire.js';

export type * from './fake-discord-wire.js';

/** A REST fault to inject (FakeDiscord.failRest). */
export interface RestFault {
	readonly method: string;
	readonly path: RegExp;
	/** 400: Discord refuses the message as it refuses a bad one (50035 Invalid Form Body). */
	readonly status: 400 | 429 | 500 | 502 | 503;
	/** 429 only: seconds to wait (default 0.2). */
	readonly retryAfter?: number;
	readonly times?: number;
}

/** A role of the fake guild. */
interface FakeRole {
	name: string;
	managed: boolean;
	position: number;
	permissions: bigint;
}

/** Discord's answer to a message it will not take: 400, 50035 Invalid Form Body, saying which part. */
const refuseForm = (res: ServerResponse, problem: string) =>
	reply(res, 400, {
		message: 'Invalid Form Body',
		code: 50035,
		errors: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: problem }] },
	});

/** The DM channel between the bot and whoever sends an interaction with `dm: true`. */
const DM_CHANNEL_ID = '523456789012345678';

/** How many of a session's latest events a RESUME can send again (Discord keeps a session's recent events too). */
const SESSION_REPLAY_EVENTS = 1000;

/** A gateway session: the shard it serves, the connection it is on now (none while dropped), its events sent. */
interface GatewaySession {
	readonly shard: [number, number];
	ws: WebSocket | undefined;
	readonly sent: (Json & { s: number })[];
}

export class FakeDiscord {
	readonly token: string;
	readonly appId: string;
	readonly guildId: string;
	readonly channelId: string;
	readonly botUserId: string;
	/** Every REST request received, in order. */
	readonly requests: RecordedRequest[] = [];
	/** Bodies of PUT …/commands, in order (the latest is what Discord would show). */
	readonly commandRegistrations: { readonly path: string; readonly body: Json[] }[] = [];
	/** Tokens presented in IDENTIFY. */
	readonly identified: string[] = [];
	/** The shards that identified, `[id, count]`, in order. */
	readonly shards: [number, number][] = [];
	/** Session ids the bot resumed (op 6) after `dropGateway`. */
	readonly resumes: string[] = [];
	private readonly faults: (RestFault & { left: number })[] = [];

	private readonly server = createServer((req, res) => void this.handle(req, res));
	private readonly wss = new WebSocketServer({ noServer: true });
	private readonly sockets = new Set<WebSocket>();
	private readonly interactions = new Map<string, InteractionRecord>();
	private readonly messages = new Map<string, Json>();
	private readonly files = new Map<string, { contentType: string; data: Buffer }>();
	private readonly commandIds = new Map<string, string>();
	/** Text channels of the guild besides the interaction channel: name and how they refuse the bot, if they do. */
	private readonly channels = new Map<string, { name: string; denial?: ChannelDenial | undefined }>();
	private readonly posts = new Map<string, ChannelPost[]>();
	/** Roles of the guild besides @everyone (whose id is the guild's), for role options and the role routes. */
	private readonly roles = new Map<string, FakeRole>();
	/** The guild's members (besides the bot) and their role ids, for the member routes. */
	private readonly members = new Map<string, string[]>();
	/** The bot's own role (managed), created with the first use of the member or role routes. */
	private botRole: string | undefined;
	/** GET /guilds/{guild}/members answers 403 Missing Access (no Server Members Intent). */
	private memberListDenied = false;
	private roleLimit: (RoleRateLimit & { windowStart: number; used: number }) | undefined;
	/** Role changes Discord applied (PUT / DELETE of a member's role that succeeded), in order. */
	readonly roleChanges: { readonly method: 'PUT' | 'DELETE'; readonly user: string; readonly role: string }[] = [];
	/** 429s the member role routes' rate limit answered (limitRoleChanges). */
	roleRateLimited = 0;
	private counter = 0n;
	private seq = 0;
	/** The gateway sessions by id: each identified shard's, with its current connection. */
	private readonly sessions = new Map<string, GatewaySession>();
	private port = 0;

	constructor(private readonly options: FakeDiscordOptions = {}) {
		this.token = options.token ?? 'MTIzNDU2Nzg5MDEyMzQ1Njc4.fake00.pitwall-test-token';
		this.appId = options.appId ?? '123456789012345678';
		this.guildId = options.guildId ?? '223456789012345678';
		this.channelId = this.snowflake();
		this.botUserId = this.appId;
		this.server.on('upgrade', (req, socket, head) => {
			if (!req.url?.startsWith('/gateway')) return void socket.destroy();
			this.wss.handleUpgrade(req, socket, head, (ws) => this.gateway(ws));
		});
	}

	async listen(): Promise<this> {
		this.server.listen(0, '127.0.0.1');
		await once(this.server, 'listening');
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	get origin(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** What to pass as discord.js `rest.api` (and DISCORD_API_URL). */
	get apiUrl(): string {
		return `${this.origin}/api`;
	}

	async close(): Promise<void> {
		for (const ws of this.sockets) ws.terminate();
		this.wss.close();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	snowflake(): string {
		this.counter += 1n;
		return (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (this.counter & 0xfffn)).toString();
	}

	// ---- channels --------------------------------------------------------------------------------------------------

	/** A new text channel in the guild (known to REST, and resolvable as a command's channel option). */
	addChannel(name = 'rankings'): string {
		const id = this.snowflake();
		this.channels.set(id, { name });
		return id;
	}

	/** Makes the channel refuse the bot with a 403. */
	denyChannel(id: string, denial: ChannelDenial = 'missing-permissions'): void {
		const channel = this.channels.get(id);
		if (!channel) throw new Error(`fake-discord: no channel ${id}`);
		channel.denial = denial;
	}

	/** Lets the bot use the channel again. */
	allowChannel(id: string): void {
		const channel = this.channels.get(id);
		if (channel) channel.denial = undefined;
	}

	/** The messages the bot posted in a channel, oldest first. */
	postedIn(channelId: string): readonly ChannelPost[] {
		return this.posts.get(channelId) ?? [];
	}

	private channelInfo(id: string): { name: string; denial?: ChannelDenial | undefined } | undefined {
		return id === this.channelId ? { name: 'race-results' } : this.channels.get(id);
	}

	// ---- roles -----------------------------------------------------------------------------------------------------

	/**
	 * A new role in the guild (resolvable as a command's role option); `managed`: a bot's or integration's role.
	 * `position` (default: the next one up, below the bot's role at 1000) and `permissions` (default none).
	 */
	addRole(
		name: string,
		{
			managed = false,
			position,
			permissions = 0n,
		}: { managed?: boolean; position?: number; permissions?: bigint } = {},
	): string {
		const id = this.snowflake();
		this.roles.set(id, { name, managed, position: position ?? this.roles.size + 1, permissions });
		return id;
	}

	/** Moves a role (e.g. above the bot's role, at 1000). */
	moveRole(id: string, position: number): void {
		const role = this.roles.get(id);
		if (!role) throw new Error(`fake-discord: no role ${id}`);
		role.position = position;
	}

	/** The bot's own role: managed, named `pitwall`, at position 1000, with Manage Roles unless taken away. */
	get botRoleId(): string {
		this.botRole ??= this.addRole('pitwall', { managed: true, position: 1000, permissions: MANAGE_ROLES });
		return this.botRole;
	}

	/** Sets the permissions of the bot's role (e.g. without Manage Roles). */
	setBotPermissions(permissions: bigint): void {
		(this.roles.get(this.botRoleId) as FakeRole).permissions = permissions;
	}

	private roleInfo(id: string): FakeRole | undefined {
		return id === this.guildId
			? { name: '@everyone', managed: false, position: 0, permissions: MEMBER_PERMISSIONS }
			: this.roles.get(id);
	}

	// ---- members ---------------------------------------------------------------------------------------------------

	/** A member of the guild with these role ids (replaces the member's roles if already there). */
	addMember(userId: string, roles: readonly string[] = []): void {
		this.members.set(userId, [...roles]);
	}

	/** The member leaves the server: the member routes answer 404 Unknown Member for them. */
	removeMember(userId: string): void {
		this.members.delete(userId);
	}

	/** A member's role ids (undefined: not a member). */
	memberRoles(userId: string): readonly string[] | undefined {
		return this.members.get(userId);
	}

	/** GET /guilds/{guild}/members answers 403 Missing Access, as without the Server Members Intent. */
	denyMemberList(denied = true): void {
		this.memberListDenied = denied;
	}

	/**
	 * Rate-limits PUT / DELETE of members' roles as Discord does: each answer carries X-RateLimit-Limit, -Remaining,
	 * -Reset-After and -Bucket, and a request beyond `limit` in the window gets a 429 with retry_after (counted in
	 * roleRateLimited). Undefined turns it off.
	 */
	limitRoleChanges(limit: RoleRateLimit | undefined): void {
		this.roleLimit = limit && { ...limit, windowStart: Date.now(), used: 0 };
	}

	// ---- interactions ------------------------------------------------------------------------------------------

	/** Dispatches a chat-input command as the given member; options are raw (`{ name, type, value }`). */
	sendSlashCommand(name: string, options: readonly RawOption[] = [], actor: Actor = {}): InteractionHandle {
		return this.dispatchInteraction(2, this.commandData(name, options), actor);
	}

	/** Dispatches an autocomplete request; mark the option being typed with `focused: true`. */
	sendAutocomplete(name: string, options: readonly RawOption[], actor: Actor = {}): InteractionHandle {
		return this.dispatchInteraction(4, this.commandData(name, options), actor);
	}

	/** Dispatches a button click on `messageId` (a message this fake returned) or on a fresh bot message. */
	clickButton(customId: string, actor: Actor = {}, messageId?: string): InteractionHandle {
		const message = (messageId && this.messages.get(messageId)) || this.message({ content: '' });
		return this.dispatchInteraction(3, { custom_id: customId, component_type: 2 }, actor, { message });
	}

	/**
	 * Dispatches the submission of a form (modal) the bot opened with `customId`: each field as Discord sends it, a
	 * label (type 18) around a text input (type 4) with its custom_id and value.
	 */
	submitModal(customId: string, fields: Readonly<Record<string, string>>, actor: Actor = {}): InteractionHandle {
		const components = Object.entries(fields).map(([id, value], i) => ({
			type: 18,
			id: 2 * i + 1,
			component: { type: 4, id: 2 * i + 2, custom_id: id, value },
		}));
		return this.dispatchInteraction(5, { custom_id: customId, components }, actor);
	}

	/** Serves `data` like Discord's CDN; returns the attachment object for a command's resolved data. */
	addAttachment(filename: string, data: Buffer | string, contentType = 'text/plain'): Json {
		const id = this.snowflake();
		const bytes = Buffer.from(data);
		this.files.set(`${id}/${filename}`, { contentType, data: bytes });
		const url = `${this.origin}/attachments/${id}/${filename}`;
		return { id, filename, size: bytes.length, url, proxy_url: url, content_type: contentType };
	}

	private commandData(name: string, options: readonly RawOption[]): Json {
		const attachments: Record<string, Json> = {};
		const channels: Record<string, Json> = {};
		const roles: Record<string, Json> = {};
		const users: Record<string, Json> = {};
		// Attachment options may sit inside a subcommand (or group): look at every level.
		const flatten = (list: readonly RawOption[]): RawOption[] => list.flatMap((o) => [o, ...flatten(o.options ?? [])]);
		for (const option of flatten(options)) {
			const channel = option.type === CHANNEL_OPTION ? this.channelInfo(String(option.value)) : undefined;
			if (channel) {
				const id = String(option.value);
				channels[id] = {
					...channelPayload(id, this.guildId, channel.name),
					permissions: MEMBER_PERMISSIONS.toString(),
				};
			}
			const role = option.type === ROLE_OPTION ? this.roleInfo(String(option.value)) : undefined;
			if (role)
				roles[String(option.value)] = rolePayload(
					String(option.value),
					role.name,
					role.managed,
					undefined,
					role.permissions,
				);
			if (option.type === USER_OPTION) users[String(option.value)] = userPayload(String(option.value));
			if (option.type !== ATTACHMENT_OPTION) continue;
			const [id, filename] =
				[...this.files.keys()].find((key) => key.startsWith(`${String(option.value)}/`))?.split('/') ?? [];
			if (id && filename) attachments[id] = this.attachmentObject(id, filename);
		}
		const id = this.commandIds.get(name) ?? this.snowflake();
		return {
			id,
			name,
			type: 1,
			guild_id: this.guildId,
			options,
			...(Object.keys(attachments).length ||
			Object.keys(channels).length ||
			Object.keys(roles).length ||
			Object.keys(users).length
				? {
						resolved: {
							...(Object.keys(attachments).length ? { attachments } : {}),
							...(Object.keys(channels).length ? { channels } : {}),
							...(Object.keys(roles).length ? { roles } : {}),
							...(Object.keys(users).length ? { users } : {}),
						},
					}
				: {}),
		};
	}

	private attachmentObject(id: string, filename: string): Json {
		const file = this.files.get(`${id}/${filename}`);
		const url = `${this.origin}/attachments/${id}/${filename}`;
		return { id, filename, size: file?.data.length ?? 0, url, proxy_url: url, content_type: file?.contentType };
	}

	private dispatchInteraction(type: number, data: Json, actor: Actor, extra: Json = {}): InteractionHandle {
		const id = this.snowflake();
		const token = `itoken-${id}`;
		const userId = actor.userId ?? '323456789012345678';
		const user = {
			id: userId,
			username: actor.username ?? 'driver',
			discriminator: '0',
			global_name: null,
			avatar: null,
		};
		const common = {
			id,
			application_id: this.appId,
			type,
			token,
			version: 1,
			app_permissions: MEMBER_PERMISSIONS.toString(),
			locale: 'en-US',
			entitlements: [],
			authorizing_integration_owners: { '0': this.guildId },
		};
		const member = {
			user,
			roles: actor.roles ?? [],
			permissions: (actor.permissions ?? MEMBER_PERMISSIONS).toString(),
			joined_at: new Date().toISOString(),
			deaf: false,
			mute: false,
			flags: 0,
			pending: false,
			nick: null,
			avatar: null,
			premium_since: null,
			communication_disabled_until: null,
		};
		// From a DM with the bot, as Discord sends it: the user, no member or guild, the DM channel, context 1 (BOT_DM).
		const dmData = Object.fromEntries(Object.entries(data).filter(([key]) => key !== 'guild_id'));
		const payload: Json =
			actor.dm === true
				? {
						...common,
						data: dmData,
						channel_id: DM_CHANNEL_ID,
						channel: { id: DM_CHANNEL_ID, type: 1, last_message_id: null, flags: 0, recipients: [user] },
						user,
						context: 1,
						...extra,
					}
				: {
						...common,
						data,
						guild_id: this.guildId,
						channel_id: actor.channelId ?? this.channelId,
						channel: channelPayload(
							actor.channelId ?? this.channelId,
							this.guildId,
							this.channelInfo(actor.channelId ?? this.channelId)?.name,
						),
						member,
						guild_locale: 'en-US',
						context: 0,
						...extra,
					};
		const record = new InteractionRecord(id, token, payload, actor.expired ?? false);
		this.interactions.set(token, record);
		this.dispatch('INTERACTION_CREATE', payload);
		return record;
	}

	// ---- faults ----------------------------------------------------------------------------------------------------

	/**
	 * The next `times` (default 1) REST requests matching `method` and `path` get `status` instead of an answer: 429
	 * with `retry_after` (seconds, as Discord sends it in the body and the Retry-After header), a 400 (50035), or a 5xx.
	 */
	failRest(fault: RestFault): void {
		this.faults.push({ ...fault, left: fault.times ?? 1 });
	}

	/** Drops every REST fault not yet used up. */
	clearFaults(): void {
		this.faults.length = 0;
	}

	/** Closes every gateway connection with `code` (4000: unknown error, which a client resumes after). */
	dropGateway(code = 4000): void {
		for (const ws of this.sockets) ws.close(code, 'fake-discord: dropped');
	}

	private takeFault(request: RecordedRequest): (RestFault & { left: number }) | undefined {
		const fault = this.faults.find((f) => f.left > 0 && f.method === request.method && f.path.test(request.path));
		if (fault !== undefined) fault.left--;
		return fault;
	}

	private answerFault(res: ServerResponse, fault: RestFault): void {
		if (fault.status === 400) return refuseForm(res, 'fake-discord fault');
		if (fault.status !== 429)
			return reply(res, fault.status, { message: `${fault.status}: fake-discord fault`, code: 0 });
		const seconds = fault.retryAfter ?? 0.2;
		res.writeHead(429, {
			'content-type': 'application/json',
			'retry-after': String(Math.ceil(seconds)),
			'x-ratelimit-scope': 'user',
		});
		res.end(JSON.stringify({ message: 'You are being rate limited.', retry_after: seconds, global: false }));
	}

	// ---- gateway ----------------------------------------------------------------------------------------------------

	private gateway(ws: WebSocket): void {
		this.sockets.add(ws);
		ws.on('close', () => {
			this.sockets.delete(ws);
			for (const session of this.sessions.values()) if (session.ws === ws) session.ws = undefined;
		});
		this.send(ws, { op: 10, d: { heartbeat_interval: this.options.heartbeatMs ?? 500 } });
		ws.on('message', (raw: Buffer) => {
			const packet = JSON.parse(raw.toString()) as { op: number; d: unknown };
			if (packet.op === 1) this.send(ws, { op: 11 });
			if (packet.op === 2) this.identify(ws, packet.d as { token: string; shard?: [number, number] });
			if (packet.op === 6) this.resume(ws, packet.d as { token: string; session_id: string; seq: number | null });
		});
	}

	/**
	 * A RESUME (op 6) after a dropped connection. As Discord does, the session continues on the new connection where
	 * the client left it: the events sent after the sequence number it last saw (`seq`), which the dying connection
	 * may never have delivered, are sent again in order, then RESUMED.
	 */
	private resume(ws: WebSocket, resume: { token: string; session_id: string; seq: number | null }): void {
		if (resume.token !== this.token) return void ws.close(4004, 'Authentication failed.');
		const session = this.sessions.get(resume.session_id);
		if (session === undefined) return this.send(ws, { op: 9, d: false }); // Invalid Session: identify again
		this.resumes.push(resume.session_id);
		session.ws = ws;
		const seen = resume.seq ?? 0;
		for (const packet of session.sent) if (packet.s > seen) this.send(ws, packet);
		this.sendDispatch(session, 'RESUMED', {});
	}

	private identify(ws: WebSocket, identify: { token: string; shard?: [number, number] }): void {
		this.identified.push(identify.token);
		if (identify.token !== this.token) return void ws.close(4004, 'Authentication failed.');
		const shard = identify.shard ?? [0, 1];
		this.shards.push(shard);
		const id = `session-${this.snowflake()}`;
		const session: GatewaySession = { shard, ws, sent: [] };
		this.sessions.set(id, session);
		// As Discord: a shard is told of the guilds it serves only ((guild_id >> 22) % shard_count = its id), so a
		// process of another shard knows nothing of the guild (no cache of it or its channels).
		const ours = Number((BigInt(this.guildId) >> 22n) % BigInt(shard[1])) === shard[0];
		this.sendDispatch(session, 'READY', {
			v: 10,
			user: { id: this.botUserId, username: 'pitwall', discriminator: '0', global_name: null, avatar: null, bot: true },
			guilds: ours ? [{ id: this.guildId, unavailable: true }] : [],
			session_id: id,
			resume_gateway_url: `ws://127.0.0.1:${this.port}/gateway`,
			shard,
			application: { id: this.appId, flags: 0 },
		});
		if (ours) {
			this.sendDispatch(
				session,
				'GUILD_CREATE',
				guildPayload(this.guildId, channelPayload(this.channelId, this.guildId)),
			);
		}
	}

	private dispatch(event: string, data: Json): void {
		// As Discord: a guild's events go to shard (guild_id >> 22) % shard_count only.
		const guild = typeof data['guild_id'] === 'string' ? BigInt(data['guild_id']) : undefined;
		const targets = [...this.sessions.values()].filter(({ shard: [id, count] }) => {
			return guild === undefined || Number((guild >> 22n) % BigInt(count)) === id;
		});
		if (targets.length === 0) throw new Error(`no gateway session to send ${event} to`);
		for (const session of targets) this.sendDispatch(session, event, data);
	}

	/** Sends an event on the session's connection; kept, so that a RESUME after a lost connection sends it again. */
	private sendDispatch(session: GatewaySession, event: string, data: Json): void {
		const packet = { op: 0, t: event, s: ++this.seq, d: data };
		session.sent.push(packet);
		if (session.sent.length > SESSION_REPLAY_EVENTS) session.sent.shift();
		if (session.ws !== undefined) this.send(session.ws, packet);
	}

	private send(ws: WebSocket, packet: Json): void {
		ws.send(JSON.stringify(packet));
	}

	// ---- REST ------------------------------------------------------------------------------------------------------

	private message(data: Json, id = this.snowflake(), files: readonly UploadedFile[] = []): Json {
		const message: Json = {
			id,
			channel_id: this.channelId,
			guild_id: this.guildId,
			author: {
				id: this.botUserId,
				username: 'pitwall',
				discriminator: '0',
				global_name: null,
				avatar: null,
				bot: true,
			},
			content: '',
			timestamp: new Date().toISOString(),
			edited_timestamp: null,
			tts: false,
			mention_everyone: false,
			mentions: [],
			mention_roles: [],
			embeds: [],
			components: [],
			pinned: false,
			type: 0,
			flags: 0,
			webhook_id: this.appId,
			application_id: this.appId,
			...this.messages.get(id),
			...pickMessageFields(data),
		};
		if (files.length) {
			message['attachments'] = files.map((file) => {
				const attachment = this.addAttachment(file.filename, file.data, file.contentType);
				return attachment;
			});
		} else if (!message['attachments']) {
			message['attachments'] = [];
		}
		this.messages.set(id, message);
		return message;
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', this.origin);
		const file = /^\/attachments\/(\d+\/[^/]+)$/.exec(url.pathname);
		if (req.method === 'GET' && file?.[1]) {
			const found = this.files.get(decodeURIComponent(file[1]));
			if (!found) return reply(res, 404, { message: 'Unknown attachment', code: 0 });
			res.writeHead(200, { 'content-type': found.contentType }).end(found.data);
			return;
		}
		if (!url.pathname.startsWith('/api/v10/')) return reply(res, 404, { message: '404: Not Found', code: 0 });
		const path = decodeURIComponent(url.pathname.slice('/api/v10'.length));
		const { body, files } = await readBody(req);
		const request: RecordedRequest = {
			method: req.method ?? 'GET',
			path,
			query: url.searchParams,
			headers: req.headers,
			body,
			files,
		};
		this.requests.push(request);
		const fault = this.takeFault(request);
		if (fault !== undefined) return this.answerFault(res, fault);
		try {
			this.route(request, res);
		} catch (error) {
			reply(res, 500, { message: String(error), code: 0 });
		}
	}

	private route(request: RecordedRequest, res: ServerResponse): void {
		const { method, path } = request;
		const authorized = request.headers.authorization === `Bot ${this.token}`;
		const body = (request.body ?? {}) as Json;
		let match: RegExpExecArray | null;

		if (method === 'GET' && path === '/gateway/bot') {
			if (!authorized) return reply(res, 401, { message: '401: Unauthorized', code: 0 });
			return reply(res, 200, {
				url: `ws://127.0.0.1:${this.port}/gateway`,
				shards: 1,
				session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
			});
		}
		if (method === 'PUT' && (match = /^\/applications\/(\d+)\/(?:guilds\/\d+\/)?commands$/.exec(path))) {
			if (!authorized) return reply(res, 401, { message: '401: Unauthorized', code: 0 });
			const commands = (request.body as Json[]).map((command): Json & { id: string } => ({
				...command,
				id: this.commandIds.get(String(command['name'])) ?? this.snowflake(),
				application_id: match?.[1],
				version: this.snowflake(),
			}));
			for (const command of commands) this.commandIds.set(String(command['name']), command.id);
			this.commandRegistrations.push({ path, body: request.body as Json[] });
			return reply(res, 200, commands);
		}
		if (method === 'POST' && (match = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path))) {
			const record = this.interactions.get(match[2] ?? '');
			if (!record || record.id !== match[1] || record.expired) {
				return reply(res, 404, { message: 'Unknown interaction', code: 10062 });
			}
			if (record.events.some((event) => event.kind === 'callback')) {
				return reply(res, 400, { message: 'Interaction has already been acknowledged.', code: 40060 });
			}
			const data = body['data'] as Json | undefined;
			const type = Number(body['type']);
			const problem = messageProblem(data);
			if (problem !== undefined) return refuseForm(res, problem);
			record.push({ kind: 'callback', type, data, files: request.files });
			// 4 = message, 5 = deferred message, 7 = update message: each leaves an @original to edit later.
			const original =
				type === 4 || type === 5 ? this.message({ ...data, flags: data?.['flags'] ?? 0 }, record.id) : undefined;
			if (request.query.get('with_response') !== 'true') return reply(res, 204);
			return reply(res, 200, {
				interaction: { id: record.id, type: record.payload['type'], response_message_id: original?.['id'] ?? null },
				resource: { type, ...(original ? { message: original } : {}) },
			});
		}
		if ((match = /^\/webhooks\/(\d+)\/([^/]+)\/messages\/([^/]+)$/.exec(path))) {
			const record = this.interactions.get(match[2] ?? '');
			if (!record) return reply(res, 404, { message: 'Unknown Webhook', code: 10015 });
			const messageId = match[3] === '@original' ? record.id : (match[3] ?? '');
			if (method === 'PATCH') {
				const problem = messageProblem(body);
				if (problem !== undefined) return refuseForm(res, problem);
				record.push({ kind: 'edit', messageId: match[3] ?? '', data: body, files: request.files });
				return reply(res, 200, this.message(body, messageId, request.files));
			}
			if (method === 'GET') return reply(res, 200, this.message({}, messageId));
			if (method === 'DELETE') {
				record.push({ kind: 'delete', messageId: match[3] ?? '' });
				this.messages.delete(messageId);
				return reply(res, 204);
			}
		}
		if ((match = /^\/guilds\/(\d+)\/(roles|members)(?:\/(\d+)(?:\/roles\/(\d+))?)?$/.exec(path))) {
			if (!authorized) return reply(res, 401, { message: '401: Unauthorized', code: 0 });
			if (match[1] !== this.guildId) return reply(res, 404, { message: 'Unknown Guild', code: 10004 });
			return this.guildRoute(request, res, match[2] === 'roles', match[3], match[4]);
		}
		if ((match = /^\/channels\/(\d+)(\/messages)?$/.exec(path))) {
			return this.channelRoute(request, res, match[1] ?? '', match[2] !== undefined);
		}
		if (method === 'POST' && (match = /^\/webhooks\/(\d+)\/([^/]+)$/.exec(path))) {
			const record = this.interactions.get(match[2] ?? '');
			if (!record) return reply(res, 404, { message: 'Unknown Webhook', code: 10015 });
			const problem = messageProblem(body);
			if (problem !== undefined) return refuseForm(res, problem);
			record.push({ kind: 'followup', data: body, files: request.files });
			return reply(res, 200, this.message(body, undefined, request.files));
		}
		reply(res, 404, { message: `fake-discord: no route for ${method} ${path}`, code: 0 });
	}

	/**
	 * `GET /guilds/{g}/roles`, `GET /guilds/{g}/members` (`limit`, `after`), `GET /guilds/{g}/members/{user}` (the bot
	 * too), `PUT` / `DELETE /guilds/{g}/members/{user}/roles/{role}`, answering as Discord: 404 Unknown Member (10007) or
	 * Unknown Role (10011), 403 Missing Permissions (50013) without Manage Roles or for a role not below the bot's
	 * highest, 403 Missing Access (50001) for the member list without the intent.
	 */
	private guildRoute(
		request: RecordedRequest,
		res: ServerResponse,
		roles: boolean,
		user: string | undefined,
		role: string | undefined,
	): void {
		const { method } = request;
		const botRole = this.botRoleId;
		if (roles && user === undefined && method === 'GET') {
			const all = [this.guildId, ...this.roles.keys()].map((id) => {
				const info = this.roleInfo(id) as FakeRole;
				return rolePayload(id, info.name, info.managed, info.position, info.permissions);
			});
			return reply(res, 200, all);
		}
		const rolesOf = (id: string) => (id === this.botUserId ? [botRole] : this.members.get(id));
		if (!roles && user === undefined && method === 'GET') {
			if (this.memberListDenied) return reply(res, 403, { message: 'Missing Access', code: 50001 });
			const limit = Math.min(1000, Number(request.query.get('limit') ?? 1));
			const after = BigInt(request.query.get('after') ?? '0');
			const ids = [this.botUserId, ...this.members.keys()]
				.filter((id) => BigInt(id) > after)
				.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
				.slice(0, limit);
			return reply(
				res,
				200,
				ids.map((id) => memberPayload(id, rolesOf(id) ?? [], id === this.botUserId)),
			);
		}
		if (user !== undefined && role === undefined && method === 'GET') {
			const held = rolesOf(user);
			if (held === undefined) return reply(res, 404, { message: 'Unknown Member', code: 10007 });
			return reply(res, 200, memberPayload(user, held, user === this.botUserId));
		}
		if (user !== undefined && role !== undefined && (method === 'PUT' || method === 'DELETE')) {
			if (!this.takeRoleLimit(res)) return;
			const held = this.members.get(user);
			if (held === undefined) return reply(res, 404, { message: 'Unknown Member', code: 10007 });
			const target = this.roles.get(role);
			if (target === undefined) return reply(res, 404, { message: 'Unknown Role', code: 10011 });
			const bot = this.roles.get(botRole) as FakeRole;
			if ((bot.permissions & (MANAGE_ROLES | (1n << 3n))) === 0n || target.position >= bot.position) {
				return reply(res, 403, { message: 'Missing Permissions', code: 50013 });
			}
			if (method === 'PUT' && !held.includes(role)) held.push(role);
			if (method === 'DELETE' && held.includes(role)) held.splice(held.indexOf(role), 1);
			this.roleChanges.push({ method, user, role });
			return reply(res, 204);
		}
		reply(res, 405, { message: '405: Method Not Allowed', code: 0 });
	}

	/** The member role routes' rate limit: sets its headers, or answers 429 and returns false. */
	private takeRoleLimit(res: ServerResponse): boolean {
		const limit = this.roleLimit;
		if (limit === undefined) return true;
		const now = Date.now();
		if (now - limit.windowStart >= limit.windowMs) {
			limit.windowStart = now;
			limit.used = 0;
		}
		const resetAfter = (limit.windowStart + limit.windowMs - now) / 1000;
		const headers = {
			'x-ratelimit-limit': String(limit.limit),
			'x-ratelimit-reset-after': resetAfter.toFixed(3),
			'x-ratelimit-bucket': 'fake-member-roles',
		};
		if (limit.used >= limit.limit) {
			this.roleRateLimited += 1;
			res.writeHead(429, {
				...headers,
				'content-type': 'application/json',
				'x-ratelimit-remaining': '0',
				'retry-after': String(Math.ceil(resetAfter)),
				'x-ratelimit-scope': 'user',
			});
			res.end(JSON.stringify({ message: 'You are being rate limited.', retry_after: resetAfter, global: false }));
			return false;
		}
		limit.used += 1;
		for (const [name, value] of Object.entries({
			...headers,
			'x-ratelimit-remaining': String(limit.limit - limit.used),
		})) {
			res.setHeader(name, value);
		}
		return true;
	}

	/** `GET /channels/{id}`, `POST /channels/{id}/messages` (JSON or multipart), `GET /channels/{id}/messages`. */
	private channelRoute(request: RecordedRequest, res: ServerResponse, id: string, messages: boolean): void {
		if (request.headers.authorization !== `Bot ${this.token}`) {
			return reply(res, 401, { message: '401: Unauthorized', code: 0 });
		}
		const channel = this.channelInfo(id);
		if (!channel) return reply(res, 404, { message: 'Unknown Channel', code: 10003 });
		if (channel.denial === 'missing-access') return reply(res, 403, { message: 'Missing Access', code: 50001 });
		const list = this.posts.get(id) ?? [];
		if (request.method === 'GET' && !messages) return reply(res, 200, channelPayload(id, this.guildId, channel.name));
		if (request.method === 'GET' && messages) {
			const limit = Number(request.query.get('limit') ?? 50);
			return reply(
				res,
				200,
				list
					.map((post) => post.message)
					.reverse()
					.slice(0, limit),
			);
		}
		if (request.method === 'POST' && messages) {
			if (channel.denial === 'missing-permissions') {
				return reply(res, 403, { message: 'Missing Permissions', code: 50013 });
			}
			const body = (request.body ?? {}) as Json;
			// enforce_nonce: Discord answers with the earlier message of the same nonce instead of posting again.
			const earlier = list.find((post) => body['enforce_nonce'] === true && post.body['nonce'] === body['nonce']);
			if (earlier) return reply(res, 200, earlier.message);
			const problem = messageProblem(body);
			if (problem !== undefined) return refuseForm(res, problem);
			const message = this.message(body, undefined, request.files);
			message['channel_id'] = id;
			message['nonce'] = body['nonce'] ?? null;
			delete message['webhook_id'];
			this.posts.set(id, [...list, { body, files: request.files, message }]);
			return reply(res, 200, message);
		}
		reply(res, 405, { message: '405: Method Not Allowed', code: 0 });
	}
}

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
	return new FakeDiscord(options).listen();
}
