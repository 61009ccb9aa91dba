/** The Confirm / Cancel buttons of previews: a race submitted (`race:…`) and a race corrected (`race-edit:…`). */
import { confirmCancelButtons } from '../confirm-buttons.js';
import { esc } from '../shared.js';
import { raceEmbed, storedEmbed } from './format.js';

/** The answer to a second Confirm of one preview (issue 9 item 3). */
const alreadyStored = (what: string) => `${what}: nothing was stored twice.`;

/** The buttons of a race preview: `race:confirm:<preview id>`, `race:cancel:<preview id>`. */
export const raceButtons = confirmCancelButtons({
	prefix: 'race',
	cancelled: 'Cancelled: nothing was stored.',
	cancel: ({ races }, actor, id) => races.cancel(actor, id),
	async confirm({ races }, actor, id) {
		const done = await races.confirm(actor, id);
		const league = esc(done.league.config.name);
		if (done.already) return { stored: alreadyStored(`Already stored as **${done.race}** in **${league}**`) };
		const news = done.newPlayers.length > 0 ? `\nNew players: ${done.newPlayers.map(esc).join(', ')}.` : '';
		return {
			stored: `Stored as **${done.race}** in **${league}**.${news}`,
			announcement: {
				content: `New race in **${league}**: **${done.race}**.`,
				embed: storedEmbed(done.race, done.preview),
			},
		};
	},
});

/** The buttons of a correction preview: `race-edit:confirm:<id>`, `race-edit:cancel:<id>`. */
export const raceEditButtons = confirmCancelButtons({
	prefix: 'race-edit',
	cancelled: 'Cancelled: nothing was changed.',
	cancel: ({ races }, actor, id) => races.cancelEdit(actor, id),
	async confirm({ races }, actor, id) {
		const { view, warnings, already } = await races.confirmEdit(actor, id);
		if (already) {
			return { stored: alreadyStored(`Already edited: **${view.race.id}** in **${esc(view.league.config.name)}**`) };
		}
		const race = raceEmbed(view);
		const check = warnings.map((w) => `- ${esc(w)}`);
		return {
			stored: `Edited **${view.race.id}** in **${esc(view.league.config.name)}**.`,
			announcement: {
				content: `Edited. Ratings were replayed from ${view.race.id} on.`,
				embed:
					check.length > 0
						? { ...race, fields: [...(race.fields ?? []), { name: 'Check', value: { lines: check } }] }
						: race,
			},
		};
	},
});
