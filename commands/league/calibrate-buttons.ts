/**
 * The Confirm / Cancel buttons of a `/league calibrate` proposal (`calibrate:confirm:<id>`, `calibrate:cancel:<id>`),
 * as the race preview's (confirm-buttons.ts): the proposal's message is edited in place with what was done, and an
 * applied change is announced to everyone, since it moves every rating of the league.
 */
import { confirmCancelButtons } from '../confirm-buttons.js';
import { esc, minus } from '../shared.js';
import { changesText, parametersText } from './calibrate.js';

export const calibrateButtons = confirmCancelButtons({
	prefix: 'calibrate',
	cancelled: 'Cancelled: the league’s settings are unchanged.',
	cancel: ({ calibrate }, actor, id) => calibrate.cancel(actor, id),
	async confirm({ calibrate }, actor, id) {
		const { proposal, league, already } = await calibrate.confirm(actor, id);
		const name = esc(league.config.name);
		const r = proposal.result;
		const changed = `\`${proposal.system}\` ${changesText(proposal)}`;
		const likelihood = `winner log-likelihood ${minus(r.defaultLogLikelihood.toFixed(2))} → ${minus(r.bestLogLikelihood.toFixed(2))} on ${r.races} races`;
		if (already) return { stored: `Already applied to **${name}** (${changed}): nothing was stored twice.` };
		return {
			stored: [
				`Applied to **${name}**: ${changed} (${likelihood}).`,
				`Parameters now: \`${parametersText(proposal)}\`. Every \`${proposal.system}\` rating was replayed; /league config parameters:${proposal.system}.<name>=default undoes one.`,
			].join('\n'),
			announcement: {
				content: `**${name}**: calibrated \`${proposal.system}\` parameters applied (${changed}); ratings replayed.`,
			},
		};
	},
});
