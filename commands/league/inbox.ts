/**
 * `/league inbox` (organizers): the league's results inbox (docs/results-inbox.md). `token:new` makes a token (it
 * replaces the previous one) and shows it once, to the organizer only; `token:revoke` stops it; `auto-confirm:`
 * stores each file at once instead of previewing it. Without options: the inbox's state. Every answer is ephemeral.
 *
 * And the buttons of an inbox preview posted in the results channel (`inbox:confirm:<id>`, `inbox:cancel:<id>`):
 * organizers only, checked at the press; the preview is kept in the store, so any process answers them.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import type { ButtonHandler, CommandContext } from '../../src/discord/command.js';
import { UserFacingError } from '../../src/discord/errors.js';
import { answer, NO_MENTIONS } from '../../src/discord/reply.js';
import { INBOX_BUTTONS, type InboxSettingsView } from '../../src/services/inbox/inbox-service.js';
import { embedOf } from '../embed.js';
import { raceEmbed } from '../race/format.js';
import { actorOf, esc, servicesOf } from '../shared.js';
import { fileText } from './inbox-format.js';

/** `2026-03-01 20:14 UTC`. */
const utc = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** Where files go: `http://host:port/inbox`. */
const inboxUrl = (view: InboxSettingsView): string | undefined =>
	view.url === undefined ? undefined : `${view.url}/inbox`;

/** The inbox's state, as `/league inbox` shows it. */
export function inboxText(view: InboxSettingsView): string {
	const url = inboxUrl(view);
	const { token, channel } = view;
	return [
		`Results inbox of **${esc(view.league.config.name)}**`,
		token !== undefined
			? `Token: made by <@${token.by}> on ${utc(token.at)} (id \`${token.id}\`; the token itself is never shown again)`
			: 'Token: none. Make one with /league inbox token:new.',
		channel !== undefined
			? `Previews go to <#${channel}>${channel === view.league.config.resultsChannel || channel !== view.league.config.rankingChannel ? '' : ' (the ranking channel; set another with /league config results-channel:)'}.`
			: 'No results channel: set one with /league config results-channel:#channel.',
		view.autoConfirm
			? 'Auto-confirm: on. Each file is stored at once and announced in the channel.'
			: "Auto-confirm: off. Each file is previewed and waits for an organizer's Confirm.",
		url !== undefined
			? `Files go to ${url}`
			: "The bot's HTTP server is not running here (HTTP_PORT is not set): files can be sent once it is.",
	].join('\n');
}

/** The answer to `token:new`: the token once, and how to use it. */
function tokenText(view: InboxSettingsView, token: string, replaced: boolean): string {
	const url = inboxUrl(view) ?? 'http://<bot address>/inbox';
	const base = url.replace(/\/inbox$/, '');
	return [
		`New results inbox token for **${esc(view.league.config.name)}**${replaced ? ' (the previous token stopped working)' : ''}. ` +
			'Copy it now: it is not shown again.',
		'```',
		token,
		'```',
		'Send a result file:',
		'```',
		`curl --data-binary @results.json -H "Authorization: Bearer ${token}" "${url}?name=results.json"`,
		'```',
		'Or beside the sim server, every new file of its results folder:',
		'```',
		`pitwall watch <results folder> --url ${base} --token ${token}`,
		'```',
		inboxText(view).split('\n').slice(2).join('\n'),
	].join('\n');
}

export async function leagueInbox(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const { inbox } = servicesOf(ctx);
	const actor = actorOf(interaction);
	const o = interaction.options;
	const league = o.getString('league') ?? undefined;
	const token = o.getString('token');
	const autoConfirm = o.getBoolean('auto-confirm');
	const reply = (content: string) => answer(interaction, { content }, { ephemeral: true });
	let view = autoConfirm === null ? undefined : await inbox.setAutoConfirm(actor, league, autoConfirm);
	if (token === 'new') {
		const made = await inbox.newToken(actor, league);
		return reply(tokenText(made.view, made.token, made.replaced));
	}
	if (token === 'revoke') {
		const done = await inbox.revokeToken(actor, league);
		const head = done.revoked
			? 'Token revoked: files sent with it are refused (401) from now on.'
			: 'There was no token to revoke.';
		return reply(`${head}\n${inboxText(done.view)}`);
	}
	view ??= await inbox.settings(actor, league);
	return reply(inboxText(view));
}

/** The buttons of an inbox preview: Confirm stores the race (once, whoever presses first), Cancel sets it aside. */
export const inboxButtons: ButtonHandler = {
	prefix: INBOX_BUTTONS,
	defer: 'update',
	async execute(interaction, args, ctx) {
		const { inbox, races } = servicesOf(ctx);
		const [action, id = ''] = args;
		const actor = actorOf(interaction);
		if (action === 'cancel') {
			const done = await inbox.cancel(actor, id);
			await interaction.editReply({
				content: `Cancelled by <@${actor.userId}>: nothing was stored from ${fileText({ name: done.file })}.`,
				components: [],
				allowedMentions: NO_MENTIONS,
			});
			return;
		}
		if (action !== 'confirm') throw new UserFacingError('unknown-button', 'This button is no longer active.');
		const done = await inbox.confirm(actor, id);
		const league = esc(done.league.config.name);
		const shown = await races.show(actor, `${done.league.id}/${done.race}`);
		await interaction.editReply({
			content: done.already
				? `Already stored as **${done.race}** in **${league}**: nothing was stored twice.`
				: `Stored as **${done.race}** in **${league}**, confirmed by <@${actor.userId}> (${fileText({ name: done.file })}).`,
			embeds: [embedOf(raceEmbed(shown))],
			components: [],
			allowedMentions: NO_MENTIONS,
		});
	},
};
