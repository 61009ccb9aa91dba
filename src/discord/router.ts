/**
 * The interaction router (STYLE.md 4, 19): finds the handler in the registry and applies the cross-cutting policy
 * from its metadata — organizer check, defer before work, error replies — so commands only do their own job.
 * The returned function never rejects: every failure is answered (when possible) and logged.
 */
import { clip } from '../formats/clip-text.js';
import {
	MessageFlags,
	PermissionFlagsBits,
	type AutocompleteInteraction,
	type ButtonInteraction,
	type ChatInputCommandInteraction,
	type Interaction,
	type ModalSubmitInteraction,
	type RepliableInteraction,
} from 'discord.js';
import { publiclyDeferred } from './defer-when-slow.js';
import type { NoticeService } from '../services/posts/notices.js';
import { storeFailureMessage } from '../services/errors.js';
import { actorOf } from './actor.js';
import { parseCustomId, type ButtonHandler, type Command, type CommandContext } from './command.js';
import { answerFailureOf, isIgnoredDiscordError, UserFacingError, type AnswerFailure } from './errors.js';
import { CONTENT_MAX, deliverEphemeral, fallbackText, NO_MENTIONS } from './reply.js';
import { countingWrites, storedSoFar } from '../services/write-witness.js';

export interface RouterOptions {
	readonly commands: readonly Command[];
	readonly buttons?: readonly ButtonHandler[];
	readonly context: CommandContext;
	/** Notices for organizers (a monthly post that could not go out): shown after their next command, once. */
	readonly notices?: Pick<NoticeService, 'takeFor'> | undefined;
}

export type InteractionRouter = (interaction: Interaction) => Promise<void>;

function indexBy<T>(items: readonly T[], key: (item: T) => string, what: string): ReadonlyMap<string, T> {
	const map = new Map<string, T>();
	for (const item of items) {
		if (map.has(key(item))) throw new Error(`duplicate ${what} "${key(item)}" in the registry`);
		map.set(key(item), item);
	}
	return map;
}

function assertOrganizer(interaction: RepliableInteraction): void {
	if (!interaction.inGuild()) {
		throw new UserFacingError('guild-only', 'This can only be used in a server.');
	}
	if (!interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) {
		throw new UserFacingError('not-organizer', 'Only league organizers (Manage Server permission) can do this.');
	}
}

export function createInteractionRouter(options: RouterOptions): InteractionRouter {
	const commands = indexBy(options.commands, (command) => command.data.name, 'command');
	const buttons = indexBy(options.buttons ?? [], (button) => button.prefix, 'button prefix');
	const modals = indexBy(
		options.commands.flatMap((command) => command.modals ?? []),
		(modal) => modal.prefix,
		'modal prefix',
	);
	const baseLog = options.context.log;

	/**
	 * Answers a failure: the user's message for a UserFacingError, a reference for anything else. Errors are
	 * ephemeral: after a public defer (a command that answers everyone, e.g. with a chart) the public "thinking…" is
	 * deleted and the error follows up for the user only. An answer Discord refused or failed gets a short fallback
	 * that says whether anything was stored (answerFallback).
	 */
	async function fail(
		interaction: RepliableInteraction,
		error: unknown,
		ctx: CommandContext,
		{ updating = false, publicDefer = false }: { updating?: boolean; publicDefer?: boolean } = {},
	) {
		if (isIgnoredDiscordError(error)) {
			ctx.log.debug({ err: error }, 'interaction expired before it was answered');
			return;
		}
		const failure = answerFailureOf(error);
		if (failure !== undefined) return answerFallback(interaction, failure, ctx, { updating, publicDefer });
		let content: string;
		if (error instanceof UserFacingError) {
			ctx.log.info({ code: error.code }, 'refused');
			content = clip(error.message, CONTENT_MAX);
		} else if (storeFailureMessage(error) !== undefined) {
			// The store failed (not a bug): the user is told so, and whether anything was stored.
			ctx.log.warn({ err: error }, 'the store failed');
			content = `${storeFailureMessage(error)!} (ref: ${interaction.id})`;
		} else {
			ctx.log.error({ err: error }, 'interaction failed');
			content = `Something went wrong (ref: ${interaction.id})`;
		}
		// A deferred update keeps the clicked message: the error goes apart, as a follow-up.
		const sent = await deliverEphemeral(interaction, content, { updating, publicDefer });
		if (sent.way === undefined && !isIgnoredDiscordError(sent.error)) {
			ctx.log.error({ err: sent.error }, 'could not send the error reply');
		}
	}

	/**
	 * Discord refused (400) or failed (5xx) the command's answer: rather than "thinking…" for ever, a short ephemeral
	 * text that says what Discord did and what the command did — stored (a write went through under this interaction,
	 * write-witness.ts) or nothing changed. Logged once, with Discord's code and the command (in the bindings), without
	 * the error itself: its message may quote Discord on what the user typed, and its request holds the token.
	 */
	async function answerFallback(
		interaction: RepliableInteraction,
		failure: AnswerFailure,
		ctx: CommandContext,
		{ updating, publicDefer }: { updating: boolean; publicDefer: boolean },
	): Promise<void> {
		const stored = storedSoFar();
		const sent = await deliverEphemeral(interaction, fallbackText(failure, stored), {
			updating,
			publicDefer,
			// A Confirm that stored: its preview and buttons are stale, the fallback takes their place.
			replaceClicked: updating && stored,
			answerShown: failure.request === 'followUp',
		});
		const fields = {
			discordCode: failure.code,
			status: failure.status,
			request: failure.request,
			stored,
			shown: sent.way ?? 'none',
		};
		if (sent.way !== undefined) ctx.log.warn(fields, 'the answer could not be shown');
		else
			ctx.log.error({ ...fields, fallbackError: answerFailureOf(sent.error)?.status }, 'the answer could not be shown');
	}

	/** Pending notices for this member (organizers only, decided by the service), each as an ephemeral follow-up. */
	async function deliverNotices(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
		if (!options.notices || !interaction.inGuild() || !(interaction.replied || interaction.deferred)) return;
		try {
			for (const content of await options.notices.takeFor(actorOf(interaction))) {
				await interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
				ctx.log.info({}, 'organizer notice shown');
			}
		} catch (error) {
			if (!isIgnoredDiscordError(error)) ctx.log.error({ err: error }, 'could not show the organizer notices');
		}
	}

	async function chatInput(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
		let publicDefer = false;
		try {
			const command = commands.get(interaction.commandName);
			if (!command) throw new UserFacingError('unknown-command', 'This command is not available any more.');
			if (command.organizerOnly) assertOrganizer(interaction);
			const sub = interaction.options.getSubcommand(false);
			const defer = (sub !== null && command.subcommandDefer?.[sub]) || command.defer;
			if (defer !== 'none') {
				await interaction.deferReply(defer === 'ephemeral' ? { flags: MessageFlags.Ephemeral } : {});
				publicDefer = defer === 'public';
			}
			await command.execute(interaction, ctx);
		} catch (error) {
			await fail(interaction, error, ctx, { publicDefer: publicDefer || publiclyDeferred.has(interaction) });
		}
		await deliverNotices(interaction, ctx);
	}

	async function button(interaction: ButtonInteraction, ctx: CommandContext): Promise<void> {
		const { prefix, args } = parseCustomId(interaction.customId);
		const handler = buttons.get(prefix);
		try {
			if (!handler) throw new UserFacingError('unknown-button', 'This button is no longer active.');
			if (handler.organizerOnly) assertOrganizer(interaction);
			if (handler.defer === 'update') await interaction.deferUpdate();
			if (handler.defer === 'ephemeral') await interaction.deferReply({ flags: MessageFlags.Ephemeral });
			await handler.execute(interaction, args, ctx);
		} catch (error) {
			await fail(interaction, error, ctx, { updating: handler?.defer === 'update' });
		}
	}

	async function modalSubmit(interaction: ModalSubmitInteraction, ctx: CommandContext): Promise<void> {
		const { prefix, args } = parseCustomId(interaction.customId);
		try {
			const handler = modals.get(prefix);
			if (!handler) throw new UserFacingError('unknown-form', 'This form is no longer active.');
			await interaction.deferReply({ flags: MessageFlags.Ephemeral });
			await handler.execute(interaction, args, ctx);
		} catch (error) {
			await fail(interaction, error, ctx);
		}
	}

	async function autocomplete(interaction: AutocompleteInteraction, ctx: CommandContext): Promise<void> {
		try {
			const command = commands.get(interaction.commandName);
			if (command?.autocomplete) await command.autocomplete(interaction, ctx);
			else await interaction.respond([]);
		} catch (error) {
			if (isIgnoredDiscordError(error)) return;
			ctx.log.error({ err: error }, 'autocomplete failed');
			if (!interaction.responded) await interaction.respond([]).catch(() => undefined);
		}
	}

	return async (interaction) => {
		const log = baseLog.child({
			interactionId: interaction.id,
			guildId: interaction.guildId,
			userId: interaction.user.id,
			...(interaction.isCommand() || interaction.isAutocomplete() ? { cmd: interaction.commandName } : {}),
			...(interaction.isMessageComponent() ? { customId: interaction.customId } : {}),
		});
		const ctx: CommandContext = { ...options.context, log };
		try {
			// Writes are counted per interaction: a fallback for a refused answer says whether anything was stored.
			await countingWrites(async () => {
				if (interaction.isChatInputCommand()) await chatInput(interaction, ctx);
				else if (interaction.isButton()) await button(interaction, ctx);
				else if (interaction.isModalSubmit()) await modalSubmit(interaction, ctx);
				else if (interaction.isAutocomplete()) await autocomplete(interaction, ctx);
				else log.debug({ type: interaction.type }, 'ignored interaction type');
			});
		} catch (error) {
			log.error({ err: error }, 'router failure');
		}
	};
}
