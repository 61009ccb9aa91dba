/**
 * `/player merge`: previewed, only to the organizer, and stored on Confirm (src/services/players/player-merge.ts). The preview
 * shows both players (races, last race, aliases, link) and what the merge does to today's ratings, and says that it
 * cannot be undone; Confirm announces the merge to everyone.
 */
import { EMBED_COLOURS, type EmbedSpec } from '../../src/formats/embed.js';
import { plural } from '../../src/formats/plural.js';
import type { MergePreview, MergeSide } from '../../src/services/players/player-merge.js';
import { confirmCancelButtons } from '../confirm-buttons.js';
import { effectField } from '../rating-effect-text.js';
import { esc } from '../shared.js';

/** `12 races, the last R40 (2026-03-01) · also "Ally" · linked to <@…>` (a mention: replies never ping). */
function sideLine(side: MergeSide): string {
	const last = side.lastRace && `, the last ${side.lastRace.id}${side.lastRace.date ? ` (${side.lastRace.date})` : ''}`;
	const parts = [`**${esc(side.name)}**: ${plural(side.races, 'race')}${last ?? ''}`];
	if (side.aliases.length > 0) parts.push(`also ${side.aliases.map((a) => `“${esc(a)}”`).join(', ')}`);
	if (side.user !== undefined) parts.push(`linked to <@${side.user}>`);
	return parts.join(' · ');
}

export function mergePreviewEmbed(preview: MergePreview): EmbedSpec {
	const { from, into } = preview;
	return {
		title: `Merge preview: ${esc(from.name)} into ${esc(into.name)}`,
		author: preview.league.config.name,
		colour: EMBED_COLOURS.warning,
		description: {
			lines: [
				`Merged away: ${sideLine(from)}`,
				`Kept: ${sideLine(into)}`,
				`${esc(into.name)} takes ${esc(from.name)}’s races and keeps “${esc(from.name)}” as an alias. ` +
					'**A merge cannot be undone.**',
			],
		},
		fields: [
			effectField(preview.league, preview.effect, {
				through: `through the races of ${esc(from.name)} and ${esc(into.name)}`,
				still: "Today's ratings do not change.",
				gone: `merged into ${esc(into.name)}`,
			}),
		],
		footer: 'Nothing changes until you press Confirm (within 15 minutes); then ratings are replayed.',
	};
}

/** The buttons of a merge preview: `player-merge:confirm:<id>`, `player-merge:cancel:<id>`. */
export const playerMergeButtons = confirmCancelButtons({
	prefix: 'player-merge',
	cancelled: 'Cancelled: nothing was merged.',
	cancel: ({ players }, actor, id) => players.cancelMerge(actor, id),
	async confirm({ players }, actor, id) {
		const done = await players.confirmMerge(actor, id);
		const what = `**${esc(done.from)}** into **${esc(done.into)}** in **${esc(done.league.config.name)}**`;
		if (done.already) return { stored: `Already merged: ${what}; nothing was merged twice.` };
		return {
			stored: `Merged ${what}; ratings were replayed.`,
			announcement: { content: `Merged ${what}; ratings were replayed.` },
		};
	},
});
