/**
 * `/race penalty` and `/race penalty-withdraw` (organizers, checked by the standings service; docs/championship.md).
 * A time penalty changes the race's order and every rating from it: previewed to the organizer (the order now and
 * after, who moves, today's ratings), stored on Confirm (`race-penalty:confirm:<id>`). A points deduction changes only
 * the championship table: stored at once, said publicly.
 */
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { CommandContext } from '../../src/discord/command.js';
import { answer } from '../../src/discord/reply.js';
import { displayTime } from '../../src/formats/display-time.js';
import { EMBED_COLOURS, type EmbedSpec } from '../../src/formats/embed.js';
import { penaltyAmountText } from '../../src/league/penalties.js';
import type { GivenPenalty, PenaltyLine, PenaltyPreview } from '../../src/services/seasons/standings-service.js';
import { confirmCancelButtons, confirmCancelRow } from '../confirm-buttons.js';
import { embedOf } from '../embed.js';
import { effectField } from '../rating-effect-text.js';
import { actorOf, esc, servicesOf } from '../shared.js';

const order = (l: PenaltyLine) => (l.status === 'finished' ? 0 : 1e6) + l.position;
const lineText = (l: PenaltyLine) =>
	`${l.status === 'finished' ? `${l.position}.` : l.status} ${esc(l.name)}${l.time !== undefined ? ` ${displayTime(l.time)}` : ''}`;

/** The time penalty's preview: the race now and after it, who moves, what today's ratings do. */
export function penaltyPreviewEmbed(preview: PenaltyPreview): EmbedSpec {
	const results = (lines: readonly PenaltyLine[]) => [...lines].sort((a, b) => order(a) - order(b)).map(lineText);
	const moves =
		preview.moves.length === 0
			? [
					`Nobody changes place: ${esc(preview.name)} keeps P${preview.after.find((l) => l.player === preview.player)?.position ?? '?'}.`,
				]
			: preview.moves.map((m) => `${esc(m.name)}: P${m.from} → P${m.to}`);
	return {
		title: `Penalty preview: ${preview.race}`,
		author: preview.league.config.name,
		colour: EMBED_COLOURS.neutral,
		description: [`**${esc(preview.name)}** +${preview.seconds} s`, `Reason: ${esc(preview.reason)}`].join('\n'),
		fields: [
			{ name: 'Now', value: { lines: results(preview.before) }, inline: true },
			{ name: 'After the penalty', value: { lines: results(preview.after) }, inline: true },
			{ name: 'Who moves', value: { lines: moves } },
			effectField(preview.league, preview.effect, {
				through: `through the races after ${preview.race}`,
				still: "Today's ratings do not change.",
			}),
		],
		footer: 'Nothing changes until you press Confirm (within 15 minutes); then ratings are replayed from this race on.',
	};
}

/** `Penalty **P3**: **Bob** +5 s in R4 (“track limits”).` */
export function penaltyText(done: Pick<GivenPenalty, 'penalty' | 'name'>): string {
	const { penalty } = done;
	return `Penalty **${penalty.id}**: **${esc(done.name)}** ${penaltyAmountText(penalty)} in ${penalty.race} (“${esc(penalty.reason)}”).`;
}

export async function givePenalty(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const o = interaction.options;
	const seconds = o.getNumber('seconds') ?? undefined;
	// A time penalty's preview is for its organizer; a deduction is stored and said to everyone.
	await interaction.deferReply(seconds !== undefined ? { flags: MessageFlags.Ephemeral } : {});
	const league = o.getString('league')?.trim();
	const race = o.getString('race', true);
	const result = await servicesOf(ctx).standings.penalize(actorOf(interaction), {
		league: league || undefined,
		race: league ? race.slice(race.lastIndexOf('/') + 1) : race,
		player: o.getString('player', true),
		seconds,
		points: o.getNumber('points') ?? undefined,
		reason: o.getString('reason', true),
	});
	if ('preview' in result) {
		const row = confirmCancelRow('race-penalty', result.preview.id);
		await answer(
			interaction,
			{ embeds: [embedOf(penaltyPreviewEmbed(result.preview))], components: [row] },
			{ ephemeral: true },
		);
		return;
	}
	const content = `${penaltyText(result.given)} The championship table counts it; no rating changes.`;
	await answer(interaction, { content }, { ephemeral: false });
}

export async function withdrawPenalty(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const o = interaction.options;
	const done = await servicesOf(ctx).standings.withdraw(actorOf(interaction), {
		league: o.getString('league') ?? undefined,
		penalty: o.getString('penalty', true),
		reason: o.getString('reason', true),
	});
	const { penalty } = done;
	const effect =
		penalty.kind === 'time'
			? `${penalty.race} is as before it; ratings were replayed from ${penalty.race} on.`
			: 'The championship table is as before it.';
	const content = `Withdrew penalty **${penalty.id}** (**${esc(done.name)}** ${penaltyAmountText(penalty)} in ${penalty.race}): “${esc(penalty.withdrawn?.reason ?? '')}”. ${effect}`;
	await answer(interaction, { content }, { ephemeral: false });
}

/** The buttons of a time penalty's preview: `race-penalty:confirm:<id>`, `race-penalty:cancel:<id>`. */
export const racePenaltyButtons = confirmCancelButtons({
	prefix: 'race-penalty',
	cancelled: 'Cancelled: no penalty was given.',
	cancel: ({ standings }, actor, id) => standings.cancelPenalty(actor, id),
	async confirm({ standings }, actor, id) {
		const done = await standings.confirmPenalty(actor, id);
		if (done.already) return { stored: `${penaltyText(done)} It was given already: nothing was stored twice.` };
		return {
			stored: `${penaltyText(done)} Given. Ratings were replayed from ${done.penalty.race} on.`,
			announcement: {
				content: `${penaltyText(done)} Ratings were replayed from ${done.penalty.race} on.`,
			},
		};
	},
});
