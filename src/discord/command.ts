/**
 * What a slash command module default-exports (STYLE.md 1, 4): its JSON definition and its handlers, plus metadata
 * the router turns into policy (defer, organizer check), so handlers stay thin.
 *
 *   const data = { name: 'about', description: '…' } as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;
 *   export default { data, defer: 'none', async execute(interaction, ctx) { … } } satisfies Command;
 */
import type {
	AutocompleteInteraction,
	ButtonInteraction,
	ChatInputCommandInteraction,
	ModalSubmitInteraction,
	RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { ChartRenderer } from '../charts/chart-types.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';

/** How the router acknowledges before calling `execute`: a "thinking…" only the user sees, a public one, or none. */
export type DeferMode = 'ephemeral' | 'public' | 'none';

/** What the router hands every handler. Services join here as they arrive. */
export interface CommandContext {
	/** Bound to the interaction (interactionId, cmd, guildId, userId). */
	readonly log: Logger;
	/**
	 * The league services (src/services/). Optional only so that router and console tests with stub commands can
	 * run without a store; league commands read it through `servicesOf` (commands/shared.ts).
	 */
	readonly services?: Services | undefined;
	/** The one chart renderer of the process (src/charts); without it, replies carry no chart. */
	readonly charts?: ChartRenderer | undefined;
}

export interface Command {
	readonly data: RESTPostAPIChatInputApplicationCommandsJSONBody;
	/** Set to 'ephemeral' or 'public' when `execute` may take more than ~1 s (Discord allows 3 s to acknowledge). */
	readonly defer: DeferMode;
	/**
	 * Per subcommand, overrides `defer` (`/race void` replays every rating of a big league, while
	 * `/race submit` must open its form undeferred).
	 */
	readonly subcommandDefer?: Readonly<Record<string, DeferMode>>;
	/** Only members with Manage Server may run it; checked by the router before deferring. */
	readonly organizerOnly?: boolean;
	execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void>;
	/** Required when an option has `autocomplete: true`; must answer with `interaction.respond(choices)`. */
	autocomplete?(interaction: AutocompleteInteraction, ctx: CommandContext): Promise<void>;
	/** The forms (modals) this command opens, routed by the prefix of their customId like buttons. */
	readonly modals?: readonly ModalHandler[];
}

/**
 * A form's submission (`interaction.showModal` by a command): the router acknowledges it with an ephemeral defer
 * (what follows, such as a race preview, is for the submitter) and routes it by its customId's prefix.
 */
export interface ModalHandler {
	readonly prefix: string;
	execute(interaction: ModalSubmitInteraction, args: readonly string[], ctx: CommandContext): Promise<void>;
}

/** How the router acknowledges a button: 'update' keeps the message for an edit, 'ephemeral' starts a new answer. */
export type ButtonDeferMode = 'update' | 'ephemeral' | 'none';

/** Buttons are routed by the prefix of their customId: `<prefix>:<arg>:<arg>…` (see `customId`). */
export interface ButtonHandler {
	readonly prefix: string;
	readonly defer: ButtonDeferMode;
	readonly organizerOnly?: boolean;
	execute(interaction: ButtonInteraction, args: readonly string[], ctx: CommandContext): Promise<void>;
}

const CUSTOM_ID_MAX = 100;

/** Builds a customId the router can route: `customId('race', 'confirm', id)` → `race:confirm:<id>`. */
export function customId(prefix: string, ...args: readonly string[]): string {
	if ([prefix, ...args].some((part) => part.includes(':'))) throw new Error(`customId parts may not contain ":"`);
	const id = [prefix, ...args].join(':');
	if (id.length > CUSTOM_ID_MAX) throw new Error(`customId longer than ${CUSTOM_ID_MAX} characters: ${id}`);
	return id;
}

/** The inverse of `customId`: prefix and arguments. */
export function parseCustomId(id: string): { prefix: string; args: readonly string[] } {
	const [prefix = '', ...args] = id.split(':');
	return { prefix, args };
}
