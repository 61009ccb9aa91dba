/**
 * The Confirm / Cancel buttons of a `/league calibrate` proposal (`calibrate:confirm:<id>`, `calibrate:cancel:<id>`),
 * as the race preview's (commands/race/buttons.ts): the proposal's message is edited in place with what was done, and
 * an applied change is announced to everyone, since it moves every rating of the league.
 */
import type { ButtonHandler } from '../../src/discord/command.js';
import { UserFacingError } from '../../src/discord/errors.js';
import { NO_MENTIONS } from '../../src/discord/reply.js';
import { actorOf, clip, esc, minus, servicesOf } from '../shared.js';
import { changesText, parametersText } from './calibrate.js';

export const calibrateButtons: ButtonHandler = {
	prefix: 'calibrate',
	defer: 'update',
	async execute(interaction, args, ctx) {
		const { calibrate } = servicesOf(ctx);
		const [action, id = ''] = args;
		const actor = actorOf(interaction);
		if (action === 'cancel') {
			await calibrate.cancel(actor, id);
			const content = 'Cancelled: the league’s settings are unchanged.';
			await interaction.editReply({ content, components: [], allowedMentions: NO_MENTIONS });
			return;
		}
		if (action !== 'confirm') throw new UserFacingError('unknown-button', 'This button is no longer active.');
		const { proposal, league, already } = await calibrate.confirm(actor, id);
		const name = esc(league.config.name);
		const r = proposal.result;
		const changed = `\`${proposal.system}\` ${changesText(proposal)}`;
		const likelihood = `winner log-likelihood ${minus(r.defaultLogLikelihood.toFixed(2))} → ${minus(r.bestLogLikelihood.toFixed(2))} on ${r.races} races`;
		if (already) {
			const content = `Already applied to **${name}** (${changed}): nothing was stored twice.`;
			await interaction.editReply({ content: clip(content), components: [], allowedMentions: NO_MENTIONS });
			return;
		}
		const content = [
			`Applied to **${name}**: ${changed} (${likelihood}).`,
			`Parameters now: \`${parametersText(proposal)}\`. Every \`${proposal.system}\` rating was replayed; /league config parameters:${proposal.system}.<name>=default undoes one.`,
		].join('\n');
		await interaction.editReply({ content: clip(content), components: [], allowedMentions: NO_MENTIONS });
		await interaction.followUp({
			content: clip(
				`**${name}**: calibrated \`${proposal.system}\` parameters applied (${changed}); ratings replayed.`,
			),
			allowedMentions: NO_MENTIONS,
		});
	},
};
