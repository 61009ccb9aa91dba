/**
 * The discord.js client: Guilds intent only (slash commands need no message content), no mentions by default, the
 * REST/gateway base from config (tests point it at test/e2e/fake-discord.ts), and an 'error' listener (an unhandled
 * 'error' event would crash the process).
 */
import { Client, Events, GatewayIntentBits, Options } from 'discord.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { NoticeService } from '../services/posts/notices.js';
import type { ButtonHandler, Command, CommandContext } from './command.js';
import { NO_MENTIONS } from './reply.js';
import { createInteractionRouter } from './router.js';
import { createRoleSyncAdapter } from './role-sync-adapter.js';

/**
 * What discord.js keeps of what the gateway and interactions bring: nothing the bot never reads. It answers from the
 * interaction (user, member roles, channel id), posts through REST, and reads only the guilds (which it serves: role
 * sync, jobs), their roles (a member's roles are looked up there: actor.ts) and channels; those caches stay whole, as
 * discord.js requires. A server's emojis, stickers, threads, invites and every member seen are dropped instead of held
 * for the process's life (a long-running bot in many servers: tens of megabytes).
 */
const BOT_CACHES = {
	...Options.DefaultMakeCacheSettings,
	MessageManager: 0,
	ReactionManager: 0,
	ReactionUserManager: 0,
	PresenceManager: 0,
	VoiceStateManager: 0,
	StageInstanceManager: 0,
	ThreadManager: 0,
	ThreadMemberManager: 0,
	GuildEmojiManager: 0,
	BaseGuildEmojiManager: 0,
	GuildStickerManager: 0,
	GuildInviteManager: 0,
	GuildBanManager: 0,
	GuildScheduledEventManager: 0,
	AutoModerationRuleManager: 0,
	ApplicationCommandManager: 0,
	// Members and users come with every interaction; the bot's own stay (discord.js reads them: guild.members.me).
	GuildMemberManager: {
		maxSize: 100,
		keepOverLimit: (member: { id: string; client: Client }) => member.id === member.client.user?.id,
	},
	UserManager: {
		maxSize: 1_000,
		keepOverLimit: (user: { id: string; client: Client }) => user.id === user.client.user?.id,
	},
};

/** The sweep of cached users keeps the bot's own. */
const notTheBot = () => (user: { id: string; client: Client }) => user.id !== user.client.user?.id;

export function createClient(config: Pick<Config, 'DISCORD_API_URL'>, log: Logger): Client {
	const client = new Client({
		intents: [GatewayIntentBits.Guilds],
		rest: {
			api: config.DISCORD_API_URL,
			// Discord's global limit (50 requests/s) does not bind interaction endpoints (discord-api-docs #4416), but
			// @discordjs/rest counts every request but the first callback against it, so each deferred answer's edit
			// queued behind it: bench:load answered at most ~50 interactions/s with the bot half idle. The bot's own
			// authenticated calls are few (posts, guild fetches); a real global 429 is still waited out.
			globalRequestsPerSecond: 500,
		},
		allowedMentions: NO_MENTIONS,
		makeCache: Options.cacheWithLimits(BOT_CACHES),
		sweepers: { ...Options.DefaultSweeperSettings, users: { interval: 3_600, filter: notTheBot } },
	});
	client.on(Events.Error, (error) => log.error({ err: error }, 'discord client error'));
	client.on(Events.Warn, (message) => log.warn({ source: 'discord.js' }, message));
	// The gateway drops now and then; discord.js reconnects and resumes the session (no event lost). Logged so an
	// operator sees it; a close it cannot recover from (bad token, intents refused) is an error: the bot is offline.
	// discord.js emits ShardReconnecting for its own destroy() too (close code 1000 is not one it gives up on), so a
	// graceful stop would log a lost connection: destroy() marks the stop first.
	let stopping = false;
	const destroy = client.destroy.bind(client);
	client.destroy = () => {
		stopping = true;
		return destroy();
	};
	client.on(Events.ShardReconnecting, (shard) => {
		if (stopping) log.info({ shard }, 'gateway closed: the bot is stopping');
		else log.warn({ shard }, 'gateway connection lost: reconnecting');
	});
	client.on(Events.ShardResume, (shard, replayed) => log.info({ shard, replayed }, 'gateway session resumed'));
	client.on(Events.ShardDisconnect, (event, shard) =>
		log.error({ shard, code: event.code }, 'gateway closed for good: the bot is offline'),
	);
	client.once(Events.ClientReady, (ready) =>
		log.info({ user: ready.user.tag, guilds: ready.guilds.cache.size }, 'connected to Discord'),
	);
	return client;
}

export interface StartBotOptions {
	readonly config: Pick<Config, 'DISCORD_API_URL' | 'DISCORD_TOKEN'>;
	readonly context: CommandContext;
	readonly commands: readonly Command[];
	readonly buttons?: readonly ButtonHandler[];
	/** Organizer notices shown after a command (router.ts). */
	readonly notices?: Pick<NoticeService, 'takeFor'> | undefined;
}

/** Creates the client, routes interactions to the registry and logs in; resolves once the gateway accepted us. */
export async function startBot(options: StartBotOptions): Promise<Client> {
	const { config, context } = options;
	const client = createClient(config, context.log);
	const route = createInteractionRouter({
		commands: options.commands,
		buttons: options.buttons,
		context,
		notices: options.notices,
	});
	client.on(Events.InteractionCreate, (interaction) => void route(interaction));
	// Rank roles sync through this client once it knows its guilds (and finish the queues left by a restart).
	const roleSync = context.services?.roleSync;
	if (roleSync !== undefined) client.once(Events.ClientReady, () => roleSync.connect(createRoleSyncAdapter(client)));
	await client.login(config.DISCORD_TOKEN);
	return client;
}
